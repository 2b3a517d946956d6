package gogame

import "strconv"

// Score is an area count: each side's stones on the board plus the empty
// points that only its stones surround, every stone counted alive.
type Score struct {
	Black, White int
	Komi         float64
}

// Margin returns Black's lead after komi: positive when Black wins.
func (s Score) Margin() float64 { return float64(s.Black-s.White) - s.Komi }

// Winner returns Black or White, or Empty for a draw (jigo).
func (s Score) Winner() Color {
	switch m := s.Margin(); {
	case m > 0:
		return Black
	case m < 0:
		return White
	}
	return Empty
}

// String returns the result as SGF's RE and gomill write it: "B+3.5",
// "W+2" (no ".0"), "0" for a jigo.
func (s Score) String() string {
	m := s.Margin()
	switch {
	case m > 0:
		return "B+" + strconv.FormatFloat(m, 'f', -1, 64)
	case m < 0:
		return "W+" + strconv.FormatFloat(-m, 'f', -1, 64)
	}
	return "0"
}

// AreaScore counts the position by area with the given komi. An empty
// region (points joined through empty neighbours) belongs to a side when
// it borders only that side's stones; otherwise it is neutral.
func (p *Position) AreaScore(komi float64) Score {
	s := Score{Komi: komi}
	p.epoch++
	if p.epoch == 0 { // wrapped: forget every old mark
		clear(p.mark)
		p.epoch = 1
	}
	var count [4]int
	for row := int32(1); row <= p.size; row++ {
		for pt := row*p.stride + 1; pt <= row*p.stride+p.size; pt++ {
			c := p.color[pt]
			if c != Empty {
				count[c]++
				continue
			}
			if p.mark[pt] == p.epoch {
				continue
			}
			// Flood the region from pt, noting which colours border it.
			var seen [4]bool
			n := 0
			p.mark[pt] = p.epoch
			stack := append(p.stack[:0], pt)
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				n++
				for _, d := range p.dirs {
					r := q + d
					rc := p.color[r]
					if rc == Empty {
						if p.mark[r] != p.epoch {
							p.mark[r] = p.epoch
							stack = append(stack, r)
						}
					} else {
						seen[rc] = true
					}
				}
			}
			p.stack = stack
			switch {
			case seen[Black] && !seen[White]:
				count[Black] += n
			case seen[White] && !seen[Black]:
				count[White] += n
			}
		}
	}
	s.Black, s.White = count[Black], count[White]
	return s
}
