package bgammon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/online"
)

// Engine makes a bot's decisions on a state in which it is player 0.
type Engine interface {
	// Move returns a legal move for the player on roll.
	Move(ctx context.Context, st *bg.State) (bg.Move, error)
	// Double reports whether the player on roll doubles.
	Double(ctx context.Context, st *bg.State) (bool, error)
	// Take answers the double on offer.
	Take(ctx context.Context, st *bg.State) (bg.Answer, error)
	// Resign returns the level the player on roll resigns at, or
	// bg.NoResult to play on.
	Resign(ctx context.Context, st *bg.State) (bg.Result, error)
}

// CommandEngine is an engine that speaks the backgammon command set
// (protocol/bgcmd), asked as the ringmaster's referee asks it: the whole
// state with set_position, then the decision, checked against the rules.
type CommandEngine struct{ C *bgcmd.Client }

func (e CommandEngine) Move(ctx context.Context, st *bg.State) (bg.Move, error) {
	return e.C.DecideMove(ctx, st)
}
func (e CommandEngine) Double(ctx context.Context, st *bg.State) (bool, error) {
	return e.C.DecideDouble(ctx, st)
}
func (e CommandEngine) Take(ctx context.Context, st *bg.State) (bg.Answer, error) {
	return e.C.DecideAnswer(ctx, st)
}
func (e CommandEngine) Resign(ctx context.Context, st *bg.State) (bg.Result, error) {
	return e.C.DecideResign(ctx, st)
}

// Policy says which matches the bot plays.
type Policy struct {
	Create    int    // create public matches of this many points (0: create none)
	MatchName string // the name of created matches ("" lets the server name them)
	Join      bool   // join open public matches
	MaxLength int    // join matches no longer than this (0: any length)
}

// Options configure a Driver.
type Options struct {
	Server     string // bgammon+tcp://HOST:PORT, bgammon+ws://HOST/PATH, bgammon+wss://HOST/PATH
	Login      Login
	Policy     Policy
	Matches    int    // stop after this many matches (0: never)
	Records    string // directory for a .mat per match ("": none written)
	MaxBackoff time.Duration
	ListEvery  time.Duration // how often the list is asked for while looking for a match to join
	RejoinWait time.Duration // how long a match in progress waits for the server to rejoin it after a reconnection
	Client     ClientOptions
	Logf       func(format string, args ...any)
}

// Driver plays matches on a bgammon server for an engine.
type Driver struct {
	opt    Options
	eng    Engine
	played int
	me     string
	m      *match
	// Records lists the .mat files written, in order.
	Records []string
}

// match is the match the bot plays: its record, the last board, and
// what was last sent, so that a board sent twice is not answered twice.
type match struct {
	id       int
	opp      string
	rec      *recorder
	last     *GameState
	sentKey  string // the board last answered
	lastKey  string // the board last seen
	moveSent bool   // the move and ok of this turn are sent; the turn's boards are echoes
	refused  int    // moves the server refused this turn
	present  bool   // joined on this connection
}

// NewDriver returns a driver; Run plays.
func NewDriver(opt Options, eng Engine) *Driver {
	if opt.MaxBackoff <= 0 {
		opt.MaxBackoff = 30 * time.Second
	}
	if opt.ListEvery <= 0 {
		opt.ListEvery = 5 * time.Second
	}
	if opt.RejoinWait <= 0 {
		opt.RejoinWait = 10 * time.Second
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	if opt.Client.Logf == nil {
		opt.Client.Logf = opt.Logf
	}
	return &Driver{opt: opt, eng: eng}
}

// Played is the number of matches finished.
func (d *Driver) Played() int { return d.played }

// MaxRefusedLogins is how many refused logins in a row end Run.
const MaxRefusedLogins = 8

// maxRefused is how many refused moves in one turn end the connection
// (a fresh login starts the turn over) rather than loop.
const maxRefused = 12

// EngineError is an engine that failed to decide: Run stops on it rather
// than play on with an engine that cannot answer.
type EngineError struct {
	Decision string
	Err      error
}

func (e *EngineError) Error() string { return fmt.Sprintf("engine (%s): %v", e.Decision, e.Err) }
func (e *EngineError) Unwrap() error { return e.Err }

// errDone ends a connection once the matches asked for are played.
var errDone = errors.New("matches played")

// Run connects, plays, and reconnects with backoff after a lost
// connection, until Matches matches are played (nil) or ctx ends
// (ctx.Err()). A login refused MaxRefusedLogins times in a row is final:
// one refusal may be the server still holding the connection just lost
// ("That username is already in use"), until its deadline drops it.
func (d *Driver) Run(ctx context.Context) error {
	if d.opt.Policy.Create <= 0 && !d.opt.Policy.Join {
		return fmt.Errorf("policy: neither create nor join")
	}
	first := min(time.Second, d.opt.MaxBackoff)
	backoff := first
	refused := 0
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c, err := Connect(ctx, d.opt.Server, d.opt.Login, d.opt.Client)
		if err == nil {
			backoff = first
			err = d.session(ctx, c)
			c.Close()
			if errors.Is(err, errDone) {
				return nil
			}
			if ee := (*EngineError)(nil); errors.As(err, &ee) {
				return err
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, ErrLoginRefused) {
			if refused++; refused >= MaxRefusedLogins {
				return err
			}
		} else {
			refused = 0
		}
		d.opt.Logf("%v; reconnecting in %v", err, backoff)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, d.opt.MaxBackoff)
	}
}

