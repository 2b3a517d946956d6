package tomlcheck

import (
	"strconv"
	"strings"
)

// Path names a value in a TOML document: a sequence of table keys and
// array indexes, displayed as in `matchups[1].players` or
// `players."a.b".command`.
type Path []pathElem

// pathElem is one step of a Path: a table key, or an array index when
// index >= 0.
type pathElem struct {
	key   string
	index int
}

// key returns p extended by the table key k.
func (p Path) Key(k string) Path {
	q := make(Path, len(p), len(p)+1)
	copy(q, p)
	return append(q, pathElem{key: k, index: -1})
}

// at returns p extended by the array index i.
func (p Path) At(i int) Path {
	q := make(Path, len(p), len(p)+1)
	copy(q, p)
	return append(q, pathElem{index: i})
}

func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		if e.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if isBareKey(e.key) {
			b.WriteString(e.key)
		} else {
			b.WriteString(strconv.Quote(e.key))
		}
	}
	return b.String()
}

func isBareKey(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isBareKeyByte(s[i]) {
			return false
		}
	}
	return true
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// keyLines maps Path strings to the line (1-based) where that key, table
// header or array element first appears.
//
// BurntSushi/toml v1.6 records key positions internally but does not export
// them, and its MetaData keys carry no array indexes, so we find positions
// with a small structural scanner of our own. It runs only on input that the
// toml package has already accepted; on anything it does not understand it
// stops, keeping the positions found so far. Positions only decorate error
// messages, so a miss costs a line number, never a wrong result.
func Lines(src string) map[string]int {
	s := &posScanner{
		src:    src,
		line:   1,
		lines:  make(map[string]int),
		arrays: make(map[string]int),
	}
	s.document()
	return s.lines
}

type posScanner struct {
	src    string
	i      int
	line   int
	lines  map[string]int
	arrays map[string]int // array-of-tables path → number of elements so far
	depth  int            // nesting of arrays and inline tables
	failed bool
}

func (s *posScanner) peek(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

func (s *posScanner) eof() bool { return s.failed || s.i >= len(s.src) }

func (s *posScanner) advance() {
	if s.i < len(s.src) {
		if s.src[s.i] == '\n' {
			s.line++
		}
		s.i++
	}
}

func (s *posScanner) record(p Path) {
	k := p.String()
	if _, ok := s.lines[k]; !ok {
		s.lines[k] = s.line
	}
}

// skipSpace skips blanks; with newlines set it also skips line ends and
// comments.
func (s *posScanner) skipSpace(newlines bool) {
	for !s.eof() {
		switch c := s.peek(0); {
		case c == ' ' || c == '\t':
			s.advance()
		case newlines && (c == '\n' || c == '\r'):
			s.advance()
		case newlines && c == '#':
			for !s.eof() && s.peek(0) != '\n' {
				s.advance()
			}
		default:
			return
		}
	}
}

func (s *posScanner) document() {
	var table Path
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		if s.peek(0) == '[' {
			array := s.peek(1) == '['
			s.advance()
			if array {
				s.advance()
			}
			keys := s.keyParts()
			if s.failed {
				return
			}
			table = s.header(keys, array)
			for !s.eof() && s.peek(0) != '\n' && s.peek(0) != '#' {
				s.advance() // the closing brackets
			}
			continue
		}
		start := s.i
		s.keyValue(table)
		if s.i == start {
			s.failed = true
		}
	}
}

// header resolves a table header to its path, counting array-of-tables
// elements, and records its line.
func (s *posScanner) header(keys []string, array bool) Path {
	var p Path
	for j, k := range keys {
		p = p.Key(k)
		s.record(p)
		last := j == len(keys)-1
		n, isArray := s.arrays[p.String()]
		switch {
		case last && array:
			s.arrays[p.String()] = n + 1
			p = p.At(n)
			s.record(p)
		case isArray && n > 0:
			p = p.At(n - 1)
		}
	}
	return p
}

// keyValue scans `key = value` under table.
func (s *posScanner) keyValue(table Path) {
	keys := s.keyParts()
	if s.failed || len(keys) == 0 {
		s.failed = true
		return
	}
	p := table
	for _, k := range keys {
		p = p.Key(k)
		s.record(p)
	}
	s.skipSpace(false)
	if s.peek(0) != '=' {
		s.failed = true
		return
	}
	s.advance()
	s.skipSpace(false)
	s.value(p)
}

