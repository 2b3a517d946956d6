package sgf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/gogame"
)

// Go records (FF[4], GM[1]): the root node holds the game information
// (SZ, KM, HA, PB, PW, RE, DT, EV, GN, RU, AP, C) and the setup stones
// (AB, AW, and PL for the player to move); each later node holds one move,
// B[dd] or W[pp] with an optional comment C, a pass being B[] (B[tt] is
// read as a pass too on boards up to 19x19). A last node with a comment
// and no move holds the comment on the game's end.

// GoRecord is one Go game.
type GoRecord struct {
	Size     int     // SZ: 2 to 25 (19 when the file has no SZ)
	Komi     float64 // KM
	Handicap int     // HA: 0 for none
	// AddBlack and AddWhite are the stones on the board before the first
	// move (AB, AW). In a handicap game AddBlack holds the handicap stones
	// and AddWhite is empty.
	AddBlack, AddWhite []gogame.Move
	ToPlay             gogame.Color // PL: who moves first; Empty if the file does not say

	Black, White string // PB, PW: the players
	Result       string // RE: "B+3.5", "W+R", "0", "Void", "?", ...
	Date         string // DT
	Event        string // EV
	GameName     string // GN
	Rules        string // RU
	Application  string // AP
	Comment      string // C on the root

	Moves        []GoMove
	FinalComment string // C on a last node without a move
}

// GoMove is one move of a record.
type GoMove struct {
	Color   gogame.Color
	Move    gogame.Move // gogame.Pass for a pass
	Comment string
}

// WriteGo writes rec as an SGF file (FF[4] GM[1] CA[UTF-8]): the root's
// properties FF first and the rest in alphabetical order, as gomill
// writes them, then one node per move.
func WriteGo(w io.Writer, rec *GoRecord) error {
	if rec.Size < gogame.MinSize || rec.Size > gogame.MaxSize {
		return fmt.Errorf("sgf: board size %d: want %d to %d", rec.Size, gogame.MinSize, gogame.MaxSize)
	}
	if math.IsNaN(rec.Komi) || math.IsInf(rec.Komi, 0) {
		return fmt.Errorf("sgf: komi %v: want a finite number", rec.Komi)
	}
	if rec.Handicap < 0 {
		return fmt.Errorf("sgf: handicap %d: want 0 or more", rec.Handicap)
	}
	setup := map[gogame.Move]bool{}
	points := func(id string, ms []gogame.Move) (Property, error) {
		p := Property{ID: id}
		for _, m := range ms {
			if !m.OnBoard(rec.Size) {
				return p, fmt.Errorf("sgf: %s stone %v is not on a %dx%d board", id, m, rec.Size, rec.Size)
			}
			if setup[m] {
				return p, fmt.Errorf("sgf: setup stone %v given twice", m)
			}
			setup[m] = true
			p.Values = append(p.Values, m.SGF(rec.Size))
		}
		return p, nil
	}
	root := &Node{}
	add := func(id, v string) {
		if v != "" {
			root.Props = append(root.Props, Property{ID: id, Values: []string{v}})
		}
	}
	add("AP", rec.Application)
	add("CA", "UTF-8")
	add("DT", rec.Date)
	add("EV", rec.Event)
	add("GM", "1")
	add("GN", rec.GameName)
	if rec.Handicap > 0 {
		add("HA", strconv.Itoa(rec.Handicap))
	}
	add("KM", strconv.FormatFloat(rec.Komi, 'f', -1, 64))
	add("PB", rec.Black)
	switch rec.ToPlay {
	case gogame.Empty:
	case gogame.Black, gogame.White:
		add("PL", colorLetter(rec.ToPlay))
	default:
		return fmt.Errorf("sgf: %v cannot be to play", rec.ToPlay)
	}
	add("PW", rec.White)
	add("RE", rec.Result)
	add("RU", rec.Rules)
	add("SZ", strconv.Itoa(rec.Size))
	for _, s := range []struct {
		id string
		ms []gogame.Move
	}{{"AB", rec.AddBlack}, {"AW", rec.AddWhite}} {
		if len(s.ms) == 0 {
			continue
		}
		p, err := points(s.id, s.ms)
		if err != nil {
			return err
		}
		root.Props = append(root.Props, p)
	}
	add("C", rec.Comment)
	slices.SortStableFunc(root.Props, func(a, b Property) int { return strings.Compare(a.ID, b.ID) })
	root.Props = slices.Insert(root.Props, 0, Property{ID: "FF", Values: []string{"4"}})

	tree := &Tree{Nodes: []*Node{root}}
	for i, mv := range rec.Moves {
		if mv.Color != gogame.Black && mv.Color != gogame.White {
			return fmt.Errorf("sgf: move %d: colour %v", i+1, mv.Color)
		}
		if mv.Move != gogame.Pass && !mv.Move.OnBoard(rec.Size) {
			return fmt.Errorf("sgf: move %d: %v is not on a %dx%d board", i+1, mv.Move, rec.Size, rec.Size)
		}
		n := &Node{Props: []Property{{ID: colorLetter(mv.Color), Values: []string{mv.Move.SGF(rec.Size)}}}}
		if mv.Comment != "" {
			n.Props = append(n.Props, Property{ID: "C", Values: []string{mv.Comment}})
		}
		tree.Nodes = append(tree.Nodes, n)
	}
	if rec.FinalComment != "" {
		tree.Nodes = append(tree.Nodes, &Node{Props: []Property{{ID: "C", Values: []string{rec.FinalComment}}}})
	}
	if _, err := io.WriteString(w, Format([]*Tree{tree})); err != nil {
		return fmt.Errorf("sgf: write: %w", err)
	}
	return nil
}