// session plays on one connection until it ends.
func (d *Driver) session(ctx context.Context, c *Client) error {
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	d.me = strings.ToLower(c.Welcome().Player)
	d.opt.Logf("logged in as %s", d.me)
	// A match in progress is rejoined by the server after the login;
	// wait for it before looking for another.
	seekAt := time.Now().Add(500 * time.Millisecond)
	if d.m != nil {
		seekAt = time.Now().Add(d.opt.RejoinWait)
		d.m.present, d.m.sentKey, d.m.moveSent = false, "", false
	}
	seeking := false // a create or join is in flight
	tried := map[int]bool{}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	lastList := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if d.m != nil && !d.m.present && time.Now().After(seekAt) {
				if d.m.rec == nil {
					// No opponent had come: nothing was played.
					d.opt.Logf("match %d, never begun, is gone after the reconnection", d.m.id)
					d.m = nil
					continue
				}
				// The match was lost while away: the server did not rejoin it.
				d.opt.Logf("match with %s not rejoined after the reconnection; counted as abandoned", d.m.opp)
				d.m.rec.fail("the server did not rejoin the match")
				if err := d.finish(c, "abandoned"); err != nil {
					return err
				}
				continue
			}
			if d.m != nil || seeking || time.Now().Before(seekAt) {
				continue
			}
			if d.opt.Policy.Create > 0 {
				seeking = true
				if err := c.Send(CreateCommand(d.opt.Policy.Create, d.opt.Policy.MatchName)); err != nil {
					return err
				}
			} else if time.Since(lastList) >= d.opt.ListEvery {
				lastList = time.Now()
				if err := c.Send(CmdList); err != nil {
					return err
				}
			}
		case ev, ok := <-c.Events():
			if !ok {
				return c.Err()
			}
			switch e := ev.(type) {
			case Joined:
				seeking = false
				if strings.EqualFold(e.Player, d.me) {
					if d.m == nil {
						d.m = &match{}
					}
					if d.m.id != 0 && d.m.id != e.GameID {
						d.opt.Logf("joined match %d while match %d was in play", e.GameID, d.m.id)
					}
					d.m.id, d.m.present = e.GameID, true
				} else if d.m != nil {
					d.m.opp = strings.ToLower(e.Player)
					d.opt.Logf("%s joined match %d", e.Player, d.m.id)
				}
			case BoardEvent:
				if d.m == nil || !d.m.present {
					continue
				}
				st := e.State.Canonical()
				if err := d.board(ctx, c, &st); err != nil {
					return err
				}
			case Win:
				if d.m != nil && d.m.rec != nil {
					d.m.rec.win(e)
				}
				d.opt.Logf("%s wins the game (%d points)", e.Player, max(e.Points, 1))
			case Failed:
				d.opt.Logf("%s: %s", e.Type, e.Reason)
				switch e.Type {
				case "failedcreate", "failedjoin":
					seeking = false
					seekAt = time.Now().Add(d.opt.ListEvery)
				case "failedmove", "failedok", "failedroll":
					// Take back anything half played and decide again on
					// a fresh board.
					if d.m != nil {
						d.m.sentKey, d.m.moveSent = "", false
						if e.Type == "failedmove" {
							d.m.refused++
						}
						if d.m.refused > maxRefused {
							return fmt.Errorf("the server refused %d moves in one turn", d.m.refused)
						}
					}
					if err := c.Send(CmdReset); err != nil {
						return err
					}
					if err := c.Send(CmdBoard); err != nil {
						return err
					}
				}
			case List:
				if d.m != nil || seeking || !d.opt.Policy.Join || d.opt.Policy.Create > 0 {
					continue
				}
				for _, g := range e.Games {
					if g.Players != 1 || g.Password || tried[g.ID] ||
						(d.opt.Policy.MaxLength > 0 && g.Points > d.opt.Policy.MaxLength) {
						continue
					}
					tried[g.ID] = true
					seeking = true
					if err := c.Send(JoinCommand(g.ID)); err != nil {
						return err
					}
					break
				}
			case Left:
				if d.m == nil {
					continue
				}
				switch {
				case strings.EqualFold(e.Player, d.me) && d.m.rec == nil:
					d.m = nil // out of a match nobody had joined
				case strings.EqualFold(e.Player, d.me):
					// The server took us out of an unfinished match:
					// the opponent stayed away too long.
					d.m.rec.forfeit(1, "left the match")
					if err := d.finish(c, "ended by the server"); err != nil {
						return err
					}
				case d.m.rec != nil && d.m.rec.b.State().GameState == bg.GameNone:
					// Gone before the first roll: the seat is free for
					// another opponent, with a record of its own.
					d.opt.Logf("%s left before the first roll", e.Player)
					d.m.rec, d.m.opp = nil, ""
				default:
					d.opt.Logf("%s left the match; waiting for a return", e.Player)
				}
			case Notice:
				d.opt.Logf("notice: %s", e.Message)
			}
		}
	}
}

