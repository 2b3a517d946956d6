// Package agent runs a reinforcement-learning agent as a backgammon
// player. The agent is a program that reads one JSON object a line on its
// standard input and answers one a line on its standard output, in the
// terms of PettingZoo's backgammon environment (package formats/gym):
//
//	{"observation": [198 numbers], "action_mask": [1353 zeros and ones],
//	 "dice": [5, 3], "colour": "white", "player": 0, "step": 0,
//	 "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}
//	{"action": 1044}
//
// The observation is PettingZoo's (gym.EncodeTurn with the turn units
// always [0, 1]), from the board of the player on roll, who plays White
// when it is the match's first player and Black otherwise; the mask lists
// gym.LegalActions. A roll of doubles is two requests, as PettingZoo asks
// for two actions: the second ("step": 1) on the board after the first
// action, with the same dice. An action outside the mask is answered with
// a failure response, which the referee counts as a forfeit, as it does a
// protocol engine's illegal move; a line that is not such an object
// likewise. The agent exiting voids the game.
//
// PettingZoo's environment has no doubling cube: the player never doubles
// and takes every double, and it neither offers nor accepts resignations
// (the referee's default).
package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/gym"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/bgstate"
)

// maxAnswer bounds an answer line from the agent.
const maxAnswer = 64 << 10

// killWait bounds how long a decision in progress may take to end after
// Close.
const killWait = 2 * time.Second

// exitWait is how long Close lets the agent exit by itself once its input
// is closed, before its process group is killed.
const exitWait = 200 * time.Millisecond

// Options configure an agent player.
type Options struct {
	// Argv is the agent's program and arguments.
	Argv []string
	// Dir is its working directory; "" means the caller's.
	Dir string
	// Env holds extra KEY=VALUE entries merged over os.Environ().
	Env []string
	// Stderr receives the agent's standard error; nil discards it.
	Stderr io.Writer
	// Timeout bounds each decision; zero means no limit other than Do's
	// context.
	Timeout time.Duration
	// Transcript, when set, sees every line of our protocol that Do
	// exchanges; AgentTranscript every JSON line exchanged with the agent
	// (sent == true for requests).
	Transcript      func(sent bool, line string)
	AgentTranscript func(sent bool, line string)
}

// Request is what the agent receives for each action.
type Request struct {
	Observation []float32 `json:"observation"`
	ActionMask  []int     `json:"action_mask"`
	Dice        [2]int    `json:"dice"`
	Colour      string    `json:"colour"`
	Player      int       `json:"player"`
	// Step is 0, or 1 for the second action of a roll of doubles.
	Step       int    `json:"step"`
	PositionID string `json:"position_id"`
	MatchID    string `json:"match_id"`
}

// Answer is the agent's reply.
type Answer struct {
	Action *int `json:"action"`
}

// Player is an agent running as a Gamemill player. It implements
// player.Player.
type Player struct {
	opts   Options
	proc   *player.Process
	eng    *engine
	inproc *player.InProcess

	closing   atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ player.Player = (*Player)(nil)

// Launch starts the agent as player.Launch starts an engine (its own
// process group and, where the system allows, cgroup; killed with the
// ringmaster; found again by player.StopStale from Record) and returns
// the player at once; the first decision waits for the agent's first
// answer.
func Launch(ctx context.Context, o Options) (*Player, error) {
	if len(o.Argv) == 0 || o.Argv[0] == "" {
		return nil, errors.New("agent: empty command")
	}
	proc, err := player.Launch(ctx, player.Spec{Argv: o.Argv, Dir: o.Dir, Env: o.Env, Stderr: o.Stderr, GracePeriod: exitWait})
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	p := &Player{opts: o, proc: proc}
	stdin, stdout := proc.Pipes()
	p.eng = newEngine(stdin, stdout, o.AgentTranscript)
	srv := protocol.NewServer("agent", "1")
	bgcmd.Register(srv, p.eng)
	inOpts := []player.InProcessOption{player.WithGracePeriod(killWait)}
	if o.Transcript != nil {
		inOpts = append(inOpts, player.WithTranscript(o.Transcript))
	}
	p.inproc = player.NewInProcess(srv, inOpts...)
	return p, nil
}

// Do sends one command of our protocol. Errors are *protocol.FailureError
// for a failure response (an illegal or malformed action among them), and
// errors wrapping protocol.ErrTimeout or protocol.ErrEngineExited when the
// agent did not answer in time or went away.
func (p *Player) Do(ctx context.Context, command string, args ...string) (string, error) {
	return p.eng.Do(ctx, "agent", p.closing.Load, p.opts.Timeout, p.inproc, command, args...)
}

// Close closes the agent's input, stops its process as player.Process
// does (a short wait, then its process group killed) and stops the
// in-process server. It is safe to call more than once.
func (p *Player) Close() error {
	p.closeOnce.Do(func() {
		p.closing.Store(true)
		p.eng.shutdown()
		p.closeErr = errors.Join(p.proc.Close(), p.inproc.Close())
	})
	return p.closeErr
}

// CPUTime is the agent process's user and system time once it has been
// reaped (after Close), zero before.
func (p *Player) CPUTime() time.Duration { return p.proc.CPUTime() }

// Record is what a later run needs to stop what is left of the agent
// after this one died without closing it (player.StopStale).
func (p *Player) Record() player.Record { return p.proc.Record() }

// engine implements bgcmd.Engine by asking the agent for actions.
type engine struct {
	bgstate.Keeper
	in   io.WriteCloser
	wire func(sent bool, line string)

	lines chan string // the agent's answer lines; closed when its output ends

	player.Link
}

func newEngine(in io.WriteCloser, out io.Reader, wire func(bool, string)) *engine {
	e := &engine{in: in, wire: wire, lines: make(chan string)}
	go func() {
		defer close(e.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 4096), maxAnswer)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
	}()
	return e
}

