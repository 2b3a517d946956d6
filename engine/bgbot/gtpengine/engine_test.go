package gtpengine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

func TestParseArgs(t *testing.T) {
	o, err := ParseArgs(nil)
	if err != nil || o.Level != bgbot.LevelNet || o.Plies != 0 || o.Noise != 0 || o.Seed != 1 {
		t.Errorf("defaults: %+v %v", o, err)
	}
	o, err = ParseArgs([]string{"--level", "heuristic", "--plies=2", "--noise", "0.1", "--seed", "7", "--weights", "x.bgnet"})
	if err != nil || o.Level != bgbot.LevelHeuristic || o.Plies != 2 || o.Noise != 0.1 || o.Seed != 7 || o.WeightsFile != "x.bgnet" {
		t.Errorf("flags: %+v %v", o, err)
	}
	o, err = ParseArgs([]string{"--double-margin", "0.03", "--pass-margin=-0.01"})
	if err != nil || o.DoubleMargin != 0.03 || o.PassMargin != -0.01 {
		t.Errorf("--double-margin, --pass-margin: %+v %v", o, err)
	}
	for _, bad := range [][]string{{"--level", "expert"}, {"--plies", "9"}, {"--plies", "-1"}, {"--noise", "-1"}, {"extra"}, {"--bogus"},
		{"--double-margin", "2"}, {"--pass-margin", "NaN"}, {"--double-margin", "-inf"}} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := ParseArgs([]string{"--help"}); !errors.Is(err, pflag.ErrHelp) {
		t.Errorf("--help: %v", err)
	}
	if _, err := New(Options{Level: bgbot.LevelNet, WeightsFile: "/nonexistent/x.bgnet"}); err == nil {
		t.Error("missing weights file accepted")
	}
	o, err = ParseArgs([]string{"--cube-plies", "1", "--bearoff", "b.bgbo", "--bearoff2", "3"})
	if err != nil || o.CubePlies != 1 || o.BearoffFile != "b.bgbo" || o.Bearoff2 != 3 {
		t.Errorf("--cube-plies, --bearoff, --bearoff2: %+v %v", o, err)
	}
	// Cubeful chequer play is the default; --cubeful-moves=false turns it
	// off, and both reach the bot.
	for args, want := range map[string]bool{"": true, "--cubeful-moves": true, "--cubeful-moves=false": false} {
		if o, err = ParseArgs(strings.Fields(args)); err != nil || o.CubefulMoves != want {
			t.Errorf("%q: %+v %v", args, o, err)
		} else if e, err := New(o); err != nil || e.bot.Config().CubefulMoves != want {
			t.Errorf("%q does not reach the bot: %v", args, err)
		}
	}
	// Race gammons are counted by default, with the 15-checker database
	// the engine loads; --race-gammons=false keeps the network's.
	for args, want := range map[string]bool{"": true, "--race-gammons=false": false} {
		if o, err = ParseArgs(strings.Fields(args)); err != nil || o.RaceGammons != want {
			t.Errorf("%q: %+v %v", args, o, err)
		} else if e, err := New(o); err != nil || e.bot.Config().RaceGammons != want {
			t.Errorf("%q does not reach the bot: %v", args, err)
		}
	}
	if o, err = ParseArgs([]string{"--cubeless-classes", "crashed,race"}); err != nil {
		t.Errorf("--cubeless-classes crashed,race: %v", err)
	} else if e, err := New(o); err != nil || !slices.Equal(e.bot.Config().CubelessClasses, []int{bgbot.ClassCrashed, bgbot.ClassRace}) {
		t.Errorf("--cubeless-classes crashed,race does not reach the bot: %v", err)
	}
	if o, err = ParseArgs([]string{"--cube-weights", "a.bgnet,b.bgnet", "--cube-weights", "c.bgnet"}); err != nil || len(o.CubeWeightsFiles) != 3 || o.CubeWeightsFiles[2] != "c.bgnet" {
		t.Errorf("--cube-weights: %+v %v", o, err)
	}
	if _, err := New(Options{Level: bgbot.LevelNet, CubeWeightsFiles: []string{"/nonexistent/x.bgnet"}}); err == nil {
		t.Error("missing cube weights file accepted")
	}
	cubeNet := writeRandomWeights(t, "cube.bgnet")
	if e, err := New(Options{Level: bgbot.LevelNet, CubeWeightsFiles: []string{cubeNet}}); err != nil || len(e.bot.Config().CubeWeights) != 1 {
		t.Errorf("--cube-weights %s does not reach the bot: %v", cubeNet, err)
	}
	if o, err = ParseArgs([]string{"--cube-weights", cubeNet, "--cube-alone"}); err != nil || !o.CubeAlone {
		t.Errorf("--cube-alone: %+v %v", o, err)
	} else if e, err := New(o); err != nil || !e.bot.Config().CubeAlone {
		t.Errorf("--cube-alone does not reach the bot: %v", err)
	}
	if _, err := New(Options{Level: bgbot.LevelNet, WeightsFile: cubeNet, CubeAlone: true}); err == nil {
		t.Error("--cube-alone without cube networks accepted")
	}
	var cf Factory
	if _, err := cf.Server([]string{"--cube-weights", cubeNet}); err != nil || cf.weights[cubeNet] == nil {
		t.Errorf("factory --cube-weights: %v", err)
	}
	if o, err = ParseArgs([]string{"--move-weights", cubeNet, "--move-keep", "2"}); err != nil || len(o.MoveWeightsFiles) != 1 || o.MoveKeep != 2 {
		t.Errorf("--move-weights, --move-keep: %+v %v", o, err)
	} else if e, err := New(o); err != nil || len(e.bot.Config().MoveWeights) != 1 || e.bot.Config().MoveKeep != 2 {
		t.Errorf("--move-weights %s --move-keep 2 do not reach the bot: %v", cubeNet, err)
	}
	var mf Factory
	if _, err := mf.Server([]string{"--move-weights", cubeNet}); err != nil || mf.weights[cubeNet] == nil {
		t.Errorf("factory --move-weights: %v", err)
	}
	if _, err := New(Options{Level: bgbot.LevelNet, MoveWeightsFiles: []string{"/nonexistent/x.bgnet"}}); err == nil {
		t.Error("missing move weights file accepted")
	}
	if _, err := New(Options{Level: bgbot.LevelNet, Bearoff2: 2}); err != nil {
		t.Errorf("--bearoff2 2: %v", err)
	}
	var f Factory
	if _, err := f.Server([]string{"--bearoff2", "2"}); err != nil || f.two[2] == nil {
		t.Errorf("factory --bearoff2 2: %v", err)
	}
	for _, bad := range [][]string{{"--cube-plies", "4"}, {"--cube-plies", "-1"}, {"--bearoff2", "7"}, {"--bearoff2", "-1"}, {"--cube-weights", "a.bgnet,"},
		{"--move-weights", ",a.bgnet"}, {"--move-keep", "-1"}, {"--cubeless-classes", "crashed,middle"},
		{"--bearoff-checkers", "0"}, {"--bearoff-checkers", "16"}} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestDefaultBearoff: the engine's default is the 15-checker database,
// written to the cache directory by the first engine and read from it by
// the next; --bearoff-checkers picks another size.
func TestDefaultBearoff(t *testing.T) {
	dir := t.TempDir()
	o, err := ParseArgs([]string{"--cache-dir", dir})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if db := e.bot.Config().Bearoff; db == nil || db.Checkers != 15 {
		t.Fatalf("default engine's bearoff database: %+v, want 15 checkers", db)
	}
	if _, err := os.Stat(bgbot.BearoffCacheFile(dir, 15)); err != nil {
		t.Fatalf("no cache file: %v", err)
	}
	var f Factory
	if _, err := f.Server([]string{"--cache-dir", dir}); err != nil {
		t.Fatal(err)
	}
	if db := f.bearoff["checkers:15"]; db == nil || db.Checkers != 15 {
		t.Errorf("factory's default database: %+v", db)
	}
	o, err = ParseArgs([]string{"--cache-dir", "", "--bearoff-checkers", "5"})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := New(o); err != nil || e.bot.Config().Bearoff.Checkers != 5 {
		t.Errorf("--bearoff-checkers 5: %v", err)
	}
}

// TestBearoffFile starts engines on a bearoff database file, and refuses a
// missing or damaged one.
func TestBearoffFile(t *testing.T) {
	db, err := bgbot.NewBearoff(3)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "b.bgbo")
	var buf bytes.Buffer
	if _, err := db.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Level: bgbot.LevelNet, BearoffFile: path}); err != nil {
		t.Errorf("engine on %s: %v", path, err)
	}
	var f Factory
	if _, err := f.Server([]string{"--bearoff", path}); err != nil {
		t.Errorf("factory engine on %s: %v", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes()[:buf.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Level: bgbot.LevelNet, BearoffFile: path}); err == nil {
		t.Error("a truncated bearoff file accepted")
	}
	if _, err := f.Server([]string{"--bearoff", filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing bearoff file accepted")
	}
}

// pipeClient starts an in-process engine and returns a client talking to
// it over in-memory pipes, and a function that stops it.
func pipeClient(t testing.TB, opts Options) (*bgcmd.Client, func()) {
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := NewServer(e).Serve(context.Background(), sr, sw)
		sw.Close()
		done <- err
	}()
	c := protocol.NewController(cr, cw, protocol.ControllerOptions{})
	return bgcmd.NewClient(c.WithTimeout(0)), func() {
		cw.Close()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}
}

