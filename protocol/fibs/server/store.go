package server

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"golang.org/x/crypto/bcrypt"
	_ "modernc.org/sqlite"

	"github.com/gamemill/gamemill/formats/record"
)

// Store keeps the accounts, the saved (unfinished) matches and the list of
// finished ones in SQLite.
type Store struct {
	db    *sql.DB
	cost  int    // bcrypt cost of new accounts
	dummy []byte // a hash to compare against for unknown users, at the stored hashes' cost
	// compare checks a password against a hash: bcrypt, replaceable so
	// that tests can count the checks.
	compare func(hash, password []byte) error
}

const schema = `
CREATE TABLE IF NOT EXISTS users (
	name TEXT PRIMARY KEY,
	hash BLOB NOT NULL,
	created INTEGER NOT NULL,
	last_login INTEGER NOT NULL DEFAULT 0,
	last_host TEXT NOT NULL DEFAULT '',
	rating REAL NOT NULL DEFAULT 1500,
	experience INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS saved (
	a TEXT NOT NULL, b TEXT NOT NULL,   -- the players in seat order
	colour0 INTEGER NOT NULL,           -- seat 0's colour in the current game
	record TEXT NOT NULL,               -- the record.Match so far, as JSON
	saved INTEGER NOT NULL,
	PRIMARY KEY (a, b)
);
CREATE TABLE IF NOT EXISTS finished (
	id INTEGER PRIMARY KEY,
	a TEXT NOT NULL, b TEXT NOT NULL,
	length INTEGER NOT NULL,
	score_a INTEGER NOT NULL, score_b INTEGER NOT NULL,
	file TEXT NOT NULL,
	ended INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS opened (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	at INTEGER NOT NULL
);`

func OpenStore(path string, cost int) (*Store, error) {
	// Every action of a match is saved under the server's mutex: in WAL
	// mode synchronous=NORMAL makes a commit durable against a crash of
	// the process (not of the machine) without an fsync each time.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: create schema: %w", path, err)
	}
	if err := addRatingColumns(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// A database that opens but cannot be written would lose every save
	// while telling players their games were saved: refuse it now.
	if _, err := db.Exec(`INSERT INTO opened (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`, time.Now().Unix()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: the database cannot be written: %w", path, err)
	}
	dummyCost, err := storedCost(db, cost)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	dummy, err := bcrypt.GenerateFromPassword([]byte("no such user"), dummyCost)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("bcrypt cost %d: %w", dummyCost, err)
	}
	return &Store{db: db, cost: cost, dummy: dummy, compare: bcrypt.CompareHashAndPassword}, nil
}

// addRatingColumns gives a users table made before ratings existed its
// rating and experience columns, at the new-account values.
func addRatingColumns(db *sql.DB) error {
	have := map[string]bool{}
	rows, err := db.Query(`SELECT name FROM pragma_table_info('users')`)
	if err != nil {
		return fmt.Errorf("read the users table: %w", err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return fmt.Errorf("read the users table: %w", err)
		}
		have[name] = true
	}
	rows.Close()
	for _, col := range []string{"rating REAL NOT NULL DEFAULT 1500", "experience INTEGER NOT NULL DEFAULT 0"} {
		name, _, _ := strings.Cut(col, " ")
		if have[name] {
			continue
		}
		if _, err := db.Exec(`ALTER TABLE users ADD COLUMN ` + col); err != nil {
			return fmt.Errorf("add column %s to users: %w", name, err)
		}
	}
	return nil
}

// storedCost is the bcrypt cost most of the stored hashes have (fallback
// when there are none): an unknown name is checked against a hash of that
// cost, so the time a login takes does not tell whether the name exists.
func storedCost(db *sql.DB, fallback int) (int, error) {
	var hash []byte
	err := db.QueryRow(`SELECT hash FROM users GROUP BY substr(hash, 1, 7) ORDER BY COUNT(*) DESC LIMIT 1`).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return fallback, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read password hashes: %w", err)
	}
	c, err := bcrypt.Cost(hash)
	if err != nil {
		return fallback, nil
	}
	return c, nil
}

func (s *Store) Close() error { return s.db.Close() }

var ErrUserExists = errors.New("the name is taken or looks like a taken one")

