package backgammon

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/competitions"
	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
)

// Positions is a suite of start positions: each is gnubg's "position
// ID:match ID" of a game in play with the player on roll to decide (the
// form record.Game.Start takes).
type Positions struct {
	IDs []string
	// Hash identifies the suite's content in the matchup's canonical
	// settings, so that a changed file is not resumed as the same matchup.
	Hash string
}

// LoadPositions reads a positions file: one position a line, either
// "POSITIONID:MATCHID" or "RECORD GAME MOVE" (a .mat or SGF record, a
// game number and a move number: RecordLine); blank lines and text from #
// on are ignored. Errors name the file, the line and the field.
func LoadPositions(path string) (*Positions, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("positions: %w", err)
	}
	defer f.Close()
	p, err := ReadPositions(f, path)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ReadPositions reads a positions file's text; name is the file's path,
// for errors and as the folder that relative record paths start from.
func ReadPositions(r io.Reader, name string) (*Positions, error) {
	sc := bufio.NewScanner(r)
	h := sha256.New()
	p := &Positions{}
	records := map[string]*record.Match{} // each record read once
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.ContainsAny(line, " \t") {
			id, err := positionFromRecord(line, filepath.Dir(name), records)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			line = id
		}
		if err := CheckPosition(line); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		p.IDs = append(p.IDs, line)
		fmt.Fprintln(h, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(p.IDs) == 0 {
		return nil, fmt.Errorf("%s: no positions", name)
	}
	p.Hash = hex.EncodeToString(h.Sum(nil))[:16]
	return p, nil
}

// CheckPosition checks that id is "POSITIONID:MATCHID" of a game in play
// with the player on roll to decide (no double or resignation on offer).
func CheckPosition(id string) error {
	if strings.ContainsAny(id, " \t") {
		return fmt.Errorf("position %q: want POSITIONID:MATCHID or RECORD GAME MOVE", id)
	}
	if _, err := record.DecodeStart(id, bg.Rules{Variant: bg.Standard, Cube: true}); err != nil {
		return fmt.Errorf("position %q: %w", id, err)
	}
	return nil
}

// For returns the start position of a matchup's game number n: the pair
// n/2 when the games are paired (both games of a pair start at one
// position, the seats swapped), else n; the suite repeats when there are
// more games than positions.
func (p *Positions) For(number, pair int) string {
	return p.IDs[competitions.PairOrNumber(number, pair)%len(p.IDs)]
}

// RecordLine is a positions line that names a position in a game record:
// "RECORD GAME MOVE", the record's path (.mat or .sgf; relative to the
// positions file's folder), the game's number in it from 1 and the move's
// number in that game from 1, counting both players' rolls with the
// opening roll as move 1. The position is the decision point of that
// move: its player on roll before the roll, before any cube action of the
// turn.
type RecordLine struct {
	Path       string
	Game, Move int
}

// String is the line as ParseRecordLine reads it.
func (l RecordLine) String() string { return fmt.Sprintf("%s %d %d", l.Path, l.Game, l.Move) }

// ParseRecordLine reads a "RECORD GAME MOVE" line (fields separated by
// spaces or tabs; the path holds none). Errors name the field.
func ParseRecordLine(line string) (RecordLine, error) {
	f := strings.Fields(line)
	if len(f) != 3 {
		return RecordLine{}, fmt.Errorf("%q: want POSITIONID:MATCHID or RECORD GAME MOVE", line)
	}
	number := func(field, v string, least int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < least {
			return 0, fmt.Errorf("%s %q: want a whole number from %d", field, v, least)
		}
		return n, nil
	}
	game, err := number("game", f[1], 1)
	if err != nil {
		return RecordLine{}, err
	}
	move, err := number("move", f[2], 2)
	if err != nil {
		if f[2] == "1" {
			err = errors.New(`move "1": the opening roll has no position to decide before it; name move 2 or later`)
		}
		return RecordLine{}, err
	}
	return RecordLine{Path: f[0], Game: game, Move: move}, nil
}

// positionFromRecord resolves a RecordLine to "POSITIONID:MATCHID";
// relative paths start at dir, and records holds the records read so far
// by path.
func positionFromRecord(line, dir string, records map[string]*record.Match) (string, error) {
	l, err := ParseRecordLine(line)
	if err != nil {
		return "", err
	}
	path := l.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	m := records[path]
	if m == nil {
		if m, err = recordfile.Load(path); err != nil {
			return "", fmt.Errorf("record %s: %w", l.Path, err)
		}
		records[path] = m
	}
	if l.Game > len(m.Games) {
		return "", fmt.Errorf("game %d: record %s has %d game%s", l.Game, l.Path, len(m.Games), plural(len(m.Games)))
	}
	st, moves, err := decisionBefore(m, l.Game-1, l.Move)
	if err != nil {
		return "", fmt.Errorf("record %s: %w", l.Path, err)
	}
	if st == nil {
		return "", fmt.Errorf("move %d: game %d of %s has %d move%s", l.Move, l.Game, l.Path, moves, plural(moves))
	}
	pos, match := gnubgid.Encode(st)
	return pos + ":" + match, nil
}

// decisionBefore replays m to the decision point of game gi's move n (the
// n-th roll of the game, the opening's being 1): the player on roll
// before the roll and before any cube action or resignation of that turn,
// the dice not rolled. It returns nil and the game's number of moves when
// the game has fewer than n.
func decisionBefore(m *record.Match, gi, n int) (*bg.State, int, error) {
	var turn *bg.State // the current turn's start, once seen
	var at *bg.State
	moves := 0
	stop := errors.New("found")
	err := record.Walk(m, func(p *record.Position) error {
		if p.GameIndex != gi {
			return nil
		}
		st := p.State
		if turn == nil && p.Action.Player == st.Move && !st.Doubled && st.Resigned == bg.NoResult {
			c := *st
			c.Dice = [2]int{} // a roll's visit shows its dice already set
			turn = &c
		}
		if p.Action.Kind != record.Move && p.Action.Kind != record.Roll {
			return nil
		}
		moves++
		if moves == n {
			at = turn
			return stop
		}
		turn = nil
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return nil, 0, err
	}
	return at, moves, nil
}
