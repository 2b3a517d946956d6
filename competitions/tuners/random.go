package tuners

import "math"

// Stream tags keep the tuners' random streams apart, so that (seed, tag,
// index) names one stream and no two uses share one by accident.
const (
	tagMCGame    = 1 // mc_tuner: tie-breaks while choosing game n
	tagCESamples = 2 // ce_tuner: the samples of generation g
	tagSPSAFlips = 3 // spsa: the perturbation signs of iteration k
	tagSPSARound = 4 // spsa: stochastic rounding in iteration k
)

// stream is a small deterministic generator (SplitMix64). The tuners use
// their own rather than math/rand so that a tune resumed by a later build
// draws exactly the same numbers: resume replays stored games against
// candidates rebuilt from these draws.
type stream struct{ state uint64 }

// newStream returns the stream named by (seed, tag, index).
func newStream(seed int64, tag uint64, index int) stream {
	s := stream{state: uint64(seed)}
	a := s.next()
	s.state = a ^ (tag * 0xd1b54a32d192ed03)
	b := s.next()
	s.state = b ^ uint64(int64(index))*0x94d049bb133111eb
	s.next()
	return s
}

func (s *stream) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float64 returns a uniform value in [0, 1).
func (s *stream) float64() float64 {
	return float64(s.next()>>11) / (1 << 53)
}

// intn returns a uniform value in [0, n); n must be positive.
func (s *stream) intn(n int) int {
	// Rejection keeps the draw unbiased for any n.
	limit := math.MaxUint64 - math.MaxUint64%uint64(n)
	for {
		v := s.next()
		if v < limit {
			return int(v % uint64(n))
		}
	}
}

// normal returns a standard normal value (Marsaglia's polar method).
func (s *stream) normal() float64 {
	for {
		u := 2*s.float64() - 1
		v := 2*s.float64() - 1
		q := u*u + v*v
		if q > 0 && q < 1 {
			return u * math.Sqrt(-2*math.Log(q)/q)
		}
	}
}
