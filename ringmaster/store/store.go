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
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// SchemaVersion is recorded in PRAGMA user_version. Each version's step
// is in migrations; a database at any older version is brought up to this
// one in a single transaction when it is opened.
const SchemaVersion = 7

// applicationID marks a SQLite file as a Gamemill competition database
// (PRAGMA application_id, "GMil"). Version 1 databases predate it.
const applicationID = 0x474d696c

// migrations[v] takes a database from version v to v+1.
var migrations = [SchemaVersion]func(ctx context.Context, tx *sql.Tx) error{
	0: createV1,
	1: v1ToV2,
	2: v2ToV3,
	3: v3ToV4,
	4: v4ToV5,
	5: analysesByJudge,
	6: addPlayers,
}

// schemaV1 is the schema Gamemill wrote until the game seam: backgammon
// columns in games. It is kept only so that the ladder starts from it.
const schemaV1 = `
CREATE TABLE runs (
	run_id     INTEGER PRIMARY KEY,
	started_at TEXT NOT NULL,
	ended_at   TEXT,
	how        TEXT
);
CREATE TABLE games (
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
CREATE INDEX games_matchup ON games(matchup_id, status);
CREATE TABLE voids (
	void_id   INTEGER PRIMARY KEY,
	game_id   TEXT NOT NULL,
	run_id    INTEGER,
	at        TEXT NOT NULL,
	reason    TEXT NOT NULL,
	record    TEXT
);
CREATE TABLE engines (
	code        TEXT PRIMARY KEY,
	name        TEXT,
	version     TEXT,
	description TEXT
);
CREATE VIEW game_results AS
	SELECT game_id, matchup_id, player_a, player_b, winner, points_a, points_b, result, detail
	FROM games WHERE status = 'done';
`

func createV1(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, schemaV1)
	return err
}

// v1ToV2 makes games game-agnostic: the backgammon columns move to
// game_stats (one row per statistic, both sides), the records to records;
// ending says how a game ended apart from who won; matchups keeps each
// matchup's settings so that a changed control file cannot silently mix
// results of different games. The game_results view keeps its columns.
func v1ToV2(ctx context.Context, tx *sql.Tx) error {
	steps := []string{
		`CREATE TABLE game_stats (
			game_id TEXT NOT NULL,
			name    TEXT NOT NULL,
			value_a INTEGER NOT NULL,
			value_b INTEGER NOT NULL,
			PRIMARY KEY (game_id, name)
		)`,
		`CREATE TABLE records (
			game_id TEXT NOT NULL,
			format  TEXT NOT NULL,
			text    TEXT NOT NULL,
			PRIMARY KEY (game_id, format)
		)`,
		`CREATE TABLE matchups (
			matchup_id TEXT PRIMARY KEY,
			game       TEXT NOT NULL,
			settings   TEXT NOT NULL
		)`,
		`CREATE TABLE games_v2 (
			game_id     TEXT PRIMARY KEY,
			matchup_id  TEXT NOT NULL,
			number      INTEGER NOT NULL,
			player_a    TEXT NOT NULL,
			player_b    TEXT NOT NULL,
			swapped     INTEGER NOT NULL DEFAULT 0,
			status      TEXT NOT NULL CHECK (status IN ('running', 'done')),
			run_id      INTEGER,
			started_at  TEXT NOT NULL,
			finished_at TEXT,
			winner      TEXT,
			points_a    INTEGER,
			points_b    INTEGER,
			result      TEXT,
			ending      TEXT,
			detail      TEXT,
			first_mover TEXT,
			forfeit_by  TEXT,
			moves       INTEGER,
			cpu_a       REAL, cpu_b REAL,
			decisions_a INTEGER, decisions_b INTEGER
		)`,
		`INSERT INTO games_v2 SELECT game_id, matchup_id, number, player_a, player_b, swapped, status, run_id,
			started_at, finished_at, winner, points_a, points_b, result,
			CASE WHEN status <> 'done' THEN NULL WHEN result = 'forfeit' THEN 'forfeit'
				WHEN result = 'unknown' THEN 'move_limit' ELSE 'normal' END,
			detail, first_mover, forfeit_by, moves, cpu_a, cpu_b, decisions_a, decisions_b
			FROM games`,
	}
	for _, st := range []struct{ name, a, b string }{
		{"doubles", "doubles_a", "doubles_b"}, {"takes", "takes_a", "takes_b"},
		{"drops", "drops_a", "drops_b"}, {"beavers", "beavers_a", "beavers_b"},
		{"gammons", "gammons_a", "gammons_b"}, {"backgammons", "backgammons_a", "backgammons_b"},
		{"score", "score_a", "score_b"}, {"games", "games_played", "games_played"}, {"level", "level", "level"},
	} {
		steps = append(steps, fmt.Sprintf(`INSERT INTO game_stats SELECT game_id, '%s', COALESCE(%s, 0), COALESCE(%s, 0)
			FROM games WHERE status = 'done'`, st.name, st.a, st.b))
	}
	steps = append(steps,
		`INSERT INTO records SELECT game_id, 'mat', record_mat FROM games WHERE status = 'done' AND COALESCE(record_mat, '') <> ''`,
		`INSERT INTO records SELECT game_id, 'sgf', record_sgf FROM games WHERE status = 'done' AND COALESCE(record_sgf, '') <> ''`,
		`DROP VIEW game_results`,
		`DROP TABLE games`,
		`ALTER TABLE games_v2 RENAME TO games`,
		`CREATE INDEX games_matchup ON games(matchup_id, status)`,
		`CREATE VIEW game_results AS
			SELECT game_id, matchup_id, player_a, player_b, winner, points_a, points_b, result, detail
			FROM games WHERE status = 'done'`,
		fmt.Sprintf("PRAGMA application_id = %d", applicationID),
	)
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", firstLine(q), err)
		}
	}
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Store is an open competition database. Its methods are safe for
// concurrent use: database/sql serialises writers through one connection.
type Store struct {
	db    *sql.DB
	defs  definitionCache
	stmts gameStatements
}

