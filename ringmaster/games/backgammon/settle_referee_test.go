package backgammon

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/mat/mattest"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/record/recordtest"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// startID is gnubg's "position ID:match ID" of st, for a positions suite.
func startID(st *bg.State) string {
	pos, match := gnubgid.Encode(st)
	return pos + ":" + match
}

// TestSettledRaceFromPosition: a money game started at a race the
// two-sided database holds ends at once, adjudicated: the player on roll
// scores the database's cubeful equity times the cube and the other its
// negative, the favourite counts as the winner, and the records keep the
// game unfinished with the settlement in their comments.
func TestSettledRaceFromPosition(t *testing.T) {
	two, err := bgbot.NewBearoff2(3)
	if err != nil {
		t.Fatal(err)
	}
	race := raceState(true, map[int]int8{3: 1, 4: 1, 5: 1}, map[int]int8{2: 1, 4: 1, 5: 1})
	race.CubeValue, race.CubeOwner = 2, 1
	want, ok := two.Cubeful(&race.Board, bgbot.CubeUnavailable)
	if !ok {
		t.Fatal("the race is not in the database")
	}
	want *= 2
	suite, err := ReadPositions(strings.NewReader(startID(race)+"\n"), "races.txt")
	if err != nil {
		t.Fatal(err)
	}
	ref := &Referee{Rules: bg.Rules{Cube: true, Jacoby: true}, Positions: suite, Races: &RaceDatabases{Two: two}}
	seats := [2]referee.Seat{seat(t, "a", &testEngine{}), seat(t, "b", &testEngine{})}
	out, err := ref.Play(context.Background(), referee.GameInfo{ID: "m_0", Event: "test m_0", Seed: 3, Number: 0, Pair: 0}, seats)
	if err != nil {
		t.Fatal(err)
	}
	if out.Ending != referee.EndAdjudicated || out.Result != ResultSettled || out.ForfeitBy != -1 {
		t.Fatalf("outcome %+v, want an adjudicated settlement", out)
	}
	if math.Abs(out.Points[0]-want) > 1e-9 || out.Points[1] != -out.Points[0] || out.Points[0] == math.Trunc(out.Points[0]) {
		t.Errorf("points %v, want the database's %v (cube 2) and its negative", out.Points, want)
	}
	if wantWinner := map[bool]int{true: 0, false: 1}[want > 0]; out.Winner != wantWinner {
		t.Errorf("winner %d, want %d (the side the equity favours)", out.Winner, wantWinner)
	}
	if out.Stats[StatSettled] != [2]int{1, 1} || out.Moves != 0 {
		t.Errorf("stats %v, moves %d: want settled {1 1} and no move", out.Stats, out.Moves)
	}
	for _, s := range []string{"race settled, a on roll", "cubeful equity from the two-sided bearoff database, cube 2"} {
		if !strings.Contains(out.Detail, s) {
			t.Errorf("detail %q lacks %q", out.Detail, s)
		}
	}
	if !strings.Contains(out.Records["mat"], "game 1 adjudicated: race settled") {
		t.Errorf(".mat record does not say the game was adjudicated:\n%s", out.Records["mat"])
	}
	// Settled before any action, the game has no move to record: the
	// .mat record is the comment alone, which gnubg reads as an empty
	// session; the SGF record sets the position up with nothing after it,
	// and the judge scores the settlement from it.
	if m, err := mat.Read(strings.NewReader(out.Records["mat"])); err != nil || len(m.Games) != 0 {
		t.Errorf(".mat record does not read as an empty session (%v):\n%s", err, out.Records["mat"])
	}
	m, err := sgf.Read(strings.NewReader(out.Records["sgf"]))
	if err != nil || len(m.Games) != 1 || len(m.Games[0].Actions) != 0 || m.Games[0].Start == "" || record.Replay(m) != nil {
		t.Fatalf("SGF record (%v):\n%s", err, out.Records["sgf"])
	}
	if pos, _, _ := strings.Cut(m.Games[0].Start, ":"); !strings.HasPrefix(suite.IDs[0], pos+":") {
		t.Errorf("SGF record sets up %s, want the suite's %s", m.Games[0].Start, suite.IDs[0])
	}
	j, err := New().NewJudge(judge.Spec{Engine: "bgbot"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := j.Analyse(context.Background(), out.Records)
	if err != nil {
		t.Fatal(err)
	}
	if r, l := a.Figures["result"], a.Figures[judge.LuckAdjusted]; a.Players != [2]string{"a", "b"} || math.Abs(r[0]-out.Points[0]) > 1e-9 || r[1] != -r[0] || l != r || a.Figures["total_moves"] != [2]float64{} {
		t.Errorf("analysis: players %v, result %v, luck-adjusted %v, moves %v; want a and b, %v with no luck and no move",
			a.Players, r, l, a.Figures["total_moves"], out.Points[0])
	}

	// Without the databases the same game is played out, to whole points.
	ref.Races = nil
	out, err = ref.Play(context.Background(), referee.GameInfo{ID: "m_0", Seed: 3, Number: 0, Pair: 0}, seats)
	if err != nil {
		t.Fatal(err)
	}
	if out.Ending != referee.EndNormal || out.Points[0] != math.Trunc(out.Points[0]) || out.Stats[StatSettled] != [2]int{} {
		t.Errorf("played out: %+v", out)
	}
}

// TestSettledRaceIsTheFirstRaceValued: cubeless games from the opening
// end at the first turn whose position the one-sided database values,
// scoring exactly its equity there; the record replays to that position,
// the analysis scores the settlement, and gnubg imports the record, the
// last game unfinished.
func TestSettledRaceIsTheFirstRaceValued(t *testing.T) {
	dbs, err := (&raceParts{}).databases(false)
	if err != nil {
		t.Fatal(err)
	}
	ref := &Referee{Rules: bg.Rules{}, MoveLimit: 2000, SkipForced: true, Races: dbs}
	j, err := New().NewJudge(judge.Spec{Engine: "bgbot"})
	if err != nil {
		t.Fatal(err)
	}
	settled := 0
	var matText string
	for seed := uint64(1); seed <= 4; seed++ {
		seats := [2]referee.Seat{seat(t, "a", &testEngine{}), seat(t, "b", &testEngine{})}
		out, err := ref.PlayDice(context.Background(), seats, bg.NewDice(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		// Every turn before the last was not one to settle, and the last is
		// valued exactly as the outcome says.
		err = record.Walk(out.Record, func(p *record.Position) error {
			if p.Action.Kind != record.Move {
				return nil
			}
			st := *p.State
			st.Dice = [2]int{}
			if _, ok := SettleRace(&st, dbs.One, nil); ok {
				t.Errorf("seed %d: the race at ply %d could have been settled, the game went on", seed, st.Plies)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("seed %d: the record does not replay: %v", seed, err)
		}
		if out.Settled == nil {
			continue
		}
		settled++
		last := replayedState(t, out.Record)
		s, ok := SettleRace(last, dbs.One, nil)
		if !ok || s.Cubeful || out.Points[s.Mover] != s.Points || out.Points[1-s.Mover] != -s.Points {
			t.Errorf("seed %d: points %v, the final position settles to %+v %v", seed, out.Points, s, ok)
		}
		if g := out.Record.Games[0]; g.Finished() || !strings.HasPrefix(g.Comment, "adjudicated: race settled") {
			t.Errorf("seed %d: recorded game %+v, want it unfinished with the settlement in its comment", seed, g)
		}
		gen := out.generic("test", nil)
		if gen.Ending != referee.EndAdjudicated || !strings.Contains(gen.Records["mat"], "; game 1 adjudicated: race settled") ||
			!strings.Contains(gen.Records["sgf"], "C[adjudicated: race settled") {
			t.Errorf("seed %d: ending %s, records without the settlement:\n%s\n%s", seed, gen.Ending, gen.Records["mat"], gen.Records["sgf"])
		}
		matText = gen.Records["mat"]
		// The judge scores the settlement, not the unfinished record's
		// no result, and its luck-adjusted result follows.
		an, err := j.Analyse(context.Background(), gen.Records)
		if err != nil {
			t.Fatalf("seed %d: analyse: %v", seed, err)
		}
		f := an.Figures
		luck := f["luck_unnorm"][0] - f["luck_unnorm"][1]
		if math.Abs(f["result"][0]-out.Points[0]) > 1e-9 || math.Abs(f["result"][1]-out.Points[1]) > 1e-9 ||
			math.Abs(f[judge.LuckAdjusted][0]-(out.Points[0]-luck)) > 1e-9 || math.Abs(f[judge.LuckAdjusted][1]-(out.Points[1]+luck)) > 1e-9 {
			t.Errorf("seed %d: analysed result %v, luck-adjusted %v (luck %v); want the settled points %v less the luck",
				seed, f["result"], f[judge.LuckAdjusted], luck, out.Points)
		}
	}
	if settled == 0 {
		t.Fatal("no game was settled")
	}
	peertest.Gnubg(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "settled.mat")
	if err := os.WriteFile(file, []byte(matText), 0o644); err != nil {
		t.Fatal(err)
	}
	theirs := mattest.GnubgReexport(t, file)
	ours := recordtest.Replayed(t, recordtest.Load(t, mat.Read, file))
	if d := record.DiffGames(ours, theirs); d != "" {
		t.Errorf("gnubg's export of a settled game differs from the record: %s", d)
	}
}

// replayedState is the state after the moves of m's one game, played
// from the opening (a cubeless game: moves only).
func replayedState(t *testing.T, m *record.Match) *bg.State {
	t.Helper()
	b := record.NewBuilder(m.Players, m.Rules)
	for _, a := range m.Games[0].Actions {
		if a.Kind != record.Move {
			t.Fatalf("unexpected action %v", a)
		}
		if err := b.Roll(a.Player, a.Dice[0], a.Dice[1]); err != nil {
			t.Fatalf("replay %v: %v", a, err)
		}
		if err := b.Move(a.Player, a.Move); err != nil {
			t.Fatalf("replay %v: %v", a, err)
		}
	}
	return b.State()
}

func TestSettleRacesSettings(t *testing.T) {
	s := DefaultSettings()
	canon, describe := s.Canonical(), s.Describe()
	s.SettleRaces = true
	if s.Canonical() != canon+" settle_races=true" || !strings.Contains(s.Describe(), "races settled") || strings.Contains(describe, "settled") {
		t.Errorf("canonical %q, described %q", s.Canonical(), s.Describe())
	}
	for _, c := range []struct {
		change func(*Settings)
		want   string
	}{
		{func(s *Settings) {}, ""},
		{func(s *Settings) { s.Cube = false }, ""},
		{func(s *Settings) { s.MatchLength = 7 }, "settle_races: applies to money games only (match_length is 7)"},
		{func(s *Settings) { s.MaxCube = 8 }, "settle_races: the bearoff database's cubeful equity has no cube limit (max_cube is 8)"},
	} {
		s := DefaultSettings()
		s.SettleRaces = true
		c.change(s)
		var got []string
		s.Check(func(key, format string, args ...any) {
			got = append(got, key+": "+fmt.Sprintf(format, args...))
		})
		if strings.Join(got, "; ") != c.want {
			t.Errorf("check %+v: %q, want %q", s, got, c.want)
		}
	}
}
