// Package gnubgjudge has GNU Backgammon judge a finished game for
// `ringmaster analyse --judge gnubg:PLIES`: gnubg imports the game's .mat
// record, analyses chequer play and cube decisions at the depth asked and
// prints "show statistics match", which player/gnubg/verdict reads into
// the same statistics bgbot's analysis gives (engine/bgbot/analysis.Stats),
// so that both judges' figures are stored, summed and printed alike.
package gnubgjudge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
)

// MaxPlies is the deepest analysis gnubg is asked for.
const MaxPlies = gnubg.MaxPlies

// Judge runs gnubg's analysis at one depth. One gnubg process is started
// per game judged, so a Judge may be used by one goroutine at a time and
// holds nothing between games.
type Judge struct {
	binary string
	plies  int
}

// New finds gnubg (binary, or "gnubg" on PATH or in /usr/games when
// empty) and returns a judge at plies.
func New(binary string, plies int) (*Judge, error) {
	if plies < 0 || plies > MaxPlies {
		return nil, fmt.Errorf("gnubg judge: depth %d out of range 0..%d", plies, MaxPlies)
	}
	bin, err := gnubg.FindBinary(binary)
	if err != nil {
		return nil, fmt.Errorf("gnubg judge: %w", err)
	}
	return &Judge{binary: bin, plies: plies}, nil
}

// Plies is the judge's depth.
func (j *Judge) Plies() int { return j.plies }

// AnalyseMat has gnubg judge one .mat record and returns the players as
// the record names them and their statistics. Resignations are not
// counted (gnubg's statistics have no such line).
func (j *Judge) AnalyseMat(ctx context.Context, mat string) ([2]string, [2]analysis.Stats, error) {
	return j.analyse(ctx, mat, "game.mat")
}

// AnalyseSGF is AnalyseMat for a record in gnubg's SGF, which can start a
// game at a set-up position.
func (j *Judge) AnalyseSGF(ctx context.Context, sgf string) ([2]string, [2]analysis.Stats, error) {
	return j.analyse(ctx, sgf, "game.sgf")
}

func (j *Judge) analyse(ctx context.Context, text, name string) ([2]string, [2]analysis.Stats, error) {
	dir, err := os.MkdirTemp("", "gnubgjudge")
	if err != nil {
		return [2]string{}, [2]analysis.Stats{}, fmt.Errorf("gnubg judge: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		return [2]string{}, [2]analysis.Stats{}, fmt.Errorf("gnubg judge: %w", err)
	}
	s, err := verdict.AnalyseStatistics(ctx, j.binary, file, j.plies)
	if err != nil {
		if ctx.Err() != nil {
			return [2]string{}, [2]analysis.Stats{}, ctx.Err()
		}
		return s.Names, s.Stats, fmt.Errorf("gnubg judge: %w", err)
	}
	return s.Names, s.Stats, nil
}
