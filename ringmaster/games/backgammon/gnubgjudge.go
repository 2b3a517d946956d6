package backgammon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/judge/gnubgjudge"
)

// newGnubgJudge is gnubg's own analysis at plies, of the game's .mat
// record, with the same figures as bgbot's.
func (g *Game) newGnubgJudge(plies int) (judge.Judge, error) {
	j, err := gnubgjudge.New(g.GnubgCommand, plies)
	if err != nil {
		return nil, err
	}
	return &gnubgJudge{j: j, races: &g.races}, nil
}

type gnubgJudge struct {
	j     *gnubgjudge.Judge
	races *raceParts // to value a settled race (settledResult)
}

func (j *gnubgJudge) Name() string { return fmt.Sprintf("gnubg %d-ply", j.j.Plies()) }

// Analyse has gnubg judge the .mat record (gnubg imports .mat; the rules
// the format does not keep, Jacoby and beavers in money play, are gnubg's
// defaults), or the SGF record for a game set up at a position, which .mat
// cannot hold.
func (j *gnubgJudge) Analyse(ctx context.Context, records map[string]string) (judge.Analysis, error) {
	text := records["mat"]
	if text == "" {
		return judge.Analysis{}, errors.New("no .mat record")
	}
	m, err := mat.Read(strings.NewReader(text))
	if err != nil {
		return judge.Analysis{}, fmt.Errorf("read record: %w", err)
	}
	analyse := j.j.AnalyseMat
	if start, ok := namedStart(m); ok {
		if m, err = sgf.Read(strings.NewReader(records["sgf"])); err != nil || len(m.Games) == 0 || m.Games[0].Start == "" {
			// gnubg would replay the moves from the opening position.
			return judge.Analysis{}, fmt.Errorf("game 1 starts at %s, and no SGF record sets it up for gnubg: judge it with bgbot (--judge bgbot:%d)",
				start, j.j.Plies())
		}
		text, analyse = records["sgf"], j.j.AnalyseSGF
	}
	if len(m.Games) == 0 {
		return judge.Analysis{}, errors.New("no game in the record")
	}
	// A game set up and settled before any action leaves gnubg nothing to
	// judge: no move, no luck, the settlement for a result.
	names, st := m.Players, [2]analysis.Stats{}
	if len(m.Games) > 1 || len(m.Games[0].Actions) > 0 {
		if names, st, err = analyse(ctx, text); err != nil {
			return judge.Analysis{}, err
		}
	}
	if err := settledResult(&st, m, j.races); err != nil {
		return judge.Analysis{}, err
	}
	return judge.Analysis{Players: names, Figures: figuresOf(st, m.MatchLength)}, nil
}
