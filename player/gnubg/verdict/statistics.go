package verdict

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
)

// Statistics is what gnubg's "show statistics match" says of one record:
// the players as the record names them and their figures, in the terms of
// bgbot's own analysis so that both judges' figures read alike.
// Resignations are not counted (gnubg's statistics have no such line).
type Statistics struct {
	Names [2]string
	Stats [2]analysis.Stats
}

// Players is the two players' figures as this package sums them.
func (s Statistics) Players() [2]Player {
	var ps [2]Player
	for i, st := range s.Stats {
		ps[i] = Player{Name: s.Names[i], UnforcedMoves: st.UnforcedMoves, ChequerError: st.ChequerError,
			CubeDecisions: st.CloseCube, CubeError: st.CubeError, Records: 1}
	}
	return ps
}

// AnalyseStatistics runs gnubg (binary) on one record, a .mat file or (by
// its name's .sgf) gnubg's SGF, analysing chequer play and cube decisions
// plies deep with luck, and reads its statistics of the record. gnubg runs in a folder of its own, removed
// afterwards, so that nothing it writes is left behind.
func AnalyseStatistics(ctx context.Context, binary, file string, plies int) (Statistics, error) {
	fail := func(err error) (Statistics, error) {
		return Statistics{}, fmt.Errorf("analyse %s: %w", file, err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return fail(err)
	}
	if strings.ContainsAny(abs, "\n\"") {
		return fail(errors.New("the path has a newline or a quote"))
	}
	dir, err := os.MkdirTemp("", "gamemill-verdict-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	load := "import mat"
	if strings.EqualFold(filepath.Ext(abs), ".sgf") {
		load = "load match" // SGF, unlike .mat, can set up a position
	}
	script := fmt.Sprintf("set analysis chequerplay evaluation plies %d\nset analysis cubedecision evaluation plies %d\n"+
		"set analysis luck on\n%s \"%s\"\nanalyse match\nshow statistics match\n", plies, plies, load, abs)
	cmd := exec.CommandContext(ctx, binary, "-t", "-q")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(script)
	cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=C")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fail(ctx.Err())
		}
		return fail(fmt.Errorf("gnubg: %w: %s", err, lastLines(out.Bytes(), 5)))
	}
	s, err := ReadStatistics(out.String(), true)
	if err != nil {
		return fail(err)
	}
	return s, nil
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

// total reads a total "NORM (UNNORM)" per player: the unnormalised figure
// is points in money play and a percentage of match winning chance in a
// match. An error total (errorTotal) is a loss, at most zero, which is
// kept as a positive number; a luck total keeps its sign.
func total(errorTotal bool, norm, unnorm func(*analysis.Stats) *float64) func([2]string, *[2]analysis.Stats) error {
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
			if errorTotal {
				if !(x <= 0) {
					return fmt.Errorf("error total %v is not at most zero", x)
				}
				x, y = -x, -y
			}
			*norm(&st[i]), *unnorm(&st[i]) = x, y
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
	chequerSection = "Chequerplay statistics"
	luckSection    = "Luck statistics"
	cubeSection    = "Cube statistics"
	overallSection = "Overall statistics"
)

var fields = []field{
	{chequerSection, "Total moves", count(func(s *analysis.Stats) *int { return &s.TotalMoves })},
	{chequerSection, "Unforced moves", count(func(s *analysis.Stats) *int { return &s.UnforcedMoves })},
	{chequerSection, "Moves marked very bad", count(func(s *analysis.Stats) *int { return &s.VeryBadMoves })},
	{chequerSection, "Error total", total(true, func(s *analysis.Stats) *float64 { return &s.ChequerError },
		func(s *analysis.Stats) *float64 { return &s.ChequerUnnorm })},
	{luckSection, "Rolls marked very lucky", count(func(s *analysis.Stats) *int { return &s.VeryLucky })},
	{luckSection, "Rolls marked lucky", count(func(s *analysis.Stats) *int { return &s.Lucky })},
	{luckSection, "Rolls marked unlucky", count(func(s *analysis.Stats) *int { return &s.Unlucky })},
	{luckSection, "Rolls marked very unlucky", count(func(s *analysis.Stats) *int { return &s.VeryUnlucky })},
	{luckSection, "Luck total", total(false, func(s *analysis.Stats) *float64 { return &s.Luck },
		func(s *analysis.Stats) *float64 { return &s.LuckUnnorm })},
	{cubeSection, "Total cube decisions", count(func(s *analysis.Stats) *int { return &s.CubeDecisions })},
	{cubeSection, "Close or actual cube decisions", count(func(s *analysis.Stats) *int { return &s.CloseCube })},
	{cubeSection, "Doubles", count(func(s *analysis.Stats) *int { return &s.Doubles })},
	{cubeSection, "Takes", count(func(s *analysis.Stats) *int { return &s.Takes })},
	{cubeSection, "Passes", count(func(s *analysis.Stats) *int { return &s.Drops })},
	{cubeSection, "Missed doubles below CP", count(func(s *analysis.Stats) *int { return &s.MissedDoubles })},
	{cubeSection, "Missed doubles above CP", count(func(s *analysis.Stats) *int { return &s.MissedDoubles })},
	{cubeSection, "Wrong doubles below DP", count(func(s *analysis.Stats) *int { return &s.WrongDoubles })},
	{cubeSection, "Wrong doubles above TG", count(func(s *analysis.Stats) *int { return &s.WrongDoubles })},
	{cubeSection, "Wrong takes", count(func(s *analysis.Stats) *int { return &s.WrongTakes })},
	{cubeSection, "Wrong passes", count(func(s *analysis.Stats) *int { return &s.WrongDrops })},
	{cubeSection, "Error total", total(true, func(s *analysis.Stats) *float64 { return &s.CubeError },
		func(s *analysis.Stats) *float64 { return &s.CubeUnnorm })},
	{overallSection, actualResult, result(func(s *analysis.Stats) *float64 { return &s.Result })},
	{overallSection, luckAdjustedResult, result(func(s *analysis.Stats) *float64 { return &s.LuckAdjusted })},
}

const (
	actualResult       = "Actual result"
	luckAdjustedResult = "Luck adjusted result"
)

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

// ReadStatistics reads gnubg's "show statistics match" (English, gnubg
// 1.0x). Every line of fields must be there once, but those of the chequer
// play section only with chequer: an analysis of the cube decisions alone
// has no such section. Errors name the line.
func ReadStatistics(text string, chequer bool) (Statistics, error) {
	var s Statistics
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
		if cols[0] == "Player" && section == "" {
			if len(cols) != 3 {
				return s, fmt.Errorf("statistics line %d: player line %q does not name two players", line, l)
			}
			s.Names = [2]string{cols[1], cols[2]}
			seen["Player"] = true
			continue
		}
		key := label(cols[0])
		for _, f := range fields {
			if f.section != section || f.label != key {
				continue
			}
			if seen[section+"/"+key] {
				return s, fmt.Errorf("statistics line %d: %s: twice", line, key)
			}
			seen[section+"/"+key] = true
			if len(cols) != 3 {
				return s, fmt.Errorf("statistics line %d: %s: %d columns, want 2", line, key, len(cols)-1)
			}
			if err := f.read([2]string{cols[1], cols[2]}, &s.Stats); err != nil {
				return s, fmt.Errorf("statistics line %d: %s: %w", line, key, err)
			}
		}
	}
	var missing []string
	if !seen["Player"] {
		missing = append(missing, "Player")
	}
	// gnubg leaves both results out while the last game is unfinished.
	unfinished := !seen[overallSection+"/"+actualResult] && !seen[overallSection+"/"+luckAdjustedResult]
	for _, f := range fields {
		if unfinished && f.section == overallSection && (f.label == actualResult || f.label == luckAdjustedResult) {
			continue
		}
		if !seen[f.section+"/"+f.label] && (chequer || f.section != chequerSection) {
			missing = append(missing, f.section+": "+f.label)
		}
	}
	if len(missing) > 0 {
		return s, errors.New("statistics: no " + strings.Join(missing, ", no "))
	}
	if unfinished {
		// No result yet; the luck-adjusted one is the result less the
		// difference of the two sides' luck, as gnubg reckons it.
		net := s.Stats[0].LuckUnnorm - s.Stats[1].LuckUnnorm
		s.Stats[0].LuckAdjusted, s.Stats[1].LuckAdjusted = -net, net
	}
	for i := range s.Stats {
		s.Stats[i].ForcedMoves = s.Stats[i].TotalMoves - s.Stats[i].UnforcedMoves
	}
	return s, nil
}
