package pattern

import (
	"fmt"
	"strconv"
	"strings"
)

// The constraint language: integers, labelled-point functions, + - (and
// unary -), comparisons < <= > >= == !=, ! && || and parentheses.
// Comparisons and logic give 1 or 0; a constraint holds when its value is
// not 0.
//
// Functions of a labelled point a:
//
//	lib(a)   liberties of the chain at a (0 if a is empty)
//	size(a)  stones of the chain at a (0 if a is empty)
//	olib(a)  liberties the player to move would have after playing at a
//	xlib(a)  the same for the opponent (0 where the move is illegal)
var funcs = map[string]int{"lib": fnLib, "size": fnSize, "olib": fnOlib, "xlib": fnXlib}

const (
	fnLib = iota
	fnSize
	fnOlib
	fnXlib
)

type node struct {
	op   string // "num", "fn", or an operator
	val  int
	fn   int
	lab  string
	l, r *node
}

type exprParser struct {
	toks   []string
	i      int
	labels map[string]bool
}

func compileExpr(src string, labels map[string]bool) (*node, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("empty expression")
	}
	p := &exprParser{toks: toks, labels: labels}
	n, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q", p.toks[p.i])
	}
	return n, nil
}

func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
			j := i
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '_') {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			two := ""
			if i+1 < len(s) {
				two = s[i : i+2]
			}
			switch two {
			case "&&", "||", "<=", ">=", "==", "!=":
				toks = append(toks, two)
				i += 2
				continue
			}
			if strings.IndexByte("+-<>!()", c) < 0 {
				return nil, fmt.Errorf("column %d: unexpected %q", i+1, c)
			}
			toks = append(toks, string(c))
			i++
		}
	}
	return toks, nil
}

const maxDepth = 50

func (p *exprParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *exprParser) binary(depth int, ops []string, next func(int) (*node, error)) (*node, error) {
	l, err := next(depth)
	if err != nil {
		return nil, err
	}
	for {
		op := p.peek()
		found := false
		for _, o := range ops {
			if o == op {
				found = true
			}
		}
		if !found {
			return l, nil
		}
		p.i++
		r, err := next(depth)
		if err != nil {
			return nil, err
		}
		l = &node{op: op, l: l, r: r}
	}
}

func (p *exprParser) or(d int) (*node, error) {
	if d > maxDepth {
		return nil, fmt.Errorf("expression nested too deeply")
	}
	return p.binary(d+1, []string{"||"}, p.and)
}
func (p *exprParser) and(d int) (*node, error) { return p.binary(d, []string{"&&"}, p.cmp) }
func (p *exprParser) cmp(d int) (*node, error) {
	return p.binary(d, []string{"<", "<=", ">", ">=", "==", "!="}, p.sum)
}
func (p *exprParser) sum(d int) (*node, error) { return p.binary(d, []string{"+", "-"}, p.unary) }

func (p *exprParser) unary(d int) (*node, error) {
	if d > maxDepth {
		return nil, fmt.Errorf("expression nested too deeply")
	}
	switch t := p.peek(); t {
	case "!", "-":
		p.i++
		x, err := p.unary(d + 1)
		if err != nil {
			return nil, err
		}
		return &node{op: "u" + t, l: x}, nil
	case "(":
		p.i++
		x, err := p.or(d + 1)
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("missing ')'")
		}
		p.i++
		return x, nil
	case "":
		return nil, fmt.Errorf("expression ends early")
	default:
		p.i++
		if t[0] >= '0' && t[0] <= '9' {
			v, err := strconv.Atoi(t)
			if err != nil || v > 1e6 {
				return nil, fmt.Errorf("number %s too large", t)
			}
			return &node{op: "num", val: v}, nil
		}
		fn, ok := funcs[t]
		if !ok {
			return nil, fmt.Errorf("unknown function %q (want lib, size, olib or xlib)", t)
		}
		if p.peek() != "(" {
			return nil, fmt.Errorf("%s: want '(' and a label", t)
		}
		p.i++
		lab := p.peek()
		if !p.labels[lab] {
			return nil, fmt.Errorf("%s(%s): no point labelled %q in the constraint diagram", t, lab, lab)
		}
		p.i++
		if p.peek() != ")" {
			return nil, fmt.Errorf("%s(%s: missing ')'", t, lab)
		}
		p.i++
		return &node{op: "fn", fn: fn, lab: lab}, nil
	}
}

// env is what an expression sees at a match.
type env struct {
	b      Board
	toPlay Color
	x, y   int
	v      *Variant
}

func (e *env) point(lab string) (int, int) {
	for _, l := range e.v.labels {
		if l.name == lab {
			return e.x + int(l.dx), e.y + int(l.dy)
		}
	}
	return -1, -1 // cannot happen: labels are checked when compiling
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (n *node) eval(e *env) int {
	switch n.op {
	case "num":
		return n.val
	case "fn":
		x, y := e.point(n.lab)
		switch n.fn {
		case fnLib:
			return e.b.Liberties(x, y)
		case fnSize:
			return e.b.ChainSize(x, y)
		case fnOlib:
			return e.b.LibertiesAfter(e.toPlay, x, y)
		case fnXlib:
			return e.b.LibertiesAfter(e.toPlay.Opponent(), x, y)
		}
	case "u!":
		return b2i(n.l.eval(e) == 0)
	case "u-":
		return -n.l.eval(e)
	case "&&":
		return b2i(n.l.eval(e) != 0 && n.r.eval(e) != 0)
	case "||":
		return b2i(n.l.eval(e) != 0 || n.r.eval(e) != 0)
	}
	a, b := n.l.eval(e), n.r.eval(e)
	switch n.op {
	case "+":
		return a + b
	case "-":
		return a - b
	case "<":
		return b2i(a < b)
	case "<=":
		return b2i(a <= b)
	case ">":
		return b2i(a > b)
	case ">=":
		return b2i(a >= b)
	case "==":
		return b2i(a == b)
	case "!=":
		return b2i(a != b)
	}
	panic("pattern: unknown operator " + n.op)
}