// keyParts scans a dotted key.
func (s *posScanner) keyParts() []string {
	var parts []string
	for {
		s.skipSpace(false)
		k, ok := s.simpleKey()
		if !ok {
			s.failed = true
			return nil
		}
		parts = append(parts, k)
		s.skipSpace(false)
		if s.peek(0) != '.' {
			return parts
		}
		s.advance()
	}
}

func (s *posScanner) simpleKey() (string, bool) {
	switch c := s.peek(0); {
	case c == '"':
		return s.basicString()
	case c == '\'':
		s.advance()
		start := s.i
		for !s.eof() && s.peek(0) != '\'' {
			s.advance()
		}
		k := s.src[start:s.i]
		s.advance()
		return k, !s.failed
	case isBareKeyByte(c):
		start := s.i
		for !s.eof() && isBareKeyByte(s.peek(0)) {
			s.advance()
		}
		return s.src[start:s.i], true
	}
	return "", false
}

// basicString scans a one-line "..." string and returns its decoded value.
func (s *posScanner) basicString() (string, bool) {
	s.advance() // opening quote
	var b strings.Builder
	for !s.eof() {
		c := s.peek(0)
		switch c {
		case '"':
			s.advance()
			return b.String(), true
		case '\n':
			return "", false
		case '\\':
			s.advance()
			e := s.peek(0)
			s.advance()
			switch e {
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case 'e':
				b.WriteByte(0x1b)
			case 'x', 'u', 'U':
				n := 2
				if e == 'u' {
					n = 4
				} else if e == 'U' {
					n = 8
				}
				if s.i+n > len(s.src) {
					return "", false
				}
				v, err := strconv.ParseUint(s.src[s.i:s.i+n], 16, 32)
				if err != nil {
					return "", false
				}
				b.WriteRune(rune(v))
				for range n {
					s.advance()
				}
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			s.advance()
		}
	}
	return "", false
}

// skipMultiline skips a multi-line string opened by three quote bytes q.
func (s *posScanner) skipMultiline(q byte) {
	for range 3 {
		s.advance()
	}
	for !s.eof() {
		c := s.peek(0)
		if c == '\\' && q == '"' {
			s.advance()
			s.advance()
			continue
		}
		if c == q && s.peek(1) == q && s.peek(2) == q {
			for range 3 {
				s.advance()
			}
			// Up to two more quotes may belong to the content.
			for range 2 {
				if s.peek(0) == q {
					s.advance()
				}
			}
			return
		}
		s.advance()
	}
}

const maxScanDepth = 200

// value scans one value at path p, recording array elements and inline
// table keys.
func (s *posScanner) value(p Path) {
	if s.depth > maxScanDepth {
		s.failed = true
		return
	}
	switch c := s.peek(0); c {
	case '"':
		if s.peek(1) == '"' && s.peek(2) == '"' {
			s.skipMultiline('"')
			return
		}
		if _, ok := s.basicString(); !ok {
			s.failed = true
		}
	case '\'':
		if s.peek(1) == '\'' && s.peek(2) == '\'' {
			s.skipMultiline('\'')
			return
		}
		s.advance()
		for !s.eof() && s.peek(0) != '\'' {
			s.advance()
		}
		s.advance()
	case '[':
		s.depth++
		defer func() { s.depth-- }()
		s.advance()
		for idx := 0; !s.eof(); idx++ {
			s.skipSpace(true)
			if s.peek(0) == ']' {
				s.advance()
				return
			}
			q := p.At(idx)
			s.record(q)
			start := s.i
			s.value(q)
			s.skipSpace(true)
			switch s.peek(0) {
			case ',':
				s.advance()
			case ']':
				s.advance()
				return
			default:
				s.failed = true
			}
			if s.i == start {
				s.failed = true
			}
		}
	case '{':
		s.depth++
		defer func() { s.depth-- }()
		s.advance()
		for !s.eof() {
			s.skipSpace(true)
			if s.peek(0) == '}' {
				s.advance()
				return
			}
			s.keyValue(p)
			s.skipSpace(true)
			switch s.peek(0) {
			case ',':
				s.advance()
			case '}':
				s.advance()
				return
			default:
				s.failed = true
			}
		}
	default:
		// A number, boolean or date: up to a delimiter. A date may hold a
		// space, so blanks do not end it.
		start := s.i
		for !s.eof() && !strings.ContainsRune(",]}#\r\n", rune(s.peek(0))) {
			s.advance()
		}
		if s.i == start {
			s.failed = true
		}
	}
}
