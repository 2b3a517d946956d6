// Package gnubgjudge has GNU Backgammon judge a finished game for
// `ringmaster analyse --judge gnubg:PLIES`: gnubg imports the game's .mat
// record, analyses chequer play and cube decisions at the depth asked
// ("analyse match") and prints "show statistics match", which this
// package reads into the same statistics bgbot's analysis gives
// (engine/bgbot/analysis.Stats), so that both judges' figures are stored,
// summed and printed alike.
package gnubgjudge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/bgbot/analysis"
	"github.com/gamemill/gamemill/player/gnubg"
)

// MaxPlies is the deepest analysis gnubg is asked for.
const MaxPlies = gnubg.MaxPlies

// Judge runs gnubg's analysis at one depth. One gnubg process is started
// per game judged, so a Judge may be used by one goroutine at a time and
// holds nothing between games.
type Judge struct {
	binary string
	plies  int
}

// New finds gnubg (binary, or "gnubg" on PATH or in /usr/games when
// empty) and returns a judge at plies.
func New(binary string, plies int) (*Judge, error) {
	if plies < 0 || plies > MaxPlies {
		return nil, fmt.Errorf("gnubg judge: depth %d out of range 0..%d", plies, MaxPlies)
	}
	bin, err := gnubg.FindBinary(binary)
	if err != nil {
		return nil, fmt.Errorf("gnubg judge: %w", err)
	}
	return &Judge{binary: bin, plies: plies}, nil
}

// Plies is the judge's depth.
func (j *Judge) Plies() int { return j.plies }

// AnalyseMat has gnubg judge one .mat record and returns the players as
// the record names them and their statistics. Resignations are not
// counted (gnubg's statistics have no such line).
func (j *Judge) AnalyseMat(ctx context.Context, mat string) ([2]string, [2]analysis.Stats, error) {
	dir, err := os.MkdirTemp("", "gnubgjudge")
	if err != nil {
		return [2]string{}, [2]analysis.Stats{}, fmt.Errorf("gnubg judge: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "game.mat")
	if err := os.WriteFile(file, []byte(mat), 0o600); err != nil {
		return [2]string{}, [2]analysis.Stats{}, fmt.Errorf("gnubg judge: %w", err)
	}
	if strings.ContainsAny(file, "\n\"") {
		return [2]string{}, [2]analysis.Stats{}, fmt.Errorf("gnubg judge: temporary path %q has a newline or a quote", file)
	}
	script := fmt.Sprintf("set analysis chequerplay evaluation plies %d\nset analysis cubedecision evaluation plies %d\n"+
		"set analysis luck on\nimport mat \"%s\"\nanalyse match\nshow statistics match\n", j.plies, j.plies, file)
	cmd := exec.CommandContext(ctx, j.binary, "-t", "-q")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(script)
	cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=C")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return [2]string{}, [2]analysis.Stats{}, ctx.Err()
		}
		return [2]string{}, [2]analysis.Stats{}, fmt.Errorf("gnubg judge: gnubg: %w (%s)", err, lastLine(out.String()))
	}
	names, st, err := ParseStatistics(out.String())
	if err != nil {
		return names, st, fmt.Errorf("gnubg judge: %w", err)
	}
	return names, st, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// columnSep parts the columns of gnubg's statistics: two blanks or more
// (a label, a name or a figure such as "-0.890 (-15.784%)" has single
// blanks at most).
var columnSep = regexp.MustCompile(`\s{2,}`)

// field is how one line of a section is read into both players'
// statistics.
type field struct {
	section, label string
	read           func(cols [2]string, st *[2]analysis.Stats) error
}

// count reads a count per player ("1 (-0.043 ( -0.170))" is 1) and adds
// it to the chosen field, so that two lines may add up to one figure.
func count(f func(*analysis.Stats) *int) func([2]string, *[2]analysis.Stats) error {
	return func(cols [2]string, st *[2]analysis.Stats) error {
		for i, c := range cols {
			n, err := strconv.Atoi(strings.Fields(c)[0])
			if err != nil {
				return err
			}
			*f(&st[i]) += n
		}
		return nil
	}
}

// total reads an equity total "NORM (UNNORM)" per player: the unnormalised
// figure is points in money play and a percentage of match winning chance
// in a match. sign is -1 for error totals, which gnubg prints as losses
// and we keep as positive numbers.
func total(sign float64, norm, unnorm func(*analysis.Stats) *float64) func([2]string, *[2]analysis.Stats) error {
	return func(cols [2]string, st *[2]analysis.Stats) error {
		for i, c := range cols {
			a, b, ok := strings.Cut(c, "(")
			if !ok {
				return fmt.Errorf("%q has no bracketed figure", c)
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
			if err != nil {
				return err
			}
			y, err := number(strings.TrimSuffix(strings.TrimSpace(b), ")"))
			if err != nil {
				return err
			}
			*norm(&st[i]), *unnorm(&st[i]) = sign*x, sign*y
		}
		return nil
	}
}

// result reads a result per player: points in money play ("+4.000"), the
// match winning chance gained in a match ("+50.00%").
func result(f func(*analysis.Stats) *float64) func([2]string, *[2]analysis.Stats) error {
	return func(cols [2]string, st *[2]analysis.Stats) error {
		for i, c := range cols {
			x, err := number(c)
			if err != nil {
				return err
			}
			*f(&st[i]) = x
		}
		return nil
	}
}

// number reads "+0.5", "-15.784%" (a fraction: -0.15784) or "( -0.014".
func number(s string) (float64, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "("))
	pct := strings.HasSuffix(s, "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if err != nil {
		return 0, err
	}
	if pct {
		x /= 100
	}
	return x, nil
}