// gameStatements are the statements a run executes for every game,
// prepared once when the store opens so that a game's writes parse no SQL.
// They are prepared outside any transaction: the store has one
// connection, which a transaction holds until it ends.
type gameStatements struct {
	voidedBy, markRunning, finish, stat, record *sql.Stmt
}

const (
	voidedBySQL    = "SELECT player, COUNT(*) FROM voids WHERE game_id = ? AND player IS NOT NULL GROUP BY player"
	markRunningSQL = `
		INSERT INTO games(game_id, matchup_id, number, player_a, player_b, swapped, status, run_id, started_at, def_a, def_b)
		VALUES(?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)
		ON CONFLICT(game_id) DO UPDATE SET run_id = excluded.run_id, started_at = excluded.started_at,
			player_a = excluded.player_a, player_b = excluded.player_b, swapped = excluded.swapped,
			def_a = excluded.def_a, def_b = excluded.def_b
		WHERE games.status = 'running'`
	finishSQL = `
		UPDATE games SET status = 'done', finished_at = ?, winner = ?, points_a = ?, points_b = ?,
			result = ?, ending = ?, detail = ?, first_mover = ?, forfeit_by = ?, moves = ?,
			cpu_a = ?, cpu_b = ?, decisions_a = ?, decisions_b = ?
		WHERE game_id = ? AND status = 'running'`
	statSQL   = "INSERT OR REPLACE INTO game_stats(game_id, name, value_a, value_b) VALUES(?, ?, ?, ?)"
	recordSQL = "INSERT OR REPLACE INTO records(game_id, format, text) VALUES(?, ?, ?)"
)

// prepare prepares the per-game statements; the schema must be current.
func (s *Store) prepare(ctx context.Context) error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.stmts.voidedBy, voidedBySQL}, {&s.stmts.markRunning, markRunningSQL}, {&s.stmts.finish, finishSQL},
		{&s.stmts.stat, statSQL}, {&s.stmts.record, recordSQL},
	} {
		stmt, err := s.db.PrepareContext(ctx, p.sql)
		if err != nil {
			return fmt.Errorf("prepare %q: %w", firstLine(p.sql), err)
		}
		*p.stmt = stmt
	}
	return nil
}

// ErrNotOurs means the file at a database path is not a competition
// database: an empty file, another program's SQLite file, or no SQLite
// file at all. It is refused rather than overwritten.
var ErrNotOurs = errors.New("not a Gamemill competition database")

