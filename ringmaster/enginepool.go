package ringmaster

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// enginePool hands each game its engines. A player whose restart is
// per_game gets a fresh process for every game, closed when the game
// ends; one whose restart is on_error or never keeps its process between
// games, one process per worker slot, player code and seat occurrence
// (the second seat of a player that plays itself), so that no two games
// running at once, and no two seats, share a process. The game's referee
// resets a kept engine through the protocol as it starts each game
// (backgammon: set_game; Go: boardsize, clear_board and komi), as it does
// a fresh one. The pool closes what it keeps when the run ends.
type enginePool struct {
	rm     *Ringmaster
	mu     sync.Mutex
	idle   map[engineKey]*keptEngine
	closed bool
}

// engineKey names one kept engine.
type engineKey struct {
	slot int
	code string
	nth  int // 0, or 1 for the second seat of a player that plays itself
}

// keptEngine is one engine process with the per-game parts of its launch
// (stderr and the protocol transcript) switched to each game in turn.
type keptEngine struct {
	pl     player.Player   // as launched: listed in CODE.engines, aliased
	proc   *player.Process // nil when pl is no subprocess
	stderr *switchWriter   // nil when the player discards stderr
	script *switchTranscript
	games  int // games started on it
	// identity is the definition it was launched from: a player made
	// for one game (a tuner's candidate) may reuse a code.
	identity string
	// cpuMark is the CPU time of the process already counted in the games
	// it has played.
	cpuMark time.Duration
}

func newEnginePool(rm *Ringmaster) *enginePool {
	return &enginePool{rm: rm, idle: map[engineKey]*keptEngine{}}
}

// gameEngine is an engine lent to one seat of one game. Its Do notes
// errors, which on_error counts against it; release hands it back.
type gameEngine struct {
	pool   *enginePool
	key    engineKey
	cfg    *control.Player
	k      *keptEngine
	failed bool // a command failed in this game
	broken bool // a command's error left the channel unusable
	done   bool
}

var _ player.Player = (*gameEngine)(nil)

func (g *gameEngine) Do(ctx context.Context, command string, args ...string) (string, error) {
	resp, err := g.k.pl.Do(ctx, command, args...)
	if err != nil {
		g.failed = true
		var fe *protocol.FailureError
		var re *protocol.ReplyError
		if !errors.As(err, &fe) && !errors.As(err, &re) {
			g.broken = true
		}
	}
	return resp, err
}

// DoAll sends a batch through the kept engine (protocol.DoAll), noting
// errors as Do does.
func (g *gameEngine) DoAll(ctx context.Context, cmds []protocol.Command) ([]protocol.Reply, error) {
	replies, err := protocol.DoAll(ctx, g.k.pl, cmds...)
	for _, r := range replies {
		if r.Err != nil {
			g.failed = true
		}
	}
	if err != nil {
		// Failure responses are in the replies: this is a broken channel.
		g.failed, g.broken = true, true
	}
	return replies, err
}

// Close closes the engine for good (a game given up before it started).
func (g *gameEngine) Close() error {
	_, err := g.release(gameEnd{abandoned: true})
	return err
}

// CPUTime is the CPU used in this game so far, once it is released.
func (g *gameEngine) CPUTime() time.Duration { return 0 }

// acquire returns the engine for seat nth of player p in a game played by
// worker slot: the slot's kept engine where there is one and it can still
// take commands, else a newly launched one. o gives the game's stderr
// writer and transcript.
func (ep *enginePool) acquire(ctx context.Context, slot, nth int, p *control.Player, o launchOptions) (*gameEngine, error) {
	key := engineKey{slot: slot, code: p.Code, nth: nth}
	kept := p.Restart == control.RestartOnError || p.Restart == control.RestartNever
	identity := ""
	if kept {
		identity = playerIdentity(ep.rm.Comp.Game, p)
	}
	if kept {
		ep.mu.Lock()
		k := ep.idle[key]
		delete(ep.idle, key)
		ep.mu.Unlock()
		if k != nil && k.proc != nil && k.proc.Usable() && k.identity == identity {
			k.switchTo(o.stderrFor(p), o.transcript)
			k.games++
			return &gameEngine{pool: ep, key: key, cfg: p, k: k}, nil
		}
		if k != nil {
			// Died between games, or made for another definition of the
			// code: closing it reaps it and unlists it.
			k.pl.Close()
		}
	}
	k := &keptEngine{}
	if kept {
		// The launch gets switchable stderr and transcript, so that each
		// game's go to that game.
		if w := o.stderrFor(p); w != nil {
			k.stderr = &switchWriter{w: w}
			o.stderr = k.stderr
		}
		if o.transcript != nil {
			k.script = &switchTranscript{f: o.transcript}
			o.transcript = k.script.write
		}
	}
	pl, err := ep.rm.launch(ctx, p, o)
	if err != nil {
		return nil, err
	}
	k.pl = pl
	k.proc = processOf(pl)
	k.games = 1
	k.identity = identity
	return &gameEngine{pool: ep, key: key, cfg: p, k: k}, nil
}

