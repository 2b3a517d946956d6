// Package mat reads and writes Jellyfish .mat match files, as GNU
// Backgammon exports and imports them, to and from format-neutral records
// (formats/record).
//
// A file holds optional "; [Tag "value"]" header lines and comments, a
// " N point match" line (0 for a money session), and each game as a
// " Game N" line, a line with both players' names and scores, and numbered
// lines with the first player's (player 0's) action on the left and the
// second player's on the right: rolls with their moves ("52: 13/8 24/22*",
// 25 for the bar and 0 for borne off), " Doubles => 2", " Takes",
// " Drops", " Beavers => 4", and " Wins 2 points" for the winner.
// Resignations are not written: a game that stops in play and has a winner
// was resigned (record.Replay infers the resignation).
package mat

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
)

// ParseError reports where a .mat file went wrong.
type ParseError struct {
	Line, Column int // 1-based; Column 0 when the whole line is at fault
	Err          error
}

func (e *ParseError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("mat: line %d, column %d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("mat: line %d: %v", e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// maxLine bounds the length of a line the reader accepts.
const maxLine = 64 << 10

var (
	tagRE     = regexp.MustCompile(`^;\s*\[\s*([A-Za-z0-9 ]+?)\s+"(.*)"\s*\]\s*$`)
	lengthRE  = regexp.MustCompile(`^\s*(\d+)\s+point\s+match\s*$`)
	gameRE    = regexp.MustCompile(`^\s*Game\s+(\d+)\b`)
	playersRE = regexp.MustCompile(`^\s*([^:]*?)\s*:\s*(\d+)\s+([^:]*?)\s*:\s*(\d+)\s*$`)
	// looseRE admits names with colons, which gnubg writes unchanged.
	looseRE  = regexp.MustCompile(`^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$`)
	numberRE = regexp.MustCompile(`^\s*(\d+)\)`)
	diceRE   = regexp.MustCompile(`^([1-6])([1-6]):$`)
)

// Read parses a .mat file. The moves are kept as written (gnubg notation
// with 25 for the bar and 0 for off); record.Replay checks them and turns
// them into canonical notation. Rules the file does not state are those of
// record.DefaultRules.
func Read(r io.Reader) (*record.Match, error) {
	p := &parser{m: &record.Match{Rules: backgammon.Rules{MatchLength: -1}}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var rules ruleTags
	for sc.Scan() {
		p.line++
		text := strings.TrimRight(sc.Text(), " \t\r")
		if err := p.parseLine(text, &rules); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, &ParseError{Line: p.line, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mat: line %d: %w", p.line+1, err)
	}
	if p.m.MatchLength < 0 {
		return nil, &ParseError{Line: p.line, Err: errors.New(`no "N point match" line`)}
	}
	def := record.DefaultRules(p.m.MatchLength)
	if p.beaver && p.m.MatchLength == 0 {
		def.Beavers = true // the file shows that beavers were allowed
	}
	p.m.Rules = rules.apply(def)
	p.m.Comment = strings.Join(p.comments, "\n")
	return p.m, nil
}

type parser struct {
	line     int
	m        *record.Match
	g        *record.Game
	players  bool // the current game's player line has been read
	beaver   bool // a beaver was seen
	comments []string
}

// ruleTags holds the rule tags found in the header.
type ruleTags struct {
	variant                         *backgammon.Variant
	crawford, jacoby, beavers, cube *bool
	maxCube                         int // 0: no tag
}

func (t ruleTags) apply(r backgammon.Rules) backgammon.Rules {
	if t.variant != nil {
		r.Variant = *t.variant
	}
	for _, f := range []struct {
		v   *bool
		dst *bool
	}{{t.crawford, &r.Crawford}, {t.jacoby, &r.Jacoby}, {t.beavers, &r.Beavers}, {t.cube, &r.Cube}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	if t.maxCube > 0 && r.Money() && r.Cube {
		r.CubeLimit = t.maxCube // meaningless, and so dropped, elsewhere
	}
	return r
}

func (p *parser) parseLine(text string, rules *ruleTags) error {
	trimmed := strings.TrimSpace(text)
	switch {
	case trimmed == "":
		return nil
	case strings.HasPrefix(trimmed, ";"):
		if p.g != nil {
			return nil // comments inside games are ignored
		}
		return p.header(trimmed, rules)
	}
	if m := lengthRE.FindStringSubmatch(text); m != nil {
		if p.m.MatchLength >= 0 {
			return errors.New("second match length line")
		}
		n, err := atoi(m[1], 0, 1<<15)
		if err != nil {
			return fmt.Errorf("match length: %w", err)
		}
		p.m.MatchLength = n
		return nil
	}
	if m := gameRE.FindStringSubmatch(text); m != nil {
		if p.m.MatchLength < 0 {
			return errors.New(`game before the "N point match" line`)
		}
		if p.g != nil && !p.players {
			return errors.New("game without a player line")
		}
		n, err := atoi(m[1], 1, 1<<20)
		if err != nil {
			return fmt.Errorf("game number: %w", err)
		}
		if n != len(p.m.Games)+1 {
			return fmt.Errorf("game %d follows game %d", n, len(p.m.Games))
		}
		p.m.Games = append(p.m.Games, record.Game{Number: n})
		p.g = &p.m.Games[len(p.m.Games)-1]
		p.players = false
		return nil
	}
	if p.g == nil {
		return fmt.Errorf("unexpected line %q before the first game", clip(trimmed))
	}
	if !p.players {
		m := playersRE.FindStringSubmatch(text)
		if m == nil {
			m = looseRE.FindStringSubmatch(text)
		}
		if m == nil {
			return fmt.Errorf(`want the player line "name : score   name : score", got %q`, clip(trimmed))
		}
		var sc [2]int
		for i, s := range []string{m[2], m[4]} {
			n, err := atoi(s, 0, 1<<30)
			if err != nil {
				return fmt.Errorf("score: %w", err)
			}
			sc[i] = n
		}
		names := [2]string{m[1], m[3]}
		if len(p.m.Games) == 1 {
			p.m.Players = names
		} else if names != p.m.Players {
			return fmt.Errorf("players %q and %q differ from the first game's %q and %q", names[0], names[1], p.m.Players[0], p.m.Players[1])
		}
		p.g.ScoreBefore = sc
		p.players = true
		return nil
	}
	return p.actions(text)
}

func (p *parser) header(line string, rules *ruleTags) error {
	m := tagRE.FindStringSubmatch(line)
	if m == nil {
		c := strings.TrimPrefix(line, ";")
		c = strings.TrimPrefix(c, " ")
		p.comments = append(p.comments, c)
		return nil
	}
	name, val := strings.ToLower(m[1]), m[2]
	onOff := func() (*bool, error) {
		switch strings.ToLower(val) {
		case "on", "yes", "true":
			t := true
			return &t, nil
		case "off", "no", "false":
			f := false
			return &f, nil
		}
		return nil, &ParseError{Line: p.line, Column: strings.Index(line, `"`) + 2, Err: fmt.Errorf("tag %s: want On or Off, got %q", m[1], val)}
	}
	var err error
	switch name {
	case "event":
		p.m.Event = val
	case "round":
		p.m.Round = val
	case "site", "place":
		p.m.Place = val
	case "eventdate", "date":
		p.m.Date = strings.ReplaceAll(val, ".", "-")
	case "variation":
		v, ok := variantByName(val)
		if !ok {
			return &ParseError{Line: p.line, Column: strings.Index(line, `"`) + 2, Err: fmt.Errorf("unknown variation %q", val)}
		}
		rules.variant = &v
	case "crawford":
		rules.crawford, err = onOff()
	case "jacoby":
		rules.jacoby, err = onOff()
	case "beavers":
		rules.beavers, err = onOff()
	case "cube":
		rules.cube, err = onOff()
	case "maxcube":
		n, convErr := strconv.Atoi(val)
		if convErr != nil || !backgammon.IsCubeLimit(n) {
			return &ParseError{Line: p.line, Column: strings.Index(line, `"`) + 2, Err: fmt.Errorf("tag %s: want a power of two from 2 to %d, got %q", m[1], backgammon.MaxCube/2, val)}
		}
		rules.maxCube = n
	}
	return err
}

var variantNames = [...]struct {
	v    backgammon.Variant
	name string
}{
	{backgammon.Standard, "Backgammon"},
	{backgammon.Nackgammon, "NackGammon"},
	{backgammon.Hypergammon1, "HyperGammon (1)"},
	{backgammon.Hypergammon2, "HyperGammon (2)"},
	{backgammon.Hypergammon3, "HyperGammon (3)"},
}

func variantByName(s string) (backgammon.Variant, bool) {
	norm := func(s string) string {
		return strings.NewReplacer(" ", "", "(", "", ")", "", "-", "").Replace(strings.ToLower(s))
	}
	for _, v := range variantNames {
		if norm(v.name) == norm(s) {
			return v.v, true
		}
	}
	if v, err := backgammon.ParseVariant(s); err == nil {
		return v, true
	}
	return 0, false
}

// token is a word of an action line and its 0-based column.
type token struct {
	text string
	col  int
}

func tokens(s string, from int) []token {
	var out []token
	i := from
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, token{s[i:j], i})
		}
		i = j
	}
	return out
}

func startsEntry(t string) bool {
	switch strings.ToLower(t) {
	case "doubles", "takes", "drops", "beavers", "wins", "accepts", "passes":
		return true
	}
	return diceRE.MatchString(t)
}

// rightColumn is the smallest gap after the move number (or column, for a
// line without one) that puts a line's first entry in the right column.
const rightColumn = 20

func (p *parser) actions(text string) error {
	start := 0
	numbered := false
	if m := numberRE.FindStringSubmatchIndex(text); m != nil {
		start = m[1]
		numbered = true
	}
	toks := tokens(text, start)
	if len(toks) == 0 {
		return nil // a numbered line with nothing on it
	}
	if !startsEntry(toks[0].text) {
		return &ParseError{Line: p.line, Column: toks[0].col + 1, Err: fmt.Errorf("unexpected %q: want a roll such as 52:, Doubles, Takes, Drops, Beavers or Wins", clip(toks[0].text))}
	}
	side := 0
	gap := toks[0].col - start
	if !numbered {
		gap = toks[0].col
	}
	if gap >= rightColumn {
		side = 1
	}
	for i := 0; i < len(toks); {
		if side > 1 {
			return &ParseError{Line: p.line, Column: toks[i].col + 1, Err: errors.New("more than two entries on a line")}
		}
		j := i + 1
		for j < len(toks) && !startsEntry(toks[j].text) {
			j++
		}
		if err := p.entry(side, toks[i:j]); err != nil {
			return err
		}
		side++
		i = j
	}
	return nil
}

func (p *parser) entry(side int, toks []token) error {
	g := p.g
	if g.Points > 0 {
		return &ParseError{Line: p.line, Column: toks[0].col + 1, Err: errors.New("action after the game's result")}
	}
	bad := func(t token, format string, args ...any) error {
		return &ParseError{Line: p.line, Column: t.col + 1, Err: fmt.Errorf(format, args...)}
	}
	head := toks[0]
	word := strings.ToLower(head.text)
	switch word {
	case "doubles", "beavers":
		kind := record.Double
		if word == "beavers" {
			kind = record.Beaver
			p.beaver = true
		}
		a := record.Action{Player: side, Kind: kind}
		if len(toks) > 1 {
			if len(toks) != 3 || toks[1].text != "=>" {
				return bad(toks[1], `want "%s => N"`, head.text)
			}
			n, err := atoi(toks[2].text, 2, backgammon.MaxCube)
			if err != nil {
				return bad(toks[2], "cube value: %v", err)
			}
			a.Cube = n
		}
		g.Actions = append(g.Actions, a)
	case "takes", "accepts":
		if len(toks) > 1 {
			return bad(toks[1], "unexpected %q after %s", clip(toks[1].text), head.text)
		}
		g.Actions = append(g.Actions, record.Action{Player: side, Kind: record.Take})
	case "drops", "passes":
		if len(toks) > 1 {
			return bad(toks[1], "unexpected %q after %s", clip(toks[1].text), head.text)
		}
		g.Actions = append(g.Actions, record.Action{Player: side, Kind: record.Drop})
	case "wins":
		if len(toks) < 3 {
			return bad(head, `want "Wins N points"`)
		}
		n, err := atoi(toks[1].text, 1, 1<<30)
		if err != nil {
			return bad(toks[1], "points: %v", err)
		}
		if w := strings.ToLower(toks[2].text); w != "point" && w != "points" {
			return bad(toks[2], `want "points", got %q`, clip(toks[2].text))
		}
		rest := make([]string, 0, 3)
		for _, t := range toks[3:] {
			rest = append(rest, strings.ToLower(t.text))
		}
		if len(rest) > 0 && strings.Join(rest, " ") != "and the match" {
			return bad(toks[3], "unexpected %q after the points", clip(toks[3].text))
		}
		g.Winner, g.Points = side, n
	default:
		m := diceRE.FindStringSubmatch(head.text)
		d0, _ := strconv.Atoi(m[1])
		d1, _ := strconv.Atoi(m[2])
		parts := make([]string, 0, len(toks)-1)
		for _, t := range toks[1:] {
			parts = append(parts, t.text)
		}
		text := strings.Join(parts, " ")
		if _, err := backgammon.ParseNotation(text); err != nil {
			return bad(toks[1], "move: %v", err)
		}
		g.Actions = append(g.Actions, record.Action{Player: side, Kind: record.Move, Dice: [2]int{d0, d1}, Move: text})
	}
	return nil
}

func atoi(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("want a number from %d to %d, got %q", lo, hi, clip(s))
	}
	return n, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