// ErrDamaged means the database file is a SQLite file whose pages are
// damaged (PRAGMA quick_check fails, or SQLite finds it malformed). It is
// refused, never repaired in place: the error says how to recover it.
var ErrDamaged = errors.New("the database is damaged")

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// SQLite's primary result codes that Open tells apart.
const (
	sqlitePerm     = 3
	sqliteReadOnly = 8
	sqliteCorrupt  = 11
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// Open opens (creating if needed) the database at path, in WAL mode,
// checks its pages (PRAGMA quick_check) and brings its schema up to date.
// A database written by a newer Gamemill is refused rather than misread,
// as is a file that is not ours ([ErrNotOurs]) and a damaged one
// ([ErrDamaged]); a file that cannot be created or opened is reported
// with the reason (the directory is not writable, and so on). Nothing is
// deleted or overwritten on the way.
func Open(ctx context.Context, path string) (*Store, error) {
	fi, err := os.Stat(path)
	if err == nil && fi.Size() == 0 {
		// SQLite would take an empty file for a new database; a file we
		// create is never left empty (see create), so this one is
		// someone else's.
		return nil, fmt.Errorf("open %s: %w (the file is empty)", path, ErrNotOurs)
	}
	if errors.Is(err, os.ErrNotExist) {
		if err := create(ctx, path); err != nil {
			return nil, err
		}
	}
	return open(ctx, path, path)
}

// create makes a new database at path whole or not at all: it is built
// under a temporary name beside path and linked into place, so that a
// process killed while creating it leaves no empty or half-made file at
// path, which every later open would refuse. A database another process
// put at path meanwhile is kept.
func create(ctx context.Context, path string) error {
	tmp := fmt.Sprintf("%s.new-%d", path, os.Getpid())
	removeDatabase(tmp) // left by a process of the same id that was killed
	defer removeDatabase(tmp)
	s, err := open(ctx, tmp, path)
	if err != nil {
		return err
	}
	if err := s.Close(); err != nil { // checkpoints the WAL into the file
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
		// A file system without hard links: a rename is as whole.
		if _, serr := os.Stat(path); !errors.Is(serr, os.ErrNotExist) {
			return nil
		}
		if rerr := os.Rename(tmp, path); rerr != nil {
			return fmt.Errorf("create %s: %w", path, rerr)
		}
	}
	return nil
}

// removeDatabase removes a database file with its -wal and -shm files.
func removeDatabase(path string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
}

// open opens the database in file, naming it name in errors.
func open(ctx context.Context, file, name string) (*Store, error) {
	dsn := "file:" + file + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	// One connection: SQLite allows one writer, and this keeps writes ordered.
	db.SetMaxOpenConns(1)
	s := &Store{db: db}
	if err := s.check(ctx, file, name); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", name, explain(file, err))
	}
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return s, nil
}

// check makes the first contact with the file and runs PRAGMA
// quick_check, which reads every page: a database with damaged pages
// (an index among them) is refused before anything is read from it or
// written to it.
func (s *Store) check(ctx context.Context, file, name string) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("open %s: %w", name, explain(file, err))
	}
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check(20)")
	if err != nil {
		return fmt.Errorf("open %s: %w", name, explain(file, err))
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("open %s: %w", name, explain(file, err))
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("open %s: %w", name, explain(file, err))
	}
	if len(problems) > 0 {
		return damaged(name, "quick_check: "+strings.Join(problems, "; "))
	}
	return nil
}

// damaged is the error for a damaged database, with how to recover it.
func damaged(path, detail string) error {
	return fmt.Errorf("open %s: %w (%s); it was left as it is: recover what it holds with "+
		"`sqlite3 %s .recover | sqlite3 NEW.db` and put NEW.db in its place, or restore it from a backup",
		path, ErrDamaged, oneLine(detail, 300), path)
}

