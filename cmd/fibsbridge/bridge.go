package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// options are the bridge's settings.
type options struct {
	Server     string
	User       string
	Password   string // from --password-file; never logged
	Client     string
	Accept     []string // "all" or names
	MaxLength  int      // 0: any
	Unlimited  bool     // accept unlimited matches
	Invite     string   // NAME
	InviteLen  int
	Matches    int // stop after this many matches (0: run until stopped)
	Records    string
	StateFile  string
	MaxBackoff time.Duration
	// LoginTimeout bounds the wait for the welcome (0: the fibs default),
	// WhoTimeout the wait for the end of the who list that follows it (0:
	// defaultWhoTimeout): a server silent past either is a lost connection.
	LoginTimeout time.Duration
	WhoTimeout   time.Duration
}

// defaultWhoTimeout is how long the bridge waits for the who list's end.
const defaultWhoTimeout = 30 * time.Second

// maxPending bounds the messages kept while the who list is read; a
// server that sends more before its end is given up on.
const maxPending = 1000

// maxOnline bounds the names kept as online, beyond which only the
// bridge's own opponents are added: a hostile who list may be endless.
const maxOnline = 5000

// bridge connects one engine to a FIBS-style server.
type bridge struct {
	opt    options
	engine *engineSeat
	log    *log.Logger

	played  int         // matches finished
	cur     *matchState // the match in progress (or saved), nil when none
	sess    *fibs.Session
	online  map[string]bool
	active  bool      // a match is being played on this connection
	invited time.Time // when the last invitation was sent
}

// matchState is the bridge's record of its match: it replays every action
// the server reports through a record.Builder, so it always knows the
// position, and it is kept on disk after each action, so a killed bridge
// resumes. The bridge is player 0 of the record.
type matchState struct {
	Opponent string
	Record   *record.Match
	Partial  bool `json:",omitempty"` // joined a match whose start we did not see: no record written

	b      *record.Builder
	dir    int // our direction this game, from the last board
	board  string
	setup  bool // set_game sent to the engine
	verify bool // resumed: check the record against the next board
	// Pending is our last move, sent but not yet confirmed by what the
	// server sent next: a move lost with the connection is not recorded.
	Pending *bg.Move `json:",omitempty"`
	// resignAsked is 1 + the ply at whose turn the engine was last asked
	// to resign: it is asked once a turn.
	resignAsked int
	// boardAsked: asked to move on a board with no move to play, the
	// bridge asked for a fresh board and plays on it.
	boardAsked bool
}

// commit records our pending move.
func (mt *matchState) commit(b *bridge) {
	if mt.Pending == nil {
		return
	}
	mv := *mt.Pending
	mt.Pending = nil
	if err := mt.b.Play(0, mv); err != nil {
		b.logf("record our move: %v", err)
	}
}

// confirms reports whether a message shows the server took our last move.
func confirms(k fibs.Kind) bool {
	switch k {
	case fibs.Rolls, fibs.Doubles, fibs.WinsGame, fibs.Board, fibs.CantMove, fibs.GivesUp, fibs.WantsToResign,
		fibs.JoinNextGame, fibs.WinsMatch, fibs.Score, fibs.RollOrDouble, fibs.Moves:
		return true
	}
	return false
}

func (b *bridge) logf(format string, args ...any) { b.log.Printf(format, args...) }

// run connects, plays, and reconnects with backoff until ctx ends or the
// requested number of matches is played.
func (b *bridge) run(ctx context.Context) error {
	if err := b.loadState(); err != nil {
		b.logf("state file: %v (starting afresh)", err)
	}
	backoff := 500 * time.Millisecond
	for {
		start := time.Now()
		err := b.session(ctx)
		if b.opt.Matches > 0 && b.played >= b.opt.Matches {
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, fibs.ErrLoginRefused) {
			return err
		}
		if time.Since(start) > 30*time.Second {
			backoff = 500 * time.Millisecond
		}
		b.logf("connection lost: %v; reconnecting in %v", err, backoff)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil
		}
		backoff = min(backoff*2, b.opt.MaxBackoff)
	}
}

