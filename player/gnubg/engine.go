package gnubg

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/bgstate"
)

// maxRequest is the longest line gnubg's external interface reads whole:
// it reads at most 256 bytes, the line feed included, and would take the
// rest of a longer line as the next request.
const maxRequest = 255

// maxAnswer bounds an answer line from gnubg.
const maxAnswer = 4096

// Names written into the board strings; gnubg ignores them.
const (
	nameMe  = "gm"
	nameOpp = "op"
)

// engine implements bgcmd.Engine and bgcmd.Evaluator by
// asking gnubg's external interface over conn. The protocol server calls
// it one command at a time; shutdown and the Link's methods may be
// called from other goroutines.
type engine struct {
	conn  net.Conn
	r     *bufio.Reader
	plies int
	wire  func(sent bool, line string)

	bgstate.Keeper

	player.Link // the Do in progress and what broke the connection
}

func newEngine(conn net.Conn, o Options) *engine {
	return &engine{
		conn: conn, r: bufio.NewReaderSize(conn, maxAnswer), plies: o.Plies, wire: o.ExternalTranscript,
	}
}

// shutdown closes the connection, which makes a request in progress fail.
func (e *engine) shutdown() {
	e.Break(fmt.Errorf("connection closed: %w", protocol.ErrEngineExited))
	e.conn.Close()
}

// gnubgError is an answer of gnubg's starting with "Error": gnubg did not
// understand the request but stays in step.
type gnubgError struct{ text string }

func (g *gnubgError) Error() string { return "gnubg answered " + strconv.Quote(g.text) }

// request sends one line to gnubg and returns its answer line, without the
// line feed, NUL bytes and surrounding blanks. ctx is the server's context
// (cancelled by Close); the context of the Do in progress bounds the
// exchange too. A transport failure breaks the engine for good.
func (e *engine) request(ctx context.Context, line string) (string, error) {
	if err := e.Fatal(); err != nil {
		return "", err
	}
	if len(line) > maxRequest {
		return "", fmt.Errorf("request to gnubg is %d bytes long, longer than the %d its external interface reads", len(line), maxRequest)
	}
	call := e.CallContext()
	var deadline time.Time
	for _, c := range []context.Context{ctx, call} {
		if c == nil {
			continue
		}
		if d, ok := c.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
			deadline = d
		}
		stop := context.AfterFunc(c, func() { e.conn.SetDeadline(time.Unix(1, 0)) })
		defer stop()
	}
	if err := e.conn.SetDeadline(deadline); err != nil {
		return "", e.Break(fmt.Errorf("setting the socket deadline: %w", protocol.ErrEngineExited))
	}
	if e.wire != nil {
		e.wire(true, line)
	}
	if _, err := io.WriteString(e.conn, line+"\n"); err != nil {
		return "", e.transportError(ctx, call, "writing to", err)
	}
	ans, err := e.readLine()
	if err != nil {
		return "", e.transportError(ctx, call, "reading from", err)
	}
	if e.wire != nil {
		e.wire(false, ans)
	}
	ans = strings.TrimSpace(strings.ReplaceAll(ans, "\x00", ""))
	if len(ans) >= 5 && strings.EqualFold(ans[:5], "error") {
		return "", &gnubgError{ans}
	}
	return ans, nil
}

// readLine reads up to a line feed or a NUL byte (gnubg ends its own
// board lines with NUL when it is the client), whichever comes first; a NUL
// directly followed by a line feed is one end of line.
func (e *engine) readLine() (string, error) {
	var b []byte
	for {
		c, err := e.r.ReadByte()
		if err != nil {
			return "", err
		}
		if c == '\n' {
			break
		}
		if c == 0 {
			if next, err := e.r.Peek(1); err == nil && next[0] == '\n' {
				e.r.ReadByte()
			}
			break
		}
		if len(b) >= maxAnswer {
			return "", fmt.Errorf("answer longer than %d bytes", maxAnswer)
		}
		b = append(b, c)
	}
	return strings.TrimSuffix(string(b), "\r"), nil
}

