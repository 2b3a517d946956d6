package gogame

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// record collects what the game's SGF needs beyond the moves.
type record struct {
	event, gameID string
	settings      Settings
	seats         [2]referee.Seat
	scores        []string // each scorer's final_score, for the last comment
	logf          func(string, ...any)
	// comments are move comments by move index (the opening's end, the
	// engines' gomill-explain_last_move); descriptions are the engines'
	// gomill-describe_engine, by seat.
	comments     map[int]string
	descriptions [2]string
}

// write returns the game's SGF (formats/sgf.WriteGo) by format: the
// players' codes as PB and PW, RE, DT, EV, GN, a root comment naming the
// players, and the last comment with the result's reason and the scorers'
// answers. A void game (voidErr set) keeps its SGF only when at least one
// move was played, with RE[Void] and the reason.
func (r *record) write(g *rules.Game, out *referee.Outcome, voidErr error) map[string]string {
	played := g.Moves()
	if voidErr != nil && len(played) == 0 {
		return nil
	}
	rec := &sgf.GoRecord{Size: r.settings.BoardSize, Komi: r.settings.Komi, AddBlack: g.Handicap(),
		Black: r.seats[0].Code, White: r.seats[1].Code, Result: out.Result, Date: time.Now().UTC().Format("2006-01-02"),
		Event: r.event, GameName: r.gameID, Application: "gamemill ringmaster",
		Comment: fmt.Sprintf("Black %s\nWhite %s", r.seats[0].Code, r.seats[1].Code)}
	rec.Handicap = len(rec.AddBlack)
	if voidErr != nil {
		rec.Result = ResultVoid
	}
	for i, p := range played {
		rec.Moves = append(rec.Moves, sgf.GoMove{Color: p.Color, Move: p.Move, Comment: r.comments[i]})
	}
	for i, d := range r.descriptions {
		if d != "" {
			rec.Comment += fmt.Sprintf("\n\n%s: %s", r.seats[i].Code, d)
		}
	}
	var last []string
	switch {
	case voidErr != nil:
		last = append(last, "void: "+oneLine(voidErr.Error()))
	case out.Detail != "":
		last = append(last, out.Detail)
	}
	rec.FinalComment = strings.Join(append(last, r.scores...), "\n")
	var buf bytes.Buffer
	if err := sgf.WriteGo(&buf, rec); err != nil {
		if r.logf != nil {
			r.logf("write SGF record: %v", err)
		}
		return nil
	}
	return map[string]string{"sgf": buf.String()}
}