func colorLetter(c gogame.Color) string {
	if c == gogame.White {
		return "W"
	}
	return "B"
}

// ReadGo reads a Go SGF file holding one game. It follows the main line
// (the first variation at each branch) and ignores properties it does not
// know. Errors name the line and column of the node at fault. ReadGo does
// not check that the moves are legal: Replay does.
func ReadGo(r io.Reader) (*GoRecord, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("sgf: read: %w", err)
	}
	trees, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if len(trees) > 1 {
		return nil, &SyntaxError{Line: trees[1].Line, Column: 1, Err: fmt.Errorf("%d game trees: want one game", len(trees))}
	}
	nodes := trees[0].MainLine()
	root := nodes[0]
	rec := &GoRecord{Size: 19}
	if gm, ok := root.Value("GM"); ok && strings.TrimSpace(gm) != "1" {
		return nil, nodeErr(root, "GM[%s] is not Go (GM[1])", gm)
	}
	if v, ok := root.Value("SZ"); ok {
		v = strings.TrimSpace(v)
		if a, b, ok := strings.Cut(v, ":"); ok {
			if a != b {
				return nil, nodeErr(root, "SZ[%s]: a rectangular board is not supported", v)
			}
			v = a
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < gogame.MinSize || n > gogame.MaxSize {
			return nil, nodeErr(root, "SZ[%s]: want a board size from %d to %d", v, gogame.MinSize, gogame.MaxSize)
		}
		rec.Size = n
	}
	if v, ok := root.Value("KM"); ok && strings.TrimSpace(v) != "" {
		k, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
			return nil, nodeErr(root, "KM[%s]: want a number", v)
		}
		rec.Komi = k
	}
	if v, ok := root.Value("HA"); ok && strings.TrimSpace(v) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > gogame.MaxSize*gogame.MaxSize {
			return nil, nodeErr(root, "HA[%s]: want a number of stones", v)
		}
		rec.Handicap = n
	}
	if v, ok := root.Value("PL"); ok {
		c, err := parseColor(v)
		if err != nil {
			return nil, nodeErr(root, "PL[%s]: %v", v, err)
		}
		rec.ToPlay = c
	}
	for id, dst := range map[string]*string{
		"PB": &rec.Black, "PW": &rec.White, "RE": &rec.Result, "DT": &rec.Date, "EV": &rec.Event,
		"GN": &rec.GameName, "RU": &rec.Rules, "AP": &rec.Application, "C": &rec.Comment,
	} {
		*dst, _ = root.Value(id)
	}
	seen := map[gogame.Move]string{}
	for _, s := range []struct {
		id  string
		dst *[]gogame.Move
	}{{"AB", &rec.AddBlack}, {"AW", &rec.AddWhite}} {
		for _, v := range root.Values(s.id) {
			ms, err := parsePointList(v, rec.Size)
			if err != nil {
				return nil, nodeErr(root, "%s[%s]: %v", s.id, v, err)
			}
			for _, m := range ms {
				if id, dup := seen[m]; dup {
					return nil, nodeErr(root, "%s[%s]: %v is already in %s", s.id, v, m, id)
				}
				seen[m] = s.id
			}
			*s.dst = append(*s.dst, ms...)
		}
	}
	if len(root.Values("AE")) > 0 {
		return nil, nodeErr(root, "setup property AE is not supported")
	}
	for i, n := range nodes {
		if i > 0 {
			for _, id := range []string{"AB", "AW", "AE"} {
				if len(n.Values(id)) > 0 {
					return nil, nodeErr(n, "setup property %s after the first node is not supported", id)
				}
			}
		}
		bv, isB := n.Value("B")
		wv, isW := n.Value("W")
		if isB && isW {
			return nil, nodeErr(n, "a node with both B and W")
		}
		c, v := gogame.Black, bv
		if isW {
			c, v = gogame.White, wv
		}
		comment, _ := n.Value("C")
		if !isB && !isW {
			if i > 0 && i == len(nodes)-1 {
				rec.FinalComment = comment
			}
			continue
		}
		for _, id := range []string{"B", "W"} {
			if len(n.Values(id)) > 1 {
				return nil, nodeErr(n, "%s with %d values: want one move", id, len(n.Values(id)))
			}
		}
		m, err := gogame.ParseSGFPoint(strings.TrimSpace(v), rec.Size)
		if err != nil {
			return nil, nodeErr(n, "%s[%s]: %v", colorLetter(c), v, err)
		}
		mv := GoMove{Color: c, Move: m}
		if i > 0 {
			mv.Comment = comment
		}
		rec.Moves = append(rec.Moves, mv)
	}
	return rec, nil
}

