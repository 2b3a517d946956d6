package bgammon_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/mat/mattest"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/record/recordtest"
	"github.com/gamemill/gamemill/internal/peertest"
	"github.com/gamemill/gamemill/internal/syncbuf"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol/bgammon"
	"github.com/gamemill/gamemill/protocol/bgammon/bgammontest"
	"github.com/gamemill/gamemill/protocol/bgcmd"
)

// scripted is the opponent: bgbot's moves, a double at its first
// chance, the first double taken and every later one dropped, and a
// resignation once the bot has borne off eight checkers and it none.
type scripted struct {
	bgammon.Engine
	mu             sync.Mutex
	doubled, taken bool
}

func (s *scripted) Double(_ context.Context, st *bg.State) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.doubled || !st.CanDouble() {
		return false, nil
	}
	s.doubled = true
	return true, nil
}

func (s *scripted) Take(context.Context, *bg.State) (bg.Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.taken {
		return bg.Drop, nil
	}
	s.taken = true
	return bg.Take, nil
}

func (s *scripted) Resign(_ context.Context, st *bg.State) (bg.Result, error) {
	b := st.Board
	if b.Borne(bg.Opponent, bg.Standard) >= 8 && b.Borne(bg.OnRoll, bg.Standard) == 0 {
		return bg.Backgammon, nil
	}
	return bg.NoResult, nil
}

// bgbot is the bot under test: bgbot in-process behind the backgammon
// command set, asked through the player package as the ringmaster asks.
func bgbot(t *testing.T) bgammon.Engine {
	t.Helper()
	var f gtpengine.Factory
	srv, err := f.Server([]string{"--level", "heuristic"})
	if err != nil {
		t.Fatal(err)
	}
	pl := player.NewInProcess(srv, player.WithTimeout(time.Minute))
	t.Cleanup(func() { pl.Close() })
	return bgammon.CommandEngine{C: bgcmd.NewClient(pl)}
}

type run struct {
	d   *bgammon.Driver
	log *syncbuf.Buffer
	err chan error
}

func start(ctx context.Context, t *testing.T, addr, user string, pol bgammon.Policy, records string, eng bgammon.Engine) *run {
	t.Helper()
	r := &run{log: &syncbuf.Buffer{}, err: make(chan error, 1)}
	r.d = bgammon.NewDriver(bgammon.Options{
		Server: addr, Login: bgammon.Login{Client: "gamemill-test/en", User: user, Password: "pw " + user},
		Policy: pol, Matches: 1, Records: records, MaxBackoff: 200 * time.Millisecond,
		ListEvery: 50 * time.Millisecond, RejoinWait: 5 * time.Second,
		Client: bgammon.ClientOptions{KeepAlive: 100 * time.Millisecond},
		Logf: func(format string, args ...any) {
			fmt.Fprintf(r.log, user+": "+format+"\n", args...)
		},
	}, eng)
	go func() { r.err <- r.d.Run(ctx) }()
	return r
}

func (r *run) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case err := <-r.err:
		if err != nil {
			t.Fatalf("driver: %v\n%s", err, r.log.String())
		}
	case <-time.After(d):
		t.Fatalf("driver still running after %v\n%s", d, r.log.String())
	}
}

// slow bounds a whole match: a few seconds on an idle machine, minutes
// under the race detector on a loaded one. A hang still fails.
const slow = 5 * time.Minute

func swapped(m *record.Match) *record.Match {
	c := m.Clone()
	c.Players = [2]string{m.Players[1], m.Players[0]}
	for i := range c.Games {
		g := &c.Games[i]
		g.ScoreBefore = [2]int{g.ScoreBefore[1], g.ScoreBefore[0]}
		g.Winner = 1 - g.Winner
		for j := range g.Actions {
			g.Actions[j].Player = 1 - g.Actions[j].Player
		}
	}
	return c
}