// gameEnd is how a game went for one seat's engine.
type gameEnd struct {
	forfeited bool // the seat forfeited
	blamed    bool // the game was void and the seat's engine was blamed
	abandoned bool // the game was given up (the engine is closed)
}

// endFor is how the game (outcome and error as the referee's Play
// returned them) went for seat.
func endFor(seat int, out referee.Outcome, err error) gameEnd {
	var ve *referee.VoidError
	return gameEnd{
		forfeited: err == nil && out.ForfeitBy == seat,
		blamed:    errors.As(err, &ve) && ve.Seat == seat,
		abandoned: err != nil && !errors.As(err, &ve),
	}
}

// release ends the engine's part in its game. It returns the CPU the
// engine used in the game (for a process launched for the game, its
// start-up included, as a fresh process per game counts it) and the error
// of closing it, if it is closed: always for restart per_game, and for a
// kept engine when its restart says so (see control.RestartOnError and
// control.RestartNever) or the run is over.
func (g *gameEngine) release(end gameEnd) (time.Duration, error) {
	if g.done {
		return 0, nil
	}
	g.done = true
	ep := g.pool
	if g.keep(end) {
		ep.mu.Lock()
		if !ep.closed {
			ep.idle[g.key] = g.k
			ep.mu.Unlock()
			cpu, err := g.k.proc.CPUSoFar()
			if err != nil {
				// Not readable here: the game at whose end it is closed
				// counts it.
				return 0, nil
			}
			used := max(0, cpu-g.k.cpuMark)
			g.k.cpuMark = max(cpu, g.k.cpuMark)
			return used, nil
		}
		ep.mu.Unlock()
	}
	err := g.k.pl.Close()
	return max(0, g.k.pl.CPUTime()-g.k.cpuMark), err
}

// keep says whether the engine serves the slot's next game.
func (g *gameEngine) keep(end gameEnd) bool {
	if end.abandoned || g.broken || end.blamed || g.k.proc == nil || !g.k.proc.Usable() {
		return false
	}
	switch g.cfg.Restart {
	case control.RestartNever:
		return true
	case control.RestartOnError:
		return !g.failed && !end.forfeited
	}
	return false
}

// close closes every kept engine (at once, each in its own goroutine:
// each may take its grace period to go) and turns later releases into
// closes.
func (ep *enginePool) close() {
	ep.mu.Lock()
	ep.closed = true
	idle := ep.idle
	ep.idle = map[engineKey]*keptEngine{}
	ep.mu.Unlock()
	var wg sync.WaitGroup
	for _, k := range idle {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.pl.Close()
		}()
	}
	wg.Wait()
}

// processOf finds the subprocess under a launched player's wrappers.
func processOf(p player.Player) *player.Process {
	for {
		switch v := p.(type) {
		case *player.Process:
			return v
		case interface{ Unwrap() player.Player }:
			p = v.Unwrap()
		default:
			return nil
		}
	}
}

func (k *keptEngine) switchTo(stderr io.Writer, transcript func(sent bool, line string)) {
	if k.stderr != nil && stderr != nil {
		k.stderr.set(stderr)
	}
	if k.script != nil && transcript != nil {
		k.script.set(transcript)
	}
}

// switchWriter writes to the writer set last.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) set(w io.Writer) {
	s.mu.Lock()
	s.w = w
	s.mu.Unlock()
}

func (s *switchWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// switchTranscript passes protocol lines to the transcript set last.
type switchTranscript struct {
	mu sync.Mutex
	f  func(sent bool, line string)
}

func (s *switchTranscript) set(f func(sent bool, line string)) {
	s.mu.Lock()
	s.f = f
	s.mu.Unlock()
}

func (s *switchTranscript) write(sent bool, line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f(sent, line)
}
