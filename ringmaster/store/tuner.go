package store

import (
	"context"
	"database/sql"
	"fmt"
)

// v4ToV5 adds tuner_games: each game a tuning competition issues, written
// before it is played, with the tuner's own record of it and the full
// definitions of the candidates it made for it, so that a resume rebuilds
// the tuner and its players exactly and a report can say who each
// candidate was.
func v4ToV5(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `CREATE TABLE tuner_games (
		game_id    TEXT PRIMARY KEY,
		number     INTEGER NOT NULL UNIQUE,
		proposal   TEXT NOT NULL,
		candidates TEXT NOT NULL,
		issued_at  TEXT NOT NULL,
		score      REAL,
		recorded   INTEGER UNIQUE
	)`)
	if err != nil {
		return fmt.Errorf("create tuner_games: %w", err)
	}
	return nil
}

// TunerGame is one game a tuning competition issued.
type TunerGame struct {
	GameID string
	Number int // in issue order, from 0
	// Proposal is the tuner's record of the game, given back unchanged on
	// resume.
	Proposal string
	// Candidates is the definitions of the candidates the game plays, as
	// the ringmaster writes them (JSON, candidate name to definition).
	Candidates string
	// Score is the first candidate's share as the tuner was given it;
	// nil until then.
	Score *float64
	// Recorded is the order in which the scores were given, from 1; 0
	// until then.
	Recorded int
}

// IssueTunerGame records a game as issued, before it is played. A game
// already recorded (a game in flight re-issued on resume) is left as it
// was.
func (s *Store) IssueTunerGame(ctx context.Context, g TunerGame) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO tuner_games(game_id, number, proposal, candidates, issued_at)
		VALUES(?, ?, ?, ?, ?) ON CONFLICT(game_id) DO NOTHING`, g.GameID, g.Number, g.Proposal, g.Candidates, now())
	if err != nil {
		return fmt.Errorf("record tuner game %s: %w", g.GameID, err)
	}
	return nil
}

// SetTunerScore records the score a tuner was given for a finished game,
// after every score recorded before it: replayed in that order, the games
// rebuild the tuner as it was.
func (s *Store) SetTunerScore(ctx context.Context, gameID string, score float64) error {
	res, err := s.db.ExecContext(ctx, `UPDATE tuner_games SET score = ?,
		recorded = (SELECT COALESCE(MAX(recorded), 0) + 1 FROM tuner_games) WHERE game_id = ? AND score IS NULL`, score, gameID)
	if err != nil {
		return fmt.Errorf("record the score of tuner game %s: %w", gameID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("record the score of tuner game %s: no such tuner game, or its score is recorded already", gameID)
	}
	return nil
}

// TunerGames returns every issued tuner game in issue order.
func (s *Store) TunerGames(ctx context.Context) ([]TunerGame, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT game_id, number, proposal, candidates, score, COALESCE(recorded, 0) FROM tuner_games ORDER BY number")
	if err != nil {
		return nil, fmt.Errorf("read tuner games: %w", err)
	}
	defer rows.Close()
	var out []TunerGame
	for rows.Next() {
		var g TunerGame
		var score sql.NullFloat64
		if err := rows.Scan(&g.GameID, &g.Number, &g.Proposal, &g.Candidates, &score, &g.Recorded); err != nil {
			return nil, fmt.Errorf("read tuner games: %w", err)
		}
		if score.Valid {
			g.Score = &score.Float64
		}
		out = append(out, g)
	}
	return out, rows.Err()
}
