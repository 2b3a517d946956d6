package backgammon

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// path is one checker's journey within a move, as notation shows it.
type path struct {
	from, to int8
	via      []int8 // intermediate points where the checker hit
	hit      bool   // hit on the final point
}

func (p path) String() string {
	var sb strings.Builder
	sb.WriteString(pointName(p.from))
	for _, v := range p.via {
		sb.WriteString("/")
		sb.WriteString(pointName(v))
		sb.WriteString("*")
	}
	sb.WriteString("/")
	sb.WriteString(pointName(p.to))
	if p.hit {
		sb.WriteString("*")
	}
	return sb.String()
}

func pointName(p int8) string {
	switch {
	case p >= 25:
		return "bar"
	case p <= 0:
		return "off"
	}
	return strconv.Itoa(int(p))
}

// Format writes a move played on board b in gnubg's canonical notation.
// As gnubg does, it orders the steps from the highest starting point down
// (the shorter step first on a tie), joins each step with the later steps
// that carry the same checker on (showing an intermediate point only where
// it hit), marks hits with '*', and counts repeated plays as "(n)". The
// empty move is "".
func Format(b Board, m Move) string {
	type hitStep struct {
		Step
		hit bool
	}
	steps := make([]hitStep, 0, 4)
	for _, s := range m.StepList() {
		steps = append(steps, hitStep{s, applyStep(&b, s)})
	}
	sort.SliceStable(steps, func(i, j int) bool {
		if steps[i].From != steps[j].From {
			return steps[i].From > steps[j].From
		}
		return steps[i].To > steps[j].To
	})
	var used [4]bool
	var paths []path
	for i := range steps {
		if used[i] {
			continue
		}
		p := path{from: steps[i].From, to: steps[i].To, hit: steps[i].hit}
		for j := i + 1; j < len(steps); j++ {
			if used[j] || p.to == 0 || steps[j].From != p.to {
				continue
			}
			if p.hit {
				p.via = append(p.via, p.to)
			}
			p.to, p.hit = steps[j].To, steps[j].hit
			used[j] = true
		}
		paths = append(paths, p)
	}
	// Plays with the same start and end are counted together, whichever of
	// them hit: with doubles they pass the same points, and gnubg marks a
	// point hit if any of them hit there.
	var parts []string
	for i := 0; i < len(paths); {
		p := paths[i]
		j := i + 1
		for ; j < len(paths) && paths[j].from == p.from && paths[j].to == p.to; j++ {
			p.hit = p.hit || paths[j].hit
			p.via = mergeVia(p.via, paths[j].via)
		}
		text := p.String()
		if j-i > 1 {
			text += fmt.Sprintf("(%d)", j-i)
		}
		parts = append(parts, text)
		i = j
	}
	return strings.Join(parts, " ")
}

// Segment is one part of a written move: a checker (Count times) moving
// from From to To through the listed intermediate points. Hits lists the
// points written with '*'.
type Segment struct {
	From, To int8
	Via      []int8
	Hits     []int8
	Count    int
}

