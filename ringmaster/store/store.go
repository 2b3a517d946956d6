// Package store keeps a competition's state and results in one SQLite file
// (CODE.db, WAL mode). Each finished game is written in one transaction with
// its record, so a process killed at any moment loses at most the games that
// were still running; those are marked "running" and the next run replays
// them under the same ids. The schema is documented in docs/store.md; the
// view game_results is the stable face for other tools.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// SchemaVersion is recorded in PRAGMA user_version.
const SchemaVersion = 1

const schema = `
CREATE TABLE IF NOT EXISTS runs (
	run_id     INTEGER PRIMARY KEY,
	started_at TEXT NOT NULL,
	ended_at   TEXT,
	how        TEXT
);
CREATE TABLE IF NOT EXISTS games (
	game_id      TEXT PRIMARY KEY,
	matchup_id   TEXT NOT NULL,
	number       INTEGER NOT NULL,
	player_a     TEXT NOT NULL,
	player_b     TEXT NOT NULL,
	swapped      INTEGER NOT NULL DEFAULT 0,
	status       TEXT NOT NULL CHECK (status IN ('running', 'done')),
	run_id       INTEGER,
	started_at   TEXT NOT NULL,
	finished_at  TEXT,
	winner       TEXT,
	points_a     INTEGER,
	points_b     INTEGER,
	result       TEXT,
	detail       TEXT,
	first_mover  TEXT,
	level        INTEGER,
	forfeit_by   TEXT,
	score_a      INTEGER,
	score_b      INTEGER,
	games_played INTEGER,
	moves        INTEGER,
	doubles_a    INTEGER, takes_a INTEGER, drops_a INTEGER, beavers_a INTEGER,
	doubles_b    INTEGER, takes_b INTEGER, drops_b INTEGER, beavers_b INTEGER,
	gammons_a    INTEGER, backgammons_a INTEGER,
	gammons_b    INTEGER, backgammons_b INTEGER,
	cpu_a        REAL, cpu_b REAL,
	decisions_a  INTEGER, decisions_b INTEGER,
	record_mat   TEXT,
	record_sgf   TEXT
);
CREATE INDEX IF NOT EXISTS games_matchup ON games(matchup_id, status);
CREATE TABLE IF NOT EXISTS voids (
	void_id   INTEGER PRIMARY KEY,
	game_id   TEXT NOT NULL,
	run_id    INTEGER,
	at        TEXT NOT NULL,
	reason    TEXT NOT NULL,
	record    TEXT
);
CREATE TABLE IF NOT EXISTS engines (
	code        TEXT PRIMARY KEY,
	name        TEXT,
	version     TEXT,
	description TEXT
);
CREATE VIEW IF NOT EXISTS game_results AS
	SELECT game_id, matchup_id, player_a, player_b, winner, points_a, points_b, result, detail
	FROM games WHERE status = 'done';
`

// Store is an open competition database. Its methods are safe for
// concurrent use: database/sql serialises writers through one connection.
type Store struct {
	db *sql.DB
}

// Open opens (creating if needed) the database at path, in WAL mode, and
// brings its schema up to date. A database written by a newer Gamemill is
// refused rather than misread.
func Open(ctx context.Context, path string) (*Store, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One connection: SQLite allows one writer, and this keeps writes ordered.
	db.SetMaxOpenConns(1)
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("schema version %d is newer than this program's %d", version, SchemaVersion)
	}
	if version == SchemaVersion {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// StartRun records the start of a run and returns its id.
func (s *Store) StartRun(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, "INSERT INTO runs(started_at) VALUES(?)", now())
	if err != nil {
		return 0, fmt.Errorf("record run start: %w", err)
	}
	return res.LastInsertId()
}

// EndRun records how a run ended ("finished", "stopped", "interrupted").
func (s *Store) EndRun(ctx context.Context, runID int64, how string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE runs SET ended_at = ?, how = ? WHERE run_id = ?", now(), how, runID)
	if err != nil {
		return fmt.Errorf("record run end: %w", err)
	}
	return nil
}

// GameStart is what is known of a game when it starts.
type GameStart struct {
	GameID    string
	MatchupID string
	Number    int
	PlayerA   string
	PlayerB   string
	Swapped   bool
	RunID     int64
}