// session is one connection: login, setup, then the message loop.
func (b *bridge) session(ctx context.Context) error {
	conn, err := fibs.Dial(ctx, b.opt.Server)
	if err != nil {
		return err
	}
	s := fibs.NewSession(conn, fibs.SessionOptions{Log: b.logf, LoginTimeout: b.opt.LoginTimeout})
	b.sess = s
	defer s.Close()
	b.online = map[string]bool{}
	b.active = false
	msgs, err := s.Login(ctx, b.opt.Client, b.opt.User, b.opt.Password)
	if err != nil {
		return err
	}
	b.logf("logged in to %s as %s", b.opt.Server, b.opt.User)
	if err := b.send(ctx, fibs.SetCommand("boardstyle", "3")); err != nil {
		return err
	}
	own := fibs.Own{}
	for _, m := range msgs {
		if m.Own != nil {
			own = *m.Own
		}
	}
	// Read up to the end of the who list, then fix the toggles. A server
	// that does not end it soon is given up on like a lost connection.
	whoTimeout := b.opt.WhoTimeout
	if whoTimeout <= 0 {
		whoTimeout = defaultWhoTimeout
	}
	wctx, cancel := context.WithTimeout(ctx, whoTimeout)
	defer cancel()
	var pending []fibs.Msg
	for {
		m, err := s.Next(wctx)
		if err == nil {
			err = wctx.Err() // a flood never leaves Next waiting for the deadline
		}
		if err != nil && ctx.Err() == nil && wctx.Err() != nil {
			err = fmt.Errorf("no end of the who list after %v", whoTimeout)
		}
		if err != nil {
			return b.leave(err)
		}
		if m.Own != nil {
			own = *m.Own
		}
		if m.Kind == fibs.WhoInfo {
			b.markOnline(m.Name)
			continue
		}
		if len(pending) == maxPending {
			return b.leave(fmt.Errorf("more than %d messages before the end of the who list", maxPending))
		}
		pending = append(pending, m)
		if m.Kind == fibs.WhoEnd {
			break
		}
	}
	cancel()
	for _, t := range []struct {
		name string
		on   bool
	}{{"ready", own.Ready}, {"double", own.Double}, {"autoboard", own.Autoboard}, {"notify", own.Notify}} {
		if !t.on {
			if err := b.send(ctx, fibs.ToggleCommand(t.name)); err != nil {
				return err
			}
		}
	}
	for _, m := range pending {
		if err := b.handle(ctx, m); err != nil {
			return b.leave(err)
		}
	}
	if err := b.startSomething(ctx); err != nil {
		return b.leave(err)
	}
	for {
		nctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		m, err := s.Next(nctx)
		cancel()
		if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			// Quiet: an invitation refused or unanswered is sent again.
			if !b.active && time.Since(b.invited) > 3*time.Second {
				if err := b.startSomething(ctx); err != nil {
					return b.leave(err)
				}
			}
			continue
		}
		if err != nil {
			return b.leave(err)
		}
		if err := b.handle(ctx, m); err != nil {
			return b.leave(err)
		}
		if b.opt.Matches > 0 && b.played >= b.opt.Matches {
			b.logf("played %d match(es); logging out", b.played)
			b.saveState()
			_ = b.send(context.Background(), fibs.CmdBye)
			time.Sleep(100 * time.Millisecond)
			return nil
		}
	}
}

