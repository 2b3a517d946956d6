package backgammon

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// The statistics a backgammon game stores (game_stats names), by seat.
const (
	StatDoubles     = "doubles"
	StatTakes       = "takes"
	StatDrops       = "drops"
	StatBeavers     = "beavers"
	StatGammons     = "gammons"     // games won with a gammon
	StatBackgammons = "backgammons" // games won with a backgammon
	StatScore       = "score"       // final match score (money: points won)
	StatGames       = "games"       // games in the match, on both sides
	StatLevel       = "level"       // the last game's result level, on both sides
	StatSettled     = "settled"     // 1 on both sides for a race settled by the bearoff databases
)

// generic turns the match's outcome into the ringmaster's, with the
// records written as .mat and SGF (event names the records); a record that
// cannot be written is logged and left out.
func (o Outcome) generic(event string, logf func(string, ...any)) referee.Outcome {
	g := referee.Outcome{Winner: o.Winner, Result: o.Result, Detail: o.Detail, ForfeitBy: o.ForfeitBy,
		FirstMover: o.FirstMover, Points: o.Points, Moves: o.Moves, Decisions: o.Decisions, Ending: referee.EndNormal}
	switch {
	case o.ForfeitBy >= 0:
		g.Ending = referee.EndForfeit
	case o.Result == referee.ResultUnknown:
		g.Ending = referee.EndMoveLimit
	case o.Settled != nil:
		g.Ending = referee.EndAdjudicated
	case o.Resigned:
		g.Ending = referee.EndResignation
	}
	g.Stats = map[string][2]int{
		StatDoubles:     {o.Cube[0].Doubles, o.Cube[1].Doubles},
		StatTakes:       {o.Cube[0].Takes, o.Cube[1].Takes},
		StatDrops:       {o.Cube[0].Drops, o.Cube[1].Drops},
		StatBeavers:     {o.Cube[0].Beavers, o.Cube[1].Beavers},
		StatGammons:     o.Gammons,
		StatBackgammons: o.Backgammons,
		StatScore:       o.Score,
		StatGames:       {o.Games, o.Games},
		StatLevel:       {int(o.Level), int(o.Level)},
	}
	if o.Settled != nil {
		g.Stats[StatSettled] = [2]int{1, 1}
	}
	if o.Record != nil && len(o.Record.Games) > 0 {
		rec := o.Record.Clone()
		rec.Event = event
		if start := rec.Games[0].Start; start != "" {
			// .mat cannot set up a position (SGF sets it up): the
			// comment names it (gnubg's position and match IDs).
			rec.Comment = strings.TrimSpace(rec.Comment + "\n" + startNote + start)
		}
		matRec := rec
		if o.Settled != nil {
			// .mat has no game comments: the match comment says why the
			// last game has no result.
			rec.Comment = strings.TrimSpace(fmt.Sprintf("%s\ngame %d adjudicated: %s", rec.Comment, len(rec.Games), o.Detail))
			if last := len(rec.Games) - 1; len(rec.Games[last].Actions) == 0 {
				// Settled at its start position, before any action: .mat
				// has no game without one, so its comment alone tells
				// it; SGF sets the position up with nothing after it.
				matRec = rec.Clone()
				matRec.Games = matRec.Games[:last]
			}
		}
		formats := map[string]*record.Match{"mat": matRec}
		if len(rec.Games) > 1 || len(rec.Games[0].Actions) > 0 || rec.Games[0].Start != "" {
			formats["sgf"] = rec // SGF holds no game that neither moves nor is set up
		}
		g.Records = writeRecords(formats, logf)
	}
	return g
}

// startNote begins the line of a record's match comment that names the
// position its first game began at.
const startNote = "game 1 starts at "

// restoreStart gives the first game of m, read from a record the referee
// wrote, the start position its match comment names (startNote), so that
// the game replays from there, and reports whether there was one.
func restoreStart(m *record.Match) bool {
	start, ok := namedStart(m)
	if !ok || len(m.Games) == 0 || m.Games[0].Start != "" {
		return false
	}
	m.Games[0].Start = start
	return true
}

// namedStart is the start position a record's match comment names
// (startNote), if any.
func namedStart(m *record.Match) (string, bool) {
	for _, line := range strings.Split(m.Comment, "\n") {
		if start, ok := strings.CutPrefix(strings.TrimSpace(line), startNote); ok {
			return strings.TrimSpace(start), true
		}
	}
	return "", false
}

// Records writes a match record as .mat and SGF text by format name.
func Records(rec *record.Match, logf func(string, ...any)) map[string]string {
	return writeRecords(map[string]*record.Match{"mat": rec, "sgf": rec}, logf)
}

// writeRecords writes each format's record of a match by format name.
func writeRecords(recs map[string]*record.Match, logf func(string, ...any)) map[string]string {
	out := map[string]string{}
	for format, rec := range recs {
		write := map[string]func(*bytes.Buffer, *record.Match) error{
			"mat": func(b *bytes.Buffer, m *record.Match) error { return mat.Write(b, m) },
			"sgf": func(b *bytes.Buffer, m *record.Match) error { return sgf.Write(b, m) },
		}[format]
		var buf bytes.Buffer
		if err := write(&buf, rec); err != nil {
			if logf != nil {
				logf("write .%s record: %v", format, err)
			}
			continue
		}
		out[format] = buf.String()
	}
	return out
}