// playMatch has the bot create a match that the scripted opponent
// joins, plays it to the end, and checks that the bot's record is the
// server's, move for move. It returns the bot's record file.
func playMatch(t *testing.T, opt bgammontest.Options, ws bool, length int) (string, *bgammontest.Server, *run) {
	t.Helper()
	opt.PingEvery, opt.IdleTimeout = 50*time.Millisecond, 3*time.Second
	opt.Logf = t.Logf
	srv, err := bgammontest.Start(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	addr := srv.TCPAddr()
	if ws {
		addr = srv.WSAddr()
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	bot := start(ctx, t, addr, "bot", bgammon.Policy{Create: length}, dir, bgbot(t))
	opp := start(ctx, t, addr, "rival", bgammon.Policy{Join: true}, "", &scripted{Engine: bgbot(t)})
	defer func() {
		if t.Failed() {
			t.Log(opp.log.String())
		}
	}()
	bot.wait(t, slow)
	defer func() {
		if t.Failed() {
			t.Log(opp.log.String())
		}
	}()
	opp.wait(t, time.Minute)

	if bot.d.Played() != 1 || len(bot.d.Records) != 1 {
		t.Fatalf("bot played %d matches, wrote %q\n%s", bot.d.Played(), bot.d.Records, bot.log.String())
	}
	finished := srv.Finished()
	if len(finished) != 1 {
		t.Fatalf("server finished %d matches", len(finished))
	}
	got := recordtest.Replayed(t, recordtest.Load(t, mat.Read, bot.d.Records[0]))
	want := finished[0]
	if want.Players[0] != "bot" {
		want = swapped(want)
	}
	if got.Players != [2]string{"bot", "rival"} || got.MatchLength != length {
		t.Fatalf("record: players %q, length %d", got.Players, got.MatchLength)
	}
	if got.Comment != "" {
		t.Errorf("record comment %q", got.Comment)
	}
	if d := record.DiffGames(want, got); d != "" {
		t.Fatalf("the bot's record differs from the server's: %s\n%s", d, bot.log.String())
	}
	if sc := got.FinalScore(); sc[0] < length && sc[1] < length {
		t.Fatalf("the match did not finish: %v", sc)
	}
	if srv.Pongs("bot") == 0 {
		t.Errorf("the bot never answered a ping")
	}
	if strings.Contains(bot.log.String(), "pw bot") {
		t.Errorf("the password was logged")
	}
	if os.Getenv("BGAMMON_TEST_LOG") != "" {
		t.Log(bot.log.String())
		b, _ := os.ReadFile(bot.d.Records[0])
		t.Log(string(b))
	}
	return bot.d.Records[0], srv, bot
}

// The bot, seated second (the flipped view), plays a 5-point match over
// TCP against a scripted opponent who doubles; its first move is refused
// and it answers with a legal one.
func TestBgammonMatchOverTCP(t *testing.T) {
	_, _, bot := playMatch(t, bgammontest.Options{Seed: 3, RefuseMoves: map[string]int{"bot": 1}}, false, 5)
	if !strings.Contains(bot.log.String(), "failedmove") {
		t.Errorf("no move was refused:\n%s", bot.log.String())
	}
}

// Over WebSocket, with the second player's board sent unflipped
// (PlayerNumber 2), and the bot seated first.
func TestBgammonMatchOverWebSocket(t *testing.T) {
	playMatch(t, bgammontest.Options{Seed: 5, RawSecondView: true}, true, 3)
	playMatch(t, bgammontest.Options{Seed: 6, RawSecondView: true, CreatorFirst: true}, true, 3)
}

// The server drops the bot's connection in the middle of a game; the
// bot reconnects, the server rejoins it to the match, and the match
// ends recorded whole.
func TestBgammonReconnectResumes(t *testing.T) {
	_, srv, bot := playMatch(t, bgammontest.Options{Seed: 7, DropAfterMoves: map[string]int{"bot": 3}}, false, 3)
	if !srv.Dropped("bot") {
		t.Fatalf("the connection was never dropped")
	}
	if !strings.Contains(bot.log.String(), "reconnecting") {
		t.Errorf("no reconnection logged:\n%s", bot.log.String())
	}
}

// gnubg imports the bot's record and exports the same games.
func TestBgammonRecordImportsIntoGnubg(t *testing.T) {
	peertest.Gnubg(t)
	file, _, _ := playMatch(t, bgammontest.Options{Seed: 11}, false, 3)
	theirs := mattest.GnubgReexport(t, file)
	ours := recordtest.Replayed(t, recordtest.Load(t, mat.Read, file))
	if d := record.DiffGames(ours, theirs); d != "" {
		t.Errorf("gnubg's export differs from the record: %s", d)
	}
}

// badMoves plays an illegal first move, then bgbot's.
type badMoves struct {
	bgammon.Engine
	mu   sync.Mutex
	done bool
}

func (b *badMoves) Move(ctx context.Context, st *bg.State) (bg.Move, error) {
	b.mu.Lock()
	first := !b.done
	b.done = true
	b.mu.Unlock()
	if first {
		return bg.Move{N: 1, Steps: [4]bg.Step{{From: 3, To: 1}}}, nil
	}
	return b.Engine.Move(ctx, st)
}

// failing cannot decide anything.
type failing struct{}

func (failing) Take(context.Context, *bg.State) (bg.Answer, error) {
	return bg.Take, errors.New("engine gone")
}
func (failing) Resign(context.Context, *bg.State) (bg.Result, error) {
	return bg.NoResult, errors.New("engine gone")
}
func (failing) Move(context.Context, *bg.State) (bg.Move, error) {
	return bg.Move{}, errors.New("engine gone")
}
func (failing) Double(context.Context, *bg.State) (bool, error) {
	return false, errors.New("engine gone")
}

// An engine move the rules refuse is never sent: the bot plays a legal
// one and the match goes on; an engine that fails stops the driver.
func TestBgammonEngineMoves(t *testing.T) {
	srv, err := bgammontest.Start(bgammontest.Options{Seed: 9, CreatorFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bot := start(ctx, t, srv.TCPAddr(), "bot", bgammon.Policy{Create: 1}, t.TempDir(), &badMoves{Engine: bgbot(t)})
	opp := start(ctx, t, srv.TCPAddr(), "rival", bgammon.Policy{Join: true}, "", bgbot(t))
	bot.wait(t, slow)
	opp.wait(t, time.Minute)
	if !strings.Contains(bot.log.String(), "is not legal") {
		t.Errorf("the illegal move was not noticed:\n%s", bot.log.String())
	}
	if len(srv.Finished()) != 1 {
		t.Fatalf("no match finished")
	}

	srv2, err := bgammontest.Start(bgammontest.Options{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	broken := start(ctx, t, srv2.TCPAddr(), "bot", bgammon.Policy{Create: 3}, "", failing{})
	start(ctx, t, srv2.TCPAddr(), "rival", bgammon.Policy{Join: true}, "", bgbot(t))
	select {
	case err := <-broken.err:
		var ee *bgammon.EngineError
		if !errors.As(err, &ee) {
			t.Fatalf("err = %v, want an EngineError", err)
		}
	case <-time.After(slow):
		t.Fatalf("the driver played on without its engine\n%s", broken.log.String())
	}
}

// An opponent who joins and leaves before the first roll leaves the
// seat to the next, and the record names the one who played.
func TestBgammonOpponentLeavesBeforeTheFirstRoll(t *testing.T) {
	srv, err := bgammontest.Start(bgammontest.Options{Seed: 13})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	bot := start(ctx, t, srv.TCPAddr(), "bot", bgammon.Policy{Create: 1}, dir, bgbot(t))
	// A passer-by logs in, waits for the bot's match, then joins and
	// leaves it in one write, which the server handles at once.
	raw, err := net.Dial("tcp", strings.TrimPrefix(srv.TCPAddr(), "bgammon+tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	lines := bufio.NewScanner(raw)
	fmt.Fprintf(raw, "loginjson t/en ghost x\n")
	for listed := false; !listed; {
		fmt.Fprintf(raw, "list\n")
		for lines.Scan() {
			ev, _ := bgammon.ParseEvent(lines.Text())
			if l, ok := ev.(bgammon.List); ok {
				listed = len(l.Games) == 1 && l.Games[0].Players == 1
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := raw.Write([]byte("join 1\nleave\n")); err != nil {
		t.Fatal(err)
	}
	opp := start(ctx, t, srv.TCPAddr(), "rival", bgammon.Policy{Join: true}, "", bgbot(t))
	bot.wait(t, slow)
	opp.wait(t, time.Minute)
	got := recordtest.Replayed(t, recordtest.Load(t, mat.Read, bot.d.Records[0]))
	if got.Players != [2]string{"bot", "rival"} || got.Comment != "" {
		t.Fatalf("record: players %q, comment %q\n%s", got.Players, got.Comment, bot.log.String())
	}
	if !strings.Contains(bot.log.String(), "ghost left before the first roll") {
		t.Errorf("the passer-by was not seen leaving:\n%s", bot.log.String())
	}
}

// A bot restarted in the middle of a match is put back in it by the
// server, plays it to the end and counts it; the record it could not
// follow from the start is not written.
func TestBgammonRestartedBotFinishesTheMatch(t *testing.T) {
	srv, err := bgammontest.Start(bgammontest.Options{Seed: 17, DropAfterMoves: map[string]int{"bot": 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	firstCtx, stopFirst := context.WithCancel(ctx)
	first := bgammon.NewDriver(bgammon.Options{Server: srv.TCPAddr(), Login: bgammon.Login{Client: "t/en", User: "bot"},
		Policy: bgammon.Policy{Create: 3}, Matches: 1, MaxBackoff: time.Minute}, bgbot(t))
	firstDone := make(chan error, 1)
	go func() { firstDone <- first.Run(firstCtx) }()
	opp := start(ctx, t, srv.TCPAddr(), "rival", bgammon.Policy{Join: true}, "", bgbot(t))
	for !srv.Dropped("bot") {
		select {
		case err := <-firstDone:
			t.Fatalf("the first bot ended before its connection was dropped: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	stopFirst() // it waits a second before reconnecting: stopped before then
	<-firstDone
	dir := t.TempDir()
	second := start(ctx, t, srv.TCPAddr(), "bot", bgammon.Policy{Create: 3}, dir, bgbot(t))
	second.wait(t, slow)
	opp.wait(t, time.Minute)
	if second.d.Played() != 1 || len(second.d.Records) != 0 || len(srv.Finished()) != 1 {
		t.Fatalf("played %d, records %q, server finished %d\n%s", second.d.Played(), second.d.Records, len(srv.Finished()), second.log.String())
	}
	if !strings.Contains(second.log.String(), "in progress when the bot arrived") {
		t.Errorf("no word of the match in progress:\n%s", second.log.String())
	}
}
