package sgf_test

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/sgf"
)

// FuzzParseSGF checks that the parser and the backgammon reader never
// panic, that Format writes what Parse reads back the same, and that a
// record that reads and replays writes and reads back the same.
func FuzzParseSGF(f *testing.F) {
	f.Add([]byte("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n;B[double]\n;W[drop])"))
	f.Add([]byte("(;C[a\\]b\\\n](;B[x])(;W[y]))"))
	f.Add([]byte("(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[a]PB[b]\n;PL[B]AE[a:y]AW[a:f]AB[x][w]\n;CV[2]\n;CP[b]\n;B[31wvxw])"))
	if data, err := os.ReadFile("testdata/gnubg-setup-7pt.sgf"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		trees, err := sgf.Parse(data)
		if err != nil {
			return
		}
		again, err := sgf.Parse([]byte(sgf.Format(trees)))
		if err != nil {
			t.Fatalf("parsing what Format wrote: %v", err)
		}
		if !reflect.DeepEqual(strip(trees), strip(again)) {
			t.Fatalf("Format/Parse round trip differs")
		}
		m, err := sgf.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := record.Replay(m); err != nil {
			return
		}
		var buf bytes.Buffer
		if err := sgf.Write(&buf, m); err != nil {
			t.Fatalf("write after a good replay: %v", err)
		}
		back, err := sgf.Read(&buf)
		if err != nil {
			t.Fatalf("reading what we wrote: %v\n%s", err, buf.String())
		}
		if err := record.Replay(back); err != nil {
			t.Fatalf("replaying what we wrote: %v\n%s", err, buf.String())
		}
		if d := record.Diff(m, back); d != "" {
			t.Fatalf("round trip: %s\n%s", d, buf.String())
		}
	})
}