// explain turns SQLite's error from opening or first reading path into
// what is wrong: a file that is not a database, a damaged database, a
// directory where the file cannot be created, a file that cannot be
// opened for writing. Other errors are returned as they are.
func explain(path string, err error) error {
	var se *sqlite.Error
	code := -1
	if errors.As(err, &se) {
		code = se.Code() & 0xff
	}
	head := make([]byte, len(sqliteMagic))
	f, openErr := os.Open(path)
	if openErr == nil {
		n, _ := f.Read(head)
		head = head[:n]
		f.Close()
	}
	switch {
	case errors.Is(openErr, os.ErrNotExist) || errors.Is(openErr, syscall.ENOTDIR):
		// SQLite could not create the file: say why, from a probe.
		if werr := canCreateIn(filepath.Dir(path)); werr != nil {
			return fmt.Errorf("cannot create the database in %s: %v", filepath.Dir(path), werr)
		}
		return fmt.Errorf("cannot create the database: %w", err)
	case openErr == nil && string(head) != sqliteMagic:
		return fmt.Errorf("%w (it is not a SQLite file)", ErrNotOurs)
	case code == sqliteCorrupt || code == sqliteNotADB:
		return damaged(path, err.Error())
	case openErr != nil:
		return fmt.Errorf("cannot read the database: %v", pathErrCause(openErr))
	case code == sqliteCantOpen || code == sqliteReadOnly || code == sqlitePerm:
		w, werr := os.OpenFile(path, os.O_RDWR, 0)
		if werr != nil {
			return fmt.Errorf("cannot open the database for writing: %v", pathErrCause(werr))
		}
		w.Close()
		if werr := canCreateIn(filepath.Dir(path)); werr != nil {
			return fmt.Errorf("cannot write in %s, where SQLite keeps the database's -wal and -shm files: %v", filepath.Dir(path), werr)
		}
	}
	return err
}

