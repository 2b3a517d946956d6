package bridge

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/internal/syncbuf"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// The message orders below are those of FIBS and its clones, from their
// public transcripts and code:
//
//   - after the opening roll the winner is announced ("alice makes the
//     first move." or, to the winner, "It's your turn to move."), and the
//     board may come before or after the opponent's first move (BaldLies,
//     github.com/gflohr/BaldLies, lib/BaldLies/Session/Message/play.pm:
//     "$opponent makes the first move.", then the board; FIBS itself was
//     seen sending "X makes the first move.", "X moves 19-21 21-22 .",
//     then the board);
//   - colours are drawn for the first game and swap at the start of every
//     game (BaldLies' CLIP-BUGS, "Board State");
//   - a message ending in "." may run into the next on one line, a board
//     among them (FIBSCookieMonster's run-on messages; Gibbon's CLIP
//     reader);
//   - BaldLies writes an opponent's roll "alice rolled 3 and 1." and bears
//     off to "home" ("5-home").
//
// fakeFIBS referees a match between the bridge (user "bot") and a
// scripted opponent ("alice") over a scriptConn, writing those orders, and
// keeps its own record to compare with the bridge's.
type fakeFIBS struct {
	t  *testing.T
	c  *scriptConn
	rb *record.Builder
	// colour is the bot's colour this game (1: O, moving down); it swaps
	// every game.
	colour int
	rng    *rand.Rand
	// dice, when set, rolls for player p (0 the bot) instead of rng.
	dice func(p int) [2]int
	// The message order.
	firstMoveFirst bool // the opponent's opening move before any board
	glue           bool // boards glued to the message before them
	baldLies       bool // "rolled" and "home" in the opponent's lines
	dropMoves      bool // the opponent's move lines lost: boards only
	noMatchLine    bool // the match ends with no "wins the N point match" line
	promptFirst    bool // the bot's prompt to roll before its board, none after alice's move
	// cutAt closes the connection at the opponent's turn after this many
	// plies of the game (0: never); resume plays the reconnection.
	cutAt int
	// aliceResigns, when set, is asked at each of alice's turns whether
	// she offers a resignation.
	aliceResigns func(st *bg.State) bool
	// aliceDoubles, when set, is asked at each of alice's turns whether
	// she doubles.
	aliceDoubles func(st *bg.State) bool
	safe         bool     // alice plays her safest move, not her first
	resigned     []string // what the bridge answered alice's offers
	botResigned  string   // the bridge's resignation command, if any
}

func newFakeFIBS(t *testing.T, c *scriptConn, length int) *fakeFIBS {
	return &fakeFIBS{t: t, c: c, rb: record.NewBuilder([2]string{"bot", "alice"}, record.DefaultRules(length)),
		colour: 1, rng: rand.New(rand.NewPCG(1, 2))}
}

func (f *fakeFIBS) roll(p int) [2]int {
	if f.dice != nil {
		return f.dice(p)
	}
	return [2]int{1 + f.rng.IntN(6), 1 + f.rng.IntN(6)}
}

// board is the bot's board of the position.
func (f *fakeFIBS) board() string {
	bd := fibsboard.FromState(f.rb.State(), 0, "bot", "alice").WithOrientation(f.colour, -f.colour)
	return bd.String()
}

// say sends lines, gluing a board to the line before it when asked.
func (f *fakeFIBS) say(lines ...string) {
	for i := 0; i < len(lines); i++ {
		if f.glue && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "board:") {
			f.c.send(lines[i] + lines[i+1])
			i++
			continue
		}
		f.c.send(lines[i])
	}
}

// command reads the bridge's next command, answering requests for the
// board on the way.
func (f *fakeFIBS) command() string {
	for {
		cmd := f.c.next()
		if cmd != fibs.CmdBoard {
			return cmd
		}
		f.say(f.board())
	}
}

func (f *fakeFIBS) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// play referees the match to its end; it returns false when it cut the
// connection (the caller then plays the reconnection and calls resume).
func (f *fakeFIBS) play() bool {
	for {
		st := f.rb.State()
		if st.GameState != bg.GamePlaying {
			if st.MatchOver() {
				f.matchEnd()
				return true
			}
			if !f.opening() {
				continue
			}
		}
		if !f.turn() {
			return false
		}
	}
}

