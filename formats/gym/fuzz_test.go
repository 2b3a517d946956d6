package gym

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// fuzzValues are the unit values a short fuzz input picks from, one byte a
// unit: every value a valid vector holds, and a few that none does.
var fuzzValues = func() []float32 {
	var v []float32
	for n := 0; n <= 15; n++ {
		v = append(v, float32(n)/2)
	}
	for n := 1; n < 15; n++ {
		v = append(v, offValue(n))
	}
	nan := float32(math.NaN())
	return append(v, nan, -1, 0.25, float32(math.Inf(1)))
}()

// fuzzVector reads an observation from fuzz input: 792 bytes or more are
// 198 little-endian float32s; shorter input picks each unit from
// fuzzValues, missing units 0.
func fuzzVector(data []byte) [ObservationSize]float32 {
	var v [ObservationSize]float32
	if len(data) >= 4*ObservationSize {
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		return v
	}
	for i := 0; i < len(data) && i < ObservationSize; i++ {
		v[i] = fuzzValues[int(data[i])%len(fuzzValues)]
	}
	return v
}

// compactBytes writes a valid vector in fuzzVector's short form.
func compactBytes(v [ObservationSize]float32) []byte {
	out := make([]byte, ObservationSize)
	for i, x := range v {
		out[i] = byte(slices.Index(fuzzValues, x))
	}
	return out
}

func rawBytes(v [ObservationSize]float32) []byte {
	out := make([]byte, 4*ObservationSize)
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return out
}

func FuzzDecodeObservation(f *testing.F) {
	start := backgammon.Standard.StartBoard()
	f.Add(compactBytes(Encode(start, White)))
	f.Add(rawBytes(Encode(start, Black)))
	for i, r := range randomGames(f, 1, 5) {
		if i%20 == 0 {
			f.Add(compactBytes(Encode(r.b, r.colour)))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v := fuzzVector(data)
		b, turn, err := Decode(v)
		if err != nil {
			var fe *FeatureError
			if !errors.As(err, &fe) || fe.Index < 0 || fe.Index >= ObservationSize {
				t.Fatalf("error %v does not name a feature", err)
			}
			return
		}
		if err := b.Validate(backgammon.Standard); err != nil {
			t.Fatalf("decoded an invalid board %v: %v", b, err)
		}
		w := Encode(b, turn)
		for i := range w {
			if d := math.Abs(float64(w[i] - v[i])); d > offTolerance || (d != 0 && i != OffUnit && i != BlackOffset+OffUnit) {
				t.Fatalf("feature %d: decoded %v, re-encoded %v", i, v[i], w[i])
			}
		}
		b2, turn2, err := Decode(w)
		if err != nil || b2 != b || turn2 != turn {
			t.Fatalf("re-encoded vector decodes to %v, %v, %v; want %v, %v", b2, turn2, err, b, turn)
		}
	})
}

func FuzzDecodeAction(f *testing.F) {
	f.Add(1078, byte(1), byte(3), true)
	f.Add(164, byte(3), byte(1), false)
	f.Add(PassAction, byte(6), byte(6), false)
	f.Add(25+26*25+676, byte(5), byte(3), true)
	f.Add(6+676, byte(4), byte(4), false)
	f.Add(0, byte(2), byte(2), true)
	f.Add(-7, byte(9), byte(0), true)
	f.Fuzz(func(t *testing.T, a int, d1, d2 byte, black bool) {
		c := White
		if black {
			c = Black
		}
		x, y := int(d1%8), int(d2%8)
		m, err := DecodeAction(a, x, y, c)
		valid := a >= 0 && a < NumActions && x >= 1 && x <= 6 && y >= 1 && y <= 6
		if err != nil {
			var ae *ActionError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is not an *ActionError", err)
			}
			if valid && a != PassAction && a%blockSize%locations != 0 {
				t.Fatalf("DecodeAction(%d, %d-%d, %v) failed: %v", a, x, y, c, err)
			}
			return
		}
		if !valid {
			t.Fatalf("DecodeAction(%d, %d-%d) accepted", a, x, y)
		}
		if (a == PassAction) != (m.N == 0) || m.N > 2 {
			t.Fatalf("DecodeAction(%d) = %v", a, m.StepList())
		}
		for _, s := range m.StepList() {
			if s.From < 1 || s.From > 25 || s.To < 0 || s.To >= s.From {
				t.Fatalf("DecodeAction(%d) = malformed %v", a, m.StepList())
			}
		}
		id, err := EncodeAction(m, x, y, c)
		if err != nil {
			return // not every id is one to_gym_format writes
		}
		back, err := DecodeAction(id, x, y, c)
		if err != nil || !slices.Equal(back.StepList(), m.StepList()) {
			t.Fatalf("EncodeAction(%v) = %d, which decodes to %v, %v", m.StepList(), id, back.StepList(), err)
		}
	})
}