const (
	chequer = "Chequerplay statistics"
	luck    = "Luck statistics"
	cube    = "Cube statistics"
	overall = "Overall statistics"
)

var fields = []field{
	{chequer, "Total moves", count(func(s *analysis.Stats) *int { return &s.TotalMoves })},
	{chequer, "Unforced moves", count(func(s *analysis.Stats) *int { return &s.UnforcedMoves })},
	{chequer, "Moves marked very bad", count(func(s *analysis.Stats) *int { return &s.VeryBadMoves })},
	{chequer, "Error total", total(-1, func(s *analysis.Stats) *float64 { return &s.ChequerError },
		func(s *analysis.Stats) *float64 { return &s.ChequerUnnorm })},
	{luck, "Rolls marked very lucky", count(func(s *analysis.Stats) *int { return &s.VeryLucky })},
	{luck, "Rolls marked lucky", count(func(s *analysis.Stats) *int { return &s.Lucky })},
	{luck, "Rolls marked unlucky", count(func(s *analysis.Stats) *int { return &s.Unlucky })},
	{luck, "Rolls marked very unlucky", count(func(s *analysis.Stats) *int { return &s.VeryUnlucky })},
	{luck, "Luck total", total(1, func(s *analysis.Stats) *float64 { return &s.Luck },
		func(s *analysis.Stats) *float64 { return &s.LuckUnnorm })},
	{cube, "Total cube decisions", count(func(s *analysis.Stats) *int { return &s.CubeDecisions })},
	{cube, "Close or actual cube decisions", count(func(s *analysis.Stats) *int { return &s.CloseCube })},
	{cube, "Doubles", count(func(s *analysis.Stats) *int { return &s.Doubles })},
	{cube, "Takes", count(func(s *analysis.Stats) *int { return &s.Takes })},
	{cube, "Passes", count(func(s *analysis.Stats) *int { return &s.Drops })},
	{cube, "Missed doubles below CP", count(func(s *analysis.Stats) *int { return &s.MissedDoubles })},
	{cube, "Missed doubles above CP", count(func(s *analysis.Stats) *int { return &s.MissedDoubles })},
	{cube, "Wrong doubles below DP", count(func(s *analysis.Stats) *int { return &s.WrongDoubles })},
	{cube, "Wrong doubles above TG", count(func(s *analysis.Stats) *int { return &s.WrongDoubles })},
	{cube, "Wrong takes", count(func(s *analysis.Stats) *int { return &s.WrongTakes })},
	{cube, "Wrong passes", count(func(s *analysis.Stats) *int { return &s.WrongDrops })},
	{cube, "Error total", total(-1, func(s *analysis.Stats) *float64 { return &s.CubeError },
		func(s *analysis.Stats) *float64 { return &s.CubeUnnorm })},
	{overall, "Actual result", result(func(s *analysis.Stats) *float64 { return &s.Result })},
	{overall, "Luck adjusted result", result(func(s *analysis.Stats) *float64 { return &s.LuckAdjusted })},
}

// label is a line's label without the unit gnubg appends to some ("Error
// total EMG (MWC)", "Wrong takes (EMG (Points))").
func label(s string) string {
	for _, cut := range []string{" EMG (", " (EMG ("} {
		if i := strings.Index(s, cut); i >= 0 {
			return s[:i]
		}
	}
	return s
}

// ParseStatistics reads gnubg's "show statistics match" (English, gnubg
// 1.0x) into the two players' names and statistics. Every line of fields
// must be there once; errors name the line.
func ParseStatistics(text string) ([2]string, [2]analysis.Stats, error) {
	var names [2]string
	var st [2]analysis.Stats
	seen := map[string]bool{}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" {
			continue
		}
		cols := columnSep.Split(l, -1)
		if len(cols) == 1 && strings.HasSuffix(l, " statistics") {
			section = l
			continue
		}
		if cols[0] == "Player" && len(cols) == 3 && section == "" {
			names = [2]string{cols[1], cols[2]}
			seen["Player"] = true
			continue
		}
		key := label(cols[0])
		for _, f := range fields {
			if f.section != section || f.label != key {
				continue
			}
			if seen[section+"/"+key] {
				return names, st, fmt.Errorf("statistics line %d: %s: twice", line, key)
			}
			seen[section+"/"+key] = true
			if len(cols) != 3 {
				return names, st, fmt.Errorf("statistics line %d: %s: %d columns, want 2", line, key, len(cols)-1)
			}
			if err := f.read([2]string{cols[1], cols[2]}, &st); err != nil {
				return names, st, fmt.Errorf("statistics line %d: %s: %w", line, key, err)
			}
		}
	}
	var missing []string
	if !seen["Player"] {
		missing = append(missing, "Player")
	}
	for _, f := range fields {
		if !seen[f.section+"/"+f.label] {
			missing = append(missing, f.section+": "+f.label)
		}
	}
	if len(missing) > 0 {
		return names, st, errors.New("statistics: no " + strings.Join(missing, ", no "))
	}
	for i := range st {
		st[i].ForcedMoves = st[i].TotalMoves - st[i].UnforcedMoves
	}
	return names, st, nil
}