// opening starts a game; false on a tied opening roll.
func (f *fakeFIBS) opening() bool {
	st := f.rb.State()
	if len(f.rb.Match().Games) > 0 {
		f.colour = -f.colour
		f.say("Type 'join' if you want to play the next game, type 'leave' if you don't.")
		if cmd := f.command(); cmd != "join" {
			f.t.Fatalf("the bridge sent %q after the game, want join", cmd)
		}
	}
	f.say("Starting a new game with alice.")
	d := [2]int{f.roll(0)[0], f.roll(1)[0]}
	f.say(fmt.Sprintf("You rolled %d, alice rolled %d.", d[0], d[1]))
	if d[0] == d[1] {
		return false
	}
	if d[0] > d[1] {
		f.must(f.rb.Roll(0, d[0], d[1]))
		f.say("It's your turn to move.", f.board(), fmt.Sprintf("Please move %d pieces.", len(st.LegalMoves()[0].StepList())))
		f.botMove()
		return true
	}
	f.must(f.rb.Roll(1, d[1], d[0]))
	f.say("alice makes the first move.")
	if !f.firstMoveFirst {
		f.say(f.board())
	}
	f.aliceMove()
	return true
}

// turn plays the next turn: the bot's or alice's. False when it cut the
// connection.
func (f *fakeFIBS) turn() bool {
	st := f.rb.State()
	if st.GameState != bg.GamePlaying {
		return true
	}
	if st.Move == 1 {
		if f.cutAt > 0 && st.Plies >= f.cutAt {
			f.cutAt = 0
			f.c.c.Close()
			return false
		}
		if f.aliceResigns != nil && f.aliceResigns(st) {
			f.must(f.rb.Resign(1, bg.Single))
			f.say(fmt.Sprintf("alice wants to resign. You will win %d points. Type 'accept' or 'reject'.", st.CubeValue))
			switch cmd := f.command(); cmd {
			case "accept":
				f.resigned = append(f.resigned, cmd)
				f.must(f.rb.AcceptResignation(0))
				f.say(fmt.Sprintf("You accept and win %d points.", st.Points))
				return true
			case "reject":
				f.resigned = append(f.resigned, cmd)
				f.must(f.rb.DeclineResignation(0))
				f.say("You reject. The game continues.")
			default:
				f.t.Fatalf("the bridge answered alice's resignation with %q", cmd)
			}
		}
		if f.aliceDoubles != nil && st.CanDouble() && f.aliceDoubles(st) {
			f.must(f.rb.Double(1))
			f.say("alice doubles. Type 'accept' or 'reject'.")
			switch cmd := f.command(); cmd {
			case "accept":
				f.must(f.rb.Take(0))
				f.say(fmt.Sprintf("You accept the double. The cube shows %d.", st.CubeValue))
			case "reject":
				f.must(f.rb.Drop(0))
				f.say(fmt.Sprintf("You give up. alice wins %d point.", st.Points))
				return true
			default:
				f.t.Fatalf("the bridge answered alice's double with %q", cmd)
			}
		}
		d := f.roll(1)
		f.must(f.rb.Roll(1, d[0], d[1]))
		verb := "rolls"
		if f.baldLies {
			verb = "rolled"
		}
		f.say(fmt.Sprintf("alice %s %d and %d.", verb, d[0], d[1]))
		f.aliceMove()
		return true
	}
	if f.promptFirst {
		f.say("It's your turn to roll or double.", f.board())
	} else {
		f.say(f.board(), "It's your turn to roll or double.")
	}
	switch cmd := f.command(); {
	case cmd == "roll":
	case strings.HasPrefix(cmd, "resign "):
		f.botResigned = cmd
		level := map[string]bg.Result{"n": bg.Single, "g": bg.Gammon, "b": bg.Backgammon}[strings.TrimPrefix(cmd, "resign ")]
		f.must(f.rb.Resign(0, level))
		f.say(fmt.Sprintf("You want to resign. alice will win %d points.", int(level)*st.CubeValue))
		f.must(f.rb.AcceptResignation(1))
		f.say(fmt.Sprintf("alice accepts and wins %d points.", st.Points))
		return true
	default:
		f.t.Fatalf("the bridge sent %q at its turn, want roll", cmd)
	}
	d := f.roll(0)
	f.must(f.rb.Roll(0, d[0], d[1]))
	f.say(fmt.Sprintf("You roll %d and %d.", d[0], d[1]), f.board())
	if len(st.LegalMoves()[0].StepList()) == 0 {
		f.must(f.rb.Play(0, bg.Move{}))
		f.say("You can't move.")
		return true
	}
	f.say(fmt.Sprintf("Please move %d pieces.", len(st.LegalMoves()[0].StepList())))
	f.botMove()
	return true
}

