package gobot

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/internal/atomicfile"
)

// LoadSGF replaces the game by the one in the SGF file (GTP's loadsgf):
// its size, komi, setup stones or handicap and moves, each move checked
// and undoable. until stops before a move: a move number (1 is the first
// move; "3" loads two moves) or a vertex (the first move there). It
// returns the colour to move.
func (e *Engine) LoadSGF(path, until string) (Color, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("loadsgf: %w", err)
	}
	rec, err := sgf.ReadGo(bytes.NewReader(data))
	if err != nil {
		return 0, fmt.Errorf("loadsgf %s: %w", path, err)
	}
	moves := rec.Moves
	if until != "" {
		if n, err := strconv.Atoi(until); err == nil {
			if n < 1 {
				return 0, fmt.Errorf("loadsgf %s: move number %d: want 1 or more", path, n)
			}
			moves = moves[:min(n-1, len(moves))]
		} else {
			m, err := gogame.ParseVertex(until, rec.Size)
			if err != nil || m == gogame.Pass {
				return 0, fmt.Errorf("loadsgf %s: %q: want a move number or a vertex", path, until)
			}
			for i, mv := range moves {
				if mv.Move == m {
					moves = moves[:i]
					break
				}
			}
		}
	}
	st := startOf(rec)
	old := *e
	fail := func(err error) (Color, error) {
		*e = old
		return 0, fmt.Errorf("loadsgf %s: %w", path, err)
	}
	if rec.Size < 5 || rec.Size > gogame.MaxSize {
		return fail(fmt.Errorf("board size %d: gobot plays 5 to %d", rec.Size, gogame.MaxSize))
	}
	e.size, e.komi = rec.Size, rec.Komi
	if err := e.restart(st); err != nil {
		return fail(err)
	}
	for i, mv := range moves {
		if err := e.Play(mv.Color, mv.Move); err != nil {
			return fail(fmt.Errorf("move %d: %w", i+1, err))
		}
	}
	return e.game.ToPlay(), nil
}

// startOf returns the record's start: a free handicap or setup stones, as
// the record's Replay reads them.
func startOf(rec *sgf.GoRecord) setup {
	return setup{black: rec.AddBlack, white: rec.AddWhite, toPlay: rec.FirstToPlay(), handicap: rec.FreeHandicap()}
}

// Record returns the game so far as an SGF record.
func (e *Engine) Record() *sgf.GoRecord {
	rec := &sgf.GoRecord{
		Size:        e.size,
		Komi:        e.komi,
		AddBlack:    e.start.black,
		AddWhite:    e.start.white,
		Application: Name + ":" + Version,
	}
	if e.start.handicap {
		rec.Handicap = len(e.start.black)
	} else if len(e.start.black)+len(e.start.white) > 0 {
		rec.ToPlay = e.start.toPlay
	}
	for _, p := range e.game.Moves() {
		rec.Moves = append(rec.Moves, sgf.GoMove{Color: p.Color, Move: p.Move})
	}
	return rec
}

// SGF returns the game so far as SGF text (GTP's printsgf).
func (e *Engine) SGF() (string, error) {
	var b bytes.Buffer
	if err := sgf.WriteGo(&b, e.Record()); err != nil {
		return "", err
	}
	return b.String(), nil
}

// WriteSGFFile writes the game so far to an SGF file (GTP's printsgf
// FILE), replacing it whole.
func (e *Engine) WriteSGFFile(path string) error {
	rec := e.Record()
	if err := atomicfile.Write(path, func(w io.Writer) error { return sgf.WriteGo(w, rec) }); err != nil {
		return fmt.Errorf("printsgf: %w", err)
	}
	return nil
}
