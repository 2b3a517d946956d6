package gogame

import (
	"errors"
	"slices"
)

// naive is a deliberately simple, independent implementation of the
// rules, for differential tests: a flat board, groups and liberties found
// by flood fill every time, ko and superko by comparing whole boards.
type naive struct {
	size       int
	superko    bool
	b          []Color   // row by row from the bottom
	beforeLast []Color   // the board before the last move, if it placed a stone
	history    [][]Color // every position so far (for superko)
	captured   [3]int
}

func newNaive(size int, superko bool) *naive {
	n := &naive{size: size, superko: superko, b: make([]Color, size*size)}
	n.history = [][]Color{slices.Clone(n.b)}
	return n
}

func (n *naive) neighbours(i int) []int {
	var out []int
	r, c := i/n.size, i%n.size
	if r > 0 {
		out = append(out, i-n.size)
	}
	if r < n.size-1 {
		out = append(out, i+n.size)
	}
	if c > 0 {
		out = append(out, i-1)
	}
	if c < n.size-1 {
		out = append(out, i+1)
	}
	return out
}

// group returns the stones connected to i and whether they have a liberty.
func (n *naive) group(b []Color, i int) ([]int, bool) {
	c := b[i]
	seen := map[int]bool{i: true}
	stack := []int{i}
	var stones []int
	free := false
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stones = append(stones, s)
		for _, q := range n.neighbours(s) {
			switch {
			case b[q] == Empty:
				free = true
			case b[q] == c && !seen[q]:
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return stones, free
}

// after returns the board after c plays at i and the stones captured, or
// why the move is illegal.
func (n *naive) after(c Color, i int) ([]Color, int, error) {
	if n.b[i] != Empty {
		return nil, 0, ErrOccupied
	}
	b := slices.Clone(n.b)
	b[i] = c
	taken := 0
	for _, q := range n.neighbours(i) {
		if b[q] != c.Opponent() {
			continue
		}
		if stones, free := n.group(b, q); !free {
			for _, s := range stones {
				b[s] = Empty
			}
			taken += len(stones)
		}
	}
	if _, free := n.group(b, i); !free {
		return nil, 0, ErrSuicide
	}
	if n.beforeLast != nil && slices.Equal(b, n.beforeLast) {
		return nil, 0, ErrKo
	}
	if n.superko {
		for _, h := range n.history {
			if slices.Equal(b, h) {
				return nil, 0, ErrSuperko
			}
		}
	}
	return b, taken, nil
}

func (n *naive) play(c Color, i int) error {
	b, taken, err := n.after(c, i)
	if err != nil {
		return err
	}
	n.beforeLast = n.b
	n.b = b
	n.captured[c] += taken
	n.history = append(n.history, slices.Clone(b))
	return nil
}

func (n *naive) pass() { n.beforeLast = nil }

// score counts by area: stones, and empty regions that touch one colour.
func (n *naive) score() (black, white int) {
	seen := make([]bool, len(n.b))
	for i, c := range n.b {
		switch {
		case c == Black:
			black++
		case c == White:
			white++
		case !seen[i]:
			region := []int{i}
			seen[i] = true
			touches := map[Color]bool{}
			for k := 0; k < len(region); k++ {
				for _, q := range n.neighbours(region[k]) {
					if n.b[q] == Empty {
						if !seen[q] {
							seen[q] = true
							region = append(region, q)
						}
					} else {
						touches[n.b[q]] = true
					}
				}
			}
			if touches[Black] && !touches[White] {
				black += len(region)
			} else if touches[White] && !touches[Black] {
				white += len(region)
			}
		}
	}
	return black, white
}

// kind names which of the rule errors err is, or "" for nil.
func kind(err error) string {
	for _, e := range []error{ErrOccupied, ErrSuicide, ErrKo, ErrSuperko, ErrOffBoard, ErrWrongTurn, ErrGameOver} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}