// leave ends a session: on a cancelled context (SIGINT) it logs out
// politely, which makes the server save the match.
func (b *bridge) leave(err error) error {
	b.saveState()
	if errors.Is(err, context.Canceled) && b.sess != nil {
		b.logf("stopping: logging out (the server keeps the match saved)")
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = b.sess.Send(sctx, fibs.CmdBye)
		cancel()
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

func (b *bridge) send(ctx context.Context, cmd string) error {
	b.logf("> %s", cmd)
	return b.sess.Send(ctx, cmd)
}

// startSomething resumes the saved match or sends the configured
// invitation, when its player is online.
func (b *bridge) startSomething(ctx context.Context) error {
	switch {
	case b.cur != nil && b.cur.b != nil && b.cur.b.State().GameState != bg.GameNone || b.cur != nil && b.cur.Partial:
		if b.online[b.cur.Opponent] {
			b.invited = time.Now()
			return b.send(ctx, fibs.InviteCommand(b.cur.Opponent, -1))
		}
	case b.opt.Invite != "" && b.cur == nil && (b.opt.Matches == 0 || b.played < b.opt.Matches):
		if b.online[b.opt.Invite] {
			b.invited = time.Now()
			return b.send(ctx, fibs.InviteCommand(b.opt.Invite, b.opt.InviteLen))
		}
	}
	return nil
}

// markOnline notes that name is logged in.
func (b *bridge) markOnline(name string) {
	if len(b.online) < maxOnline || name == b.opt.Invite || b.cur != nil && name == b.cur.Opponent {
		b.online[name] = true
	}
}

func (b *bridge) accepts(name string, length int) bool {
	if b.opt.Matches > 0 && b.played >= b.opt.Matches {
		return false
	}
	if length == fibs.Unlimited && !b.opt.Unlimited || b.opt.MaxLength > 0 && length > b.opt.MaxLength {
		return false
	}
	for _, a := range b.opt.Accept {
		if a == "all" || a == name {
			return true
		}
	}
	return false
}

// player maps a name in a message to the record's player: 0 is us.
func (b *bridge) player(name string) int {
	if name == fibs.You || name == b.opt.User {
		return 0
	}
	return 1
}

// handle reacts to one message.
func (b *bridge) handle(ctx context.Context, m fibs.Msg) error {
	switch m.Kind {
	case fibs.Unknown, fibs.Says, fibs.Shouts, fibs.Whispers, fibs.Kibitzes, fibs.YouSay, fibs.YouShout,
		fibs.YouWhisper, fibs.YouKibitz, fibs.Message, fibs.MOTDStart, fibs.MOTDEnd, fibs.WhoInfo, fibs.WhoEnd:
		if m.Kind == fibs.WhoInfo {
			b.markOnline(m.Name)
		}
		return nil
	case fibs.Login:
		b.markOnline(m.Name)
		if b.cur != nil && m.Name == b.cur.Opponent || b.cur == nil && m.Name == b.opt.Invite {
			return b.startSomething(ctx)
		}
		return nil
	case fibs.Logout:
		delete(b.online, m.Name)
		return nil
	case fibs.Error:
		b.logf("server: %s", m.Raw)
		return nil
	case fibs.Invitation:
		if b.cur != nil && b.cur.Opponent == m.Name {
			// A fresh invitation from the opponent of our saved match: the
			// server would start over; ask to resume instead.
			return b.send(ctx, fibs.InviteCommand(m.Name, -1))
		}
		if b.cur == nil && b.accepts(m.Name, m.N) {
			b.logf("accepting %s's invitation to a %d point match", m.Name, m.N)
			return b.send(ctx, fibs.JoinCommand(m.Name))
		}
		b.logf("declining %s's invitation (policy)", m.Name)
		return nil
	case fibs.ResumeInvitation:
		if b.cur != nil && b.cur.Opponent == m.Name || b.cur == nil && b.accepts(m.Name, 1) {
			return b.send(ctx, fibs.JoinCommand(m.Name))
		}
		return nil
	case fibs.MatchStarted:
		b.active = true
		b.cur = &matchState{Opponent: m.Name}
		b.markOnline(m.Name)
		rules := record.DefaultRules(m.N)
		b.cur.b = record.NewBuilder([2]string{b.opt.User, m.Name}, rules)
		b.cur.Record = b.cur.b.Match()
		b.logf("match with %s started (length %d)", m.Name, m.N)
		b.saveState()
		return nil
	case fibs.MatchResumed:
		b.active = true
		b.markOnline(m.Name)
		if b.cur == nil || b.cur.Opponent != m.Name || b.cur.b == nil {
			b.logf("resuming a match with %s that this bridge has no record of: playing on without writing one", m.Name)
			b.cur = &matchState{Opponent: m.Name, Partial: true}
		} else {
			b.logf("match with %s resumed", m.Name)
			b.cur.verify = true
		}
		return nil
	case fibs.GameSaved:
		b.active = false
		b.logf("%s", m.Raw)
		b.saveState()
		// One who left the match but not the server is invited to resume
		// when the bridge is next idle; one who logged out, at its login.
		if m.Name != fibs.You && !m.LeftOnline() {
			delete(b.online, m.Name)
		}
		return nil
	case fibs.NoSavedMatch:
		b.logf("server: %s", m.Raw)
		if b.cur != nil && !b.active && m.Name == b.cur.Opponent {
			b.logf("the match with %s is gone from the server: forgetting it", m.Name)
			b.cur = nil
			b.saveState()
			return b.startSomething(ctx)
		}
		return nil
	}
	mt := b.cur
	if mt == nil {
		return nil
	}
	if mt.Partial {
		return b.handlePartial(ctx, m)
	}
	if !mt.setup {
		if err := mt.setupEngine(ctx, b); err != nil {
			if !errors.Is(err, errRulesRefused) {
				return err
			}
			b.dropRecord(err)
			return b.handle(ctx, m)
		}
	}
	rb := mt.b
	if mt.Pending != nil && confirms(m.Kind) && !mt.verify {
		mt.commit(b)
		b.saveState()
	}
	if m.Kind == fibs.Error && mt.Pending != nil {
		b.logf("the server refused our move: %s", m.Raw)
		mt.Pending = nil
	}
	st := rb.State()
	var err error
	switch m.Kind {
	case fibs.Board:
		mt.board, mt.dir = m.Raw, m.Board.Direction
		if mt.verify && mt.Pending != nil && !b.checkBoard(m.Board) {
			// The server may have taken the move the connection lost.
			mt.commit(b)
		}
		mt.Pending = nil
		if !b.checkBoard(m.Board) {
			if mt.verify {
				b.logf("the resumed match is not where this bridge's record left it: playing on without writing a record")
				mt.Partial = true
			}
		} else {
			b.catchUpRoll(m.Board)
		}
		mt.verify = false
		return nil
	case fibs.FirstRoll:
		first, d := 0, m.Dice
		if d[1] > d[0] {
			first, d = 1, [2]int{d[1], d[0]}
		}
		err = rb.Roll(first, d[0], d[1])
	case fibs.Rolls:
		err = rb.Roll(b.player(m.Name), m.Dice[0], m.Dice[1])
	case fibs.Moves:
		p := b.player(m.Name)
		var mv bg.Move
		mv, err = fibs.ToMove(m.Steps, -mt.dir)
		if err == nil {
			err = rb.Play(p, mv)
		}
	case fibs.CantMove:
		err = rb.Play(b.player(m.Name), bg.Move{})
	case fibs.Doubles:
		err = rb.Double(b.player(m.Name))
		if err == nil && b.player(m.Name) == 1 {
			b.saveState()
			return b.answerDouble(ctx)
		}
	case fibs.AcceptsDouble:
		err = rb.Take(b.player(m.Name))
	case fibs.GivesUp:
		err = rb.Drop(b.player(m.Name))
	case fibs.WantsToResign:
		p := b.player(m.Name)
		if st.Resigned == bg.NoResult {
			level := bg.Result(m.N / max(st.CubeValue, 1))
			if err = rb.Resign(p, level); err == nil && p == 1 {
				b.saveState()
				return b.answerResignation(ctx)
			}
		}
	case fibs.ResignAccepted:
		err = rb.AcceptResignation(b.player(m.Name))
	case fibs.Rejects:
		err = rb.DeclineResignation(b.player(m.Name))
	case fibs.PleaseMove:
		return b.move(ctx)
	case fibs.RollOrDouble:
		return b.rollOrDouble(ctx)
	case fibs.JoinNextGame:
		b.saveState()
		return b.send(ctx, fibs.JoinCommand(""))
	case fibs.WinsMatch:
		return b.matchOver(m)
	default:
		return nil
	}
	if err != nil {
		b.logf("out of step with the server at %q: %v; playing on from the boards without writing a record", m.Raw, err)
		mt.Partial = true
		b.saveState()
		return b.handlePartial(ctx, m)
	}
	b.saveState()
	return nil
}

// catchUpRoll adds a roll the board shows and the record lacks: the one
// message a bridge killed between the server's roll and its own move
// misses.
func (b *bridge) catchUpRoll(bd *fibsboard.Board) {
	st := b.cur.b.State()
	if d := st.Decision(); d != bg.DecideCube && d != bg.NeedRoll {
		return
	}
	p, dice := 0, bd.PlayerDice
	if bd.Turn != bd.Colour {
		p, dice = 1, bd.OpponentDice
	}
	if p != st.Move || dice[0] == 0 {
		return
	}
	if err := b.cur.b.Roll(p, dice[0], dice[1]); err != nil {
		b.logf("catch up the roll %d%d: %v", dice[0], dice[1], err)
		return
	}
	b.logf("caught up a roll the connection lost: %d%d", dice[0], dice[1])
	b.saveState()
}

// handlePartial plays a match we have no record of from the board lines
// alone (a match resumed after the bridge's state was lost).
func (b *bridge) handlePartial(ctx context.Context, m fibs.Msg) error {
	mt := b.cur
	switch m.Kind {
	case fibs.Board:
		mt.board, mt.dir = m.Raw, m.Board.Direction
		if mt.boardAsked && m.Board.Turn == m.Board.Colour {
			mt.boardAsked = false
			st, _, err := m.Board.ToState(record.DefaultRules(m.Board.MatchLength))
			if err != nil {
				b.logf("board %q: %v", mt.board, err)
				return nil
			}
			return b.moveFromBoard(ctx, st, false)
		}
	case fibs.PleaseMove, fibs.RollOrDouble, fibs.Doubles:
		if m.Kind == fibs.Doubles && m.Name == fibs.You {
			return nil
		}
		bd, err := fibsboard.Parse(mt.board)
		if err != nil {
			return b.send(ctx, fibs.CmdRoll)
		}
		st, _, err := bd.ToState(record.DefaultRules(bd.MatchLength))
		if err != nil {
			b.logf("board %q: %v", mt.board, err)
			return nil
		}
		switch m.Kind {
		case fibs.PleaseMove:
			return b.moveFromBoard(ctx, st, true)
		case fibs.RollOrDouble:
			return b.send(ctx, fibs.CmdRoll)
		default:
			return b.send(ctx, fibs.CmdAccept)
		}
	case fibs.JoinNextGame:
		return b.send(ctx, fibs.JoinCommand(""))
	case fibs.WinsMatch:
		b.played++
		b.cur, b.active = nil, false
		b.saveState()
	}
	return nil
}

// moveFromBoard plays the engine's move (or the first legal one) in st,
// the position of the last board. Asked to move on a board with no move
// to play (dice 0:0), the bridge asks once for a fresh board and plays on
// it (mayAsk false); then it sends nothing and waits.
func (b *bridge) moveFromBoard(ctx context.Context, st *bg.State, mayAsk bool) error {
	mt := b.cur
	legal := st.LegalMoves()
	if len(legal) == 0 {
		if !mayAsk {
			b.logf("the server's board %q has no move to play either: waiting", mt.board)
			return nil
		}
		b.logf("asked to move, but the server's board %q has no move to play: asking for a fresh board", mt.board)
		mt.boardAsked = true
		return b.send(ctx, fibs.CmdBoard)
	}
	mv, err := b.engine.move(ctx, st)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.logf("engine: %v; playing the first legal move", err)
		mv = legal[0]
	}
	return b.send(ctx, fibs.MoveCommand(fibs.FromMove(mv, mt.dir)))
}

// errRulesRefused marks a match whose rules the engine refuses: no record
// of it can be kept.
var errRulesRefused = errors.New("the engine refuses the match's rules")

func (mt *matchState) setupEngine(ctx context.Context, b *bridge) error {
	rules := bgcmd.FromRules(mt.b.Match().Rules)
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("engine set_game: %w: %w", errRulesRefused, err)
	}
	if err := b.engine.c.SetGame(ctx, rules); err != nil {
		var refused *protocol.FailureError
		if errors.As(err, &refused) {
			return fmt.Errorf("engine set_game: %w: %w", errRulesRefused, err)
		}
		return fmt.Errorf("engine set_game: %w", err)
	}
	mt.setup = true
	return nil
}