// ParseNotation reads a move in any form gnubg accepts: points as numbers,
// "bar" (or 25) and "off" (or 0), chains such as 24/20*/16, "*" hit marks,
// repeat counts such as 8/4(2), separated by spaces or commas. The empty
// string and "none" are the empty move. It checks form only; ResolveMove
// matches the text against a position's legal moves.
func ParseNotation(text string) ([]Segment, error) {
	t := strings.TrimSpace(strings.ToLower(text))
	if t == "" || t == "none" {
		return nil, nil
	}
	words := pairBarePoints(strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }))
	if len(words) > 0 && !strings.Contains(words[len(words)-1], "/") {
		return nil, fmt.Errorf("move %q: point %q has no destination", text, words[len(words)-1])
	}
	var segs []Segment
	for _, word := range words {
		count := 1
		if i := strings.IndexByte(word, '('); i >= 0 {
			if !strings.HasSuffix(word, ")") {
				return nil, fmt.Errorf("move %q: unclosed repeat count in %q", text, word)
			}
			n, err := strconv.Atoi(word[i+1 : len(word)-1])
			if err != nil || n < 1 || n > 4 {
				return nil, fmt.Errorf("move %q: bad repeat count in %q", text, word)
			}
			count, word = n, word[:i]
		}
		parts := strings.Split(word, "/")
		if len(parts) < 2 {
			return nil, fmt.Errorf("move %q: %q is not from/to", text, word)
		}
		var pts []int8
		var hits []int8
		for _, p := range parts {
			hit := strings.HasSuffix(p, "*")
			p = strings.TrimSuffix(p, "*")
			n, err := parsePoint(p)
			if err != nil {
				return nil, fmt.Errorf("move %q: %w", text, err)
			}
			if len(pts) > 0 && n >= pts[len(pts)-1] {
				return nil, fmt.Errorf("move %q: %q moves backwards or stands still", text, word)
			}
			if hit {
				if n == 0 || n == 25 {
					return nil, fmt.Errorf("move %q: a hit mark on %s", text, pointName(n))
				}
				hits = append(hits, n)
			}
			pts = append(pts, n)
		}
		if pts[0] == 0 {
			return nil, fmt.Errorf("move %q: %q starts from off", text, word)
		}
		for _, v := range pts[1 : len(pts)-1] {
			if v == 0 {
				return nil, fmt.Errorf("move %q: %q continues after off", text, word)
			}
		}
		segs = append(segs, Segment{From: pts[0], To: pts[len(pts)-1], Via: pts[1 : len(pts)-1], Hits: hits, Count: count})
	}
	return segs, nil
}

func parsePoint(p string) (int8, error) {
	switch p {
	case "bar", "b":
		return 25, nil
	case "off", "o":
		return 0, nil
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || n > 25 {
		return 0, fmt.Errorf("%q is not a point (1-24, bar, off)", p)
	}
	return int8(n), nil
}

// ResolveMove matches written notation against the legal moves for board
// b and dice d1, d2. The written checker movements must equal those of
// exactly one legal result; where legal moves differ only in what they hit
// on the way, the one hitting the marked points and no others is chosen.
func (g *MoveGen) ResolveMove(b Board, d1, d2 int, text string) (Move, error) {
	segs, err := ParseNotation(text)
	if err != nil {
		return Move{}, err
	}
	mine := b[OnRoll]
	var marked []int8
	for _, s := range segs {
		for c := 0; c < s.Count; c++ {
			mine[s.From-1]--
			if s.To > 0 {
				mine[s.To-1]++
			}
		}
		marked = append(marked, s.Hits...)
	}
	for _, c := range mine {
		if c < 0 {
			return Move{}, fmt.Errorf("move %q: moves checkers the player does not have", text)
		}
	}
	moves, boards := g.Generate(b, d1, d2)
	best, bestHits := -1, 0
	for i := range boards {
		if boards[i][OnRoll] != mine {
			continue
		}
		hits := hitPoints(b, moves[i])
		if !containsAll(hits, marked) {
			continue
		}
		if best < 0 || len(hits) < bestHits {
			best, bestHits = i, len(hits)
		}
	}
	if best < 0 {
		if len(moves) == 1 && moves[0].N == 0 && len(segs) > 0 {
			return Move{}, fmt.Errorf("move %q: no move is legal with %d%d", text, d1, d2)
		}
		return Move{}, fmt.Errorf("move %q: not a legal move with %d%d", text, d1, d2)
	}
	return moves[best], nil
}

func hitPoints(b Board, m Move) []int8 {
	var hits []int8
	for _, s := range m.StepList() {
		if applyStep(&b, s) {
			hits = append(hits, s.To)
		}
	}
	return hits
}

func containsAll(have, want []int8) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}

// mergeVia unites two lists of hit points, keeping them highest first.
func mergeVia(a, b []int8) []int8 {
	out := append([]int8(nil), a...)
	for _, v := range b {
		if !containsAll(out, []int8{v}) {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] > out[j] })
	return out
}

// pairBarePoints joins runs of bare points into from/to pairs, since gnubg
// also accepts a move written as a plain list of points ("24 18 13 11" is
// 24/18 13/11). An unpaired point is left alone for the caller to reject.
func pairBarePoints(words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.ContainsAny(w, "/(") && i+1 < len(words) && !strings.ContainsAny(words[i+1], "/") {
			out = append(out, w+"/"+words[i+1])
			i++
			continue
		}
		out = append(out, w)
	}
	return out
}
