package bgbot

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
)

// bearoffMagic starts a bearoff database file. The format, little-endian:
// the magic, the checker count (uint32), then for every position in
// NewBearoff's order its distribution of rolls to bear off (BearoffRolls
// float32), and for a 15-checker database its distribution of rolls to the
// first checker off (BearoffRolls float32), then a CRC-32 (IEEE) of
// everything after the magic. The positions and their order follow from
// the checker count, so they are not stored.
const bearoffMagic = "BGBO1\n"

// WriteTo writes the database in the bearoff file format.
func (db *Bearoff) WriteTo(out io.Writer) (int64, error) {
	cw := &countWriter{w: out}
	bw := bufio.NewWriter(cw)
	bw.WriteString(bearoffMagic)
	crc := crc32.NewIEEE()
	body := io.MultiWriter(bw, crc)
	put := func(v any) error { return binary.Write(body, binary.LittleEndian, v) }
	if err := put(uint32(db.Checkers)); err != nil {
		return cw.n, fmt.Errorf("write bearoff: %w", err)
	}
	if err := put(db.dist); err != nil {
		return cw.n, fmt.Errorf("write bearoff: %w", err)
	}
	if db.first != nil {
		if err := put(db.first); err != nil {
			return cw.n, fmt.Errorf("write bearoff: %w", err)
		}
	}
	if err := binary.Write(bw, binary.LittleEndian, crc.Sum32()); err != nil {
		return cw.n, fmt.Errorf("write bearoff: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return cw.n, fmt.Errorf("write bearoff: %w", err)
	}
	return cw.n, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// LoadBearoff reads the database file at path (ReadBearoffFile), or for
// "" builds the bots' default database of DefaultBearoffCheckers
// checkers.
func LoadBearoff(path string) (*Bearoff, error) {
	if path == "" {
		return NewBearoff(DefaultBearoffCheckers)
	}
	return ReadBearoffFile(path)
}

// ReadBearoffFile reads a database file written by WriteTo (bgtrain
// makebearoff); its errors name the file.
func ReadBearoffFile(path string) (*Bearoff, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	db, err := ReadBearoff(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return db, nil
}

// ReadBearoff reads a database written by WriteTo, checking its size,
// checksum and distributions.
func ReadBearoff(in io.Reader) (*Bearoff, error) {
	br := bufio.NewReader(in)
	magic := make([]byte, len(bearoffMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != bearoffMagic {
		return nil, fmt.Errorf("read bearoff: not a bearoff database (magic %q)", magic)
	}
	crc := crc32.NewIEEE()
	body := io.TeeReader(br, crc)
	var checkers uint32
	if err := binary.Read(body, binary.LittleEndian, &checkers); err != nil {
		return nil, fmt.Errorf("read bearoff: checker count: %w", err)
	}
	if checkers < 1 || checkers > 15 {
		return nil, fmt.Errorf("read bearoff: %d checkers out of range 1..15", checkers)
	}
	// Read the tables and check the sum before building the index: a
	// short or damaged file (a truncated copy, a bad header) then fails
	// after reading what it has, not after laying out the index of every
	// position it claims.
	tables := bearoffPositions(int(checkers))
	if checkers == 15 {
		tables *= 2 // the first-checker distributions follow
	}
	size := int64(tables) * BearoffRolls * 4
	raw, err := io.ReadAll(io.LimitReader(body, size))
	if err != nil {
		return nil, fmt.Errorf("read bearoff: distributions: %w", err)
	}
	if int64(len(raw)) < size {
		return nil, fmt.Errorf("read bearoff: distributions: %d bytes, want %d: %w", len(raw), size, io.ErrUnexpectedEOF)
	}
	var sum uint32
	if err := binary.Read(br, binary.LittleEndian, &sum); err != nil {
		return nil, fmt.Errorf("read bearoff: checksum: %w", err)
	}
	if sum != crc.Sum32() {
		return nil, fmt.Errorf("read bearoff: checksum %08x, want %08x", crc.Sum32(), sum)
	}
	db := emptyBearoff(int(checkers))
	rd := bytes.NewReader(raw)
	if err := binary.Read(rd, binary.LittleEndian, db.dist); err != nil {
		return nil, fmt.Errorf("read bearoff: distributions: %w", err)
	}
	if db.first != nil {
		if err := binary.Read(rd, binary.LittleEndian, db.first); err != nil {
			return nil, fmt.Errorf("read bearoff: first-checker distributions: %w", err)
		}
	}
	check := func(name string, d [][BearoffRolls]float32, means []float32) error {
		for i := range d {
			var total, mean float64
			for n, x := range d[i] {
				if !(x >= 0 && x <= 1+1e-3) {
					return fmt.Errorf("read bearoff: %s %d: entry %d is %v", name, i, n, x)
				}
				total += float64(x)
				mean += float64(n) * float64(x)
			}
			if math.Abs(total-1) > 1e-3 {
				return fmt.Errorf("read bearoff: %s %d sums to %v", name, i, total)
			}
			means[i] = float32(mean)
		}
		return nil
	}
	if err := check("distribution", db.dist, db.mean); err != nil {
		return nil, err
	}
	if db.first != nil {
		if err := check("first-checker distribution", db.first, db.firstMn); err != nil {
			return nil, err
		}
	}
	return db, nil
}

// bearoffPositions is how many positions a database of the checker count
// holds: the ways to place up to that many checkers on six points,
// C(checkers+6, 6).
func bearoffPositions(checkers int) int {
	n := 1
	for k := 1; k <= 6; k++ {
		n = n * (checkers + k) / k
	}
	return n
}
