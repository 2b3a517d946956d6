package ringmaster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// Pool is what `ringmaster pool` prints: the matchups that several
// competitions share, each pooled into one sample as if one run had played
// every game. It is for an experiment run in batches on different dice
// (one control file copied with another seed, or stopped and extended in a
// new directory): each batch's interval is wide, the pooled one narrower.
type Pool struct {
	// Competitions name the sources in the order given (their codes, or
	// their paths where codes repeat).
	Competitions []string
	Matchups     []*PooledMatchup
	// Skipped says, per matchup or source left out, why.
	Skipped []string
}

// PooledMatchup is one matchup pooled over the competitions that have it
// with the same players and settings.
type PooledMatchup struct {
	// Sources are the competitions pooled, with each one's finished games.
	Sources []PoolSource
	stats   *matchupStats
	rm      *Ringmaster // the first source, whose game and settings print the figures
}

// PoolSource is one competition's share of a pooled matchup.
type PoolSource struct {
	Competition string `json:"competition"`
	Seed        int64  `json:"seed"`
	Games       int    `json:"games"`
}

// PoolResults pools the matchups of rms (two or more competitions of one
// game) by matchup id. A matchup is pooled from every competition whose
// matchup of that id has the same settings and the same players (the same
// codes, each defined alike); one that differs from the first
// competition's, or whose seed another source already used (the same dice
// twice), is left out with a reason, as is a matchup that fewer than two
// competitions have.
func PoolResults(ctx context.Context, rms []*Ringmaster) (*Pool, error) {
	if len(rms) < 2 {
		return nil, errors.New("pool: give two or more competitions")
	}
	p := &Pool{}
	codes := map[string]int{}
	dbs := map[string]bool{}
	for _, rm := range rms {
		if dbs[rm.DBPath()] {
			return nil, fmt.Errorf("pool: %s given twice", rm.Comp.Path)
		}
		dbs[rm.DBPath()] = true
		codes[rm.Comp.Code]++
	}
	names := make([]string, len(rms))
	all := make([][]*matchupStats, len(rms))
	for i, rm := range rms {
		if rm.Comp.Game != rms[0].Comp.Game {
			return nil, fmt.Errorf("%s plays %s and %s plays %s: one pool holds one game", rms[0].Comp.Path, rms[0].Comp.Game, rm.Comp.Path, rm.Comp.Game)
		}
		names[i] = rm.Comp.Code
		if codes[rm.Comp.Code] > 1 {
			names[i] = rm.Comp.Path
		}
		if err := rm.withExistingStore(ctx, func(st *store.Store) error {
			d, err := rm.loadReportData(ctx, st)
			if err == nil {
				all[i] = rm.gather(d)
			}
			return err
		}); err != nil {
			return nil, fmt.Errorf("%s: %w", rm.Comp.Path, err)
		}
	}
	p.Competitions = names

	var ids []string
	byID := map[string][]int{} // matchup id -> indexes of the sources that have it
	stats := func(src int, id string) *matchupStats {
		for _, s := range all[src] {
			if s.m.ID == id {
				return s
			}
		}
		return nil
	}
	for i := range rms {
		for _, s := range all[i] {
			if s.ghost {
				p.Skipped = append(p.Skipped, fmt.Sprintf("%s in %s: no longer in its control file", s.m.ID, names[i]))
				continue
			}
			if byID[s.m.ID] == nil {
				ids = append(ids, s.m.ID)
			}
			byID[s.m.ID] = append(byID[s.m.ID], i)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		srcs := byID[id]
		if len(srcs) < 2 {
			p.Skipped = append(p.Skipped, fmt.Sprintf("%s: only in %s", id, names[srcs[0]]))
			continue
		}
		first := stats(srcs[0], id)
		base := rms[srcs[0]]
		seeds := map[int64]string{base.Comp.Seed: names[srcs[0]]}
		pm := &PooledMatchup{stats: first.pooled(), rm: base, Sources: []PoolSource{{names[srcs[0]], base.Comp.Seed, first.played}}}
		for _, i := range srcs[1:] {
			s := stats(i, id)
			if why := samePlayersAndSettings(base, first.m, rms[i], s.m); why != "" {
				p.Skipped = append(p.Skipped, fmt.Sprintf("%s in %s: %s", id, names[i], why))
				continue
			}
			if other, dup := seeds[rms[i].Comp.Seed]; dup {
				p.Skipped = append(p.Skipped, fmt.Sprintf("%s in %s: seed %d, as in %s: the same dice would count twice (ringmaster compare compares such runs)",
					id, names[i], rms[i].Comp.Seed, other))
				continue
			}
			seeds[rms[i].Comp.Seed] = names[i]
			pm.stats.merge(s)
			pm.Sources = append(pm.Sources, PoolSource{names[i], rms[i].Comp.Seed, s.played})
		}
		if len(pm.Sources) < 2 {
			continue
		}
		p.Matchups = append(p.Matchups, pm)
	}
	return p, nil
}

// samePlayersAndSettings says how matchup b of competition rb differs from
// matchup a of ra in what pooling needs alike, or "" where nothing does.
func samePlayersAndSettings(ra *Ringmaster, a *control.Matchup, rb *Ringmaster, b *control.Matchup) string {
	if a.Settings.Canonical() != b.Settings.Canonical() {
		return fmt.Sprintf("settings differ (%s; %s)", a.Settings.Describe(), b.Settings.Describe())
	}
	if a.PlayerA != b.PlayerA || a.PlayerB != b.PlayerB {
		return fmt.Sprintf("players differ (%s v %s; %s v %s)", a.PlayerA, a.PlayerB, b.PlayerA, b.PlayerB)
	}
	for _, code := range []string{a.PlayerA, a.PlayerB} {
		pa, pb := ra.Comp.Players[code], rb.Comp.Players[code]
		if pa == nil || pb == nil || playerIdentity(ra.Comp.Game, pa) != playerIdentity(rb.Comp.Game, pb) {
			return fmt.Sprintf("player %s is defined differently", code)
		}
	}
	return ""
}

// pooled is a copy of s to merge other competitions' results into: its
// own slices, maps and matchup (whose planned games grow with each merge),
// and no sequential test (a test belongs to one run's order of games).
func (s *matchupStats) pooled() *matchupStats {
	m := *s.m
	c := *s
	c.m = &m
	c.sprt = nil
	c.points = slices.Clone(s.points)
	c.luck = slices.Clone(s.luck)
	c.forfeitReasons = slices.Clone(s.forfeitReasons)
	c.pairs = map[int]*[2]float64{}
	for k, v := range s.pairs {
		pair := *v
		c.pairs[k] = &pair
	}
	c.pairSeen = maps.Clone(s.pairSeen)
	c.totals = maps.Clone(s.totals)
	return &c
}

// merge adds o's results (another competition's games of the same
// matchup, on other dice) to s. o's dice pairs take keys above s's, so
// pairs of different competitions never mix.
func (s *matchupStats) merge(o *matchupStats) {
	s.m.NumberOfGames += o.m.NumberOfGames
	s.played += o.played
	s.points = append(s.points, o.points...)
	s.luck = append(s.luck, o.luck...)
	s.forfeitReasons = append(s.forfeitReasons, o.forfeitReasons...)
	s.unknown += o.unknown
	s.atMoveLimit += o.atMoveLimit
	s.draws += o.draws
	for i := range 2 {
		s.wins[i] += o.wins[i]
		s.firstGames[i] += o.firstGames[i]
		s.firstWins[i] += o.firstWins[i]
		s.otherFirstWins[i] += o.otherFirstWins[i]
		s.cpu[i] += o.cpu[i]
		s.decisions[i] += o.decisions[i]
		s.forfeits[i] += o.forfeits[i]
	}
	offset := 0
	for k := range s.pairs {
		offset = max(offset, k+1)
	}
	for k, v := range o.pairs {
		pair := *v
		s.pairs[offset+k] = &pair
		s.pairSeen[offset+k] = o.pairSeen[k]
	}
	for k, v := range o.totals {
		s.totals[k] = referee.CombineStat(k, s.totals[k], v)
	}
}

// WriteText prints each pooled matchup as `ringmaster show` prints a
// matchup, after the sources it pools, then what was left out.
func (p *Pool) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "pooled from %s\n", strings.Join(p.Competitions, ", "))
	for _, pm := range p.Matchups {
		fmt.Fprintln(w)
		parts := make([]string, len(pm.Sources))
		for i, src := range pm.Sources {
			parts[i] = fmt.Sprintf("%s (seed %d, %d games)", src.Competition, src.Seed, src.Games)
		}
		fmt.Fprintf(w, "%s: %s\n", pm.stats.m.ID, strings.Join(parts, ", "))
		pm.rm.printMatchupSummary(w, pm.stats)
		pm.rm.printMatchupDetails(w, pm.stats)
	}
	if len(p.Matchups) == 0 {
		fmt.Fprintln(w, "\nno matchup to pool")
	}
	if len(p.Skipped) > 0 {
		fmt.Fprintln(w, "\nleft out:")
		for _, s := range p.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	return nil
}

// poolJSON is the JSON form of a Pool.
type poolJSON struct {
	Competitions []string          `json:"competitions"`
	Matchups     []json.RawMessage `json:"matchups"`
	Skipped      []string          `json:"skipped"`
}

// WriteJSON prints the pool as JSON: each matchup as `show --json` gives
// one, with its sources beside its figures.
func (p *Pool) WriteJSON(w io.Writer) error {
	out := poolJSON{Competitions: p.Competitions, Matchups: []json.RawMessage{}, Skipped: p.Skipped}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	for _, pm := range p.Matchups {
		figures, err := json.Marshal(pm.rm.jsonMatchup(pm.stats))
		if err != nil {
			return err
		}
		sources, err := json.Marshal(struct {
			Sources []PoolSource `json:"sources"`
		}{pm.Sources})
		if err != nil {
			return err
		}
		out.Matchups = append(out.Matchups, spliceObjects(figures, sources))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
