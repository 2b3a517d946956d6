package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/formats/recordfile"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/spf13/pflag"
)

// Position classes mine-positions selects by: bgbot's classes, and
// bearoff (no contact, every checker of both sides in its home board).
const classBearoff = "bearoff"

// Cube states mine-positions selects by, from the mover's side.
var cubeStates = []string{"any", "centred", "mover", "opponent"}

// mineFilter is what a mined position must be.
type mineFilter struct {
	class    string // "" for any
	lead     [2]int // the mover's pip lead, inclusive
	cube     string
	withLead bool
}

// parseLead reads "MIN..MAX" (either may be negative).
func parseLead(s string) ([2]int, error) {
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		return [2]int{}, fmt.Errorf("--lead %q: want MIN..MAX, e.g. -60..-20", s)
	}
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || a > b {
		return [2]int{}, fmt.Errorf("--lead %q: want MIN..MAX with whole numbers, MIN <= MAX", s)
	}
	return [2]int{a, b}, nil
}

// mineClass names a board's class: contact, crashed, race or bearoff.
func mineClass(b *backgammon.Board) string {
	if bgbot.IsBearoff(b) {
		return classBearoff
	}
	return bgbot.ClassName(bgbot.Class(b))
}

// keep reports whether the mover's position before its roll passes the
// filter.
func (f *mineFilter) keep(s *backgammon.State) bool {
	b := &s.Board
	if f.class != "" && mineClass(b) != f.class {
		return false
	}
	lead := b.Pips(backgammon.Opponent) - b.Pips(backgammon.OnRoll)
	if f.withLead && (lead < f.lead[0] || lead > f.lead[1]) {
		return false
	}
	switch f.cube {
	case "centred":
		return s.CubeOwner < 0
	case "mover":
		return s.CubeOwner == s.Move
	case "opponent":
		return s.CubeOwner == 1-s.Move
	}
	return true
}

// minePositions collects the distinct positions of the records, at each
// chequer play before its roll, that pass the filter; the opening is left
// out. Each is "POSITIONID:MATCHID" with no dice rolled.
func minePositions(ms []*record.Match, f *mineFilter) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		err := record.Walk(m, func(p *record.Position) error {
			if p.Action.Kind != record.Move || p.State.Plies == 0 {
				return nil
			}
			st := *p.State
			st.Dice = [2]int{}
			if !f.keep(&st) {
				return nil
			}
			pos, match := gnubgid.Encode(&st)
			id := pos + ":" + match
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func runMine(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	class := fs.String("class", "", "keep positions of this class: contact, crashed, race or bearoff (default any)")
	lead := fs.String("lead", "", "keep positions where the mover's pip lead (the opponent's pips less the mover's) is in MIN..MAX, e.g. -60..-20")
	cube := fs.String("cube", "any", "keep positions with this cube: any, centred, mover (the mover owns it) or opponent")
	limit := fs.Int("limit", 10, "at most this many positions, sampled at random (0: all)")
	seed := fs.Uint64("seed", 1, "seed of the sampling")
	out := fs.String("out", "", "write the positions file here (default standard output)")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	f := &mineFilter{class: *class, cube: *cube}
	switch *class {
	case "", "contact", "crashed", "race", classBearoff:
	default:
		return cli.Usagef("mine-positions: --class takes contact, crashed, race or bearoff, not %q", *class)
	}
	if !slices.Contains(cubeStates, *cube) {
		return cli.Usagef("mine-positions: --cube takes %s, not %q", strings.Join(cubeStates, ", "), *cube)
	}
	if *lead != "" {
		l, err := parseLead(*lead)
		if err != nil {
			return cli.Usagef("mine-positions: %v", err)
		}
		f.lead, f.withLead = l, true
	}
	if *limit < 0 {
		return cli.Usagef("mine-positions: --limit must be at least 0")
	}
	files, err := recordfile.Expand(fs.Args())
	if err != nil {
		return fmt.Errorf("mine-positions: %w", err)
	}
	var ms []*record.Match
	for _, path := range files {
		m, err := loadRecord(path)
		if err != nil {
			return fmt.Errorf("mine-positions: %w", err)
		}
		ms = append(ms, m)
	}
	found, err := minePositions(ms, f)
	if err != nil {
		return fmt.Errorf("mine-positions: %w", err)
	}
	picked := samplePositions(found, *limit, *seed)
	var b strings.Builder
	fmt.Fprintf(&b, "# %d of %d positions (class %s, lead %s, cube %s) from %d records, seed %d\n",
		len(picked), len(found), orAny(*class), orAny(*lead), *cube, len(ms), *seed)
	for _, id := range picked {
		b.WriteString(id + "\n")
	}
	if *out == "" {
		_, err := io.WriteString(stdout, b.String())
		return err
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err }); err != nil {
		return fmt.Errorf("mine-positions: %w", err)
	}
	return nil
}

// samplePositions picks limit of the positions at random (seeded), in the
// order they were found; limit 0 keeps them all.
func samplePositions(ids []string, limit int, seed uint64) []string {
	if limit == 0 || limit >= len(ids) {
		return ids
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	keep := rng.Perm(len(ids))[:limit]
	mark := make([]bool, len(ids))
	for _, i := range keep {
		mark[i] = true
	}
	out := make([]string, 0, limit)
	for i, id := range ids {
		if mark[i] {
			out = append(out, id)
		}
	}
	return out
}

func orAny(s string) string {
	if s == "" {
		return "any"
	}
	return s
}
