package gtpengine

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// choicesFile holds the default player's choices in positions of its own
// play: one line a decision, "kind positionID matchID answer", where kind
// is m (a move, answered in gnubg notation with spaces as underscores), c
// (a cube decision: double or no) or t (a take decision: take, drop or
// beaver). The positions come from self-play with fixed dice, money games
// and 7-point matches in turn; forced moves are left out.
const choicesFile = "testdata/choices.txt.gz"

// choicesRules are the rules the IDs of choicesFile are read with (the
// match length and Jacoby come from the match IDs).
var choicesRules = backgammon.Rules{Variant: backgammon.Standard, Cube: true, Crawford: true}

var writeChoices = flag.Bool("write-choices", false, "play the self-play games of "+choicesFile+" and write the default player's choices there")

// choiceRecord is one decision of choicesFile.
type choiceRecord struct {
	kind, pos, mid, answer string
}

// TestChoicesUnchanged replays the decisions of choicesFile with the
// default player and lists every one it now answers differently: speed
// work on the engine must leave its choices, and so its strength, as they
// were.
func TestChoicesUnchanged(t *testing.T) {
	if *writeChoices {
		writeChoicesFile(t)
	}
	if testing.Short() {
		t.Skip("replays tens of thousands of decisions")
	}
	recs := readChoicesFile(t)
	bot := defaultBot(t)
	same := 0
	var differ []string
	for i, r := range recs {
		s, err := gnubgid.DecodeState(r.pos, r.mid, choicesRules)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		got, err := answerOf(bot, r.kind, s)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if got == r.answer {
			same++
			continue
		}
		differ = append(differ, fmt.Sprintf("%s %s %s: %s, recorded %s", r.kind, r.pos, r.mid, got, r.answer))
	}
	t.Logf("%d of %d choices identical", same, len(recs))
	if len(differ) > 0 {
		t.Errorf("%d choices differ:\n%s", len(differ), strings.Join(differ, "\n"))
	}
	if len(recs) < 20_000 {
		t.Errorf("%s holds %d decisions, want at least 20,000", choicesFile, len(recs))
	}
}

// defaultBot is the bot of the engine with default options.
func defaultBot(t *testing.T) *bgbot.Bot {
	t.Helper()
	e, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return e.Bot()
}

// answerOf is bot's answer of kind in s, written as choicesFile writes it.
func answerOf(bot *bgbot.Bot, kind string, s *backgammon.State) (string, error) {
	switch kind {
	case "m":
		m, ok, err := bot.Move(s)
		if err != nil {
			return "", err
		}
		if !ok {
			return "none", nil
		}
		return strings.ReplaceAll(backgammon.Format(s.Board, m), " ", "_"), nil
	case "c":
		dbl, err := bot.Double(s)
		if err != nil {
			return "", err
		}
		if dbl {
			return "double", nil
		}
		return "no", nil
	case "t":
		a, err := bot.Take(s)
		if err != nil {
			return "", err
		}
		switch a {
		case backgammon.Take:
			return "take", nil
		case backgammon.Beaver:
			return "beaver", nil
		}
		return "drop", nil
	}
	return "", fmt.Errorf("unknown decision kind %q", kind)
}