func parseColor(s string) (gogame.Color, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "B":
		return gogame.Black, nil
	case "W":
		return gogame.White, nil
	}
	return gogame.Empty, errors.New("want B or W")
}

// parsePointList reads one value of AB or AW: a point, or "aa:cc", the
// rectangle between two corners (FF[4]'s compressed point lists).
func parsePointList(v string, size int) ([]gogame.Move, error) {
	a, b, rect := strings.Cut(v, ":")
	from, err := gogame.ParseSGFPoint(a, size)
	if err == nil && from == gogame.Pass {
		err = errors.New("a pass is not a point")
	}
	if err != nil {
		return nil, err
	}
	if !rect {
		return []gogame.Move{from}, nil
	}
	to, err := gogame.ParseSGFPoint(b, size)
	if err == nil && to == gogame.Pass {
		err = errors.New("a pass is not a point")
	}
	if err != nil {
		return nil, err
	}
	var out []gogame.Move
	for row := min(from.Row(), to.Row()); row <= max(from.Row(), to.Row()); row++ {
		for col := min(from.Col(), to.Col()); col <= max(from.Col(), to.Col()); col++ {
			out = append(out, gogame.At(col, row))
		}
	}
	return out, nil
}

// FirstToPlay is the player to move first: PL's, else the first move's,
// else White after black setup stones alone, else Black.
func (rec *GoRecord) FirstToPlay() gogame.Color {
	switch {
	case rec.ToPlay != gogame.Empty:
		return rec.ToPlay
	case len(rec.Moves) > 0:
		return rec.Moves[0].Color
	case len(rec.AddBlack) > 0 && len(rec.AddWhite) == 0:
		return gogame.White
	}
	return gogame.Black
}

// FreeHandicap reports whether the setup stones are a free handicap: HA
// stones in AB, none in AW, and White to move first.
func (rec *GoRecord) FreeHandicap() bool {
	return rec.Handicap >= 2 && len(rec.AddBlack) == rec.Handicap && len(rec.AddWhite) == 0 && rec.FirstToPlay() == gogame.White
}

// Replay plays the record through the rules and returns the game: the
// setup stones (a free handicap when the record has HA stones in AB and
// White moves first), then every move, each checked, FirstToPlay
// moving first. superko turns on positional superko.
func (rec *GoRecord) Replay(superko bool) (*gogame.Game, error) {
	g, err := gogame.NewGame(gogame.Settings{Size: rec.Size, Komi: rec.Komi, Superko: superko})
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	toPlay := rec.FirstToPlay()
	switch {
	case rec.FreeHandicap():
		err = g.SetFreeHandicap(rec.AddBlack)
	case len(rec.AddBlack)+len(rec.AddWhite) > 0 || toPlay != gogame.Black:
		err = g.Setup(rec.AddBlack, rec.AddWhite, toPlay)
	}
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	for i, mv := range rec.Moves {
		if err := g.Play(mv.Color, mv.Move); err != nil {
			return nil, fmt.Errorf("replay: move %d: %w", i+1, err)
		}
	}
	return g, nil
}
