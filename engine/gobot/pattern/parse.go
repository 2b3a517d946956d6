// Package pattern is gobot's pattern database: patterns written in GNU
// Go's pattern format (a diagram of the neighbourhood of a move, a `:`
// line with the symmetry class and attributes, an optional constraint
// diagram and expression), a compiler that checks each declared symmetry
// and keeps the distinct transformations, and matchers over all eight
// transformations for either colour, aware of edges and corners.
//
// The patterns themselves are gobot's own (patterns/*.db); GNU Go's files
// are GPL and are not used. docs/gobot.md describes the format as
// supported here.
package pattern

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Pattern is one pattern as written: the diagram from the player to
// move's point of view (O its stones, X the opponent's, * the move).
type Pattern struct {
	Name string
	File string // where it was read, for messages
	Line int    // the line of its "Pattern" header

	// Diagram holds the rows of the diagram, edges included, without
	// comments.
	Diagram []string
	// Symmetry is the declared class: '8' none, '|' left-right mirror,
	// '-' top-bottom mirror, '\' and '/' the diagonals, 'O' half turn,
	// 'X' both diagonals, '+' both mirrors.
	Symmetry byte
	// Class is the classification letters after the symmetry, if any.
	Class string
	// Attrs are the name(value) attributes of the ':' line, in order.
	Attrs []Attr
	// Constraint is the constraint diagram: the diagram with some points
	// replaced by letters, which Expr names; nil when there is none.
	Constraint []string
	Expr       string // the constraint expression, "" for none
}

// Attr is an attribute of the ':' line such as value(40).
type Attr struct {
	Name  string
	Value float64
}

// Value returns the value(N) attribute, or 0.
func (p *Pattern) Value() float64 {
	for _, a := range p.Attrs {
		if a.Name == "value" {
			return a.Value
		}
	}
	return 0
}

// diagramChars are the characters of a diagram row.
const (
	pointChars = "OXox.,?*"
	edgeChars  = "|-+"
)

// ParseError is an error in a pattern file, naming the file and line.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Parse reads the patterns of a file; name is used in messages. Lines
// starting with '#' and blank lines between patterns are comments.
func Parse(name string, r io.Reader) ([]*Pattern, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), " \t\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	ps := &parser{file: name, lines: lines}
	return ps.parse()
}

// ParseString parses patterns from a string.
func ParseString(name, text string) ([]*Pattern, error) {
	return Parse(name, strings.NewReader(text))
}

type parser struct {
	file  string
	lines []string
	i     int // next line, from 0
}

