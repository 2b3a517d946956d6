package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

// addPlayers adds the players table, one row per distinct definition a
// player code played under, and games.def_a and games.def_b, which refer
// to the definitions the game's two seats had. Games stored before know
// no definitions (NULL), except a tuner's: its candidates' definitions,
// kept in tuner_games, move into players and their games refer to them.
func addPlayers(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		`CREATE TABLE players (
			player_id  INTEGER PRIMARY KEY,
			code       TEXT NOT NULL,
			definition TEXT NOT NULL,
			recorded_at TEXT NOT NULL,
			UNIQUE (code, definition)
		)`,
		`ALTER TABLE games ADD COLUMN def_a INTEGER REFERENCES players(player_id)`,
		`ALTER TABLE games ADD COLUMN def_b INTEGER REFERENCES players(player_id)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", firstLine(q), err)
		}
	}
	rows, err := tx.QueryContext(ctx, "SELECT game_id, candidates, issued_at FROM tuner_games ORDER BY number")
	if err != nil {
		return fmt.Errorf("read tuner games: %w", err)
	}
	type tunerGame struct{ id, candidates, at string }
	var games []tunerGame
	for rows.Next() {
		var g tunerGame
		if err := rows.Scan(&g.id, &g.candidates, &g.at); err != nil {
			rows.Close()
			return fmt.Errorf("read tuner games: %w", err)
		}
		games = append(games, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read tuner games: %w", err)
	}
	for _, g := range games {
		var defs map[string]json.RawMessage
		if err := json.Unmarshal([]byte(g.candidates), &defs); err != nil {
			return fmt.Errorf("tuner game %s: stored candidates: %w", g.id, err)
		}
		names := make([]string, 0, len(defs))
		for name := range defs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			def := string(defs[name])
			if _, err := tx.ExecContext(ctx, `INSERT INTO players(code, definition, recorded_at) VALUES(?, ?, ?)
				ON CONFLICT(code, definition) DO NOTHING`, name, def, g.at); err != nil {
				return fmt.Errorf("tuner game %s: candidate %s: %w", g.id, name, err)
			}
			for _, side := range []string{"a", "b"} {
				q := fmt.Sprintf(`UPDATE games SET def_%s = (SELECT player_id FROM players WHERE code = ? AND definition = ?)
					WHERE game_id = ? AND player_%s = ?`, side, side)
				if _, err := tx.ExecContext(ctx, q, name, def, g.id, name); err != nil {
					return fmt.Errorf("tuner game %s: candidate %s: %w", g.id, name, err)
				}
			}
		}
	}
	return nil
}

// definitionCache holds the ids of the definitions recorded through this
// Store, so that a game's start costs one statement once its players'
// definitions are in.
type definitionCache struct {
	mu  sync.Mutex
	ids map[[2]string]int64 // code and definition to player_id
}

// definitionID returns the id of a player code's definition in the
// players table, adding it the first time; an empty definition (a game
// started without one) is NULL.
func (s *Store) definitionID(ctx context.Context, code, def string) (sql.NullInt64, error) {
	if def == "" {
		return sql.NullInt64{}, nil
	}
	key := [2]string{code, def}
	s.defs.mu.Lock()
	id, ok := s.defs.ids[key]
	s.defs.mu.Unlock()
	if ok {
		return sql.NullInt64{Int64: id, Valid: true}, nil
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO players(code, definition, recorded_at) VALUES(?, ?, ?)
		ON CONFLICT(code, definition) DO NOTHING`, code, def, now()); err != nil {
		return sql.NullInt64{}, fmt.Errorf("record the definition of player %s: %w", code, err)
	}
	if err := s.db.QueryRowContext(ctx, "SELECT player_id FROM players WHERE code = ? AND definition = ?", code, def).Scan(&id); err != nil {
		return sql.NullInt64{}, fmt.Errorf("record the definition of player %s: %w", code, err)
	}
	s.defs.mu.Lock()
	if s.defs.ids == nil {
		s.defs.ids = map[[2]string]int64{}
	}
	s.defs.ids[key] = id
	s.defs.mu.Unlock()
	return sql.NullInt64{Int64: id, Valid: true}, nil
}

// Definition is one definition a player code played under.
type Definition struct {
	Code string
	// Definition is the player's full definition as the ringmaster
	// writes it (JSON).
	Definition string
	// Games counts the games started with it (finished or not);
	// FirstGame and LastGame are the first and the last of them to start
	// ("" with none).
	Games               int
	FirstGame, LastGame string
	// LastStarted is when LastGame started (RFC 3339), "" with none.
	LastStarted string
}

// Definitions returns every recorded player definition, by code, each
// code's in the order they were first recorded.
func (s *Store) Definitions(ctx context.Context) ([]Definition, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT p.code, p.definition, COUNT(g.game_id),
			COALESCE((SELECT game_id FROM games WHERE def_a = p.player_id OR def_b = p.player_id ORDER BY started_at, game_id LIMIT 1), ''),
			COALESCE((SELECT game_id FROM games WHERE def_a = p.player_id OR def_b = p.player_id ORDER BY started_at DESC, game_id DESC LIMIT 1), ''),
			COALESCE(MAX(g.started_at), '')
		FROM players p LEFT JOIN games g ON g.def_a = p.player_id OR g.def_b = p.player_id
		GROUP BY p.player_id ORDER BY p.code, p.player_id`)
	if err != nil {
		return nil, fmt.Errorf("read player definitions: %w", err)
	}
	defer rows.Close()
	var out []Definition
	for rows.Next() {
		var d Definition
		if err := rows.Scan(&d.Code, &d.Definition, &d.Games, &d.FirstGame, &d.LastGame, &d.LastStarted); err != nil {
			return nil, fmt.Errorf("read player definitions: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// GameDefinitions returns, for each game started with recorded
// definitions, the definitions its seats A and B had ("" where one was
// not recorded).
func (s *Store) GameDefinitions(ctx context.Context) (map[string][2]string, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT g.game_id, COALESCE(a.definition, ''), COALESCE(b.definition, '')
		FROM games g LEFT JOIN players a ON a.player_id = g.def_a LEFT JOIN players b ON b.player_id = g.def_b
		WHERE g.def_a IS NOT NULL OR g.def_b IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("read the games' player definitions: %w", err)
	}
	defer rows.Close()
	out := map[string][2]string{}
	for rows.Next() {
		var id, a, b string
		if err := rows.Scan(&id, &a, &b); err != nil {
			return nil, fmt.Errorf("read the games' player definitions: %w", err)
		}
		out[id] = [2]string{a, b}
	}
	return out, rows.Err()
}