// botMove reads the bridge's move and plays it.
func (f *fakeFIBS) botMove() {
	st := f.rb.State()
	cmd := f.command()
	text, ok := strings.CutPrefix(cmd, "move ")
	if !ok {
		f.t.Fatalf("the bridge sent %q, want a move", cmd)
	}
	steps, err := fibs.ParseSteps(text)
	f.must(err)
	mv, err := fibs.ToMove(steps, -f.colour)
	f.must(err)
	if err := f.rb.Play(0, mv); err != nil {
		f.t.Fatalf("the bridge's %q in %s: %v", cmd, f.board(), err)
	}
	if st.GameState != bg.GamePlaying {
		f.say(fmt.Sprintf("You win the game and get %d point. Congratulations!", st.Points))
	}
}

// aliceMove plays alice's first legal move and tells the bridge.
func (f *fakeFIBS) aliceMove() {
	st := f.rb.State()
	legal := st.LegalMoves()
	mv := legal[0]
	if f.safe {
		mv = safest(st, legal)
	}
	if mv.N == 0 {
		f.must(f.rb.Play(1, mv))
		f.say("alice can't move.", f.board())
		return
	}
	steps := fibs.FormatSteps(fibs.FromMove(mv, f.colour))
	if f.baldLies {
		steps = strings.ReplaceAll(steps, "-off", "-home")
	}
	f.must(f.rb.Play(1, mv))
	line := fmt.Sprintf("alice moves %s .", steps)
	switch {
	case st.GameState != bg.GamePlaying:
		f.say(line, f.board(), fmt.Sprintf("alice wins the game and gets %d point. Sorry.", st.Points))
	case f.dropMoves:
		f.say(f.board())
	case f.promptFirst:
		f.say(line)
	default:
		f.say(line, f.board())
	}
}

// safest is the move that leaves the mover the fewest blots, then the
// most checkers off.
func safest(st *bg.State, legal []bg.Move) bg.Move {
	best, bestScore := legal[0], 1<<30
	for _, mv := range legal {
		after := st.Board.Apply(mv)
		score := -after.Borne(bg.OnRoll, st.Variant)
		for _, n := range after[bg.OnRoll][:24] {
			if n == 1 {
				score += 100
			}
		}
		if score < bestScore {
			best, bestScore = mv, score
		}
	}
	return best
}

func (f *fakeFIBS) matchEnd() {
	if f.noMatchLine {
		f.c.c.Close()
		return
	}
	st := f.rb.State()
	length := st.MatchLength
	if st.Score[0] >= length {
		f.say(fmt.Sprintf("You win the %d point match %d-%d .", length, st.Score[0], st.Score[1]))
	} else {
		f.say(fmt.Sprintf("alice wins the %d point match %d-%d .", length, st.Score[1], st.Score[0]))
	}
}

// resume plays the reconnection of a bridge cut off mid-match: login,
// its invitation to resume, and the resumed match's board with alice on
// roll.
func (f *fakeFIBS) resume(srv *scriptServer) {
	f.c = srv.accept(f.t)
	f.c.login("alice")
	f.c.expect("invite alice")
	f.say("** You invited alice to resume a saved match.", "alice has joined you. Your running match was loaded.", f.board())
}