func (ps *parser) errf(line int, format string, args ...any) error {
	return &ParseError{File: ps.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (ps *parser) parse() ([]*Pattern, error) {
	var out []*Pattern
	names := map[string]int{}
	for ps.i < len(ps.lines) {
		l := ps.lines[ps.i]
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
			ps.i++
			continue
		case strings.HasPrefix(l, "Pattern "):
		default:
			return nil, ps.errf(ps.i+1, "want \"Pattern NAME\", got %q", clip(l))
		}
		p, err := ps.pattern()
		if err != nil {
			return nil, err
		}
		if prev, ok := names[p.Name]; ok {
			return nil, ps.errf(p.Line, "pattern %s already defined at line %d", p.Name, prev)
		}
		names[p.Name] = p.Line
		out = append(out, p)
	}
	return out, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// pattern reads one pattern from its header line.
func (ps *parser) pattern() (*Pattern, error) {
	p := &Pattern{File: ps.file, Line: ps.i + 1}
	fields := strings.Fields(ps.lines[ps.i])
	if len(fields) != 2 {
		return nil, ps.errf(ps.i+1, "want \"Pattern NAME\" with one word for the name")
	}
	p.Name = fields[1]
	ps.i++
	// The diagram: rows up to the ':' line, each ending at white space.
	for ps.i < len(ps.lines) && !strings.HasPrefix(ps.lines[ps.i], ":") {
		l := ps.lines[ps.i]
		if l == "" || strings.HasPrefix(l, "#") {
			if len(p.Diagram) == 0 {
				ps.i++
				continue
			}
			// Blank lines may separate the diagram from its ':' line.
			j := ps.i
			for j < len(ps.lines) && ps.lines[j] == "" {
				j++
			}
			if j < len(ps.lines) && strings.HasPrefix(ps.lines[j], ":") {
				ps.i = j
				break
			}
			return nil, ps.errf(ps.i+1, "pattern %s: diagram ends without a ':' line", p.Name)
		}
		row, err := ps.row(l, pointChars+edgeChars)
		if err != nil {
			return nil, err
		}
		p.Diagram = append(p.Diagram, row)
		ps.i++
	}
	if ps.i == len(ps.lines) {
		return nil, ps.errf(ps.i, "pattern %s: no ':' line", p.Name)
	}
	if len(p.Diagram) == 0 {
		return nil, ps.errf(ps.i+1, "pattern %s: empty diagram", p.Name)
	}
	if err := ps.colon(p, ps.lines[ps.i]); err != nil {
		return nil, err
	}
	colonLine := ps.i + 1
	ps.i++
	if _, err := shape(p.Diagram); err != nil {
		return nil, ps.errf(p.Line+1, "pattern %s: %v", p.Name, err)
	}
	// An optional constraint diagram after a blank line, then ';' lines.
	j := ps.i
	for j < len(ps.lines) && ps.lines[j] == "" {
		j++
	}
	if j < len(ps.lines) && j > ps.i && isDiagramRow(ps.lines[j]) {
		ps.i = j
		start := ps.i + 1
		for ps.i < len(ps.lines) && isDiagramRow(ps.lines[ps.i]) {
			row, err := ps.row(ps.lines[ps.i], pointChars+edgeChars+"abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNPQRSTUVWYZ")
			if err != nil {
				return nil, err
			}
			p.Constraint = append(p.Constraint, row)
			ps.i++
		}
		if err := checkConstraintDiagram(p.Diagram, p.Constraint); err != nil {
			return nil, ps.errf(start, "pattern %s: constraint diagram: %v", p.Name, err)
		}
		for ps.i < len(ps.lines) && ps.lines[ps.i] == "" {
			ps.i++
		}
		j = ps.i
	}
	var expr []string
	exprLine := 0
	for j < len(ps.lines) && strings.HasPrefix(ps.lines[j], ";") {
		if exprLine == 0 {
			exprLine = j + 1
		}
		expr = append(expr, strings.TrimSpace(ps.lines[j][1:]))
		j++
	}
	if len(expr) > 0 {
		ps.i = j
		p.Expr = strings.TrimSpace(strings.Join(expr, " "))
		if _, err := compileExpr(p.Expr, labels(p.Constraint)); err != nil {
			return nil, ps.errf(exprLine, "pattern %s: constraint: %v", p.Name, err)
		}
	} else if p.Constraint != nil {
		return nil, ps.errf(colonLine, "pattern %s: constraint diagram without a ';' expression", p.Name)
	}
	if j < len(ps.lines) && strings.HasPrefix(ps.lines[j], ">") {
		return nil, ps.errf(j+1, "pattern %s: action lines ('>') are not supported", p.Name)
	}
	return p, nil
}

// isDiagramRow reports whether a line can start a constraint diagram row:
// a diagram character or a label, and not the next pattern's header.
func isDiagramRow(l string) bool {
	if l == "" || strings.HasPrefix(l, "Pattern ") {
		return false
	}
	c := l[0]
	return strings.IndexByte(pointChars+edgeChars, c) >= 0 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// row returns the diagram part of a line: the characters before the first
// white space, all from allowed.
func (ps *parser) row(l, allowed string) (string, error) {
	end := strings.IndexAny(l, " \t")
	if end < 0 {
		end = len(l)
	}
	row := l[:end]
	if row == "" {
		return "", ps.errf(ps.i+1, "diagram row starts with white space")
	}
	for k := 0; k < len(row); k++ {
		if strings.IndexByte(allowed, row[k]) < 0 {
			return "", ps.errf(ps.i+1, "column %d: %q is not a diagram character", k+1, row[k])
		}
	}
	return row, nil
}

// colon parses the ':' line: the symmetry class, then comma-separated
// classification letters and name(value) attributes.
func (ps *parser) colon(p *Pattern, l string) error {
	line := ps.i + 1
	fields := strings.Split(l[1:], ",")
	sym := strings.TrimSpace(fields[0])
	if len(sym) != 1 || strings.IndexByte(symmetryClasses, sym[0]) < 0 {
		return ps.errf(line, "pattern %s: symmetry %q: want one of %s", p.Name, sym, symmetryClasses)
	}
	p.Symmetry = sym[0]
	for k, f := range fields[1:] {
		f = strings.TrimSpace(f)
		switch {
		case f == "":
			return ps.errf(line, "pattern %s: empty field %d of the ':' line", p.Name, k+2)
		case strings.HasSuffix(f, ")"):
			open := strings.IndexByte(f, '(')
			if open <= 0 || !isName(f[:open]) {
				return ps.errf(line, "pattern %s: attribute %q: want name(number)", p.Name, f)
			}
			v, err := strconv.ParseFloat(f[open+1:len(f)-1], 64)
			if err != nil || v != v || v > 1e9 || v < -1e9 {
				return ps.errf(line, "pattern %s: attribute %q: want name(number)", p.Name, f)
			}
			p.Attrs = append(p.Attrs, Attr{Name: f[:open], Value: v})
		case isLetters(f) && k == 0:
			p.Class = f
		default:
			return ps.errf(line, "pattern %s: field %q of the ':' line: want classification letters (first) or name(number)", p.Name, f)
		}
	}
	return nil
}

func isName(s string) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !(c >= 'a' && c <= 'z' || c == '_' || (k > 0 && c >= '0' && c <= '9')) {
			return false
		}
	}
	return s != ""
}

func isLetters(s string) bool {
	for k := 0; k < len(s); k++ {
		if c := s[k]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// checkConstraintDiagram checks that the constraint diagram has the
// diagram's shape, letters only on points, each letter once.
func checkConstraintDiagram(d, c []string) error {
	if len(c) != len(d) {
		return fmt.Errorf("%d rows, the diagram has %d", len(c), len(d))
	}
	seen := map[byte]bool{}
	for r := range d {
		if len(c[r]) != len(d[r]) {
			return fmt.Errorf("row %d has %d columns, the diagram's has %d", r+1, len(c[r]), len(d[r]))
		}
		for k := 0; k < len(d[r]); k++ {
			a, b := d[r][k], c[r][k]
			if a == b {
				continue
			}
			if !isLabel(b) || strings.IndexByte(pointChars, a) < 0 {
				return fmt.Errorf("row %d column %d: %q where the diagram has %q", r+1, k+1, b, a)
			}
			if seen[b] {
				return fmt.Errorf("label %q used twice", b)
			}
			seen[b] = true
		}
	}
	return nil
}

func isLabel(c byte) bool {
	return (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && c != 'O' && c != 'X' && c != 'o' && c != 'x'
}

// labels returns the labels of a constraint diagram.
func labels(c []string) map[string]bool {
	m := map[string]bool{}
	for _, row := range c {
		for k := 0; k < len(row); k++ {
			if isLabel(row[k]) {
				m[string(row[k])] = true
			}
		}
	}
	return m
}

// String writes the pattern in the file format, so that parsing it gives
// the pattern back.
func (p *Pattern) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Pattern %s\n\n", p.Name)
	for _, r := range p.Diagram {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	b.WriteString("\n:")
	b.WriteByte(p.Symmetry)
	if p.Class != "" {
		b.WriteString("," + p.Class)
	}
	for _, a := range p.Attrs {
		fmt.Fprintf(&b, ",%s(%s)", a.Name, strconv.FormatFloat(a.Value, 'g', -1, 64))
	}
	b.WriteByte('\n')
	if p.Constraint != nil {
		b.WriteByte('\n')
		for _, r := range p.Constraint {
			b.WriteString(r)
			b.WriteByte('\n')
		}
	}
	if p.Expr != "" {
		if p.Constraint == nil {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, ";%s\n", p.Expr)
	}
	return b.String()
}

// Format writes patterns to w, a blank line between them.
func Format(w io.Writer, ps []*Pattern) error {
	for i, p := range ps {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, p.String()); err != nil {
			return err
		}
	}
	return nil
}