func (e *engine) shutdown() {
	e.Break(fmt.Errorf("agent closed: %w", protocol.ErrEngineExited))
	e.in.Close()
}

// ask sends one request and reads one answer line. A transport failure
// or a timeout breaks the engine for good: the agent is out of step.
func (e *engine) ask(ctx context.Context, req *Request) (int, error) {
	if err := e.Fatal(); err != nil {
		return 0, err
	}
	b, err := json.Marshal(req)
	if err != nil {
		return 0, err
	}
	if e.wire != nil {
		e.wire(true, string(b))
	}
	if _, err := e.in.Write(append(b, '\n')); err != nil {
		return 0, e.Break(fmt.Errorf("writing to the agent: %v: %w", err, protocol.ErrEngineExited))
	}
	call := e.CallContext()
	if call == nil {
		call = ctx
	}
	var line string
	select {
	case l, ok := <-e.lines:
		if !ok {
			return 0, e.Break(fmt.Errorf("the agent's output ended: %w", protocol.ErrEngineExited))
		}
		line = l
	case <-ctx.Done():
		return 0, e.Break(fmt.Errorf("agent: %w", protocol.ErrEngineExited))
	case <-call.Done():
		return 0, e.Break(fmt.Errorf("no answer from the agent: %w: %w", protocol.ErrTimeout, call.Err()))
	}
	if e.wire != nil {
		e.wire(false, line)
	}
	var ans Answer
	if err := json.Unmarshal([]byte(line), &ans); err != nil || ans.Action == nil {
		return 0, fmt.Errorf("the agent answered %.200q, not {\"action\": N}", line)
	}
	return *ans.Action, nil
}

// SetGame implements bgcmd.Engine: PettingZoo's encoding has 15 checkers,
// the standard variant only.
func (e *engine) SetGame(r bgcmd.GameRules) error {
	rules, err := r.Rules()
	if err != nil {
		return err
	}
	if rules.Variant != backgammon.Standard {
		return fmt.Errorf("an agent plays only standard backgammon (PettingZoo's encoding), not %s", r.Variant)
	}
	return e.Keeper.SetGame(r)
}

// Colour is the PettingZoo colour of the match's player 0 (White) or 1.
func Colour(player int) gym.Colour {
	if player == 0 {
		return gym.White
	}
	return gym.Black
}

// NewRequest is the request for the player on roll of s, whose board is
// b (s.Board, or the board after the first action of doubles), at step.
func NewRequest(s *backgammon.State, b backgammon.Board, step int) *Request {
	c := Colour(s.Move)
	obs := gym.EncodeTurn(b, c, gym.Black)
	mask := make([]int, gym.NumActions)
	for _, a := range gym.LegalActions(b, s.Dice[0], s.Dice[1], c) {
		mask[a] = 1
	}
	pos, mid := gnubgid.Encode(s)
	return &Request{Observation: obs[:], ActionMask: mask, Dice: s.Dice, Colour: c.String(), Player: s.Move, Step: step,
		PositionID: pos, MatchID: mid}
}

// GenMove implements bgcmd.Engine: one action, or two for doubles, each
// checked against its mask.
func (e *engine) GenMove(ctx context.Context) (string, error) {
	s, err := e.Need(backgammon.DecideMove)
	if err != nil {
		return "", err
	}
	steps := 1
	if s.Dice[0] == s.Dice[1] {
		steps = 2
	}
	c := Colour(s.Move)
	b := s.Board
	var move backgammon.Move
	for step := range steps {
		req := NewRequest(s, b, step)
		a, err := e.ask(ctx, req)
		if err != nil {
			return "", err
		}
		if a < 0 || a >= gym.NumActions || req.ActionMask[a] != 1 {
			return "", fmt.Errorf("illegal action %d with %d-%d: not in the action mask (legal: %v)", a, s.Dice[0], s.Dice[1],
				gym.LegalActions(b, s.Dice[0], s.Dice[1], c))
		}
		m, err := gym.DecodeAction(a, s.Dice[0], s.Dice[1], c)
		if err != nil {
			return "", err
		}
		b = b.Apply(m)
		for _, st := range m.StepList() {
			move.Steps[move.N] = st
			move.N++
		}
	}
	if move.N == 0 {
		return bgcmd.NoMove, nil
	}
	text := backgammon.Format(s.Board, move)
	if _, err := s.ParseMove(text); err != nil {
		return "", fmt.Errorf("the actions make %s, not a legal play of %d-%d: %w", text, s.Dice[0], s.Dice[1], err)
	}
	return text, nil
}

// GenCube implements bgcmd.Engine: PettingZoo has no cube; never double.
func (e *engine) GenCube(context.Context) (bool, error) {
	_, err := e.Need(backgammon.DecideCube, backgammon.NeedRoll)
	return false, err
}

// GenTake implements bgcmd.Engine: every double is taken.
func (e *engine) GenTake(context.Context) (backgammon.Answer, error) {
	_, err := e.Need(backgammon.DecideTake)
	return backgammon.Take, err
}
