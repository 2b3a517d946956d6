package main

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"golang.org/x/crypto/bcrypt"
	_ "modernc.org/sqlite"

	"github.com/gamemill/gamemill/formats/record"
)

// store keeps the accounts, the saved (unfinished) matches and the list of
// finished ones in SQLite.
type store struct {
	db    *sql.DB
	cost  int    // bcrypt cost
	dummy []byte // a hash to compare against for unknown users
}

const schema = `
CREATE TABLE IF NOT EXISTS users (
	name TEXT PRIMARY KEY,
	hash BLOB NOT NULL,
	created INTEGER NOT NULL,
	last_login INTEGER NOT NULL DEFAULT 0,
	last_host TEXT NOT NULL DEFAULT ''
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
);`

func openStore(path string, cost int) (*store, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: create schema: %w", path, err)
	}
	dummy, err := bcrypt.GenerateFromPassword([]byte("no such user"), cost)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("bcrypt cost %d: %w", cost, err)
	}
	return &store{db: db, cost: cost, dummy: dummy}, nil
}

func (s *store) Close() error { return s.db.Close() }

var errUserExists = errors.New("user exists")

// addUser creates an account; the password is stored as a bcrypt hash.
func (s *store) addUser(name, password string) error {
	if !validName(name) {
		return fmt.Errorf("add user %q: a name is 1-20 letters, digits or _", name)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.cost)
	if err != nil {
		return fmt.Errorf("add user %s: %w", name, err)
	}
	_, err = s.db.Exec(`INSERT INTO users (name, hash, created) VALUES (?, ?, ?)`, name, hash, time.Now().Unix())
	if err != nil {
		var n int
		if s.db.QueryRow(`SELECT COUNT(*) FROM users WHERE name = ?`, name).Scan(&n) == nil && n > 0 {
			return fmt.Errorf("add user %s: %w", name, errUserExists)
		}
		return fmt.Errorf("add user %s: %w", name, err)
	}
	return nil
}

// checkUser reports whether the password is right; known is false for an
// unknown user. The last login before this one is returned for the
// welcome message.
func (s *store) checkUser(name, password string) (ok, known bool, last int64, host string, err error) {
	var hash []byte
	err = s.db.QueryRow(`SELECT hash, last_login, last_host FROM users WHERE name = ?`, name).Scan(&hash, &last, &host)
	if errors.Is(err, sql.ErrNoRows) {
		// Spend the same time as for a known user, so timing does not tell.
		_ = bcrypt.CompareHashAndPassword(s.dummy, []byte(password))
		return false, false, 0, "", nil
	}
	if err != nil {
		return false, false, 0, "", fmt.Errorf("check user %s: %w", name, err)
	}
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil, true, last, host, nil
}

func (s *store) touchUser(name, host string) error {
	_, err := s.db.Exec(`UPDATE users SET last_login = ?, last_host = ? WHERE name = ?`, time.Now().Unix(), host, name)
	return err
}

func validName(name string) bool {
	if len(name) < 1 || len(name) > 20 || name == "You" || name == "you" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// savedMatch is an unfinished match kept while a player is away.
type savedMatch struct {
	players [2]string
	colour0 int
	rec     *record.Match
}

func (s *store) saveMatch(m savedMatch) error {
	data, err := json.Marshal(m.rec)
	if err != nil {
		return fmt.Errorf("save match %s-%s: %w", m.players[0], m.players[1], err)
	}
	_, err = s.db.Exec(`DELETE FROM saved WHERE (a = ? AND b = ?) OR (a = ? AND b = ?)`, m.players[0], m.players[1], m.players[1], m.players[0])
	if err == nil {
		_, err = s.db.Exec(`INSERT INTO saved (a, b, colour0, record, saved) VALUES (?, ?, ?, ?, ?)`,
			m.players[0], m.players[1], m.colour0, string(data), time.Now().Unix())
	}
	if err != nil {
		return fmt.Errorf("save match %s-%s: %w", m.players[0], m.players[1], err)
	}
	return nil
}

// loadSaved returns the saved match between x and y, if any.
func (s *store) loadSaved(x, y string) (*savedMatch, error) {
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

func (s *store) deleteSaved(x, y string) error {
	_, err := s.db.Exec(`DELETE FROM saved WHERE (a = ? AND b = ?) OR (a = ? AND b = ?)`, x, y, y, x)
	return err
}

// savedFor lists name's saved matches: opponent, length, name's score,
// the opponent's.
type savedRow struct {
	opponent string
	length   int
	mine     int
	theirs   int
}

func (s *store) savedFor(name string) ([]savedRow, error) {
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

func (s *store) addFinished(a, b string, length int, score [2]int, file string) error {
	_, err := s.db.Exec(`INSERT INTO finished (a, b, length, score_a, score_b, file, ended) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		a, b, length, score[0], score[1], file, time.Now().Unix())
	return err
}
