// Package sgf reads and writes Smart Game Format files: a generic parser for
// SGF collections (game trees, nodes, properties, escapes, variations), and
// the mapping GNU Backgammon uses for backgammon (GM[6]) to and from
// format-neutral records (formats/record).
package sgf

import (
	"errors"
	"fmt"
	"strings"
)

// Property is one property of a node: an identifier such as "B" or "MI" and
// its values, unescaped (a backslash before a newline removes both, before
// any other character keeps that character).
type Property struct {
	ID     string
	Values []string
}

// Node is an SGF node: the properties between one ';' and the next.
type Node struct {
	Props        []Property
	Line, Column int // where the node's ';' is, 1-based
}

// Value returns the first value of property id.
func (n *Node) Value(id string) (string, bool) {
	for _, p := range n.Props {
		if p.ID == id && len(p.Values) > 0 {
			return p.Values[0], true
		}
	}
	return "", false
}

// Values returns all values of property id, or nil.
func (n *Node) Values(id string) []string {
	for _, p := range n.Props {
		if p.ID == id {
			return p.Values
		}
	}
	return nil
}

// Tree is an SGF game tree: a sequence of nodes followed by the variations
// that branch from its last node.
type Tree struct {
	Nodes      []*Node
	Variations []*Tree
	Line       int // where the tree's '(' is
}

// MainLine returns the nodes of the tree's main line: its own sequence and,
// recursively, the first variation's.
func (t *Tree) MainLine() []*Node {
	var out []*Node
	for t != nil {
		out = append(out, t.Nodes...)
		if len(t.Variations) == 0 {
			break
		}
		t = t.Variations[0]
	}
	return out
}

// SyntaxError reports where an SGF file went wrong.
type SyntaxError struct {
	Line, Column int // 1-based
	Err          error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("sgf: line %d, column %d: %v", e.Line, e.Column, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// maxDepth bounds how deeply variations may nest.
const maxDepth = 10000

// Parse reads an SGF collection: one or more game trees. Whitespace may
// separate any two tokens; a UTF-8 byte order mark may open the file.
func Parse(data []byte) ([]*Tree, error) {
	p := &parser{data: data, line: 1, col: 1}
	if strings.HasPrefix(string(data), "\ufeff") {
		p.pos = 3
	}
	var trees []*Tree
	var stack []*Tree
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			break
		}
		c := p.data[p.pos]
		switch {
		case c == '(':
			t := &Tree{Line: p.line}
			if len(stack) == 0 {
				trees = append(trees, t)
			} else {
				top := stack[len(stack)-1]
				if len(top.Nodes) == 0 {
					return nil, p.errorf("a variation must follow at least one node")
				}
				top.Variations = append(top.Variations, t)
			}
			if len(stack) >= maxDepth {
				return nil, p.errorf("variations nested more than %d deep", maxDepth)
			}
			stack = append(stack, t)
			p.advance()
		case c == ')':
			if len(stack) == 0 {
				return nil, p.errorf("')' without a matching '('")
			}
			if len(stack[len(stack)-1].Nodes) == 0 {
				return nil, p.errorf("empty game tree")
			}
			stack = stack[:len(stack)-1]
			p.advance()
		case c == ';':
			if len(stack) == 0 {
				return nil, p.errorf("node outside a game tree")
			}
			top := stack[len(stack)-1]
			if len(top.Variations) > 0 {
				return nil, p.errorf("node after a variation")
			}
			n := &Node{Line: p.line, Column: p.col}
			p.advance()
			if err := p.properties(n); err != nil {
				return nil, err
			}
			top.Nodes = append(top.Nodes, n)
		default:
			if len(stack) == 0 {
				return nil, p.errorf("unexpected %q outside a game tree", rune(c))
			}
			return nil, p.errorf("unexpected %q: want ';', '(' or ')'", rune(c))
		}
	}
	if len(stack) > 0 {
		return nil, p.errorf("unexpected end of file: %d game tree(s) not closed", len(stack))
	}
	if len(trees) == 0 {
		return nil, p.errorf("no game tree")
	}
	return trees, nil
}

type parser struct {
	data      []byte
	pos       int
	line, col int
}

func (p *parser) advance() {
	if p.data[p.pos] == '\n' {
		p.line++
		p.col = 1
	} else if p.data[p.pos]&0xC0 != 0x80 {
		p.col++
	}
	p.pos++
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.advance()
		default:
			return
		}
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Line: p.line, Column: p.col, Err: fmt.Errorf(format, args...)}
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func (p *parser) properties(n *Node) error {
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || !isLetter(p.data[p.pos]) {
			return nil
		}
		line, col := p.line, p.col
		start := p.pos
		for p.pos < len(p.data) && isLetter(p.data[p.pos]) {
			p.advance()
		}
		// FF[3] allowed lower-case letters in identifiers; they are ignored.
		var id strings.Builder
		for _, c := range p.data[start:p.pos] {
			if c >= 'A' && c <= 'Z' {
				id.WriteByte(c)
			}
		}
		if id.Len() == 0 {
			return &SyntaxError{Line: line, Column: col, Err: fmt.Errorf("property %q has no upper-case letter", p.data[start:p.pos])}
		}
		prop := Property{ID: id.String()}
		for {
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != '[' {
				break
			}
			v, err := p.value()
			if err != nil {
				return err
			}
			prop.Values = append(prop.Values, v)
		}
		if len(prop.Values) == 0 {
			return &SyntaxError{Line: line, Column: col, Err: fmt.Errorf("property %s has no value", prop.ID)}
		}
		n.Props = append(n.Props, prop)
	}
}

func (p *parser) value() (string, error) {
	line, col := p.line, p.col
	p.advance() // '['
	var sb strings.Builder
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch c {
		case ']':
			p.advance()
			return sb.String(), nil
		case '\\':
			p.advance()
			if p.pos >= len(p.data) {
				break
			}
			e := p.data[p.pos]
			if e == '\n' || e == '\r' {
				// Soft line break: drop it, with the other half of a \r\n or \n\r pair.
				p.advance()
				if p.pos < len(p.data) && (p.data[p.pos] == '\n' || p.data[p.pos] == '\r') && p.data[p.pos] != e {
					p.advance()
				}
				continue
			}
			sb.WriteByte(e)
			p.advance()
		default:
			sb.WriteByte(c)
			p.advance()
		}
	}
	return "", &SyntaxError{Line: line, Column: col, Err: errors.New("value not closed by ']'")}
}

// Escape escapes a value for writing: backslashes and closing brackets.
func Escape(s string) string {
	if !strings.ContainsAny(s, `\]`) {
		return s // most values: no copy
	}
	return escaper.Replace(s)
}

// escaper is Escape's replacer, made once: a Replacer is safe for
// concurrent use.
var escaper = strings.NewReplacer(`\`, `\\`, `]`, `\]`)

// Format writes a collection back as SGF text, one node per line.
func Format(trees []*Tree) string {
	var sb strings.Builder
	var write func(t *Tree)
	write = func(t *Tree) {
		sb.WriteByte('(')
		for i, n := range t.Nodes {
			if i > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteByte(';')
			for _, pr := range n.Props {
				sb.WriteString(pr.ID)
				for _, v := range pr.Values {
					sb.WriteByte('[')
					sb.WriteString(Escape(v))
					sb.WriteByte(']')
				}
			}
		}
		for _, v := range t.Variations {
			sb.WriteByte('\n')
			write(v)
		}
		sb.WriteString(")")
	}
	for _, t := range trees {
		write(t)
		sb.WriteByte('\n')
	}
	return sb.String()
}
