package gnubgid

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/internal/peertest"
)

var update = flag.Bool("update", false, "rewrite the IDs in testdata/vectors.txt from gnubg")

const vectorsFile = "testdata/vectors.txt"

// gnubgPreamble stops gnubg from playing, rolling or starting games itself.
var gnubgPreamble = []string{"set player both human", "set auto roll off", "set automatic game off"}

type vector struct {
	line     int
	pos, mid string
	facts    map[string]string
	commands []string
}

func readVectors(t *testing.T) (lines []string, vs []vector) {
	t.Helper()
	data, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		lines = append(lines, line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want 3 |-separated parts", vectorsFile, n)
		}
		ids := strings.Fields(parts[0])
		if len(ids) != 2 {
			t.Fatalf("%s:%d: want two IDs", vectorsFile, n)
		}
		v := vector{line: n, pos: ids[0], mid: ids[1], facts: map[string]string{}}
		for _, f := range strings.Fields(parts[1]) {
			kv := strings.SplitN(f, "=", 2)
			if len(kv) != 2 {
				t.Fatalf("%s:%d: bad fact %q", vectorsFile, n, f)
			}
			v.facts[kv[0]] = kv[1]
		}
		for _, c := range strings.Split(parts[2], ";") {
			v.commands = append(v.commands, strings.TrimSpace(c))
		}
		vs = append(vs, v)
	}
	return lines, vs
}

// keyFromFacts builds the match key the facts describe.
func keyFromFacts(t *testing.T, v vector) MatchKey {
	t.Helper()
	num := func(name string, def int) int {
		s, ok := v.facts[name]
		if !ok {
			return def
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("line %d: fact %s=%q: %v", v.line, name, s, err)
		}
		return n
	}
	var k MatchKey
	k.MatchLength = num("len", 0)
	var a, b int
	if _, err := fmt.Sscanf(v.facts["score"], "%d-%d", &a, &b); err != nil {
		t.Fatalf("line %d: score %q: %v", v.line, v.facts["score"], err)
	}
	k.Score = [2]int{a, b}
	cube := num("cube", 1)
	for 1<<k.CubeLog2 < cube {
		k.CubeLog2++
	}
	switch o := v.facts["owner"]; o {
	case "c":
		k.CubeOwner = CubeCentred
	default:
		k.CubeOwner = num("owner", 0)
	}
	k.DiceOwner, k.Turn = num("move", 0), num("turn", 0)
	if d := v.facts["dice"]; d != "-" {
		if len(d) != 2 {
			t.Fatalf("line %d: dice %q", v.line, d)
		}
		k.Dice = [2]int{int(d[0] - '0'), int(d[1] - '0')}
	}
	k.GameState = map[string]int{"none": 0, "playing": 1, "over": 2, "resigned": 3, "dropped": 4}[v.facts["state"]]
	k.Crawford = num("crawford", 0) == 1
	k.Doubled = num("doubled", 0) == 1
	k.Resigned = num("resigned", 0)
	k.JacobyOff = v.facts["jacoby"] == "off"
	return k
}

func TestVectors(t *testing.T) {
	_, vs := readVectors(t)
	if len(vs) < 30 {
		t.Errorf("only %d vectors", len(vs))
	}
	for _, v := range vs {
		t.Run(fmt.Sprintf("line%d", v.line), func(t *testing.T) {
			if v.pos == "?" || v.mid == "?" {
				t.Fatalf("IDs not filled in: run with -update")
			}
			want := keyFromFacts(t, v)
			got, err := DecodeMatchKey(v.mid)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("DecodeMatchKey(%s) = %+v\nwant %+v", v.mid, got, want)
			}
			if id := EncodeMatchKey(want); id != v.mid {
				t.Errorf("EncodeMatchKey(facts) = %s, want %s", id, v.mid)
			}
			if b, ok := v.facts["board"]; ok && b != v.pos {
				t.Errorf("position ID %s, but the board set was %s", v.pos, b)
			}
			s, err := DecodeState(v.pos, v.mid, backgammon.Rules{Variant: backgammon.Standard, Cube: true, Crawford: true})
			if err != nil {
				t.Fatal(err)
			}
			if p, m := Encode(s); p != v.pos || m != v.mid {
				t.Errorf("Encode(DecodeState) = %s %s, want %s %s", p, m, v.pos, v.mid)
			}
			checkStateFacts(t, s, want)
		})
	}
}