// dropRecord forgets a record whose rules the engine refuses (a state
// file written from a hostile server's line would fail every session).
// A match being played on this connection goes on from the boards.
func (b *bridge) dropRecord(err error) {
	opp := b.cur.Opponent
	if b.active {
		b.logf("%v: playing the match with %s on from the boards without writing a record", err, opp)
		b.cur = &matchState{Opponent: opp, Partial: true}
	} else {
		b.logf("%v: dropping the saved match with %s", err, opp)
		b.cur = nil
	}
	b.saveState()
}

// checkBoard compares the server's board with the record's position.
func (b *bridge) checkBoard(bd *fibsboard.Board) bool {
	st := b.cur.b.State()
	if st.GameState != bg.GamePlaying || bd.Turn == 0 {
		return true
	}
	srv, _, err := bd.ToState(b.cur.b.Match().Rules)
	if err != nil {
		b.logf("board from the server: %v", err)
		return false
	}
	if srv.BoardFor(0) != st.BoardFor(0) {
		b.logf("the server's board differs from the record's position: %s", b.cur.board)
		return false
	}
	return true
}

// move plays our move: the engine's, checked against the rules.
func (b *bridge) move(ctx context.Context) error {
	mt := b.cur
	st := mt.b.State()
	if st.Decision() != bg.DecideMove || st.Move != 0 {
		b.logf("asked to move, but the record waits for %v by player %d: playing on from the boards without writing a record", st.Decision(), st.Turn)
		mt.Partial = true
		b.saveState()
		return b.handlePartial(ctx, fibs.Msg{Kind: fibs.PleaseMove})
	}
	if resigned, err := b.offerResignation(ctx); resigned || err != nil {
		return err
	}
	mv, err := b.engine.move(ctx, st)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		legal := st.LegalMoves()
		if len(legal) == 0 {
			b.logf("engine: %v; and there is no legal move to play instead", err)
			return nil
		}
		mv = legal[0]
		b.logf("engine: %v; playing the first legal move (%s) instead", err, bg.Format(st.Board, mv))
	}
	steps := fibs.FromMove(mv, mt.dir)
	if len(steps) == 0 {
		return mt.b.Play(0, mv)
	}
	mt.Pending = &mv
	b.saveState()
	return b.send(ctx, fibs.MoveCommand(steps))
}

