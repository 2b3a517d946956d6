package mat_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
)

// FuzzReadMat checks that Read never panics, and that whatever reads and
// replays also writes and reads back as the same record.
func FuzzReadMat(f *testing.F) {
	f.Add([]byte(" 1 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5    Doubles => 2\n  2)  Drops\n      Wins 1 point\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := mat.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := record.Replay(m); err != nil {
			return
		}
		var buf bytes.Buffer
		if err := mat.Write(&buf, m); err != nil {
			t.Fatalf("write after a good replay: %v", err)
		}
		back, err := mat.Read(&buf)
		if err != nil {
			t.Fatalf("reading what we wrote: %v\n%s", err, buf.String())
		}
		if err := record.Replay(back); err != nil {
			t.Fatalf("replaying what we wrote: %v", err)
		}
		if strings.Contains(m.Players[0]+m.Players[1], ":") {
			back.Players = m.Players // Write turns colons in names into dots
		}
		if d := record.Diff(m, back); d != "" {
			t.Fatalf("round trip: %s", d)
		}
	})
}