// TestGamesThroughProtocol has the engine play both sides of whole games
// and matches through the protocol, the state machine refereeing: every
// answer must be accepted by backgammon.State.
func TestGamesThroughProtocol(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		opts  Options
		rules bgcmd.GameRules
		games int
	}{
		{Options{Level: bgbot.LevelNet}, bgcmd.GameRules{Variant: "standard", Jacoby: true, Beavers: true}, 4},
		{Options{Level: bgbot.LevelHeuristic}, bgcmd.GameRules{Variant: "standard", MatchLength: 5, Crawford: true}, 1},
		{Options{Level: bgbot.LevelRandom, Seed: 5}, bgcmd.GameRules{Variant: "nackgammon", MatchLength: 3, Crawford: true}, 1},
		{Options{Level: bgbot.LevelNet, Noise: 0.1, Seed: 3}, bgcmd.GameRules{Variant: "hypergammon2"}, 3},
		{Options{Level: bgbot.LevelNet}, bgcmd.GameRules{Variant: "standard", Cubeless: true}, 3},
		{Options{Level: bgbot.LevelNet, Plies: 1}, bgcmd.GameRules{Variant: "standard", MatchLength: 1}, 1},
	}
	for i, c := range cases {
		cl, stop := pipeClient(t, c.opts)
		if err := cl.SetGame(ctx, c.rules); err != nil {
			t.Fatal(err)
		}
		rules, err := c.rules.Rules()
		if err != nil {
			t.Fatal(err)
		}
		s := backgammon.NewMatch(rules)
		dice := backgammon.NewDice(uint64(i), 99)
		for g := 0; g < c.games || (!rules.Money() && !s.MatchOver()); g++ {
			first, d0, d1 := dice.Opening()
			if err := s.StartGame(first, d0, d1); err != nil {
				t.Fatal(err)
			}
			for s.GameState == backgammon.GamePlaying {
				pos, match := gnubgid.Encode(s)
				if err := cl.SetPosition(ctx, pos, match); err != nil {
					t.Fatalf("case %d: set_position %s %s: %v", i, pos, match, err)
				}
				var err error
				switch s.Decision() {
				case backgammon.DecideCube:
					var d bool
					if d, err = cl.GenCube(ctx); err == nil {
						if d {
							err = s.Double()
						} else {
							err = s.SetDice(dice.Roll())
						}
					}
				case backgammon.NeedRoll:
					var d bool
					if d, err = cl.GenCube(ctx); err == nil && d {
						t.Fatalf("case %d: doubles when it may not", i)
					}
					err = s.SetDice(dice.Roll())
				case backgammon.DecideTake:
					var a backgammon.Answer
					if a, err = cl.GenTake(ctx); err == nil {
						switch a {
						case backgammon.Take:
							err = s.Take()
						case backgammon.Beaver:
							err = s.Beaver()
						default:
							err = s.Drop()
						}
					}
				case backgammon.DecideMove:
					var mv string
					if mv, err = cl.GenMove(ctx); err == nil {
						if mv == bgcmd.NoMove {
							if ms := s.LegalMoves(); len(ms) != 1 || ms[0].N != 0 {
								t.Fatalf("case %d: none with legal moves", i)
							}
							mv = ""
						}
						var m backgammon.Move
						if m, err = s.ParseMove(mv); err == nil {
							err = s.Play(m)
						}
					}
				}
				if err != nil {
					t.Fatalf("case %d (%s %s): %v", i, pos, match, err)
				}
			}
		}
		stop()
	}
}