// offerResignation gives the engine its chance to resign, once a turn, at
// the server's first prompt of the turn (roll or double, or move when the
// server rolled for us): it judges the position before the roll, which is
// the same for a sure loss. It reports whether a resignation was sent; the
// record takes it when the server confirms it.
func (b *bridge) offerResignation(ctx context.Context) (bool, error) {
	mt := b.cur
	st := mt.b.State()
	if mt.resignAsked == st.Plies+1 || st.Resigned != bg.NoResult {
		return false, nil
	}
	mt.resignAsked = st.Plies + 1
	before := *st
	before.Dice = [2]int{}
	level, err := b.engine.resign(ctx, &before)
	switch {
	case err != nil && ctx.Err() != nil:
		return false, ctx.Err()
	case err != nil:
		b.logf("engine: %v; playing on", err)
		return false, nil
	case level == bg.NoResult:
		return false, nil
	}
	b.logf("engine resigns %v", level)
	return true, b.send(ctx, fibs.ResignCommand(int(level)))
}

func (b *bridge) rollOrDouble(ctx context.Context) error {
	if resigned, err := b.offerResignation(ctx); resigned || err != nil {
		return err
	}
	st := b.cur.b.State()
	double, err := b.engine.double(ctx, st)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.logf("engine: %v; rolling", err)
	}
	if double {
		return b.send(ctx, fibs.CmdDouble)
	}
	return b.send(ctx, fibs.CmdRoll)
}

