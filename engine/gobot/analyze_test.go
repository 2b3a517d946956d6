package gobot

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/gogame"
)

// info is one "info move ..." record of an analysis line.
type info struct {
	fields map[string]string
	pv     []string
}

// parseInfoLine splits a Leela Zero or KataGo analysis line into its
// records and the ownership values, if any.
func parseInfoLine(t *testing.T, line string) ([]info, []float64) {
	t.Helper()
	var recs []info
	var own []float64
	f := strings.Fields(line)
	for i := 0; i < len(f); {
		switch f[i] {
		case "info":
			rec := info{fields: map[string]string{}}
			i++
			for i < len(f) && f[i] != "info" && f[i] != "ownership" {
				if f[i] == "pv" {
					i++
					for i < len(f) && f[i] != "info" && f[i] != "ownership" {
						rec.pv = append(rec.pv, f[i])
						i++
					}
					break
				}
				if i+1 >= len(f) {
					t.Fatalf("line %q: %q lacks a value", line, f[i])
				}
				rec.fields[f[i]] = f[i+1]
				i += 2
			}
			recs = append(recs, rec)
		case "ownership":
			for i++; i < len(f); i++ {
				x, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					t.Fatalf("ownership value %q", f[i])
				}
				own = append(own, x)
			}
		default:
			t.Fatalf("line %q: %q where a record starts", line, f[i])
		}
	}
	return recs, own
}

// checkInfo checks one analysis line: records in order, most visits
// first, win rates and priors in range (scale 10000 for Leela Zero's
// integers, 1 for KataGo's fractions), each variation legal from the
// position with c to move.
func checkInfo(t *testing.T, line string, g *gogame.Game, c Color, scale float64) ([]info, []float64) {
	t.Helper()
	recs, own := parseInfoLine(t, line)
	if len(recs) == 0 {
		t.Fatalf("no records in %q", line)
	}
	prevVisits := 1 << 30
	for i, r := range recs {
		for _, k := range []string{"move", "visits", "winrate", "prior", "lcb", "order"} {
			if _, ok := r.fields[k]; !ok {
				t.Fatalf("record %d lacks %s: %q", i, k, line)
			}
		}
		if r.fields["order"] != strconv.Itoa(i) {
			t.Errorf("record %d: order %s", i, r.fields["order"])
		}
		v, _ := strconv.Atoi(r.fields["visits"])
		if v < 1 || v > prevVisits {
			t.Errorf("record %d: visits %d after %d", i, v, prevVisits)
		}
		prevVisits = v
		for _, k := range []string{"winrate", "prior", "lcb"} {
			x, err := strconv.ParseFloat(r.fields[k], 64)
			if err != nil || x < 0 || x > scale {
				t.Errorf("record %d: %s %q", i, k, r.fields[k])
			}
		}
		if len(r.pv) == 0 || r.pv[0] != r.fields["move"] {
			t.Errorf("record %d: move %s, pv %v", i, r.fields["move"], r.pv)
		}
		pos, mover := g.Position(), c
		for _, v := range r.pv {
			m, err := gogame.ParseVertex(v, g.Size())
			if err != nil {
				t.Fatalf("pv %v: %v", r.pv, err)
			}
			if m != gogame.Pass {
				if err := pos.Play(mover, m); err != nil {
					t.Fatalf("pv %v: %v", r.pv, err)
				}
			}
			mover = mover.Opponent()
		}
	}
	return recs, own
}

// TestLzAnalyzeAsSabaki: Sabaki's analysis: lz-analyze with a colour and
// an interval in centiseconds, stopped by an empty line; then commands go
// on as before.
func TestLzAnalyzeAsSabaki(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 100, 1, false))
	for _, c := range []string{"name", "version", "protocol_version", "list_commands", "boardsize 9", "clear_board", "komi 6.5", "play B E5", "play W C3"} {
		p.Must("%s", c)
	}
	p.send("lz-analyze B 5")
	first, _ := p.out.ReadString('\n')
	if first != "=\n" {
		t.Fatalf("lz-analyze answered %q", first)
	}
	for i := 0; i < 3; i++ {
		line, err := p.out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		checkInfo(t, line, p.e.Game(), black, 10000)
	}
	p.send("")
	// Reports may be on their way; the empty line ends the response.
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "\n" {
			break
		}
		checkInfo(t, line, p.e.Game(), black, 10000)
	}
	if got := p.Must("name"); got != "gobot" {
		t.Errorf("name after the analysis: %q", got)
	}
	if g := p.e.Game(); g.MoveCount() != 2 || g.ToPlay() != black {
		t.Errorf("the analysis changed the game")
	}
	// The next command stops an analysis too, and is answered after it.
	p.send("12 lz-analyze 5")
	if first, _ := p.out.ReadString('\n'); first != "=12\n" {
		t.Fatalf("12 lz-analyze answered %q", first)
	}
	p.send("play b d4")
	for {
		line, _ := p.out.ReadString('\n')
		if line == "\n" {
			break
		}
		checkInfo(t, line, p.e.Game(), black, 10000)
	}
	if resp := p.response("play b d4"); len(resp) != 1 || resp[0] != "=" {
		t.Errorf("play after the analysis: %q", resp)
	}
}

