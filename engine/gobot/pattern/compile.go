package pattern

import (
	"fmt"
	"slices"
	"strings"
)

// What a point of a compiled pattern may hold, relative to the player to
// move: bits of a mask.
const (
	MaskEmpty uint8 = 1 << iota
	MaskOwn
	MaskOpp
	MaskOff // beyond the edge of the board
)

// maskOf gives the mask of a diagram character.
func maskOf(c byte) uint8 {
	switch c {
	case '.', ',', '*':
		return MaskEmpty
	case 'O':
		return MaskOwn
	case 'X':
		return MaskOpp
	case 'o':
		return MaskOwn | MaskEmpty
	case 'x':
		return MaskOpp | MaskEmpty
	case '?':
		return MaskEmpty | MaskOwn | MaskOpp
	}
	return 0
}

// elem is one point of a pattern, relative to the move.
type elem struct {
	dx, dy int8
	mask   uint8
}

type labelPos struct {
	name   string
	dx, dy int8
}

// symmetryClasses are the classes a ':' line may declare.
const symmetryClasses = `8|-\/OX+`

// stabilizer returns the transformations (see transform) that a diagram of
// the class must be unchanged by.
func stabilizer(class byte) []uint8 {
	switch class {
	case '|':
		return []uint8{0, 1}
	case '-':
		return []uint8{0, 2}
	case '\\':
		return []uint8{0, 4}
	case '/':
		return []uint8{0, 7}
	case 'O':
		return []uint8{0, 3}
	case 'X':
		return []uint8{0, 3, 4, 7}
	case '+':
		return []uint8{0, 1, 2, 3}
	}
	return []uint8{0}
}

// transform applies transformation t (0..7) to an offset: bit 2 swaps the
// axes, then bit 0 mirrors x and bit 1 mirrors y. The eight together are
// the symmetries of the square.
func transform(t uint8, dx, dy int8) (int8, int8) {
	if t&4 != 0 {
		dx, dy = dy, dx
	}
	if t&1 != 0 {
		dx = -dx
	}
	if t&2 != 0 {
		dy = -dy
	}
	return dx, dy
}

// shape reads a diagram into its points relative to the move, the edges
// as points that must be off the board.
func shape(d []string) ([]elem, error) {
	elems, _, err := shapeLabels(d, nil)
	return elems, err
}

func shapeLabels(d, c []string) ([]elem, []labelPos, error) {
	w := len(d[0])
	for r, row := range d {
		if len(row) != w {
			return nil, nil, fmt.Errorf("diagram row %d has %d columns, row 1 has %d", r+1, len(row), w)
		}
	}
	isEdgeRow := func(row string) bool { return strings.Trim(row, "-+") == "" }
	top, bottom := isEdgeRow(d[0]), len(d) > 1 && isEdgeRow(d[len(d)-1])
	r0, r1 := 0, len(d)
	if top {
		r0++
	}
	if bottom {
		r1--
	}
	if r0 >= r1 {
		return nil, nil, fmt.Errorf("diagram has no points")
	}
	left, right := true, w > 1
	for r := r0; r < r1; r++ {
		left = left && d[r][0] == '|'
		right = right && d[r][w-1] == '|'
	}
	c0, c1 := 0, w
	if left {
		c0++
	}
	if right {
		c1--
	}
	if c0 >= c1 {
		return nil, nil, fmt.Errorf("diagram has no points")
	}
	// Edge rows: '+' only at a corner, where a side edge meets them.
	for _, r := range []int{0, len(d) - 1} {
		if (r == 0 && !top) || (r == len(d)-1 && !bottom) {
			continue
		}
		for k := 0; k < w; k++ {
			corner := (k == 0 && left) || (k == w-1 && right)
			if (d[r][k] == '+') != corner {
				return nil, nil, fmt.Errorf("diagram row %d column %d: '+' belongs at a corner, '-' along an edge", r+1, k+1)
			}
		}
	}
	ax, ay, stars := 0, 0, 0
	for r := r0; r < r1; r++ {
		for k := c0; k < c1; k++ {
			switch ch := d[r][k]; {
			case strings.IndexByte(edgeChars, ch) >= 0:
				return nil, nil, fmt.Errorf("diagram row %d column %d: edge %q inside the board", r+1, k+1, ch)
			case ch == '*':
				ax, ay = k, r
				stars++
			}
		}
	}
	if stars != 1 {
		return nil, nil, fmt.Errorf("diagram has %d '*' points, want one (the move)", stars)
	}
	var elems []elem
	var labs []labelPos
	for r := 0; r < len(d); r++ {
		for k := 0; k < w; k++ {
			dx, dy := k-ax, r-ay
			if dx < -100 || dx > 100 || dy < -100 || dy > 100 {
				return nil, nil, fmt.Errorf("diagram wider than 100 points")
			}
			inRows, inCols := r >= r0 && r < r1, k >= c0 && k < c1
			var m uint8
			switch {
			case inRows && inCols:
				m = maskOf(d[r][k])
				if c != nil && isLabel(c[r][k]) {
					labs = append(labs, labelPos{string(c[r][k]), int8(dx), int8(dy)})
				}
			case inRows || inCols: // an edge beside a point
				m = MaskOff
			default: // a corner: the two edges already say it
				continue
			}
			if dx == 0 && dy == 0 {
				continue // the move itself: the matcher asks for an empty point
			}
			elems = append(elems, elem{int8(dx), int8(dy), m})
		}
	}
	return elems, labs, nil
}