// MarkRunning records that a game has started. A game already marked
// running (from an interrupted run) is restarted in place; a finished game
// is an error, since it must never be played twice.
func (s *Store) MarkRunning(ctx context.Context, g GameStart) error {
	res, err := s.db.ExecContext(ctx, `
		INSERT INTO games(game_id, matchup_id, number, player_a, player_b, swapped, status, run_id, started_at)
		VALUES(?, ?, ?, ?, ?, ?, 'running', ?, ?)
		ON CONFLICT(game_id) DO UPDATE SET run_id = excluded.run_id, started_at = excluded.started_at,
			player_a = excluded.player_a, player_b = excluded.player_b, swapped = excluded.swapped
		WHERE games.status = 'running'`,
		g.GameID, g.MatchupID, g.Number, g.PlayerA, g.PlayerB, g.Swapped, g.RunID, now())
	if err != nil {
		return fmt.Errorf("mark game %s running: %w", g.GameID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("mark game %s running: it has already finished", g.GameID)
	}
	return nil
}

// Side holds one player's figures for a finished game.
type Side struct {
	Points      int
	Score       int // match score at the end (match play)
	Doubles     int
	Takes       int
	Drops       int
	Beavers     int
	Gammons     int // games won with a gammon
	Backgammons int
	CPU         time.Duration
	Decisions   int
}

// GameResult is a finished game (a match, or one money game) as stored.
type GameResult struct {
	GameID      string
	MatchupID   string
	Number      int
	PlayerA     string
	PlayerB     string
	Swapped     bool
	Winner      string // a player code, or "" when no one won (unknown result)
	Result      string // "single", "gammon", "backgammon", "match", "forfeit", "unknown"
	Detail      string
	FirstMover  string // the player who moved first (of the first game, for a match)
	Level       int    // backgammon.Result of the (last) game
	ForfeitBy   string
	GamesPlayed int
	Moves       int
	A, B        Side
	RecordMat   string
	RecordSGF   string
	FinishedAt  time.Time
}

// Finish records a finished game and its record in one transaction.
func (s *Store) Finish(ctx context.Context, r GameResult) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("finish game %s: %w", r.GameID, err)
	}
	defer tx.Rollback()
	var winner any
	if r.Winner != "" {
		winner = r.Winner
	}
	res, err := tx.ExecContext(ctx, `
		UPDATE games SET status = 'done', finished_at = ?, winner = ?, points_a = ?, points_b = ?,
			result = ?, detail = ?, first_mover = ?, level = ?, forfeit_by = ?, score_a = ?, score_b = ?,
			games_played = ?, moves = ?,
			doubles_a = ?, takes_a = ?, drops_a = ?, beavers_a = ?,
			doubles_b = ?, takes_b = ?, drops_b = ?, beavers_b = ?,
			gammons_a = ?, backgammons_a = ?, gammons_b = ?, backgammons_b = ?,
			cpu_a = ?, cpu_b = ?, decisions_a = ?, decisions_b = ?,
			record_mat = ?, record_sgf = ?
		WHERE game_id = ? AND status = 'running'`,
		now(), winner, r.A.Points, r.B.Points, r.Result, r.Detail, r.FirstMover, r.Level, r.ForfeitBy,
		r.A.Score, r.B.Score, r.GamesPlayed, r.Moves,
		r.A.Doubles, r.A.Takes, r.A.Drops, r.A.Beavers,
		r.B.Doubles, r.B.Takes, r.B.Drops, r.B.Beavers,
		r.A.Gammons, r.A.Backgammons, r.B.Gammons, r.B.Backgammons,
		r.A.CPU.Seconds(), r.B.CPU.Seconds(), r.A.Decisions, r.B.Decisions,
		r.RecordMat, r.RecordSGF, r.GameID)
	if err != nil {
		return fmt.Errorf("finish game %s: %w", r.GameID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("finish game %s: no running game with that id (finished twice?)", r.GameID)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("finish game %s: commit: %w", r.GameID, err)
	}
	return nil
}

// Void records that a game could not be played (an engine failed to start
// or its channel broke) and leaves it running, to be replayed.
func (s *Store) Void(ctx context.Context, gameID string, runID int64, reason, record string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO voids(game_id, run_id, at, reason, record) VALUES(?, ?, ?, ?, ?)",
		gameID, runID, now(), reason, record)
	if err != nil {
		return fmt.Errorf("record void game %s: %w", gameID, err)
	}
	return nil
}