// canCreateIn says why a file cannot be created in dir ("permission
// denied", "not a directory"), or returns nil, by creating and removing a
// probe file.
func canCreateIn(dir string) error {
	probe, err := os.CreateTemp(dir, ".gamemill-probe-*")
	if err != nil {
		return pathErrCause(err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// pathErrCause is the reason inside an *os.PathError ("permission
// denied"), or the error itself.
func pathErrCause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func oneLine(s string, max int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}

// migrate checks that the database is ours and climbs the ladder from its
// version to SchemaVersion in one transaction: a failure leaves it as it
// was.
func (s *Store) migrate(ctx context.Context) error {
	var version, appID, tables int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return fmt.Errorf("read application id: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	switch {
	case appID != 0 && appID != applicationID:
		return fmt.Errorf("%w (application id %#x)", ErrNotOurs, appID)
	case version == 0 && tables > 0:
		return fmt.Errorf("%w (it holds other tables)", ErrNotOurs)
	case version > SchemaVersion:
		return fmt.Errorf("schema version %d is newer than this program's %d", version, SchemaVersion)
	case version == SchemaVersion:
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for v := version; v < SchemaVersion; v++ {
		if err := migrations[v](ctx, tx); err != nil {
			return fmt.Errorf("migrate schema from version %d to %d: %w", v, v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the database.
func (s *Store) Close() error {
	for _, stmt := range []*sql.Stmt{s.stmts.voidedBy, s.stmts.markRunning, s.stmts.finish, s.stmts.stat, s.stmts.record} {
		if stmt != nil {
			stmt.Close()
		}
	}
	return s.db.Close()
}

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
	// DefA and DefB are the full definitions of the players in seats A
	// and B (see Definitions); "" records none.
	DefA, DefB string
}

// MarkRunning records that a game has started. A game already marked
// running (from an interrupted run) is restarted in place; a finished game
// is an error, since it must never be played twice.
func (s *Store) MarkRunning(ctx context.Context, g GameStart) error {
	defA, err := s.definitionID(ctx, g.PlayerA, g.DefA)
	if err != nil {
		return fmt.Errorf("mark game %s running: %w", g.GameID, err)
	}
	defB, err := s.definitionID(ctx, g.PlayerB, g.DefB)
	if err != nil {
		return fmt.Errorf("mark game %s running: %w", g.GameID, err)
	}
	res, err := s.stmts.markRunning.ExecContext(ctx,
		g.GameID, g.MatchupID, g.Number, g.PlayerA, g.PlayerB, g.Swapped, g.RunID, now(), defA, defB)
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
	// Points are the net points from this side's view (the game decides
	// the scale): whole for a game played out, fractional for one
	// adjudicated by its expected value. The INTEGER column keeps a
	// fraction as REAL (SQLite's type affinity) and a whole number as
	// INTEGER, as it always has.
	Points    float64
	CPU       time.Duration
	Decisions int // decisions the engine was asked for
}

// How a game ended, apart from who won.
const (
	EndNormal      = "normal"      // played out (or scored after passes)
	EndResignation = "resignation" // a player resigned
	EndForfeit     = "forfeit"     // a player broke the rules or the protocol
	EndClaim       = "claim"       // a player claimed the win and the referee accepted
	EndUnknown     = "unknown"     // finished, but the result could not be settled
	EndMoveLimit   = "move_limit"  // stopped at the move limit: nobody won
	EndAdjudicated = "adjudicated" // stopped and scored by its expected value (fractional points)
)

// GameResult is a finished game (for backgammon a match, or one money
// game) as stored. The core fields mean the same for every game; Stats and
// Records are the game's own and the store does not interpret them.
type GameResult struct {
	GameID     string
	MatchupID  string
	Number     int
	PlayerA    string
	PlayerB    string
	Swapped    bool
	Winner     string // a player code, or "" when no one won (a draw, unknown or move limit)
	Result     string // the game's result text: "gammon", "match", "W+4.5", "forfeit", "unknown", ...
	Ending     string // one of the End* names
	Detail     string
	FirstMover string // the player who moved first (of the first game, for a match)
	ForfeitBy  string
	Moves      int
	A, B       Side
	// Stats holds the game's own counts by name, [A, B]: doubles and
	// gammons for backgammon, captures for Go.
	Stats map[string][2]int
	// Records holds the game's records by format ("mat", "sgf").
	Records    map[string]string
	FinishedAt time.Time
}

// Draw reports whether the game ended normally with no winner.
func (r *GameResult) Draw() bool { return r.Winner == "" && r.Ending == EndNormal }

// Finish records a finished game with its statistics and records in one
// transaction.
func (s *Store) Finish(ctx context.Context, r GameResult) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("finish game %s: %w", r.GameID, err)
	}
	defer tx.Rollback()
	res, err := tx.StmtContext(ctx, s.stmts.finish).ExecContext(ctx,
		now(), nullIfEmpty(r.Winner), r.A.Points, r.B.Points, r.Result, r.Ending, r.Detail, r.FirstMover, r.ForfeitBy, r.Moves,
		r.A.CPU.Seconds(), r.B.CPU.Seconds(), r.A.Decisions, r.B.Decisions, r.GameID)
	if err != nil {
		return fmt.Errorf("finish game %s: %w", r.GameID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("finish game %s: no running game with that id (finished twice?)", r.GameID)
	}
	for _, name := range sortedKeys(r.Stats) {
		v := r.Stats[name]
		if _, err := tx.StmtContext(ctx, s.stmts.stat).ExecContext(ctx,
			r.GameID, name, v[0], v[1]); err != nil {
			return fmt.Errorf("finish game %s: statistic %s: %w", r.GameID, name, err)
		}
	}
	for _, format := range sortedKeys(r.Records) {
		if _, err := tx.StmtContext(ctx, s.stmts.record).ExecContext(ctx,
			r.GameID, format, r.Records[format]); err != nil {
			return fmt.Errorf("finish game %s: %s record: %w", r.GameID, format, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("finish game %s: commit: %w", r.GameID, err)
	}
	return nil
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// v3ToV4 records which player a void attempt is blamed on (voids.player,
// NULL where none is, as for every older row): a game voided again by the
// same player is that player's forfeit.
func v3ToV4(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "ALTER TABLE voids ADD COLUMN player TEXT"); err != nil {
		return fmt.Errorf("add voids.player: %w", err)
	}
	return nil
}

// Void records that a game could not be played (an engine failed to start
// or its channel broke) and leaves it running, to be replayed. player is
// the code of the player whose engine voided it, or "" when none is to
// blame.
func (s *Store) Void(ctx context.Context, gameID string, runID int64, player, reason, record string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO voids(game_id, run_id, at, reason, record, player) VALUES(?, ?, ?, ?, ?, ?)",
		gameID, runID, now(), reason, record, nullIfEmpty(player))
	if err != nil {
		return fmt.Errorf("record void game %s: %w", gameID, err)
	}
	return nil
}

// VoidedBy returns, for a game, how many of its void attempts each player
// is blamed for (players with none are absent).
func (s *Store) VoidedBy(ctx context.Context, gameID string) (map[string]int, error) {
	rows, err := s.stmts.voidedBy.QueryContext(ctx, gameID)
	if err != nil {
		return nil, fmt.Errorf("read voids of %s: %w", gameID, err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var player string
		var n int
		if err := rows.Scan(&player, &n); err != nil {
			return nil, fmt.Errorf("read voids of %s: %w", gameID, err)
		}
		out[player] = n
	}
	return out, rows.Err()
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

// Results returns every finished game with its statistics (not its
// records: see Records), in matchup and game number order.
func (s *Store) Results(ctx context.Context) ([]GameResult, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT game_id, matchup_id, number, player_a, player_b, swapped, COALESCE(winner, ''), points_a, points_b,
			COALESCE(result, ''), COALESCE(ending, ''), COALESCE(detail, ''), COALESCE(first_mover, ''),
			COALESCE(forfeit_by, ''), COALESCE(moves, 0), COALESCE(cpu_a, 0), COALESCE(cpu_b, 0),
			COALESCE(decisions_a, 0), COALESCE(decisions_b, 0), finished_at
		FROM games WHERE status = 'done' ORDER BY matchup_id, number`)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer rows.Close()
	var out []GameResult
	index := map[string]int{}
	for rows.Next() {
		var r GameResult
		var cpuA, cpuB float64
		var finished string
		if err := rows.Scan(&r.GameID, &r.MatchupID, &r.Number, &r.PlayerA, &r.PlayerB, &r.Swapped, &r.Winner,
			&r.A.Points, &r.B.Points, &r.Result, &r.Ending, &r.Detail, &r.FirstMover, &r.ForfeitBy, &r.Moves,
			&cpuA, &cpuB, &r.A.Decisions, &r.B.Decisions, &finished); err != nil {
			return nil, fmt.Errorf("read results: %w", err)
		}
		r.A.CPU = time.Duration(cpuA * float64(time.Second))
		r.B.CPU = time.Duration(cpuB * float64(time.Second))
		r.FinishedAt, _ = time.Parse(time.RFC3339, finished)
		r.Stats = map[string][2]int{}
		index[r.GameID] = len(out)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	rows.Close()
	stats, err := s.db.QueryContext(ctx, "SELECT game_id, name, value_a, value_b FROM game_stats")
	if err != nil {
		return nil, fmt.Errorf("read statistics: %w", err)
	}
	defer stats.Close()
	for stats.Next() {
		var id, name string
		var a, b int
		if err := stats.Scan(&id, &name, &a, &b); err != nil {
			return nil, fmt.Errorf("read statistics: %w", err)
		}
		if i, ok := index[id]; ok {
			out[i].Stats[name] = [2]int{a, b}
		}
	}
	return out, stats.Err()
}

// Records returns the stored records of a finished game by format.
func (s *Store) Records(ctx context.Context, gameID string) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT format, text FROM records WHERE game_id = ?", gameID)
	if err != nil {
		return nil, fmt.Errorf("read records of %s: %w", gameID, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var format, text string
		if err := rows.Scan(&format, &text); err != nil {
			return nil, fmt.Errorf("read records of %s: %w", gameID, err)
		}
		out[format] = text
	}
	return out, rows.Err()
}

// MatchupSettings returns, for each matchup that has results, the game and
// the settings text its results were played under.
func (s *Store) MatchupSettings(ctx context.Context) (map[string][2]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT matchup_id, game, settings FROM matchups")
	if err != nil {
		return nil, fmt.Errorf("read matchup settings: %w", err)
	}
	defer rows.Close()
	out := map[string][2]string{}
	for rows.Next() {
		var id, game, settings string
		if err := rows.Scan(&id, &game, &settings); err != nil {
			return nil, fmt.Errorf("read matchup settings: %w", err)
		}
		out[id] = [2]string{game, settings}
	}
	return out, rows.Err()
}

// SetMatchupSettings records the game and settings a matchup's games are
// played under.
func (s *Store) SetMatchupSettings(ctx context.Context, matchupID, game, settings string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO matchups(matchup_id, game, settings) VALUES(?, ?, ?)
		ON CONFLICT(matchup_id) DO UPDATE SET game = excluded.game, settings = excluded.settings`, matchupID, game, settings)
	if err != nil {
		return fmt.Errorf("record settings of matchup %s: %w", matchupID, err)
	}
	return nil
}

// Voids returns every void attempt recorded, in order.
func (s *Store) Voids(ctx context.Context) ([]VoidGame, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT game_id, at, reason, COALESCE(player, '') FROM voids ORDER BY void_id")
	if err != nil {
		return nil, fmt.Errorf("read voids: %w", err)
	}
	defer rows.Close()
	var out []VoidGame
	for rows.Next() {
		var v VoidGame
		if err := rows.Scan(&v.GameID, &v.At, &v.Reason, &v.Player); err != nil {
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
	Player string // the player blamed, or ""
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