// Compiled is a pattern ready to match: its distinct transformations.
type Compiled struct {
	*Pattern
	Variants []*Variant
}

// Variant is one transformation of a pattern.
type Variant struct {
	Pattern   *Compiled
	Transform uint8 // 0..7, see transform
	elems     []elem
	labels    []labelPos
	expr      *node
	// rest are the points outside the move's 3x3 neighbourhood, checked
	// after the table lookup.
	rest []elem
	// Small is true when the variant lies within the 3x3 neighbourhood
	// and has no constraint: the table lookup alone decides it.
	Small bool
}

// CompileOne checks a pattern and returns its distinct transformations.
// A declared symmetry that the diagram does not have is an error.
func CompileOne(p *Pattern) (*Compiled, error) {
	elems, labs, err := shapeLabels(p.Diagram, p.Constraint)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: pattern %s: %w", p.File, p.Line, p.Name, err)
	}
	var ex *node
	if p.Expr != "" {
		if ex, err = compileExpr(p.Expr, labels(p.Constraint)); err != nil {
			return nil, fmt.Errorf("%s:%d: pattern %s: constraint: %w", p.File, p.Line, p.Name, err)
		}
	}
	base := key(elems, nil)
	for _, t := range stabilizer(p.Symmetry) {
		if k := key(transformAll(t, elems), nil); k != base {
			return nil, fmt.Errorf("%s:%d: pattern %s: declared symmetry %q but the diagram changes under %s", p.File, p.Line, p.Name, p.Symmetry, transformNames[t])
		}
	}
	cp := &Compiled{Pattern: p}
	seen := map[string]bool{}
	// Transformations by the cosets of the declared class; a diagram more
	// symmetric than declared gives still fewer, all distinct.
	for t := uint8(0); t < 8; t++ {
		te := transformAll(t, elems)
		tl := make([]labelPos, len(labs))
		for i, l := range labs {
			tl[i] = l
			tl[i].dx, tl[i].dy = transform(t, l.dx, l.dy)
		}
		k := key(te, tl)
		if seen[k] {
			continue
		}
		seen[k] = true
		v := &Variant{Pattern: cp, Transform: t, elems: te, labels: tl, expr: ex, Small: ex == nil}
		for _, e := range te {
			if e.dx < -1 || e.dx > 1 || e.dy < -1 || e.dy > 1 {
				v.rest = append(v.rest, e)
				v.Small = false
			}
		}
		cp.Variants = append(cp.Variants, v)
	}
	return cp, nil
}

var transformNames = [8]string{"the identity", "the left-right mirror", "the top-bottom mirror", "the half turn", "the main-diagonal mirror", "a quarter turn", "a quarter turn", "the anti-diagonal mirror"}

func transformAll(t uint8, es []elem) []elem {
	out := make([]elem, len(es))
	for i, e := range es {
		out[i] = e
		out[i].dx, out[i].dy = transform(t, e.dx, e.dy)
	}
	return out
}

// key is a canonical string of a set of points and labels.
func key(es []elem, ls []labelPos) string {
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b elem) int {
		if a.dy != b.dy {
			return int(a.dy) - int(b.dy)
		}
		return int(a.dx) - int(b.dx)
	})
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%d,%d:%d;", e.dx, e.dy, e.mask)
	}
	ls = slices.Clone(ls)
	slices.SortFunc(ls, func(a, b labelPos) int { return strings.Compare(a.name, b.name) })
	for _, l := range ls {
		fmt.Fprintf(&b, "%s@%d,%d;", l.name, l.dx, l.dy)
	}
	return b.String()
}