func (b *bridge) answerDouble(ctx context.Context) error {
	a, err := b.engine.take(ctx, b.cur.b.State())
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.logf("engine: %v; taking", err)
		a = bg.Take
	}
	if a == bg.Drop {
		return b.send(ctx, fibs.CmdReject)
	}
	return b.send(ctx, fibs.CmdAccept)
}

func (b *bridge) answerResignation(ctx context.Context) error {
	ok, err := b.engine.acceptResignation(ctx, b.cur.b.State())
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.logf("engine cannot judge the resignation (%v): refusing it", err)
	}
	if ok {
		return b.send(ctx, fibs.CmdAccept)
	}
	return b.send(ctx, fibs.CmdReject)
}

// matchOver writes the match's .mat and forgets it.
func (b *bridge) matchOver(m fibs.Msg) error {
	mt := b.cur
	b.played++
	b.cur, b.active = nil, false
	rec := mt.b.Match().Clone()
	rec.Event = "fibsbridge " + b.opt.Server
	rec.Date = time.Now().UTC().Format("2006-01-02")
	if b.opt.Records != "" {
		name := fmt.Sprintf("%s-%s-%s.mat", time.Now().UTC().Format("20060102T150405.000"), b.opt.User, mt.Opponent)
		path := filepath.Join(b.opt.Records, name)
		if err := writeMat(path, rec); err != nil {
			b.logf("%v", err)
		} else {
			b.logf("match with %s over (%s); record %s", mt.Opponent, strings.TrimSpace(m.Raw), path)
		}
	}
	b.saveState()
	return nil
}