// checkStateFacts checks the engine-side reading of a key.
func checkStateFacts(t *testing.T, s *backgammon.State, k MatchKey) {
	t.Helper()
	if s.MatchLength != k.MatchLength || s.Score != k.Score || s.CubeValue != 1<<k.CubeLog2 || s.CrawfordGame != k.Crawford || s.Jacoby == k.JacobyOff {
		t.Errorf("state %+v does not match key %+v", s, k)
	}
	switch s.GameState {
	case backgammon.GamePlaying:
		if s.Move != k.DiceOwner || s.Turn != k.Turn || s.Dice != k.Dice || s.Doubled != k.Doubled || int(s.Resigned) != k.Resigned {
			t.Errorf("state %+v does not match key %+v", s, k)
		}
		if !s.Money() && !s.CrawfordGame && (s.Score[0] == s.MatchLength-1 || s.Score[1] == s.MatchLength-1) != s.PostCrawford {
			t.Errorf("PostCrawford = %v at %d-%d", s.PostCrawford, s.Score[0], s.Score[1])
		}
	case backgammon.GameDropped:
		if s.Winner != k.DiceOwner || s.ResultLevel != backgammon.Single {
			t.Errorf("dropped: winner %d level %v, want %d single", s.Winner, s.ResultLevel, k.DiceOwner)
		}
	case backgammon.GameResigned:
		if s.Winner != 1-k.DiceOwner || int(s.ResultLevel) != k.Resigned || s.Resigned != backgammon.NoResult {
			t.Errorf("resigned: winner %d level %v", s.Winner, s.ResultLevel)
		}
	case backgammon.GameOver:
		if s.Winner != 1-k.DiceOwner || s.Board.OnBoard(backgammon.OnRoll) != 0 || s.Move != s.Winner {
			t.Errorf("over: winner %d move %d board %v", s.Winner, s.Move, s.Board)
		}
	}
}

var idLine = regexp.MustCompile(`Position ID: (\S+)\s*\n\s*Match ID\s*: (\S+)`)

// gnubgIDs runs commands in a fresh gnubg and returns the IDs of the last
// board it printed after `show board`.
func gnubgIDs(t *testing.T, gnubg string, commands []string) (pos, mid string) {
	t.Helper()
	all := append(append(append([]string{}, gnubgPreamble...), commands...), "show board")
	cmd := exec.Command(gnubg, "-t", "-q", "-r")
	cmd.Stdin = strings.NewReader(strings.Join(all, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gnubg %q: %v", commands, err)
	}
	m := idLine.FindAllStringSubmatch(string(out), -1)
	if len(m) == 0 {
		t.Fatalf("gnubg %q printed no board:\n%s", commands, out)
	}
	return m[len(m)-1][1], m[len(m)-1][2]
}

// TestGnubgLive re-derives every vector from gnubg itself.
func TestGnubgLive(t *testing.T) {
	gnubg := peertest.Gnubg(t)
	lines, vs := readVectors(t)
	type ids struct{ pos, mid string }
	got := make([]ids, len(vs))
	t.Run("gnubg", func(t *testing.T) {
		for i, v := range vs {
			t.Run(fmt.Sprintf("line%d", v.line), func(t *testing.T) {
				t.Parallel()
				pos, mid := gnubgIDs(t, gnubg, v.commands)
				got[i] = ids{pos, mid}
			})
		}
	})
	for i, v := range vs {
		pos, mid := got[i].pos, got[i].mid
		if *update {
			rest := lines[v.line-1][strings.Index(lines[v.line-1], "|"):]
			lines[v.line-1] = pos + " " + mid + " " + rest
			continue
		}
		if pos != v.pos || mid != v.mid {
			t.Errorf("line %d: gnubg says %s %s, file says %s %s", v.line, pos, mid, v.pos, v.mid)
		}
	}
	if *update {
		if err := os.WriteFile(vectorsFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