// TestKataAnalyze: KataGo's form, as Lizzie and newer Sabaki send it:
// win rates and priors as fractions, maxmoves, and the ownership of
// every point for the player to move.
func TestKataAnalyze(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 100, 1, false))
	p.Must("boardsize 9")
	p.Must("play b e5")
	p.send("kata-analyze w interval 5 maxmoves 3 ownership true")
	if first, _ := p.out.ReadString('\n'); first != "=\n" {
		t.Fatalf("kata-analyze answered %q", first)
	}
	line, _ := p.out.ReadString('\n')
	p.send("name")
	for {
		l, _ := p.out.ReadString('\n')
		if l == "\n" {
			break
		}
	}
	p.response("name")
	recs, own := checkInfo(t, line, p.e.Game(), white, 1)
	if len(recs) > 3 {
		t.Errorf("maxmoves 3: %d records", len(recs))
	}
	if len(own) != 81 {
		t.Fatalf("%d ownership values", len(own))
	}
	// E5 (row 5 from the top, column 5) is Black's stone: White, to
	// move, mostly does not own it.
	if x := own[4*9+4]; x >= 0 || x < -1 {
		t.Errorf("E5's ownership for White: %v", x)
	}
}

func TestAnalyzeBadArguments(t *testing.T) {
	p := startPeer(t, newTestEngine(t, 100, 1, false))
	for _, c := range []string{"lz-analyze B x", "lz-analyze B 5 interval", "lz-analyze ownership true", "kata-analyze b bogus 3", "lz-analyze -5"} {
		if resp, ok := p.Do("%s", c); ok {
			t.Errorf("%s: = %s", c, resp)
		}
	}
	p.Must("name")
}

// TestAnalyzeUnstreamed: an analysis command as the last line of input,
// or on NewServer, answers one report.
func TestAnalyzeUnstreamed(t *testing.T) {
	e := newTestEngine(t, 100, 1, false)
	var out strings.Builder
	if err := Serve(t.Context(), e, strings.NewReader("lz-analyze b 5"), &out); err != nil {
		t.Fatal(err)
	}
	resp := out.String()
	if !strings.HasPrefix(resp, "= info move ") || !strings.HasSuffix(resp, "\n\n") {
		t.Fatalf("response %q", resp)
	}
	checkInfo(t, strings.TrimSpace(resp[2:]), e.Game(), black, 10000)
}

func TestParseAnalyze(t *testing.T) {
	for _, c := range []struct {
		args string
		want analyzeRequest
	}{
		{"", analyzeRequest{color: white, interval: DefaultAnalyzeInterval}},
		{"B 50", analyzeRequest{color: black, interval: 500 * time.Millisecond}},
		{"25", analyzeRequest{color: white, interval: 250 * time.Millisecond}},
		{"interval 10 minmoves 5", analyzeRequest{color: white, interval: 100 * time.Millisecond}},
		{"black 0 maxmoves 4", analyzeRequest{color: black, interval: DefaultAnalyzeInterval, maxMoves: 4}},
	} {
		got, err := parseAnalyze("lz-analyze", strings.Fields(c.args), white)
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.args, got, err, c.want)
		}
	}
}

func FuzzParseAnalyze(f *testing.F) {
	for _, s := range []string{"", "B 50", "w interval 10 maxmoves 3 ownership true", "interval", "b b", "100 100", "ownership false"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range []string{"lz-analyze", "kata-analyze"} {
			r, err := parseAnalyze(name, strings.Fields(s), black)
			if err != nil {
				continue
			}
			if r.interval <= 0 || r.maxMoves < 0 || (r.color != black && r.color != white) || (r.ownership && !r.kata) {
				t.Errorf("%s %q: %+v", name, s, r)
			}
		}
	})
}

// TestServeAnswersBeforeAnalysis: commands before an analysis are
// answered first, in order, whether they succeed, fail or (a comment
// alone) get no answer; the analysis then streams until the next line.
func TestServeAnswersBeforeAnalysis(t *testing.T) {
	e := newTestEngine(t, 100, 1, false)
	var out strings.Builder
	in := "1 protocol_version\n# a comment\n2 bogus\n3 lz-analyze b 5\n\n4 protocol_version\n"
	if err := Serve(t.Context(), e, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	resp := out.String()
	const head = "=1 2\n\n?2 unknown command\n\n=3\n"
	const tail = "\n=4 2\n\n" // the analysis's empty line, then the next answer
	if !strings.HasPrefix(resp, head) || !strings.HasSuffix(resp, tail) {
		t.Fatalf("responses %q", resp)
	}
	for _, line := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(resp, head), tail), "\n") {
		if line != "" {
			checkInfo(t, line, e.Game(), black, 10000)
		}
	}
}