func TestEvaluateAndErrors(t *testing.T) {
	ctx := context.Background()
	cl, stop := pipeClient(t, DefaultOptions())
	defer stop()
	var fe *protocol.FailureError
	if _, err := cl.GenMove(ctx); !errors.As(err, &fe) {
		t.Errorf("genmove without a position: %v", err)
	}
	if err := cl.SetPosition(ctx, "notanid", "cAkAAAAAAAAA"); !errors.As(err, &fe) {
		t.Errorf("bad position id: %v", err)
	}
	s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard, Cube: true})
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	pos, match := gnubgid.Encode(s)
	if err := cl.SetPosition(ctx, pos, match); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.GenCube(ctx); !errors.As(err, &fe) {
		t.Errorf("gencube with dice rolled: %v", err)
	}
	if _, err := cl.GenTake(ctx); !errors.As(err, &fe) {
		t.Errorf("gentake without a double: %v", err)
	}
	mv, err := cl.GenMove(ctx)
	if err != nil || mv != "8/5 6/5" {
		t.Errorf("opening 31: %q %v", mv, err)
	}
	v, err := cl.Evaluate(ctx)
	if err != nil || v[0] < 0.4 || v[0] > 0.6 {
		t.Errorf("evaluate start: %v %v", v, err)
	}
}

