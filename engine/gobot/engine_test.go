package gobot

import (
	"context"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/gobot/pattern"
	"github.com/gamemill/gamemill/engine/gogame"
)

func newTestEngine(t testing.TB, playouts int, seed uint64, patterns bool) *Engine {
	t.Helper()
	cfg := Config{Playouts: playouts, Seed: seed}
	if patterns {
		db, err := pattern.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Patterns = db
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetSize(9); err != nil {
		t.Fatal(err)
	}
	return e
}

// selfPlay plays a game between two engines and returns the moves.
func selfPlay(t *testing.T, a, b *Engine, maxMoves int) []gogame.Move {
	t.Helper()
	var moves []gogame.Move
	ctx := context.Background()
	players := [2]*Engine{a, b}
	c := black
	for i := 0; i < maxMoves && !a.Game().Over(); i++ {
		me, other := players[i%2], players[1-i%2]
		r, err := me.GenMove(ctx, c, false)
		if err != nil {
			t.Fatal(err)
		}
		if r.Resign {
			break
		}
		if err := other.Play(c, r.Move); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		moves = append(moves, r.Move)
		c = c.Opponent()
	}
	return moves
}

// TestReproducible: with one thread, the same seed gives the same game
// (tree reuse included), another seed another game.
func TestReproducible(t *testing.T) {
	game := func(seed uint64) []gogame.Move {
		return selfPlay(t, newTestEngine(t, 300, seed, true), newTestEngine(t, 300, seed+100, true), 30)
	}
	a, b, c := game(1), game(1), game(2)
	if len(a) != len(b) {
		t.Fatalf("same seed, %d and %d moves", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, move %d: %v and %v", i, a[i], b[i])
		}
	}
	same := len(a) == len(c)
	for i := 0; same && i < len(a); i++ {
		same = a[i] == c[i]
	}
	if same {
		t.Error("seeds 1 and 2 played the same game")
	}
}

// TestFinishesGames plays whole self-play games: they end by two passes
// (or a resignation), every move legal, and no player fills its own
// one-point eye.
func TestFinishesGames(t *testing.T) {
	if testing.Short() {
		t.Skip("self-play games")
	}
	for seed := uint64(1); seed <= 2; seed++ {
		a, b := newTestEngine(t, 200, seed, true), newTestEngine(t, 200, seed+50, seed == 1)
		moves := selfPlay(t, a, b, 300)
		if len(moves) >= 300 {
			t.Fatalf("seed %d: no end after 300 moves", seed)
		}
	}
}

// TestPassesWhenWon: with the opponent's pass and a won count, gobot
// passes at once; when the count is lost it plays on.
func TestPassesWhenWon(t *testing.T) {
	e := newTestEngine(t, 300, 1, true)
	// Black walls off columns A-E (45 points) from White's F-J, White
	// passes instead of F9: Black has 45 to 35 and wins with komi 7.5.
	for y := 0; y < 9; y++ {
		if err := e.Play(black, gogame.At(4, y)); err != nil {
			t.Fatal(err)
		}
		m := gogame.At(5, y)
		if y == 8 {
			m = gogame.Pass
		}
		if err := e.Play(white, m); err != nil {
			t.Fatal(err)
		}
	}
	r, err := e.GenMove(context.Background(), black, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != gogame.Pass {
		t.Errorf("won position after White's pass: Black played %v", r.Move)
	}
	// Now White, 36 points and komi, loses by 1.5: it must not pass.
	e = newTestEngine(t, 300, 1, true)
	for y := 0; y < 9; y++ {
		e.Play(black, gogame.At(4, y))
		e.Play(white, gogame.At(5, y))
	}
	e.Play(black, gogame.Pass)
	r, err = e.GenMove(context.Background(), white, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move == gogame.Pass && !r.Resign {
		t.Errorf("lost count after Black's pass: White passed")
	}
}

// TestDeadStones: a lone white stone inside Black's area is dead, the
// walls alive.
func TestDeadStones(t *testing.T) {
	e := newTestEngine(t, 100, 1, true)
	for y := 0; y < 9; y++ {
		e.Play(black, gogame.At(4, y))
		e.Play(white, gogame.At(5, y))
	}
	e.Play(black, gogame.Pass)
	e.Play(white, gogame.At(1, 4)) // B5, inside Black's side
	e.Play(black, gogame.Pass)
	e.Play(white, gogame.Pass)
	dead := e.Dead(context.Background())
	if len(dead) != 1 || dead[0] != gogame.At(1, 4) {
		t.Errorf("dead %v, want [B5]", dead)
	}
	s := e.FinalScore(context.Background())
	if s.String() != "B+1.5" {
		t.Errorf("final score %v (B %d, W %d), want B+1.5", s, s.Black, s.White)
	}
}

func benchPlayouts(b *testing.B, size int, patterns bool) {
	e := newTestEngine(b, 1, 1, patterns)
	if err := e.SetSize(size); err != nil {
		b.Fatal(err)
	}
	start := e.position()
	w := &worker{b: &board{}, rng: newRand(1, 2), pol: e.pol}
	var seq []played
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.b.copyFrom(start)
		_, seq = w.playout(black, seq[:0])
	}
}

// BenchmarkPlayout9x9 is one guided playout from the empty 9x9 board to
// two passes, with the area count.
func BenchmarkPlayout9x9(b *testing.B)           { benchPlayouts(b, 9, true) }
func BenchmarkPlayout9x9NoPatterns(b *testing.B) { benchPlayouts(b, 9, false) }
func BenchmarkPlayout19x19(b *testing.B)         { benchPlayouts(b, 19, true) }

// BenchmarkGenMove9x9 is a 1,000-playout search from the empty 9x9 board
// (tree, priors, playouts): the cost of one move at --playouts 1000.
func BenchmarkGenMove9x9(b *testing.B) {
	for i := 0; i < b.N; i++ {
		e := newTestEngine(b, 1000, uint64(i), true)
		if _, err := e.GenMove(context.Background(), black, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatch19x19 matches the whole pattern database at every empty
// point of a 19x19 board from the middle of a random game, on the
// engine's board.
func BenchmarkMatch19x19(b *testing.B) {
	db, err := pattern.Default()
	if err != nil {
		b.Fatal(err)
	}
	bd, _ := newBoard(19)
	rng := newRand(3, 4)
	ref, _ := gogame.NewPosition(19)
	c := black
	for i := 0; i < 150; i++ {
		m := ref.PlayRandom(c, rng)
		bd.play(c, bd.pt(m))
		c = c.Opponent()
	}
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db.MatchAll(patternBoard{bd}, black, func(pattern.Match) { n++ })
	}
	b.ReportMetric(float64(n)/float64(b.N), "matches/op")
}

// TestThreads searches with several threads: exactly the playouts
// requested are run.
func TestThreads(t *testing.T) {
	db, err := pattern.Default()
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Playouts: 400, Threads: 3, Seed: 1, Patterns: db})
	if err != nil {
		t.Fatal(err)
	}
	e.SetSize(9)
	for i := 0; i < 6; i++ {
		c := e.Game().ToPlay()
		r, err := e.GenMove(context.Background(), c, false)
		if err != nil {
			t.Fatal(err)
		}
		if r.Playouts != 400 {
			t.Errorf("move %d: %d playouts, want 400", i, r.Playouts)
		}
	}
}

// TestMoveBudget: --time is the budget unless the clock leaves less.
func TestMoveBudget(t *testing.T) {
	e, err := New(Config{Time: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.SetSize(9)
	if got := e.moveBudget(black); got != 10*time.Second {
		t.Errorf("no clock: budget %v, want 10s", got)
	}
	e.SetTime(60*time.Second, 30*time.Second, 5)
	if got, want := e.moveBudget(black), 60*time.Second/27+30*time.Second*7/10/5/2-lag; got != want {
		t.Errorf("time_settings alone: budget %v, want %v", got, want)
	}
	e.SetTimeLeft(black, 30*time.Second, 5) // overtime: 30 s for 5 stones
	if got, want := e.moveBudget(black), 30*time.Second*7/10/5-lag; got != want {
		t.Errorf("byo-yomi: budget %v, want %v", got, want)
	}
	e.SetTimeLeft(white, 54*time.Second, 0) // main time, 81 empty points: 27 moves
	if got, want := e.moveBudget(white), 2*time.Second+30*time.Second*7/10/5/2-lag; got != want {
		t.Errorf("main time: budget %v, want %v", got, want)
	}
	e.SetTimeLeft(white, 0, 0) // main time over: a period starts
	if got, want := e.moveBudget(white), 30*time.Second*7/10/5-lag; got != want {
		t.Errorf("main time over: budget %v, want %v", got, want)
	}
	e.SetTime(3*time.Second, 0, 0) // sudden death
	e.SetTimeLeft(black, time.Second/10, 0)
	if got := e.moveBudget(black); got != 5*time.Millisecond {
		t.Errorf("nearly out of time: budget %v, want the 5ms floor", got)
	}
	e.SetTimeLeft(black, 80*time.Second, 0) // 81 empty points: 40 moves
	if got, want := e.moveBudget(black), 2*time.Second-lag; got != want {
		t.Errorf("sudden death: budget %v, want %v", got, want)
	}
	e.SetTime(0, 10*time.Second, 0) // GTP's no time limit
	e.SetTimeLeft(black, time.Second/10, 0)
	if got := e.moveBudget(black); got != 10*time.Second {
		t.Errorf("no time limit: budget %v, want 10s", got)
	}
	// A search by time alone stops near its budget.
	e, _ = New(Config{Time: 200 * time.Millisecond})
	e.SetSize(9)
	start := time.Now()
	r, err := e.GenMove(context.Background(), black, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 190*time.Millisecond || d > 5*time.Second || r.Playouts == 0 {
		t.Errorf("--time 0.2: took %v for %d playouts", d, r.Playouts)
	}
}

// TestCleanup: kgs-genmove_cleanup does not pass while a dead opponent
// stone is on the board, and passes (on a won count after a pass) once
// none is.
func TestCleanup(t *testing.T) {
	e := newTestEngine(t, 300, 1, true)
	for y := 0; y < 9; y++ {
		e.Play(black, gogame.At(4, y))
		e.Play(white, gogame.At(5, y))
	}
	e.Play(black, gogame.Pass)
	e.Play(white, gogame.At(1, 4)) // B5, dead inside Black's side
	e.Play(black, gogame.Pass)
	e.Play(white, gogame.Pass)
	captured := false
	for i := 0; i < 12 && !captured; i++ {
		r, err := e.GenMove(context.Background(), black, true)
		if err != nil {
			t.Fatal(err)
		}
		if r.Move == gogame.Pass {
			t.Fatalf("cleanup move %d: passed with the dead stone on the board", i)
		}
		captured = e.Game().Board().At(gogame.At(1, 4)) == gogame.Empty
		if !captured {
			e.Play(white, gogame.Pass)
		}
	}
	if !captured {
		t.Fatal("the dead stone is still on the board")
	}
	e.Play(white, gogame.Pass)
	r, err := e.GenMove(context.Background(), black, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != gogame.Pass {
		t.Errorf("nothing dead left and a won count: cleanup played %v", r.Move)
	}
}

// TestTreeReuse: the subtree under the moves played carries its visits
// into the next search.
func TestTreeReuse(t *testing.T) {
	e := newTestEngine(t, 2000, 1, true)
	r, err := e.GenMove(context.Background(), black, false)
	if err != nil {
		t.Fatal(err)
	}
	if e.tree == nil || e.tree.pt != e.treeBase.pt(r.Move) {
		t.Fatalf("after genmove the tree is not at the move played")
	}
	// The reply the search liked best has a subtree of its own.
	var reply *node
	for _, ch := range e.tree.children {
		if reply == nil || ch.n > reply.n {
			reply = ch
		}
	}
	if err := e.Play(white, e.treeBase.move(reply.pt)); err != nil {
		t.Fatal(err)
	}
	if e.tree != reply {
		t.Fatal("the opponent's move did not keep its subtree")
	}
	before := reply.n
	if _, err := e.GenMove(context.Background(), black, false); err != nil {
		t.Fatal(err)
	}
	if reply.n < before+2000 {
		t.Errorf("reused root has %v visits, want %v + 2000", reply.n, before)
	}
}

// TestResigns: a hopeless position is resigned, and never with --resign 0.
func TestResigns(t *testing.T) {
	for _, resign := range []float64{0.1, 0} {
		db, _ := pattern.Default()
		e, _ := New(Config{Playouts: 500, Seed: 1, Patterns: db, Resign: resign})
		e.SetSize(9)
		// White walls off all but the first two columns.
		for y := 0; y < 9; y++ {
			e.Play(white, gogame.At(2, y))
			e.Play(black, gogame.At(0, y))
		}
		r, err := e.GenMove(context.Background(), black, false)
		if err != nil {
			t.Fatal(err)
		}
		if r.Resign != (resign > 0) {
			t.Errorf("--resign %v: resign %v (win rate %.3f)", resign, r.Resign, r.WinRate)
		}
	}
}

// TestSizes: gobot plays on 5x5 to 19x19 and refuses 4x4 and 26x26.
func TestSizes(t *testing.T) {
	e := newTestEngine(t, 100, 1, true)
	for _, n := range []int{5, 7, 13, 19} {
		if err := e.SetSize(n); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if _, err := e.GenMove(context.Background(), e.Game().ToPlay(), false); err != nil {
				t.Fatalf("%dx%d: %v", n, n, err)
			}
		}
	}
	for _, n := range []int{4, 26} {
		if err := e.SetSize(n); err == nil {
			t.Errorf("size %d accepted", n)
		}
	}
}