func writeMat(path string, rec *record.Match) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := mat.Write(f, rec); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(path+".tmp", path)
}

// saveState writes the match in progress (or its absence) to the state
// file, so that a bridge killed and restarted resumes it.
func (b *bridge) saveState() {
	if b.opt.StateFile == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(b.opt.StateFile), 0o755); err != nil {
		b.logf("state file: %v", err)
		return
	}
	if b.cur == nil {
		if err := os.Remove(b.opt.StateFile); err != nil && !os.IsNotExist(err) {
			b.logf("state file: %v", err)
		}
		return
	}
	if b.cur.b != nil {
		b.cur.Record = b.cur.b.Match()
	}
	data, err := json.Marshal(b.cur)
	if err == nil {
		err = os.WriteFile(b.opt.StateFile+".tmp", data, 0o600)
	}
	if err == nil {
		err = os.Rename(b.opt.StateFile+".tmp", b.opt.StateFile)
	}
	if err != nil {
		b.logf("state file: %v", err)
	}
}

func (b *bridge) loadState() error {
	if b.opt.StateFile == "" {
		return nil
	}
	data, err := os.ReadFile(b.opt.StateFile)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var mt matchState
	if err := json.Unmarshal(data, &mt); err != nil {
		return fmt.Errorf("%s: %w", b.opt.StateFile, err)
	}
	if mt.Record != nil && !mt.Partial {
		rb, err := fibs.Rebuild(mt.Record)
		if err != nil {
			return fmt.Errorf("%s: %w", b.opt.StateFile, err)
		}
		mt.b = rb
	}
	b.cur = &mt
	b.logf("saved match with %s loaded from %s", mt.Opponent, b.opt.StateFile)
	return nil
}
