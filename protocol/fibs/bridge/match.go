package bridge

import (
	"context"
	"errors"
	"fmt"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/protocol/bgcmd"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// matchState is the bridge's record of its match: it replays every action
// the server reports through a record.Builder, so it always knows the
// position, checks it against every board, and is kept on disk after each
// action, so a killed bridge resumes. The bridge is player 0 of the
// record.
type matchState struct {
	// Server is the server the match is played on: a state file from
	// another server is never resumed.
	Server   string `json:",omitempty"`
	Opponent string
	Record   *record.Match
	Partial  bool `json:",omitempty"` // no record kept: the match is played from the boards alone
	// Pending is our last move, sent but not yet confirmed by what the
	// server sent next: a move lost with the connection is not recorded.
	Pending *bg.Move `json:",omitempty"`

	b      *record.Builder
	board  string // the last board line
	last   *fibsboard.Board
	setup  bool // set_game sent to the engine
	verify bool // resumed: check the record against the next board
	// dir is our direction in the game being played, from its boards; 0
	// until a board of the game is seen (colours swap every game).
	dir int
	// note is a move line kept until a board gives its direction.
	note *moveNote
	// resignAsked is 1 + the ply at whose turn the engine was last asked
	// to resign: it is asked once a turn.
	resignAsked int
	// waitBoard: a move is due, to be played on the next board that shows
	// our turn (the direction was not known yet, or the board had no dice).
	waitBoard bool
	// refused counts our moves of this turn the server did not take.
	refused int
	// doubtful: an error came while our move was pending; askedBoard: the
	// board was asked for when the server then fell quiet.
	doubtful, askedBoard bool
}

// moveNote is a move line not yet in the record.
type moveNote struct {
	player int
	steps  []fibs.Step
	raw    string
}

// confirms reports whether a message shows the server took our last move
// (a board does unless it answers our question after an error: onBoard).
func confirms(k fibs.Kind) bool {
	switch k {
	case fibs.Rolls, fibs.Doubles, fibs.WinsGame, fibs.Board, fibs.CantMove, fibs.GivesUp, fibs.WantsToResign,
		fibs.JoinNextGame, fibs.WinsMatch, fibs.Score, fibs.RollOrDouble, fibs.Moves:
		return true
	}
	return false
}

// maxRefused is how many moves of one turn the server may refuse before
// the bridge stops offering more.
const maxRefused = 3

// settlesNote reports whether a message must find the record past a
// noted move: every later action of the game and every prompt does.
func settlesNote(k fibs.Kind) bool {
	switch k {
	case fibs.Rolls, fibs.FirstRoll, fibs.Moves, fibs.CantMove, fibs.Doubles, fibs.AcceptsDouble, fibs.GivesUp,
		fibs.WantsToResign, fibs.ResignAccepted, fibs.Rejects, fibs.WinsGame, fibs.PleaseMove, fibs.YourTurnToMove,
		fibs.RollOrDouble, fibs.JoinNextGame, fibs.WinsMatch, fibs.NewGame, fibs.Score:
		return true
	}
	return false
}

// commit records our pending move.
func (mt *matchState) commit(b *Bridge) {
	if mt.Pending == nil {
		return
	}
	mv := *mt.Pending
	mt.Pending, mt.refused, mt.doubtful = nil, 0, false
	if err := mt.b.Play(0, mv); err != nil {
		b.logf("record our move: %v", err)
	}
}

// handle reacts to one message.
func (b *Bridge) handle(ctx context.Context, m fibs.Msg) error {
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
		b.cur = &matchState{Server: b.opt.Server, Opponent: m.Name}
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
			b.cur = &matchState{Server: b.opt.Server, Opponent: m.Name, Partial: true}
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
		if m.Kind == fibs.Error {
			b.logf("server: %s", m.Raw)
		}
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
	wasPlaying := rb.State().GameState == bg.GamePlaying
	if mt.Pending != nil && confirms(m.Kind) && !mt.verify && !(m.Kind == fibs.Board && mt.askedBoard) {
		mt.commit(b)
		b.saveState()
	}
	if m.Kind == fibs.Error {
		b.logf("server: %s", m.Raw)
		// An error may answer our move or anything else ("bot1 didn't
		// invite you"): if the server then falls quiet, the board it is
		// asked for says whether the move was taken.
		if mt.Pending != nil && b.active && !mt.verify {
			mt.doubtful = true
		}
		return nil
	}
	if m.Kind != fibs.Board && settlesNote(m.Kind) {
		if err := b.settleNote(0, nil); err != nil {
			return b.outOfStep(ctx, m, err)
		}
	}
	st := rb.State()
	var err error
	switch m.Kind {
	case fibs.Board:
		return b.onBoard(ctx, m, wasPlaying)
	case fibs.NewGame:
		mt.dir = 0
	case fibs.FirstRoll:
		if m.Dice[0] == m.Dice[1] {
			return nil // a tie: both roll again
		}
		first, d := 0, m.Dice
		if d[1] > d[0] {
			first, d = 1, [2]int{d[1], d[0]}
		}
		err = rb.Roll(first, d[0], d[1])
	case fibs.Rolls:
		err = rb.Roll(b.player(m.Name), m.Dice[0], m.Dice[1])
	case fibs.Moves:
		mt.note = &moveNote{player: b.player(m.Name), steps: m.Steps, raw: m.Raw}
		if mt.dir != 0 {
			// A board of this game gave the direction already.
			err = b.settleNote(0, nil)
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
	case fibs.PleaseMove, fibs.YourTurnToMove:
		return b.moveWhenKnown(ctx, m.Kind == fibs.PleaseMove)
	case fibs.RollOrDouble:
		return b.rollOrDouble(ctx)
	case fibs.JoinNextGame:
		b.saveState()
		return b.send(ctx, fibs.JoinCommand(""))
	case fibs.WinsMatch:
		return b.matchOver(m.Raw)
	case fibs.WinsGame, fibs.Score:
		// The record ended the game with its last action; the match may
		// be over.
	default:
		return nil
	}
	if err != nil {
		return b.outOfStep(ctx, m, err)
	}
	return b.afterAction(wasPlaying, m.Raw)
}

// afterAction saves the state after a recorded action and ends the match
// when the record shows it decided: a match is counted and recorded even
// when its last line ("X wins the N point match") never comes.
func (b *Bridge) afterAction(wasPlaying bool, raw string) error {
	mt := b.cur
	st := mt.b.State()
	if wasPlaying && st.GameState != bg.GamePlaying {
		mt.dir = 0 // the next game may swap colours
	}
	if !st.Money() && st.MatchOver() {
		return b.matchOver(raw)
	}
	b.saveState()
	return nil
}

// outOfStep gives up the record at a message it cannot take and plays the
// match on from the boards.
func (b *Bridge) outOfStep(ctx context.Context, m fibs.Msg, err error) error {
	b.logf("out of step with the server at %q: %v; playing on from the boards without writing a record", m.Raw, err)
	b.cur.Partial = true
	b.saveState()
	return b.handlePartial(ctx, m)
}

// onBoard takes a board: the direction of the game, the noted move read
// with it, the record checked against it (and a move the messages lost
// found from it), and a move that waited for it played.
func (b *Bridge) onBoard(ctx context.Context, m fibs.Msg, wasPlaying bool) error {
	mt, bd := b.cur, m.Board
	mt.board, mt.last = m.Raw, bd
	switch {
	case mt.Pending == nil:
	case mt.verify:
		// Resumed: the board shows whether the server took the move the
		// connection lost.
		if b.checkBoard(bd) {
			mt.Pending = nil
		} else {
			mt.commit(b)
		}
	case mt.askedBoard:
		// Asked for after an error and a quiet server: a fresh board.
		if bd.Turn == bd.Colour && bd.PlayerDice[0] != 0 && b.checkBoard(bd) {
			mt.Pending, mt.doubtful = nil, false
			mt.refused++
			if mt.refused <= maxRefused {
				b.logf("the server did not take our move: moving again")
				mt.waitBoard = true
			} else {
				b.logf("the server did not take our last %d moves: waiting", mt.refused)
			}
		} else {
			mt.commit(b)
		}
	}
	mt.askedBoard = false
	if err := b.settleNote(bd.Direction, bd); err != nil {
		return b.outOfStep(ctx, m, err)
	}
	if bd.Turn != 0 && mt.b.State().GameState == bg.GamePlaying {
		mt.dir = bd.Direction
	}
	if !b.checkBoard(bd) {
		switch {
		case b.catchUpMove(bd):
		case mt.verify:
			b.logf("the resumed match is not where this bridge's record left it: playing on without writing a record")
			mt.Partial = true
		default:
			b.logf("the record cannot reach the server's board: playing on without writing a record")
			mt.Partial = true
		}
	} else {
		b.catchUpRoll(bd)
	}
	mt.verify = false
	if mt.Partial {
		b.saveState()
		return b.handlePartial(ctx, m)
	}
	if err := b.afterAction(wasPlaying, m.Raw); err != nil || b.cur != mt {
		return err
	}
	if mt.waitBoard && bd.Turn == bd.Colour {
		mt.waitBoard = false
		return b.move(ctx)
	}
	return nil
}

// settleNote puts the noted move into the record, read in the direction
// of the board that followed it (boardDir, ours) or, with no board yet,
// of the game so far or of the steps themselves. A note the record
// cannot take is matched against the board instead. A note about a player
// not on roll is our own move echoed, or one the record has: dropped.
func (b *Bridge) settleNote(boardDir int, bd *fibsboard.Board) error {
	mt := b.cur
	n := mt.note
	if n == nil {
		return nil
	}
	mt.note = nil
	st := mt.b.State()
	if st.Decision() != bg.DecideMove || st.Move != n.player {
		return nil
	}
	var dir int
	switch {
	case n.player == 1 && boardDir != 0:
		dir = -boardDir
	case n.player == 0 && boardDir != 0:
		dir = boardDir
	case mt.dir != 0 && n.player == 1:
		dir = -mt.dir
	case mt.dir != 0:
		dir = mt.dir
	default:
		dir = stepsDirection(n.steps)
	}
	mv, err := fibs.ToMove(n.steps, dir)
	if err == nil {
		err = mt.b.Play(n.player, mv)
	}
	if err == nil {
		return nil
	}
	if bd != nil {
		if mv, ok := moveTo(st, bd); ok {
			b.logf("%q: %v; the board shows the move played", n.raw, err)
			return mt.b.Play(n.player, mv)
		}
	}
	return err
}

// stepsDirection is the direction a FIBS move goes (-1 from 24 to 1, 1
// from 1 to 24), read from its steps: a checker enters at 19-24 and bears
// off from 1-6 going down, the other way going up. 0 when no step says.
func stepsDirection(steps []fibs.Step) int {
	for _, s := range steps {
		switch {
		case s.From == 0:
			return dirIf(s.To >= 19)
		case s.To == 0:
			return dirIf(s.From <= 6)
		case s.From != s.To:
			return dirIf(s.From > s.To)
		}
	}
	return 0
}

func dirIf(down bool) int {
	if down {
		return -1
	}
	return 1
}

// moveTo finds a legal move in st (a move to decide) that leaves the
// position the board shows.
func moveTo(st *bg.State, bd *fibsboard.Board) (bg.Move, bool) {
	if bd.Turn == 0 {
		return bg.Move{}, false
	}
	srv, _, err := bd.ToState(st.Rules)
	if err != nil {
		return bg.Move{}, false
	}
	want := srv.BoardFor(0)
	for _, mv := range st.LegalMoves() {
		got := st.Board.Apply(mv)
		if st.Move == 1 {
			got = got.Swap()
		}
		if got == want {
			return mv, true
		}
	}
	return bg.Move{}, false
}

// catchUpMove adds the opponent's move (and its roll) that the board shows
// and the messages lost; it reports whether the record now matches.
func (b *Bridge) catchUpMove(bd *fibsboard.Board) bool {
	rb := b.cur.b
	st := rb.State()
	if st.GameState != bg.GamePlaying || st.Move != 1 {
		return false
	}
	if d := st.Decision(); d == bg.DecideCube || d == bg.NeedRoll {
		dice := bd.OpponentDice
		if bd.Turn == bd.Colour || dice[0] == 0 {
			return false
		}
		if err := rb.Roll(1, dice[0], dice[1]); err != nil {
			return false
		}
	}
	if st.Decision() != bg.DecideMove {
		return false
	}
	mv, ok := moveTo(st, bd)
	if !ok {
		return false
	}
	text := bg.Format(st.Board, mv)
	if err := rb.Play(1, mv); err != nil {
		return false
	}
	b.logf("caught up a move the messages lost: %s", text)
	return b.checkBoard(bd)
}

// catchUpRoll adds a roll the board shows and the record lacks: the one
// message a bridge killed between the server's roll and its own move
// misses.
func (b *Bridge) catchUpRoll(bd *fibsboard.Board) {
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
}

// checkBoard compares the server's board with the record's position.
func (b *Bridge) checkBoard(bd *fibsboard.Board) bool {
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

// handlePartial plays a match we have no record of from the board lines
// alone (a match resumed after the bridge's state was lost, or one whose
// messages the record could not take). It is counted when it ends.
func (b *Bridge) handlePartial(ctx context.Context, m fibs.Msg) error {
	mt := b.cur
	switch m.Kind {
	case fibs.Board:
		mt.board, mt.last, mt.dir = m.Raw, m.Board, m.Board.Direction
		if mt.waitBoard && m.Board.Turn == m.Board.Colour {
			mt.waitBoard = false
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
		if mt.last == nil {
			return b.send(ctx, fibs.CmdRoll)
		}
		st, _, err := mt.last.ToState(record.DefaultRules(mt.last.MatchLength))
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
	case fibs.WinsGame, fibs.GivesUp, fibs.ResignAccepted:
		// The last board's score and the points won say whether the
		// match is over, should its last line not come.
		if bd := mt.last; bd != nil && bd.MatchLength > 0 && bd.MatchLength != fibsboard.Money {
			winner := b.player(m.Name)
			if m.Kind == fibs.GivesUp {
				winner = 1 - winner
			}
			score := [2]int{bd.PlayerScore, bd.OpponentScore}
			if score[winner]+m.N >= bd.MatchLength {
				return b.matchOver(m.Raw)
			}
		}
	case fibs.WinsMatch:
		return b.matchOver(m.Raw)
	}
	return nil
}

// moveFromBoard plays the engine's move (or the first legal one) in st,
// the position of the last board. Asked to move on a board with no move
// to play (dice 0:0), the bridge asks once for a fresh board and plays on
// it (mayAsk false); then it sends nothing and waits.
func (b *Bridge) moveFromBoard(ctx context.Context, st *bg.State, mayAsk bool) error {
	mt := b.cur
	legal := st.LegalMoves()
	if len(legal) == 0 {
		if !mayAsk {
			b.logf("the server's board %q has no move to play either: waiting", mt.board)
			return nil
		}
		b.logf("asked to move, but the server's board %q has no move to play: asking for a fresh board", mt.board)
		mt.waitBoard = true
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

func (mt *matchState) setupEngine(ctx context.Context, b *Bridge) error {
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
func (b *Bridge) dropRecord(err error) {
	opp := b.cur.Opponent
	if b.active {
		b.logf("%v: playing the match with %s on from the boards without writing a record", err, opp)
		b.cur = &matchState{Server: b.opt.Server, Opponent: opp, Partial: true}
	} else {
		b.logf("%v: dropping the saved match with %s", err, opp)
		b.cur = nil
	}
	b.saveState()
}