func readChoicesFile(t *testing.T) []choiceRecord {
	t.Helper()
	f, err := os.Open(choicesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var recs []choiceRecord
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("%s: bad line %q", choicesFile, line)
		}
		recs = append(recs, choiceRecord{f[0], f[1], f[2], f[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// writeChoicesFile plays self-play games with fixed dice until at least
// 20,000 unforced moves are recorded, every decision answered from the
// state its IDs decode to (so that the file replays exactly), and writes
// them to choicesFile.
func writeChoicesFile(t *testing.T) {
	bot := defaultBot(t)
	var recs []choiceRecord
	moves := 0
	for game := uint64(0); moves < 20_000; game++ {
		rules := choicesRules
		rules.Jacoby = true
		if game%2 == 1 {
			rules.MatchLength = 7
		}
		s := backgammon.NewMatch(rules)
		dice := backgammon.NewDice(20261128, game)
		for !s.MatchOver() {
			first, d0, d1 := dice.Opening()
			if err := s.StartGame(first, d0, d1); err != nil {
				t.Fatal(err)
			}
			for s.GameState == backgammon.GamePlaying {
				d := s.Decision()
				kind := map[backgammon.Decision]string{backgammon.DecideMove: "m", backgammon.DecideCube: "c", backgammon.DecideTake: "t"}[d]
				if kind == "" {
					if d != backgammon.NeedRoll {
						t.Fatalf("game %d: unexpected decision %v", game, d)
					}
					if err := s.SetDice(dice.Roll()); err != nil {
						t.Fatal(err)
					}
					continue
				}
				pos, mid := gnubgid.Encode(s)
				ds, err := gnubgid.DecodeState(pos, mid, choicesRules)
				if err != nil {
					t.Fatal(err)
				}
				answer, err := answerOf(bot, kind, ds)
				if err != nil {
					t.Fatal(err)
				}
				if kind != "m" || len(s.LegalMoves()) > 1 {
					recs = append(recs, choiceRecord{kind, pos, mid, answer})
					if kind == "m" {
						moves++
					}
				}
				if err := playAnswer(s, kind, answer, dice); err != nil {
					t.Fatalf("game %d: %v", game, err)
				}
			}
		}
	}
	f, err := os.Create(choicesFile)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	w := bufio.NewWriter(zw)
	fmt.Fprintf(w, "# kind positionID matchID answer: the default bgbot player's choices in its own play (dice seed 20261128)\n")
	for _, r := range recs {
		fmt.Fprintf(w, "%s %s %s %s\n", r.kind, r.pos, r.mid, r.answer)
	}
	for _, err := range []error{w.Flush(), zw.Close(), f.Close()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d decisions, %d of them moves, to %s", len(recs), moves, choicesFile)
}

// playAnswer plays answer, a decision of kind, in s, rolling from dice
// where a cube decision is not to double.
func playAnswer(s *backgammon.State, kind, answer string, dice *backgammon.Dice) error {
	switch kind {
	case "m":
		if answer == "none" {
			return s.Play(backgammon.Move{})
		}
		m, err := s.ParseMove(strings.ReplaceAll(answer, "_", " "))
		if err != nil {
			return err
		}
		return s.Play(m)
	case "c":
		if answer == "double" {
			return s.Double()
		}
		return s.SetDice(dice.Roll())
	}
	switch answer {
	case "take":
		return s.Take()
	case "beaver":
		return s.Beaver()
	}
	return s.Drop()
}

// deepChoicesFile holds the default player's choices at 1 and 2 plies in
// the first decisions of choicesFile: one line a decision, "plies kind
// positionID matchID answer".
const deepChoicesFile = "testdata/choices-deep.txt.gz"

// deepChoices is how many of choicesFile's decisions deepChoicesFile
// answers at each depth.
var deepChoices = map[int]int{1: 1500, 2: 300}

// TestDeepChoicesUnchanged is TestChoicesUnchanged for the searches at 1
// and 2 plies, whose pruning network and evaluation cache the 0-ply
// decisions do not use.
func TestDeepChoicesUnchanged(t *testing.T) {
	if *writeChoices {
		writeDeepChoicesFile(t)
	}
	if testing.Short() {
		t.Skip("replays searches of thousands of decisions")
	}
	f, err := os.Open(deepChoicesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	bots := map[string]*bgbot.Bot{}
	same, n := 0, 0
	var differ []string
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 5 {
			t.Fatalf("%s: bad line %q", deepChoicesFile, line)
		}
		bot := bots[fs[0]]
		if bot == nil {
			var plies int
			fmt.Sscan(fs[0], &plies)
			bot = deepBot(t, plies)
			bots[fs[0]] = bot
		}
		s, err := gnubgid.DecodeState(fs[2], fs[3], choicesRules)
		if err != nil {
			t.Fatal(err)
		}
		got, err := answerOf(bot, fs[1], s)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if got == fs[4] {
			same++
		} else {
			differ = append(differ, fmt.Sprintf("%s: %s, recorded %s", line, got, fs[4]))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d choices identical", same, n)
	if len(differ) > 0 {
		t.Errorf("%d choices differ:\n%s", len(differ), strings.Join(differ, "\n"))
	}
}

// deepBot is the bot of the engine with default options searching plies
// deep.
func deepBot(t *testing.T, plies int) *bgbot.Bot {
	t.Helper()
	o := DefaultOptions()
	o.Plies = plies
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e.Bot()
}

// writeDeepChoicesFile answers the first decisions of choicesFile at each
// depth of deepChoices, in the order of the file (the evaluation cache
// carries from one decision to the next, as in play), and writes them to
// deepChoicesFile.
func writeDeepChoicesFile(t *testing.T) {
	recs := readChoicesFile(t)
	f, err := os.Create(deepChoicesFile)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	w := bufio.NewWriter(zw)
	fmt.Fprintf(w, "# plies kind positionID matchID answer: the default bgbot player's choices searching 1 and 2 plies, the first decisions of %s\n", choicesFile)
	for _, plies := range []int{1, 2} {
		bot := deepBot(t, plies)
		for _, r := range recs[:deepChoices[plies]] {
			s, err := gnubgid.DecodeState(r.pos, r.mid, choicesRules)
			if err != nil {
				t.Fatal(err)
			}
			answer, err := answerOf(bot, r.kind, s)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(w, "%d %s %s %s %s\n", plies, r.kind, r.pos, r.mid, answer)
		}
	}
	for _, err := range []error{w.Flush(), zw.Close(), f.Close()} {
		if err != nil {
			t.Fatal(err)
		}
	}
}
