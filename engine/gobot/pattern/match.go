package pattern

import (
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/gamemill/gamemill/engine/gogame"
)

// Color is a point's colour, as in engine/gogame.
type Color = gogame.Color

// Board is what the matcher reads. x and y count from 0 and are always on
// the board when the matcher asks.
type Board interface {
	Size() int
	At(x, y int) Color
	Liberties(x, y int) int // of the chain at (x, y); 0 if empty
	ChainSize(x, y int) int // stones of the chain at (x, y); 0 if empty
	// LibertiesAfter returns the liberties of c's chain at (x, y) after c
	// plays at the empty point (x, y); 0 if the move is illegal.
	LibertiesAfter(c Color, x, y int) int
}

// The 3x3 code of a point describes its eight neighbours, two bits each
// (Neighbours[i] in bits 2i and 2i+1), relative to the player to move.
const (
	StateEmpty = 0
	StateOwn   = 1
	StateOpp   = 2
	StateOff   = 3
)

// Neighbours are the offsets of the eight neighbours in code order.
var Neighbours = [8][2]int8{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// DB is a compiled pattern database.
type DB struct {
	Patterns []*Compiled
	variants []*Variant
	table    [1 << 16][]int32 // by 3x3 code: the variants that fit it
	// small is, by 3x3 code, the largest value of the Small variants that
	// match, and whether any does.
	small    [1 << 16]float32
	hasSmall [1 << 16]bool
}

// Compile compiles parsed patterns into a database.
func Compile(ps []*Pattern) (*DB, error) {
	db := &DB{}
	names := map[string]*Pattern{}
	for _, p := range ps {
		if q, ok := names[p.Name]; ok {
			return nil, fmt.Errorf("%s:%d: pattern %s already defined at %s:%d", p.File, p.Line, p.Name, q.File, q.Line)
		}
		names[p.Name] = p
		cp, err := CompileOne(p)
		if err != nil {
			return nil, err
		}
		db.Patterns = append(db.Patterns, cp)
		for _, v := range cp.Variants {
			id := int32(len(db.variants))
			db.variants = append(db.variants, v)
			db.index(v, id)
		}
	}
	return db, nil
}

// index adds variant id to every 3x3 code it fits.
func (db *DB) index(v *Variant, id int32) {
	var allowed [8]uint8
	for i := range allowed {
		allowed[i] = MaskEmpty | MaskOwn | MaskOpp | MaskOff
	}
	for _, e := range v.elems {
		for i, n := range Neighbours {
			if n[0] == e.dx && n[1] == e.dy {
				allowed[i] = e.mask
			}
		}
	}
	var walk func(i int, code uint16)
	walk = func(i int, code uint16) {
		if i == 8 {
			db.table[code] = append(db.table[code], id)
			if v.Small {
				val := float32(v.Pattern.Value())
				if !db.hasSmall[code] || val > db.small[code] {
					db.small[code] = val
				}
				db.hasSmall[code] = true
			}
			return
		}
		for s := 0; s < 4; s++ {
			if allowed[i]&(1<<s) != 0 {
				walk(i+1, code|uint16(s)<<(2*i))
			}
		}
	}
	walk(0, 0)
}

// Load parses and compiles every *.db file of a directory of fsys.
func Load(fsys fs.FS, dir string) (*DB, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.db"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no *.db pattern files in %s", dir)
	}
	var all []*Pattern
	for _, n := range names {
		f, err := fsys.Open(n)
		if err != nil {
			return nil, err
		}
		ps, err := Parse(n, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		all = append(all, ps...)
	}
	return Compile(all)
}

// Variants returns the number of compiled transformations.
func (db *DB) Variants() int { return len(db.variants) }

// Small returns the value of the best 3x3 pattern without constraint that
// fits code, and whether one does: the playouts' lookup.
func (db *DB) Small(code uint16) (float32, bool) { return db.small[code], db.hasSmall[code] }

// Match is a pattern matched at a point.
type Match struct {
	Variant *Variant
	X, Y    int
}

// state returns a point's state relative to toPlay.
func state(b Board, toPlay Color, x, y int) uint8 {
	n := b.Size()
	if x < 0 || y < 0 || x >= n || y >= n {
		return StateOff
	}
	switch b.At(x, y) {
	case gogame.Empty:
		return StateEmpty
	case toPlay:
		return StateOwn
	}
	return StateOpp
}

// Code returns the 3x3 code of (x, y) for toPlay.
func Code(b Board, toPlay Color, x, y int) uint16 {
	var code uint16
	for i, n := range Neighbours {
		code |= uint16(state(b, toPlay, x+int(n[0]), y+int(n[1]))) << (2 * i)
	}
	return code
}

func fits(b Board, toPlay Color, x, y int, es []elem) bool {
	for _, e := range es {
		if (1<<state(b, toPlay, x+int(e.dx), y+int(e.dy)))&e.mask == 0 {
			return false
		}
	}
	return true
}

func (v *Variant) holds(b Board, toPlay Color, x, y int) bool {
	if v.expr == nil {
		return true
	}
	return v.expr.eval(&env{b: b, toPlay: toPlay, x: x, y: y, v: v}) != 0
}

// MatchAt calls fn for every variant that matches with its move at the
// empty point (x, y) for toPlay: a lookup by the 3x3 code, then the rest
// of each candidate's points and its constraint.
func (db *DB) MatchAt(b Board, toPlay Color, x, y int, fn func(Match)) {
	if b.At(x, y) != gogame.Empty {
		return
	}
	for _, id := range db.table[Code(b, toPlay, x, y)] {
		v := db.variants[id]
		if fits(b, toPlay, x, y, v.rest) && v.holds(b, toPlay, x, y) {
			fn(Match{v, x, y})
		}
	}
}

// MatchAll calls MatchAt at every empty point.
func (db *DB) MatchAll(b Board, toPlay Color, fn func(Match)) {
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			db.MatchAt(b, toPlay, x, y, fn)
		}
	}
}

// MatchNaive is MatchAll done the slow way, every variant at every empty
// point, for tests of the fast matcher.
func (db *DB) MatchNaive(b Board, toPlay Color, fn func(Match)) {
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if b.At(x, y) != gogame.Empty {
				continue
			}
			for _, v := range db.variants {
				if fits(b, toPlay, x, y, v.elems) && v.holds(b, toPlay, x, y) {
					fn(Match{v, x, y})
				}
			}
		}
	}
}

// WriteSummary writes one line per pattern: name, symmetry and the number
// of distinct transformations.
func (db *DB) WriteSummary(w io.Writer) error {
	for _, p := range db.Patterns {
		if _, err := fmt.Fprintf(w, "%s %c %d\n", p.Name, p.Symmetry, len(p.Variants)); err != nil {
			return err
		}
	}
	return nil
}