// runBridge starts a bridge for one match (accepting all invitations),
// its options changed by set when not nil, and returns it with its log
// and a channel for Run's result.
func runBridge(t *testing.T, srv *scriptServer, set func(o *Options), engineArgs ...string) (*Bridge, *syncbuf.Buffer, chan error) {
	t.Helper()
	if engineArgs == nil {
		engineArgs = []string{"--level", "heuristic"}
	}
	b, logs := testBridgeEngine(t, srv.url(), engineArgs, func(o *Options) {
		o.Accept, o.Matches = []string{"all"}, 1
		if set != nil {
			set(o)
		}
	})
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if t.Failed() {
			t.Logf("bridge log:\n%s", logs.String())
		}
	})
	return b, logs, done
}

// startMatch logs in and starts a match of length points.
func startMatch(t *testing.T, srv *scriptServer, length int) *fakeFIBS {
	c := srv.accept(t)
	c.login("alice")
	c.send(fmt.Sprintf("alice wants to play a %d point match with you.", length), "Type 'join alice' to accept.")
	c.expect("join alice")
	c.send(fmt.Sprintf("** You are now playing a %d point match with alice.", length))
	return newFakeFIBS(t, c, length)
}

// finished waits for the bridge to end with nil after its one match and
// checks that it counted the match and recorded it as the server did.
func finished(t *testing.T, f *fakeFIBS, b *Bridge, done chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("bridge: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the bridge did not stop after its one match")
	}
	if b.Played() != 1 {
		t.Fatalf("the bridge counted %d matches, want 1", b.Played())
	}
	files, _ := filepath.Glob(filepath.Join(b.opt.Records, "*.mat"))
	if len(files) != 1 {
		t.Fatalf("%d .mat records, want 1", len(files))
	}
	fh, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	got, err := mat.Read(fh)
	if err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	// The server's record as a .mat writes it: the same notation.
	var buf bytes.Buffer
	if err := mat.Write(&buf, f.rb.Match()); err != nil {
		t.Fatal(err)
	}
	want, err := mat.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := record.DiffGames(want, got); d != "" {
		t.Fatalf("the bridge's record differs from the server's: %s", d)
	}
	if _, err := os.Stat(b.opt.StateFile); !os.IsNotExist(err) {
		t.Errorf("the state file outlived the match: %v", err)
	}
}

// The match is recorded and counted whatever order the messages come in.
func TestTranscriptMessageOrders(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(f *fakeFIBS)
	}{
		{"plain", func(f *fakeFIBS) {}},
		// The case FIBS was seen in: alice's opening move before any board
		// of the game, in every game.
		{"first move before any board", func(f *fakeFIBS) { f.firstMoveFirst = true }},
		{"boards glued to messages", func(f *fakeFIBS) { f.glue, f.firstMoveFirst = true, true }},
		{"BaldLies forms", func(f *fakeFIBS) { f.baldLies = true }},
		{"move lines lost", func(f *fakeFIBS) { f.dropMoves = true }},
		{"no match line", func(f *fakeFIBS) { f.noMatchLine, f.firstMoveFirst = true, true }},
		// alice doubles at her third turn of each game, her move before
		// still a note.
		{"doubles", func(f *fakeFIBS) {
			f.firstMoveFirst, f.glue = true, true
			f.aliceDoubles = func(st *bg.State) bool { return st.Plies >= 4 }
		}},
		// No board between alice's move and the bot's prompt: the move's
		// own steps give its direction.
		{"prompt before board", func(f *fakeFIBS) { f.promptFirst, f.firstMoveFirst = true, true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := newScriptServer(t)
			b, _, done := runBridge(t, srv, nil)
			f := startMatch(t, srv, 3)
			c.set(f)
			if !f.play() {
				t.Fatal("cut")
			}
			finished(t, f, b, done)
			if f.aliceDoubles != nil && !hasAction(f.rb.Match(), record.Double) {
				t.Error("alice never doubled")
			}
		})
	}
}

