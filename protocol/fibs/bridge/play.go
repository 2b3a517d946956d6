package bridge

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// moveWhenKnown answers a prompt to move ("Please move N pieces", or
// "It's your turn to move" after the opening roll): at once when a board
// of this game gave our direction, else on the next board that shows our
// turn (asked for when the prompt is "Please move", which no board need
// follow).
func (b *Bridge) moveWhenKnown(ctx context.Context, ask bool) error {
	mt := b.cur
	if mt.Pending != nil {
		return nil // moved already; a second prompt of the same turn
	}
	if mt.dir != 0 {
		return b.move(ctx)
	}
	if mt.waitBoard {
		return nil
	}
	mt.waitBoard = true
	if ask {
		return b.send(ctx, fibs.CmdBoard)
	}
	return nil
}

// move plays our move: the engine's, checked against the rules.
func (b *Bridge) move(ctx context.Context) error {
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
	if mt.refused > 0 {
		// The engine's choice was not taken: the legal moves in turn.
		legal := st.LegalMoves()
		mv := legal[(mt.refused-1)%len(legal)]
		b.logf("playing %s instead", bg.Format(st.Board, mv))
		return b.sendMove(ctx, mv)
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
	return b.sendMove(ctx, mv)
}

// sendMove sends our move, pending until the server shows it took it.
func (b *Bridge) sendMove(ctx context.Context, mv bg.Move) error {
	mt := b.cur
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
func (b *Bridge) offerResignation(ctx context.Context) (bool, error) {
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

func (b *Bridge) rollOrDouble(ctx context.Context) error {
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

func (b *Bridge) answerDouble(ctx context.Context) error {
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

func (b *Bridge) answerResignation(ctx context.Context) error {
	ok, err := b.engine.acceptResignation(ctx, b.cur.b.State())
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.logf("engine cannot judge the resignation (%v): refusing it", err)
	}
	if ok {
		b.logf("accepting the resignation")
		return b.send(ctx, fibs.CmdAccept)
	}
	b.logf("refusing the resignation")
	return b.send(ctx, fibs.CmdReject)
}

// matchOver counts the match, writes its .mat (when a record was kept)
// and forgets it.
func (b *Bridge) matchOver(how string) error {
	mt := b.cur
	b.played++
	b.cur, b.active = nil, false
	switch {
	case mt.Partial || mt.b == nil:
		b.logf("match with %s over (%s); played from the boards, no record", mt.Opponent, strings.TrimSpace(how))
	case b.opt.Records != "":
		rec := mt.b.Match().Clone()
		rec.Event = "fibsbridge " + b.opt.Server
		rec.Date = time.Now().UTC().Format("2006-01-02")
		name := fmt.Sprintf("%s-%s-%s.mat", time.Now().UTC().Format("20060102T150405.000"), b.opt.User, mt.Opponent)
		path := filepath.Join(b.opt.Records, name)
		if err := mat.WriteFile(path, rec); err != nil {
			b.logf("%v", err)
		} else {
			b.logf("match with %s over (%s); record %s", mt.Opponent, strings.TrimSpace(how), path)
		}
	}
	b.saveState()
	return nil
}