// board handles a canonical board of the bot's match: it feeds the
// record, ends a finished match, and answers a board that asks the bot
// for a decision.
func (d *Driver) board(ctx context.Context, c *Client, st *GameState) error {
	m := d.m
	if st.Variant != 0 || st.Spectating {
		d.opt.Logf("match %d: variant %d, spectating %v; leaving", m.id, st.Variant, st.Spectating)
		d.m = nil
		return c.Send(CmdLeave)
	}
	if st.Player2.Name != "" {
		m.opp = strings.ToLower(st.Player2.Name)
	}
	if m.rec == nil && m.opp != "" {
		if st.Player1.Points != 0 || st.Player2.Points != 0 || (st.Turn != 0 && !startPosition(st)) {
			// A match begun before this program started: played on, but
			// its record starts here, out of step.
			m.rec = newRecorder(d.me, m.opp, st.Points)
			m.rec.fail("the match was in progress when the bot arrived")
		} else {
			m.rec = newRecorder(d.me, m.opp, st.Points)
		}
	}
	if m.rec != nil {
		before := m.rec.err
		m.rec.board(st)
		if m.rec.err != nil && before == nil {
			d.opt.Logf("record out of step: %v", m.rec.err)
		}
	}
	m.last = st
	if st.MatchOver() {
		return d.finish(c, fmt.Sprintf("%d-%d", st.Player1.Points, st.Player2.Points))
	}
	return d.act(ctx, c, st)
}

// findLegal returns the legal move that leads where mv does; false for a
// move the rules refuse (N < 0 is none at all).
func findLegal(b bg.Board, legal []bg.Move, boards []bg.Board, mv bg.Move) (bg.Move, bool) {
	if mv.N < 0 || int(mv.N) > len(mv.Steps) {
		return bg.Move{}, false
	}
	for _, s := range mv.StepList() {
		if s.From < 1 || s.From > bg.BarIndex+1 || s.To < 0 || s.To >= s.From {
			return bg.Move{}, false
		}
	}
	target := b.Apply(mv)
	for i := range boards {
		if boards[i] == target {
			return legal[i], true
		}
	}
	return bg.Move{}, false
}

// startPosition reports whether the board is the standard starting one.
func startPosition(st *GameState) bool {
	me, opp := st.Sides()
	return bg.Board{bg.Opponent: opp, bg.OnRoll: me} == bg.Standard.StartBoard()
}

