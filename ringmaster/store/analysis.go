package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// v2ToV3 adds the analysis of play (`ringmaster analyse`): analyses holds
// one row per game judged at a depth, analysis_stats the game's named
// figures of that judgement for both seats, as game_stats does for the
// game's counts but in REAL (error and luck sums). The store does not read
// the figures; the game that wrote them sums and prints them.
func v2ToV3(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		`CREATE TABLE analyses (
			game_id     TEXT NOT NULL,
			plies       INTEGER NOT NULL,
			judge       TEXT NOT NULL,
			seconds     REAL NOT NULL,
			analysed_at TEXT NOT NULL,
			PRIMARY KEY (game_id, plies)
		)`,
		`CREATE TABLE analysis_stats (
			game_id TEXT NOT NULL,
			plies   INTEGER NOT NULL,
			name    TEXT NOT NULL,
			value_a REAL NOT NULL,
			value_b REAL NOT NULL,
			PRIMARY KEY (game_id, plies, name)
		)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", firstLine(q), err)
		}
	}
	return nil
}

// Analysis is the stored judgement of one finished game's play at one
// depth.
type Analysis struct {
	GameID string
	Plies  int
	// Judge names what judged ("bgbot 0-ply"), for people.
	Judge string
	// Seconds is how long the judgement took.
	Seconds float64
	// Figures holds the game's named figures for seats A and B (the
	// game's player_a and player_b).
	Figures map[string][2]float64
}

// ErrAnalysed means a game already has an analysis at that depth: a game
// is analysed once per depth, and the first analysis stored stands.
var ErrAnalysed = errors.New("already analysed")

// SaveAnalysis stores a finished game's analysis with its figures in one
// transaction. A game not finished is refused, and a game already analysed
// at the same depth gives ErrAnalysed (and changes nothing).
func (s *Store) SaveAnalysis(ctx context.Context, a Analysis) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save analysis of %s: %w", a.GameID, err)
	}
	defer tx.Rollback()
	var status string
	switch err := tx.QueryRowContext(ctx, "SELECT status FROM games WHERE game_id = ?", a.GameID).Scan(&status); {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("save analysis of %s: no such game", a.GameID)
	case err != nil:
		return fmt.Errorf("save analysis of %s: %w", a.GameID, err)
	case status != "done":
		return fmt.Errorf("save analysis of %s: the game has not finished", a.GameID)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO analyses(game_id, plies, judge, seconds, analysed_at) VALUES(?, ?, ?, ?, ?)
		ON CONFLICT(game_id, plies) DO NOTHING`, a.GameID, a.Plies, a.Judge, a.Seconds, now())
	if err != nil {
		return fmt.Errorf("save analysis of %s: %w", a.GameID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("save analysis of %s at %d plies: %w", a.GameID, a.Plies, ErrAnalysed)
	}
	for _, name := range sortedKeys(a.Figures) {
		v := a.Figures[name]
		if _, err := tx.ExecContext(ctx, "INSERT INTO analysis_stats(game_id, plies, name, value_a, value_b) VALUES(?, ?, ?, ?, ?)",
			a.GameID, a.Plies, name, v[0], v[1]); err != nil {
			return fmt.Errorf("save analysis of %s: figure %s: %w", a.GameID, name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save analysis of %s: commit: %w", a.GameID, err)
	}
	return nil
}

// Analyses returns every stored analysis at a depth, by game id.
func (s *Store) Analyses(ctx context.Context, plies int) (map[string]*Analysis, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT game_id, judge, seconds FROM analyses WHERE plies = ?", plies)
	if err != nil {
		return nil, fmt.Errorf("read analyses: %w", err)
	}
	defer rows.Close()
	out := map[string]*Analysis{}
	for rows.Next() {
		a := &Analysis{Plies: plies, Figures: map[string][2]float64{}}
		if err := rows.Scan(&a.GameID, &a.Judge, &a.Seconds); err != nil {
			return nil, fmt.Errorf("read analyses: %w", err)
		}
		out[a.GameID] = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read analyses: %w", err)
	}
	rows.Close()
	figs, err := s.db.QueryContext(ctx, "SELECT game_id, name, value_a, value_b FROM analysis_stats WHERE plies = ?", plies)
	if err != nil {
		return nil, fmt.Errorf("read analysis figures: %w", err)
	}
	defer figs.Close()
	for figs.Next() {
		var id, name string
		var a, b float64
		if err := figs.Scan(&id, &name, &a, &b); err != nil {
			return nil, fmt.Errorf("read analysis figures: %w", err)
		}
		if an, ok := out[id]; ok {
			an.Figures[name] = [2]float64{a, b}
		}
	}
	if err := figs.Err(); err != nil {
		return nil, fmt.Errorf("read analysis figures: %w", err)
	}
	return out, nil
}