// BenchmarkProtocolRoundTrip measures set_position + genmove through the
// protocol over in-memory pipes to the in-process net engine at 0-ply.
func BenchmarkProtocolRoundTrip(b *testing.B) {
	ctx := context.Background()
	cl, stop := pipeClient(b, DefaultOptions())
	defer stop()
	type ids struct{ pos, match string }
	var ps []ids
	bot, _ := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelHeuristic})
	for g := 0; len(ps) < 1000; g++ {
		s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard})
		dice := backgammon.NewDice(uint64(g), 1)
		first, d0, d1 := dice.Opening()
		_ = s.StartGame(first, d0, d1)
		for s.GameState == backgammon.GamePlaying {
			if s.Decision() == backgammon.NeedRoll {
				_ = s.SetDice(dice.Roll())
				continue
			}
			p, m := gnubgid.Encode(s)
			ps = append(ps, ids{p, m})
			mv, _, _ := bot.Move(s)
			_ = s.Play(mv)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := ps[i%len(ps)]
		if err := cl.SetPosition(ctx, p.pos, p.match); err != nil {
			b.Fatal(err)
		}
		if _, err := cl.GenMove(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}

// A searching net prunes with the embedded pruner unless told not to; a
// pruner file that cannot be read is named in the error.
func TestPrunerOptions(t *testing.T) {
	for _, c := range []struct {
		args  []string
		prune bool
	}{
		{[]string{"--plies", "1"}, true},
		{[]string{"--cube-plies", "1"}, true},
		{[]string{"--plies", "1", "--no-prune"}, false},
		{[]string{}, false},
		{[]string{"--level", "heuristic", "--plies", "1"}, false},
		{[]string{"--prune-root", "8"}, true},
		{[]string{"--prune-root", "8", "--no-prune"}, false},
	} {
		o, err := ParseArgs(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if o.prunes() != c.prune {
			t.Errorf("%v: prunes %v, want %v", c.args, o.prunes(), c.prune)
		}
		if _, err := New(o); err != nil {
			t.Errorf("%v: %v", c.args, err)
		}
	}
	o, err := ParseArgs([]string{"--plies", "1", "--pruner", "/nonexistent/p.bgpr"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), "/nonexistent/p.bgpr") {
		t.Errorf("missing pruner file: %v", err)
	}
	if _, err := ParseArgs([]string{"--prune-root", "-1"}); err == nil {
		t.Error("--prune-root -1 accepted")
	}
	var f Factory
	if _, err := f.Server([]string{"--plies", "1"}); err != nil || f.pruners[""] == nil {
		t.Errorf("factory did not share the pruner (%v)", err)
	}
}

// The default player is four networks: the embedded default chooses, the
// embedded second network gives its opinion on the best moves, and the
// two networks of the doubling window alone judge the cube (the second
// network with the main one under --no-window). A main network of one's
// own (--weights), or --no-second, leaves the others out; --move-weights
// and --cube-weights replace them for their part only.
func TestSecondOpinion(t *testing.T) {
	second, err := bgbot.DefaultSecondWeights()
	if err != nil {
		t.Fatal(err)
	}
	start := backgammon.Standard.StartBoard()
	// same reports whether two networks judge the start position alike.
	same := func(a, b *bgbot.Weights) bool {
		return a.NewEvaluator().Evaluate(start) == b.NewEvaluator().Evaluate(start)
	}
	main, err := bgbot.DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	if same(main, second) {
		t.Fatal("the second network judges the start as the default does")
	}
	other := writeRandomWeights(t, "other.bgnet")
	window, err := bgbot.DefaultWindowWeights()
	if err != nil {
		t.Fatal(err)
	}
	if same(window[0], main) || same(window[0], window[1]) {
		t.Fatal("a window network judges the start as the default or the other window network does")
	}
	cases := []struct {
		args                []string
		moveSecond, cubeSec bool // the embedded second network's part
		moves, cubes        int  // networks beside the main one
		window              bool // the cube networks are the window's, alone
	}{
		{nil, true, false, 1, 2, true},
		{[]string{"--no-second"}, false, false, 0, 0, false},
		{[]string{"--weights", other}, false, false, 0, 0, false},
		{[]string{"--move-weights", other}, false, false, 1, 2, true},
		{[]string{"--cube-weights", other}, true, false, 1, 1, false},
		{[]string{"--no-window"}, true, true, 1, 1, false},
		{[]string{"--move-weights", other, "--no-window"}, false, true, 1, 1, false},
		{[]string{"--level", "heuristic"}, false, false, 0, 0, false},
	}
	var f Factory
	for _, c := range cases {
		o, err := ParseArgs(c.args)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(o)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		fs, err := f.Server(c.args)
		if err != nil || fs == nil {
			t.Fatalf("factory %q: %v", c.args, err)
		}
		// The factory's engine (the ringmaster's builtin players) is
		// the same player as a plain one.
		shared := o
		if shared.Level == bgbot.LevelNet {
			if err := f.share(&shared); err != nil {
				t.Fatal(err)
			}
		}
		fe, err := New(shared)
		if err != nil {
			t.Fatalf("shared %q: %v", c.args, err)
		}
		cfg, fcfg := e.bot.Config(), fe.bot.Config()
		if len(fcfg.MoveWeights) != len(cfg.MoveWeights) || len(fcfg.CubeWeights) != len(cfg.CubeWeights) || fcfg.CubeAlone != cfg.CubeAlone {
			t.Errorf("%q: the factory's engine has %d move and %d cube networks (alone %v), a plain one %d and %d (%v)", c.args,
				len(fcfg.MoveWeights), len(fcfg.CubeWeights), fcfg.CubeAlone, len(cfg.MoveWeights), len(cfg.CubeWeights), cfg.CubeAlone)
		}
		if len(cfg.MoveWeights) != c.moves || len(cfg.CubeWeights) != c.cubes {
			t.Errorf("%q: %d move networks, %d cube networks; want %d and %d", c.args, len(cfg.MoveWeights), len(cfg.CubeWeights), c.moves, c.cubes)
			continue
		}
		if c.moves > 0 && same(cfg.MoveWeights[0], second) != c.moveSecond {
			t.Errorf("%q: the move network is the embedded second: %v, want %v", c.args, !c.moveSecond, c.moveSecond)
		}
		if c.cubes > 0 && same(cfg.CubeWeights[0], second) != c.cubeSec {
			t.Errorf("%q: the cube network is the embedded second: %v, want %v", c.args, !c.cubeSec, c.cubeSec)
		}
		isWindow := c.cubes == 2 && same(cfg.CubeWeights[0], window[0]) && same(cfg.CubeWeights[1], window[1])
		if isWindow != c.window || cfg.CubeAlone != c.window {
			t.Errorf("%q: cube networks of the window %v, judging alone %v; want %v", c.args, isWindow, cfg.CubeAlone, c.window)
		}
	}
	if f.second == nil || f.window == nil {
		t.Fatal("the factory did not keep the second and window networks to share")
	}
	o := DefaultOptions()
	if err := f.share(&o); err != nil {
		t.Fatal(err)
	}
	if e, err := New(o); err != nil {
		t.Fatal(err)
	} else if cfg := e.bot.Config(); len(cfg.MoveWeights) != 1 || cfg.MoveWeights[0] != f.second ||
		len(cfg.CubeWeights) != 2 || cfg.CubeWeights[0] != f.window[0] || cfg.CubeWeights[1] != f.window[1] {
		t.Error("a factory engine does not share the factory's second and window networks")
	}
}

// writeRandomWeights writes a small random network to a file in a
// temporary directory and returns its path.
func writeRandomWeights(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	w, err := bgbot.NewRandomWeights(8, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteTo(f); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	return path
}
