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

// analysesByJudge keys the analyses by judge as well as depth, so that
// two judges' analyses of one game sit side by side: both tables gain
// judge_spec, the judge as the user names it ("gnubg:0"), in their keys.
// The analyses stored before were all bgbot's ("bgbot:PLIES").
func analysesByJudge(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		`CREATE TABLE analyses_by_judge (
			game_id     TEXT NOT NULL,
			judge_spec  TEXT NOT NULL,
			plies       INTEGER NOT NULL,
			judge       TEXT NOT NULL,
			seconds     REAL NOT NULL,
			analysed_at TEXT NOT NULL,
			PRIMARY KEY (game_id, judge_spec)
		)`,
		`INSERT INTO analyses_by_judge(game_id, judge_spec, plies, judge, seconds, analysed_at)
			SELECT game_id, 'bgbot:' || plies, plies, judge, seconds, analysed_at FROM analyses`,
		`CREATE TABLE analysis_stats_by_judge (
			game_id    TEXT NOT NULL,
			judge_spec TEXT NOT NULL,
			name       TEXT NOT NULL,
			value_a    REAL NOT NULL,
			value_b    REAL NOT NULL,
			PRIMARY KEY (game_id, judge_spec, name)
		)`,
		`INSERT INTO analysis_stats_by_judge(game_id, judge_spec, name, value_a, value_b)
			SELECT game_id, 'bgbot:' || plies, name, value_a, value_b FROM analysis_stats`,
		`DROP TABLE analyses`,
		`DROP TABLE analysis_stats`,
		`ALTER TABLE analyses_by_judge RENAME TO analyses`,
		`ALTER TABLE analysis_stats_by_judge RENAME TO analysis_stats`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", firstLine(q), err)
		}
	}
	return nil
}

// Analysis is the stored judgement of one finished game's play by one
// judge at one depth.
type Analysis struct {
	GameID string
	// Spec is the judge and depth as the user names them ("bgbot:0",
	// "gnubg:2"): a game has one analysis per Spec.
	Spec  string
	Plies int
	// Judge names what judged ("bgbot 0-ply"), for people.
	Judge string
	// Seconds is how long the judgement took.
	Seconds float64
	// Figures holds the game's named figures for seats A and B (the
	// game's player_a and player_b).
	Figures map[string][2]float64
}

// ErrAnalysed means a game already has an analysis by that judge at that
// depth: a game is analysed once per Spec, and the first analysis stored
// stands.
var ErrAnalysed = errors.New("already analysed")

// SaveAnalysis stores a finished game's analysis with its figures in one
// transaction. A game not finished is refused, and a game already analysed
// under the same Spec gives ErrAnalysed (and changes nothing).
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
	if a.Spec == "" {
		return fmt.Errorf("save analysis of %s: no judge named", a.GameID)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO analyses(game_id, judge_spec, plies, judge, seconds, analysed_at) VALUES(?, ?, ?, ?, ?, ?)
		ON CONFLICT(game_id, judge_spec) DO NOTHING`, a.GameID, a.Spec, a.Plies, a.Judge, a.Seconds, now())
	if err != nil {
		return fmt.Errorf("save analysis of %s: %w", a.GameID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("save analysis of %s by %s: %w", a.GameID, a.Spec, ErrAnalysed)
	}
	for _, name := range sortedKeys(a.Figures) {
		v := a.Figures[name]
		if _, err := tx.ExecContext(ctx, "INSERT INTO analysis_stats(game_id, judge_spec, name, value_a, value_b) VALUES(?, ?, ?, ?, ?)",
			a.GameID, a.Spec, name, v[0], v[1]); err != nil {
			return fmt.Errorf("save analysis of %s: figure %s: %w", a.GameID, name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save analysis of %s: commit: %w", a.GameID, err)
	}
	return nil
}

// Analyses returns every stored analysis by one judge at one depth (an
// Analysis.Spec such as "bgbot:0"), by game id.
func (s *Store) Analyses(ctx context.Context, spec string) (map[string]*Analysis, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT game_id, plies, judge, seconds FROM analyses WHERE judge_spec = ?", spec)
	if err != nil {
		return nil, fmt.Errorf("read analyses: %w", err)
	}
	defer rows.Close()
	out := map[string]*Analysis{}
	for rows.Next() {
		a := &Analysis{Spec: spec, Figures: map[string][2]float64{}}
		if err := rows.Scan(&a.GameID, &a.Plies, &a.Judge, &a.Seconds); err != nil {
			return nil, fmt.Errorf("read analyses: %w", err)
		}
		out[a.GameID] = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read analyses: %w", err)
	}
	rows.Close()
	figs, err := s.db.QueryContext(ctx, "SELECT game_id, name, value_a, value_b FROM analysis_stats WHERE judge_spec = ?", spec)
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