// GameIDs returns the ids of finished and of running games.
func (s *Store) GameIDs(ctx context.Context) (finished, running []string, err error) {
	rows, err := s.db.QueryContext(ctx, "SELECT game_id, status FROM games ORDER BY game_id")
	if err != nil {
		return nil, nil, fmt.Errorf("list games: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, status string
		if err := rows.Scan(&id, &status); err != nil {
			return nil, nil, fmt.Errorf("list games: %w", err)
		}
		if status == "done" {
			finished = append(finished, id)
		} else {
			running = append(running, id)
		}
	}
	return finished, running, rows.Err()
}

// Results returns every finished game, in game id order.
func (s *Store) Results(ctx context.Context) ([]GameResult, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT game_id, matchup_id, number, player_a, player_b, swapped, COALESCE(winner, ''), points_a, points_b,
			result, COALESCE(detail, ''), COALESCE(first_mover, ''), COALESCE(level, 0), COALESCE(forfeit_by, ''),
			COALESCE(score_a, 0), COALESCE(score_b, 0), COALESCE(games_played, 0), COALESCE(moves, 0),
			doubles_a, takes_a, drops_a, beavers_a, doubles_b, takes_b, drops_b, beavers_b,
			gammons_a, backgammons_a, gammons_b, backgammons_b,
			cpu_a, cpu_b, decisions_a, decisions_b, finished_at
		FROM games WHERE status = 'done' ORDER BY matchup_id, number`)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer rows.Close()
	var out []GameResult
	for rows.Next() {
		var r GameResult
		var cpuA, cpuB float64
		var finished string
		if err := rows.Scan(&r.GameID, &r.MatchupID, &r.Number, &r.PlayerA, &r.PlayerB, &r.Swapped, &r.Winner,
			&r.A.Points, &r.B.Points, &r.Result, &r.Detail, &r.FirstMover, &r.Level, &r.ForfeitBy,
			&r.A.Score, &r.B.Score, &r.GamesPlayed, &r.Moves,
			&r.A.Doubles, &r.A.Takes, &r.A.Drops, &r.A.Beavers, &r.B.Doubles, &r.B.Takes, &r.B.Drops, &r.B.Beavers,
			&r.A.Gammons, &r.A.Backgammons, &r.B.Gammons, &r.B.Backgammons,
			&cpuA, &cpuB, &r.A.Decisions, &r.B.Decisions, &finished); err != nil {
			return nil, fmt.Errorf("read results: %w", err)
		}
		r.A.CPU = time.Duration(cpuA * float64(time.Second))
		r.B.CPU = time.Duration(cpuB * float64(time.Second))
		r.FinishedAt, _ = time.Parse(time.RFC3339, finished)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Record returns the stored .mat and SGF records of a finished game.
func (s *Store) Record(ctx context.Context, gameID string) (mat, sgf string, err error) {
	err = s.db.QueryRowContext(ctx, "SELECT COALESCE(record_mat, ''), COALESCE(record_sgf, '') FROM games WHERE game_id = ? AND status = 'done'", gameID).Scan(&mat, &sgf)
	if err != nil {
		return "", "", fmt.Errorf("read record of %s: %w", gameID, err)
	}
	return mat, sgf, nil
}

// Voids returns every void attempt recorded, in order.
func (s *Store) Voids(ctx context.Context) ([]VoidGame, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT game_id, at, reason FROM voids ORDER BY void_id")
	if err != nil {
		return nil, fmt.Errorf("read voids: %w", err)
	}
	defer rows.Close()
	var out []VoidGame
	for rows.Next() {
		var v VoidGame
		if err := rows.Scan(&v.GameID, &v.At, &v.Reason); err != nil {
			return nil, fmt.Errorf("read voids: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// VoidGame is one void attempt at a game.
type VoidGame struct {
	GameID string
	At     string
	Reason string
}

// SetEngine records an engine's self-description from the startup checks.
func (s *Store) SetEngine(ctx context.Context, code, name, version string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO engines(code, name, version, description) VALUES(?, ?, ?, ?)
		ON CONFLICT(code) DO UPDATE SET name = excluded.name, version = excluded.version, description = excluded.description`,
		code, name, version, name+" "+version)
	if err != nil {
		return fmt.Errorf("record engine %s: %w", code, err)
	}
	return nil
}

// Engines returns the recorded engine descriptions by player code.
func (s *Store) Engines(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT code, description FROM engines")
	if err != nil {
		return nil, fmt.Errorf("read engines: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var c, d string
		if err := rows.Scan(&c, &d); err != nil {
			return nil, err
		}
		out[c] = d
	}
	return out, rows.Err()
}