// addUser creates an account; the password is stored as a bcrypt hash. A
// name that differs from an existing one only in case or in look-alike
// letters (see nameSkeleton) is refused.
func (s *Store) AddUser(name, password string) error {
	if err := checkName(name); err != nil {
		return fmt.Errorf("add user %q: %w", name, err)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.cost)
	if err != nil {
		return fmt.Errorf("add user %s: %w", name, err)
	}
	// The check and the insert share one transaction, so two look-alike
	// registrations at once cannot both pass the check.
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("add user %s: %w", name, err)
	}
	defer tx.Rollback()
	rows, err := tx.Query(`SELECT name FROM users`)
	if err != nil {
		return fmt.Errorf("add user %s: %w", name, err)
	}
	skel := nameSkeleton(name)
	taken := ""
	for rows.Next() {
		var other string
		if err := rows.Scan(&other); err != nil {
			rows.Close()
			return fmt.Errorf("add user %s: %w", name, err)
		}
		if nameSkeleton(other) == skel {
			taken = other
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("add user %s: %w", name, err)
	}
	if taken != "" {
		return fmt.Errorf("add user %s (beside %s): %w", name, taken, ErrUserExists)
	}
	if _, err := tx.Exec(`INSERT INTO users (name, hash, created) VALUES (?, ?, ?)`, name, hash, time.Now().Unix()); err != nil {
		return fmt.Errorf("add user %s: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("add user %s: %w", name, err)
	}
	return nil
}

// checkUser reports whether the password is right; known is false for an
// unknown user. The last login before this one is returned for the
// welcome message.
func (s *Store) checkUser(name, password string) (ok, known bool, last int64, host string, err error) {
	var hash []byte
	err = s.db.QueryRow(`SELECT hash, last_login, last_host FROM users WHERE name = ?`, name).Scan(&hash, &last, &host)
	if errors.Is(err, sql.ErrNoRows) {
		// Spend the same time as for a known user, so timing does not tell.
		_ = s.compare(s.dummy, []byte(password))
		return false, false, 0, "", nil
	}
	if err != nil {
		return false, false, 0, "", fmt.Errorf("check user %s: %w", name, err)
	}
	return s.compare(hash, []byte(password)) == nil, true, last, host, nil
}

func (s *Store) touchUser(name, host string) error {
	_, err := s.db.Exec(`UPDATE users SET last_login = ?, last_host = ? WHERE name = ?`, time.Now().Unix(), host, name)
	return err
}

// checkName says what is wrong with a new account's name, if anything: a
// name is 1 to 20 characters, a letter and then letters, digits or _ (an
// all-digit name would read as a numbered CLIP message), and not a word
// FIBS messages use in place of a name, in any case.
func checkName(name string) error {
	if len(name) < 1 || len(name) > 20 {
		return errors.New("a name is 1 to 20 characters")
	}
	for i, r := range name {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter {
			return errors.New("a name begins with a letter")
		}
		if !letter && !(r >= '0' && r <= '9') && r != '_' {
			return errors.New("a name is letters, digits or _")
		}
	}
	if strings.EqualFold(name, "you") {
		return errors.New("the name is reserved")
	}
	return nil
}

// nameSkeleton folds a name to the letters a reader cannot tell apart:
// case, and I, l and 1 (one stroke), and O and 0. Two names with the same
// skeleton may not both exist.
func nameSkeleton(name string) string {
	return strings.Map(func(r rune) rune {
		switch r = unicode.ToLower(r); r {
		case 'i', '1':
			return 'l'
		case '0':
			return 'o'
		}
		return r
	}, name)
}

// savedMatch is an unfinished match kept while a player is away.
type savedMatch struct {
	players [2]string
	colour0 int
	rec     *record.Match
}

// saveMatch replaces the saved match between the two players (in either
// seat order) in one transaction: a save that fails leaves the previous
// one as it was.
func (s *Store) saveMatch(m savedMatch) error {
	if err := s.replaceSaved(m); err != nil {
		return fmt.Errorf("save match %s-%s: %w", m.players[0], m.players[1], err)
	}
	return nil
}

func (s *Store) replaceSaved(m savedMatch) error {
	data, err := json.Marshal(m.rec)
	if err != nil {
		return err
	}
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`DELETE FROM saved WHERE (a = ? AND b = ?) OR (a = ? AND b = ?)`, m.players[0], m.players[1], m.players[1], m.players[0]); err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO saved (a, b, colour0, record, saved) VALUES (?, ?, ?, ?, ?)`,
		m.players[0], m.players[1], m.colour0, string(data), time.Now().Unix()); err != nil {
		return err
	}
	return tx.Commit()
}

// loadSaved returns the saved match between x and y, if any.
func (s *Store) loadSaved(x, y string) (*savedMatch, error) {
	var m savedMatch
	var data string
	err := s.db.QueryRow(`SELECT a, b, colour0, record FROM saved WHERE (a = ? AND b = ?) OR (a = ? AND b = ?)`, x, y, y, x).
		Scan(&m.players[0], &m.players[1], &m.colour0, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load saved match %s-%s: %w", x, y, err)
	}
	m.rec = &record.Match{}
	if err := json.Unmarshal([]byte(data), m.rec); err != nil {
		return nil, fmt.Errorf("load saved match %s-%s: %w", x, y, err)
	}
	return &m, nil
}

// savedFor lists name's saved matches: opponent, length, name's score,
// the opponent's.
type savedRow struct {
	opponent string
	length   int
	mine     int
	theirs   int
}

func (s *Store) savedFor(name string) ([]savedRow, error) {
	rows, err := s.db.Query(`SELECT a, b, record FROM saved WHERE a = ? OR b = ?`, name, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []savedRow
	for rows.Next() {
		var a, b, data string
		if err := rows.Scan(&a, &b, &data); err != nil {
			return nil, err
		}
		var rec record.Match
		if err := json.Unmarshal([]byte(data), &rec); err != nil {
			continue
		}
		sc := scoreNow(&rec)
		row := savedRow{opponent: b, length: rec.MatchLength, mine: sc[0], theirs: sc[1]}
		if b == name {
			row = savedRow{opponent: a, length: rec.MatchLength, mine: sc[1], theirs: sc[0]}
		}
		out = append(out, row)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].opponent < out[j].opponent })
	return out, rows.Err()
}

// scoreNow is the score of the games finished so far.
func scoreNow(m *record.Match) [2]int { return m.FinalScore() }

// Standing is name's rating and experience.
func (s *Store) Standing(name string) (Standing, error) {
	var st Standing
	err := s.db.QueryRow(`SELECT rating, experience FROM users WHERE name = ?`, name).Scan(&st.Rating, &st.Experience)
	if err != nil {
		return Standing{Rating: InitialRating}, fmt.Errorf("standing of %s: %w", name, err)
	}
	return st, nil
}

// finishMatch lists a finished match, drops its saved row and, for a
// match of a length (an unlimited one is not rated), moves both players'
// ratings and experience by the FIBS formula, all in one transaction. It
// returns the players' standings after the match.
func (s *Store) finishMatch(a, b string, length int, score [2]int, file string) ([2]Standing, error) {
	var after [2]Standing
	fail := func(err error) ([2]Standing, error) {
		return after, fmt.Errorf("finish match %s-%s: %w", a, b, err)
	}
	tx, err := s.db.Begin()
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO finished (a, b, length, score_a, score_b, file, ended) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		a, b, length, score[0], score[1], file, time.Now().Unix()); err != nil {
		return fail(err)
	}
	if _, err := tx.Exec(`DELETE FROM saved WHERE (a = ? AND b = ?) OR (a = ? AND b = ?)`, a, b, b, a); err != nil {
		return fail(err)
	}
	for i, name := range []string{a, b} {
		if err := tx.QueryRow(`SELECT rating, experience FROM users WHERE name = ?`, name).Scan(&after[i].Rating, &after[i].Experience); err != nil {
			return fail(fmt.Errorf("standing of %s: %w", name, err))
		}
	}
	if length > 0 && score[0] != score[1] {
		w := 0
		if score[1] > score[0] {
			w = 1
		}
		after[w], after[1-w] = Rate(after[w], after[1-w], length)
		for i, name := range []string{a, b} {
			if _, err := tx.Exec(`UPDATE users SET rating = ?, experience = ? WHERE name = ?`, after[i].Rating, after[i].Experience, name); err != nil {
				return fail(fmt.Errorf("rate %s: %w", name, err))
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return after, nil
}