// A bridge cut off mid-match with alice on roll resumes the match and
// records it whole.
func TestTranscriptResumeOpponentOnRoll(t *testing.T) {
	srv := newScriptServer(t)
	b, logs, done := runBridge(t, srv, nil)
	f := startMatch(t, srv, 1)
	f.firstMoveFirst = true
	f.cutAt = 6
	for !f.play() {
		f.resume(srv)
	}
	if !strings.Contains(logs.String(), "match with alice resumed") {
		t.Fatal("the bridge did not resume the match")
	}
	finished(t, f, b, done)
}

func hasAction(m *record.Match, k record.Kind) bool {
	for _, g := range m.Games {
		for _, a := range g.Actions {
			if a.Kind == k {
				return true
			}
		}
	}
	return false
}

// fixedDice rolls the same for each player every time: the opening
// compares their first dice.
func fixedDice(bot, alice [2]int) func(p int) [2]int {
	return func(p int) [2]int {
		if p == 0 {
			return bot
		}
		return alice
	}
}

// Behind in a race it cannot win (alice rolls 6-6 every turn and plays
// safe, the bot 4-4), the bridge (bgbot at its network level, which
// resigns only sure losses) resigns instead of playing the bear-off out;
// the resignation is recorded.
func TestTranscriptBridgeResignsALostGame(t *testing.T) {
	srv := newScriptServer(t)
	b, logs, done := runBridge(t, srv, nil, "--level", "net")
	f := startMatch(t, srv, 1)
	f.dice = fixedDice([2]int{4, 4}, [2]int{6, 6})
	f.safe = true
	f.play()
	if !strings.HasPrefix(f.botResigned, "resign ") {
		t.Fatalf("the bridge played the lost game out without resigning: %v", f.rb.Match().Games[0].Actions)
	}
	if st := f.rb.State(); st.GameState != bg.GameResigned {
		t.Fatalf("the game ended %v, want by resignation", st.GameState)
	}
	if !strings.Contains(logs.String(), "engine resigns") {
		t.Error("no resignation in the log")
	}
	finished(t, f, b, done)
}

// Far ahead (the bot rolls 6-6 every turn, alice 2-1), the bridge accepts
// the resignation alice offers once the bot bears off; the game ends there
// and the match is recorded with it.
func TestTranscriptBridgeAcceptsAResignation(t *testing.T) {
	srv := newScriptServer(t)
	b, _, done := runBridge(t, srv, nil, "--level", "net")
	f := startMatch(t, srv, 1)
	f.dice = fixedDice([2]int{6, 6}, [2]int{2, 1})
	f.aliceResigns = func(st *bg.State) bool {
		return st.Board.Borne(bg.Opponent, st.Variant) >= 4
	}
	f.play()
	if len(f.resigned) != 1 || f.resigned[0] != "accept" {
		t.Fatalf("the bridge answered alice's resignations %v, want accept", f.resigned)
	}
	if st := f.rb.State(); st.GameState != bg.GameResigned || st.Winner != 0 {
		t.Fatalf("the game ended %v won by %d, want by resignation to the bot", st.GameState, st.Winner)
	}
	finished(t, f, b, done)
}

// A bridge with no saved state joins alice's resumed match (alice on
// roll): it plays it from the boards, counts it when it ends, writes no
// record it could not keep, and stops after its one match.
func TestTranscriptResumeWithoutState(t *testing.T) {
	srv := newScriptServer(t)
	b, logs, done := runBridge(t, srv, nil)
	c := srv.accept(t)
	c.login("alice")
	f := newFakeFIBS(t, c, 1)
	// The match so far, unknown to the bridge: an opening and a move each.
	f.must(f.rb.Roll(1, 3, 1))
	f.must(f.rb.Play(1, f.rb.State().LegalMoves()[0]))
	f.must(f.rb.Roll(0, 6, 5))
	f.must(f.rb.Play(0, f.rb.State().LegalMoves()[0]))
	c.send("alice wants to resume a saved match with you.")
	c.expect("join alice")
	f.say("You are now playing with alice. Your running match was loaded.", f.board())
	if !f.play() {
		t.Fatal("cut")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("bridge: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the bridge did not stop after its one match")
	}
	if b.Played() != 1 || !strings.Contains(logs.String(), "played from the boards, no record") {
		t.Fatalf("the bridge counted %d matches", b.Played())
	}
}
