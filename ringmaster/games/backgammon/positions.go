package backgammon

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gamemill/gamemill/competitions"
	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
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

// LoadPositions reads a positions file: one "POSITIONID:MATCHID" a line;
// blank lines and text from # on are ignored. Errors name the file and
// line.
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

// ReadPositions reads a positions file's text; name is the file's name for
// errors.
func ReadPositions(r io.Reader, name string) (*Positions, error) {
	sc := bufio.NewScanner(r)
	h := sha256.New()
	p := &Positions{}
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
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
		return fmt.Errorf("position %q: want POSITIONID:MATCHID", id)
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