func (e *engine) transportError(ctx, call context.Context, what string, err error) error {
	var kind error
	switch {
	case ctx.Err() != nil:
		kind = fmt.Errorf("%w: %w", protocol.ErrEngineExited, ctx.Err())
	case call != nil && errors.Is(call.Err(), context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		kind = protocol.ErrTimeout
	case call != nil && call.Err() != nil:
		kind = call.Err()
	default:
		kind = protocol.ErrEngineExited
	}
	return e.Break(fmt.Errorf("%s gnubg's external interface: %w (%v)", what, kind, err))
}

// SetGame implements bgcmd.Engine. gnubg's external interface
// plays only the standard variant.
func (e *engine) SetGame(r bgcmd.GameRules) error {
	rules, err := r.Rules()
	if err != nil {
		return err
	}
	if rules.Variant != backgammon.Standard {
		return fmt.Errorf("gnubg's external interface plays only standard backgammon, not %s", r.Variant)
	}
	return e.Keeper.SetGame(r)
}

// boardLine writes the FIBS board string of s for player me and the rule
// words gnubg reads after it.
func (e *engine) boardLine(s *backgammon.State, me int) string {
	b := fibsboard.FromState(s, me, nameMe, nameOpp)
	// gnubg 1.07's external interface reads the two score fields of a
	// board without a pending double the other way round from the board
	// strings it writes itself: its evaluations give a player trailing
	// 0-3 to 5 the leader's winning chances, and post-Crawford the leader
	// doubles and the trailer does not. With a double pending (the turn
	// field naming the doubler) it reads them as written. The tests pin
	// both cases down with cube decisions that depend on the score.
	if b.WasDoubled == 0 {
		b.PlayerScore, b.OpponentScore = b.OpponentScore, b.PlayerScore
	}
	onOff := func(v bool) string {
		if v {
			return "on"
		}
		return "off"
	}
	money := s.Money()
	return fmt.Sprintf("%s jacobyrule %s crawfordrule %s beavers %s", b.String(),
		onOff(money && s.Cube && s.Jacoby), onOff(!money && s.Rules.Crawford), onOff(money && s.Cube && s.Beavers))
}

// GenMove implements bgcmd.Engine: it asks gnubg for the move
// of the player on roll and checks it against the legal moves.
func (e *engine) GenMove(ctx context.Context) (string, error) {
	s, err := e.Need(backgammon.DecideMove)
	if err != nil {
		return "", err
	}
	ans, err := e.request(ctx, e.boardLine(s, s.Move))
	if err != nil {
		return "", err
	}
	m, err := s.ParseMove(ans)
	if err != nil {
		return "", fmt.Errorf("gnubg answered %q with %d-%d, which is not a legal move: %w", ans, s.Dice[0], s.Dice[1], err)
	}
	if m.N == 0 {
		return bgcmd.NoMove, nil
	}
	return backgammon.Format(s.Board, m), nil
}

// GenCube implements bgcmd.Engine. A player who may not double
// answers no_double without asking gnubg.
func (e *engine) GenCube(ctx context.Context) (bool, error) {
	s, err := e.Need(backgammon.DecideCube, backgammon.NeedRoll)
	if err != nil {
		return false, err
	}
	if !s.CanDouble() {
		return false, nil
	}
	ans, err := e.request(ctx, e.boardLine(s, s.Move))
	if err != nil {
		return false, err
	}
	switch strings.ToLower(ans) {
	case "double":
		return true, nil
	case "roll", "no_double":
		return false, nil
	}
	return false, fmt.Errorf("gnubg answered %q to a cube decision", ans)
}

// GenTake implements bgcmd.Engine. gnubg answers for the side
// not on turn when the board's was-doubled field is set, which is what
// fibsboard.FromState writes from the taker's view. A beaver where the
// rules allow none becomes a take.
func (e *engine) GenTake(ctx context.Context) (backgammon.Answer, error) {
	s, err := e.Need(backgammon.DecideTake)
	if err != nil {
		return 0, err
	}
	ans, err := e.request(ctx, e.boardLine(s, s.Turn))
	if err != nil {
		return 0, err
	}
	switch strings.ToLower(ans) {
	case "take", "accept":
		return backgammon.Take, nil
	case "drop", "pass", "reject":
		return backgammon.Drop, nil
	case "beaver":
		if s.CanBeaver() {
			return backgammon.Beaver, nil
		}
		return backgammon.Take, nil
	}
	return 0, fmt.Errorf("gnubg answered %q to a take decision", ans)
}

// Evaluate implements bgcmd.Evaluator: gnubg's evaluation at the
// configured depth of the position before the roll, for the player who
// must decide (the match ID's turn owner; while a double is pending that
// is the taker, and the numbers are turned round for it). The first five
// numbers are gnubg's cubeless probabilities. The sixth is gnubg's cubeful
// money equity in money play; in match play, where gnubg would answer a
// match-winning chance, it is the cubeless money equity of the five
// probabilities.
func (e *engine) Evaluate(ctx context.Context) ([6]float64, error) {
	st, err := e.State()
	if err != nil {
		return [6]float64{}, err
	}
	v, err := e.evaluation(ctx, st)
	if err != nil {
		return v, err
	}
	if !st.Money() {
		v[5] = 2*v[0] - 1 + v[1] - v[3] + v[2] - v[4]
	}
	if st.Turn != st.Move {
		v = [6]float64{1 - v[0], v[3], v[4], v[1], v[2], -v[5]}
	}
	return v, nil
}

// evaluation asks gnubg for its cubeful evaluation, at the configured
// depth, of st's position before the roll for the player on roll
// (st.Move), with st's score and cube, and returns gnubg's six numbers:
// the cubeless probabilities and the cubeful equity (a match winning
// chance in a match).
func (e *engine) evaluation(ctx context.Context, st *backgammon.State) ([6]float64, error) {
	var v [6]float64
	c := *st
	c.Dice = [2]int{}
	c.Doubled, c.Turn, c.Resigned = false, c.Move, backgammon.NoResult
	ans, err := e.request(ctx, fmt.Sprintf("evaluation fibsboard %s plies %d cubeful", e.boardLine(&c, c.Move), e.plies))
	if err != nil {
		return v, err
	}
	f := strings.Fields(ans)
	if len(f) != 6 {
		return v, fmt.Errorf("gnubg answered %q to an evaluation: want six numbers", ans)
	}
	for i, w := range f {
		x, err := strconv.ParseFloat(w, 64)
		if err != nil {
			return v, fmt.Errorf("gnubg answered %q to an evaluation: %w", ans, err)
		}
		v[i] = x
	}
	return v, nil
}
