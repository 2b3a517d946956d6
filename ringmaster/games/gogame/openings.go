package gogame

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gamemill/gamemill/competitions"
	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
)

// Opening is a start position that a game is played from: moves on an
// empty board, Black first, each legal, the game not over.
type Opening struct {
	Name  string // the SGF file's name, or "FILE:LINE"
	Moves []rules.Played
}

// MaxOpenings bounds an openings directory or file, so that a wrong path
// (a home directory) fails at once rather than reading for minutes.
const MaxOpenings = 100_000

// LoadOpenings reads the openings at path for a board of the given size:
// a directory of SGF files (*.sgf, in name order; each file's main line
// is one opening), or a text file of move lists, one opening a line (GTP
// vertices, Black first and alternating, "pass" allowed; blank lines and
// lines starting with # skipped). It also returns a digest of the
// openings, so that results played from other openings are not pooled.
func LoadOpenings(path string, size int) ([]Opening, string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, "", err
	}
	var out []Opening
	if info.IsDir() {
		out, err = loadSGFOpenings(path, size)
	} else {
		out, err = loadOpeningLines(path, size)
	}
	if err != nil {
		return nil, "", err
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("%s: no openings found", path)
	}
	return out, openingsDigest(out), nil
}

func loadSGFOpenings(dir string, size int) ([]Opening, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".sgf") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) > MaxOpenings {
		return nil, fmt.Errorf("%s: %d SGF files, more than %d", dir, len(names), MaxOpenings)
	}
	var out []Opening
	for _, name := range names {
		file := filepath.Join(dir, name)
		o, err := readSGFOpening(file, size)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		o.Name = name
		out = append(out, o)
	}
	return out, nil
}

func readSGFOpening(file string, size int) (Opening, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Opening{}, err
	}
	rec, err := sgf.ReadGo(bytes.NewReader(data))
	if err != nil {
		return Opening{}, err
	}
	if rec.Size != size {
		return Opening{}, fmt.Errorf("SZ[%d]: the board size is %d", rec.Size, size)
	}
	if len(rec.AddBlack)+len(rec.AddWhite) > 0 {
		return Opening{}, errors.New("AB/AW: setup stones are not an opening (write them as moves, Black first)")
	}
	played := make([]rules.Played, len(rec.Moves))
	for i, m := range rec.Moves {
		played[i] = rules.Played{Color: m.Color, Move: m.Move}
	}
	if err := checkOpening(played, size); err != nil {
		return Opening{}, err
	}
	return Opening{Moves: played}, nil
}

func loadOpeningLines(file string, size int) ([]Opening, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Opening
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		o, err := ParseOpeningLine(text, size)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		o.Name = fmt.Sprintf("%s:%d", filepath.Base(file), line)
		out = append(out, o)
		if len(out) > MaxOpenings {
			return nil, fmt.Errorf("%s: more than %d openings", file, MaxOpenings)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// ParseOpeningLine reads one line of a move-list openings file: GTP
// vertices separated by spaces or commas, Black first and alternating.
func ParseOpeningLine(text string, size int) (Opening, error) {
	words := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	played := make([]rules.Played, len(words))
	c := rules.Black
	for i, w := range words {
		m, err := rules.ParseVertex(w, size)
		if err != nil {
			return Opening{}, fmt.Errorf("move %d %q: %w", i+1, w, err)
		}
		played[i] = rules.Played{Color: c, Move: m}
		c = c.Opponent()
	}
	if err := checkOpening(played, size); err != nil {
		return Opening{}, err
	}
	return Opening{Moves: played}, nil
}

// checkOpening plays the moves on an empty board: each must be legal, and
// the game must not be over after them.
func checkOpening(moves []rules.Played, size int) error {
	if len(moves) == 0 {
		return errors.New("no moves")
	}
	g, err := rules.NewGame(rules.Settings{Size: size})
	if err != nil {
		return err
	}
	for i, m := range moves {
		if err := g.Play(m.Color, m.Move); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	if g.Over() {
		return errors.New("the opening ends the game (two passes)")
	}
	return nil
}

// openingsDigest is a short hash of every opening's moves, in order.
func openingsDigest(openings []Opening) string {
	h := fnv.New64a()
	for _, o := range openings {
		for _, m := range o.Moves {
			fmt.Fprintf(h, "%d%s ", m.Color, m.Move)
		}
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// openingFor is the opening of a game: by its pair when the games are
// paired (both colours of an opening), else by its number, cycling
// through the openings.
func openingFor(openings []Opening, number, pair int) (int, Opening) {
	i := competitions.PairOrNumber(number, pair) % len(openings)
	return i, openings[i]
}
