package bgbot

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

func TestBearoff(t *testing.T) {
	db, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	var s [25]int8
	s[0] = 1 // one checker on the ace point: always one roll
	if m, ok := db.MeanRolls(&s); !ok || m != 1 {
		t.Errorf("one on the ace: %v %v", m, ok)
	}
	s[0], s[5] = 0, 2 // two on the six point: one roll only with doubles (6/36) ... or 6-6 etc.
	if m, _ := db.MeanRolls(&s); m <= 1 || m >= 2.2 {
		t.Errorf("two on the six point: %v rolls", m)
	}
	var b backgammon.Board
	b[backgammon.OnRoll][0] = 1
	b[backgammon.Opponent][0] = 1
	if p, ok := db.Probs(&b); !ok || p[Win] != 1 {
		t.Errorf("on roll, one checker each: %v %v", p, ok)
	}
	// 2 checkers on my 6 point against 1 on their ace: I win only by
	// rolling a double of 6... any double >= 3 bears both off? No: 3-3 moves
	// 4x3: 6->3->off and 6->3->off. Doubles 3..6 = 4/36.
	b[backgammon.OnRoll][0], b[backgammon.OnRoll][5] = 0, 2
	if p, _ := db.Probs(&b); math.Abs(float64(p[Win])-4.0/36) > 1e-5 {
		t.Errorf("two on the six vs one on the ace: %v, want %v", p[Win], 4.0/36)
	}
	b[backgammon.OnRoll][6] = 1
	if _, ok := db.Probs(&b); ok {
		t.Error("checker outside the home board accepted")
	}
	for _, d := range db.dist {
		var sum float32
		for _, x := range d {
			sum += x
		}
		if math.Abs(float64(sum)-1) > 1e-4 {
			t.Fatalf("distribution sums to %v", sum)
		}
	}
}

func TestBearoffGammons(t *testing.T) {
	db := bearoff15(t)
	// All 15 on our 6-point against the opponent's last checker on its ace:
	// we lose, and are gammoned unless our first roll bears a checker off.
	// With checkers left on the 6-point only exact numbers bear off: any 6
	// (11 rolls), 5-1 and 4-2 (2 each), 2-2 and 3-3: 17 of 36, so a
	// gammon 19 times in 36.
	var b backgammon.Board
	b[backgammon.OnRoll][5] = 15
	b[backgammon.Opponent][0] = 1
	p, ok := db.Probs(&b)
	if !ok || p[Win] != 0 || math.Abs(float64(p[LoseGammon])-19.0/36) > 1e-5 || p[WinGammon] != 0 {
		t.Errorf("15 on the six v one on the ace: %v %v, want a loss with 19/36 gammons", p, ok)
	}
	// Seen from the other side (the opponent on roll): a sure win, gammon
	// every time since it is off at once.
	sw := b.Swap()
	if p, _ := db.Probs(&sw); p[Win] != 1 || p[WinGammon] != 1 {
		t.Errorf("the same, other side on roll: %v", p)
	}
	// Below 15 checkers no gammon either way; the 10-checker answers agree.
	small, err := NewBearoff(DefaultBearoffCheckers)
	if err != nil {
		t.Fatal(err)
	}
	b = backgammon.Board{}
	b[backgammon.OnRoll][1], b[backgammon.OnRoll][4] = 3, 4
	b[backgammon.Opponent][0], b[backgammon.Opponent][5] = 2, 3
	p1, _ := db.Probs(&b)
	p2, _ := small.Probs(&b)
	if math.Abs(float64(p1[Win]-p2[Win])) > 1e-6 || p1[WinGammon] != 0 || p1[LoseGammon] != 0 {
		t.Errorf("7 v 5 checkers: %v with 15, %v with 10", p1, p2)
	}
	// The file round trip keeps every answer; damage is caught.
	var buf bytes.Buffer
	if _, err := db.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	back, err := ReadBearoff(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if back.Checkers != 15 || !slices.Equal(back.dist, db.dist) || !slices.Equal(back.first, db.first) {
		t.Error("read back differs")
	}
	if p, _ := back.Probs(&sw); p[WinGammon] != 1 {
		t.Errorf("read back: %v", p)
	}
	bad := slices.Clone(raw)
	bad[len(bad)/2] ^= 1
	if _, err := ReadBearoff(bytes.NewReader(bad)); err == nil {
		t.Error("a damaged file accepted")
	}
	if _, err := ReadBearoff(bytes.NewReader(raw[:len(raw)-2])); err == nil {
		t.Error("a short file accepted")
	}
}

func TestBearoffFileSmall(t *testing.T) {
	db, err := NewBearoff(4)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := db.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadBearoff(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if back.Checkers != 4 || !slices.Equal(back.dist, db.dist) || back.first != nil {
		t.Error("read back differs")
	}
}

// ReadBearoff sizes the tables it reads by bearoffPositions before it
// builds the index: the two must agree for every checker count.
func TestBearoffPositions(t *testing.T) {
	for c := 1; c <= 15; c++ {
		if got, want := bearoffPositions(c), len(emptyBearoff(c).dist); got != want {
			t.Errorf("%d checkers: bearoffPositions %d, the index holds %d", c, got, want)
		}
	}
}

// FuzzReadBearoff damages a real database file rather than taking the
// file itself as its input. A file is at least 906 bytes (one checker),
// and the fuzzer minimises each new input with work that grows as the
// square of its length: from whole files as seeds the minimising took the
// whole fuzz time (0 executions a second). The input says how to damage
// the one-checker file: the checker count in its header, byte edits
// (three bytes each: offset high, offset low, XOR mask), where to cut it,
// and whether to fix the checksum afterwards, so that the checks behind
// the checksum are reached too.
func FuzzReadBearoff(f *testing.F) {
	db, err := NewBearoff(1)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := db.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	base := buf.Bytes()
	f.Add(uint8(1), []byte{}, uint16(0), false)
	f.Add(uint8(15), []byte{}, uint16(len(bearoffMagic)+4), false)
	f.Add(uint8(1), []byte{0, 12, 0x80}, uint16(0), true)
	f.Add(uint8(2), []byte{3, 0, 1}, uint16(0), true)
	f.Fuzz(func(t *testing.T, checkers uint8, edits []byte, cut uint16, resum bool) {
		raw := slices.Clone(base)
		raw[len(bearoffMagic)] = checkers
		for ; len(edits) >= 3; edits = edits[3:] {
			raw[(int(edits[0])<<8|int(edits[1]))%len(raw)] ^= edits[2]
		}
		if resum {
			body := raw[len(bearoffMagic) : len(raw)-4]
			binary.LittleEndian.PutUint32(raw[len(raw)-4:], crc32.ChecksumIEEE(body))
		}
		if cut > 0 && int(cut) < len(raw) {
			raw = raw[:cut]
		}
		db, err := ReadBearoff(bytes.NewReader(raw))
		if err != nil {
			return
		}
		var b backgammon.Board
		b[backgammon.OnRoll][0], b[backgammon.Opponent][0] = 1, 1
		if p, ok := db.Probs(&b); !ok || p != p.Sanitize() {
			t.Fatalf("probabilities %v %v", p, ok)
		}
	})
}