// act sends the bot's decision when the board asks for one.
func (d *Driver) act(ctx context.Context, c *Client, st *GameState) error {
	m := d.m
	if st.Winner != 0 || st.Player2.Name == "" {
		return nil
	}
	if st.Turn != 1 || st.Roll1 == 0 {
		m.moveSent, m.refused = false, 0
	}
	key := fmt.Sprint(st.Player1.Points, st.Player2.Points, st.Turn, st.Roll1, st.Roll2, len(st.Moves),
		st.DoubleOffered, st.DoubleValue, st.DoublePlayer, st.Board)
	// A board sent again (after a reconnection, or an echo) is not
	// answered again; the same board after others is a new turn (two
	// dances with the same dice leave the same board).
	prev := m.lastKey
	m.lastKey = key
	if key == m.sentKey && key == prev {
		return nil
	}
	send := func(cmds ...string) error {
		m.sentKey = key
		for _, cmd := range cmds {
			if err := c.Send(cmd); err != nil {
				return err
			}
		}
		return nil
	}
	switch {
	case st.Turn == 0:
		if st.Roll1 == 0 {
			return send(CmdRoll)
		}
	case st.Turn == 2:
		if !st.DoubleOffered {
			return nil
		}
		es, _ := st.State()
		a, err := online.BeaverAsTake(d.eng.Take(ctx, es))
		if errors.Is(err, online.ErrBeaverTaken) {
			d.opt.Logf("%v", err)
			err = nil
		}
		if err != nil {
			return &EngineError{Decision: "take", Err: err}
		}
		if a == bg.Drop {
			d.opt.Logf("drops the double to %d", 2*st.DoubleValue)
			return send(CmdResign)
		}
		return send(CmdOK)
	case st.DoubleOffered:
		return nil // our double awaits the answer
	case st.Roll1 == 0:
		es, _ := st.State()
		level, err := d.eng.Resign(ctx, es)
		if err != nil {
			return &EngineError{Decision: "resign", Err: err}
		}
		if level != bg.NoResult && level >= lossLevel(st) {
			d.opt.Logf("resigns (%v)", level)
			return send(CmdResign)
		}
		if st.MayDouble() {
			double, err := d.eng.Double(ctx, es)
			if err != nil {
				return &EngineError{Decision: "double", Err: err}
			}
			if double {
				return send(CmdDouble)
			}
		}
		return send(CmdRoll)
	case m.moveSent:
		return nil // the echo of our own steps
	case len(st.Moves) > 0:
		return send(CmdReset) // steps left over from before a reconnection
	default:
		es, _ := st.State()
		legal, boards := bg.LegalMoves(es.Board, es.Dice[0], es.Dice[1])
		mv, err := d.eng.Move(ctx, es)
		var illegal *bgcmd.IllegalMoveError
		if errors.As(err, &illegal) {
			err = nil
			mv = bg.Move{N: -1}
		}
		if err != nil {
			return &EngineError{Decision: "move", Err: err}
		}
		if found, ok := findLegal(es.Board, legal, boards, mv); ok {
			mv = found
		} else {
			// The rules refuse the engine's move: the opponent is owed a
			// game, so the bot plays the first legal move instead.
			d.opt.Logf("the engine's move is not legal with %d%d; playing %s instead", es.Dice[0], es.Dice[1], bg.Format(es.Board, legal[0]))
			mv = legal[0]
		}
		if m.refused > 1 {
			// The server refused the engine's move more than once: offer
			// it the other legal moves of the roll in turn.
			mv = legal[(m.refused-1)%len(legal)]
			d.opt.Logf("move refused %d times; trying %s", m.refused, bg.Format(es.Board, mv))
		}
		m.moveSent = true
		if mv.N == 0 {
			return send(CmdOK)
		}
		if after := es.Board.Apply(mv); after.OnBoard(bg.OnRoll) == 0 {
			return send(MoveCommand(mv)) // the last checker off ends the game; no ok
		}
		return send(MoveCommand(mv), CmdOK)
	}
	return nil
}

// lossLevel is what resigning now costs on the server: a backgammon with
// a checker on the bar or in the opponent's home board, a gammon with
// none borne off, else a single game.
func lossLevel(st *GameState) bg.Result {
	me, _ := st.Sides()
	if me[24] > 0 {
		return bg.Backgammon
	}
	for p := 18; p < 24; p++ {
		if me[p] > 0 {
			return bg.Backgammon
		}
	}
	if st.Board[SpaceHome] == 0 {
		return bg.Gammon
	}
	return bg.Single
}

// finish counts the match, writes its record and leaves it.
func (d *Driver) finish(c *Client, how string) error {
	m := d.m
	d.m = nil
	d.played++
	d.opt.Logf("match %d with %s over (%s); %d played", m.id, m.opp, how, d.played)
	if m.rec != nil && len(m.rec.match().Games) == 0 {
		d.opt.Logf("no record: %v", m.rec.err)
	} else if m.rec != nil && d.opt.Records != "" {
		path, err := d.writeRecord(m)
		if err != nil {
			d.opt.Logf("record: %v", err)
		} else {
			d.Records = append(d.Records, path)
			d.opt.Logf("record written to %s", path)
		}
	}
	if err := c.Send(CmdLeave); err != nil && !(d.opt.Matches > 0 && d.played >= d.opt.Matches) {
		return err
	}
	if d.opt.Matches > 0 && d.played >= d.opt.Matches {
		return errDone
	}
	return nil
}

func (d *Driver) writeRecord(m *match) (string, error) {
	rec := m.rec.match()
	rec.Date = time.Now().UTC().Format("2006-01-02")
	rec.Place = "bgammon"
	base := fmt.Sprintf("%s-%s-vs-%s-%d", time.Now().UTC().Format("20060102-150405"), online.FileName(d.me), online.FileName(m.opp), m.id)
	path := filepath.Join(d.opt.Records, base+".mat")
	for i := 2; ; i++ {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			break
		}
		path = filepath.Join(d.opt.Records, fmt.Sprintf("%s-%d.mat", base, i))
	}
	if err := mat.WriteFile(path, rec); err != nil {
		return "", err
	}
	return path, nil
}
