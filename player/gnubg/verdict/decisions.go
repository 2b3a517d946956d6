package verdict

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Decision is one chequer decision with a choice of moves, as gnubg's
// analysis of a record judged it.
type Decision struct {
	File          string  `json:"file"` // the record, as named to AnalyseDecisions
	Game          int     `json:"game"` // from 1
	Player        string  `json:"player"`
	Length        int     `json:"length"` // match length; 0 for money
	Score         int     `json:"score"`  // the mover's points before the game
	OpponentScore int     `json:"opponent_score"`
	Crawford      bool    `json:"crawford"` // the Crawford game
	Cube          int     `json:"cube"`
	Owner         string  `json:"owner"`       // "centre", "mover" or "opponent"
	PositionID    string  `json:"position_id"` // before the move, the mover on roll
	Dice          string  `json:"dice"`
	Choices       int     `json:"choices"` // moves gnubg listed
	Rank          int     `json:"rank"`    // the played move's place in gnubg's list, 0 for its best
	Error         float64 `json:"error"`   // EMG given up against gnubg's best, at least 0
	Played        string  `json:"played"`
	Best          string  `json:"best"`
}

// Away is the points the mover still needs, 0 in money play.
func (d Decision) Away() int { return away(d.Length, d.Score) }

// OpponentAway is the points the opponent still needs, 0 in money play.
func (d Decision) OpponentAway() int { return away(d.Length, d.OpponentScore) }

func away(length, score int) int {
	if length == 0 {
		return 0
	}
	return length - score
}

//go:embed decisions.py
var decisionsScript []byte

// AnalyseDecisions is Analyse that also returns every chequer decision
// with a choice and every cube decision with their errors, through gnubg's
// Python interface (a script of ours that gnubg runs with -p). Each
// player's chequer decisions add up to its unforced moves and chequer
// error in the statistics, and its close cube decisions to its cube
// decisions and cube error. With cubeOnly gnubg judges the cube decisions
// alone (about ten times as fast): the record then has no chequer
// decisions and zero chequer figures.
func AnalyseDecisions(ctx context.Context, binary, file string, plies int, cubeOnly bool) (Record, error) {
	fail := func(err error) (Record, error) {
		return Record{}, fmt.Errorf("analyse %s: %w", file, err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return fail(err)
	}
	if _, err := os.Stat(abs); err != nil {
		return fail(err)
	}
	if strings.EqualFold(filepath.Ext(abs), ".sgf") {
		// gnubg's match data, which the script reads the positions from,
		// lags behind the play after an SGF set-up position.
		return fail(errors.New("decisions are read from .mat records only"))
	}
	dir, err := os.MkdirTemp("", "gamemill-verdict-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "decisions.py")
	if err := os.WriteFile(script, decisionsScript, 0o644); err != nil {
		return fail(err)
	}
	out := filepath.Join(dir, "decisions.jsonl")
	cubeOut := filepath.Join(dir, "cube.jsonl")
	only := "0"
	if cubeOnly {
		only = "1"
	}
	cmd := exec.CommandContext(ctx, binary, "-t", "-q", "-r", "-p", script)
	cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=C", "GAMEMILL_VERDICT_FILE="+abs,
		"GAMEMILL_VERDICT_OUT="+out, "GAMEMILL_VERDICT_CUBE_OUT="+cubeOut,
		"GAMEMILL_VERDICT_PLIES="+strconv.Itoa(plies), "GAMEMILL_VERDICT_CUBE_ONLY="+only)
	var text bytes.Buffer
	cmd.Stdout = &text
	cmd.Stderr = &text
	if err := cmd.Run(); err != nil {
		return fail(fmt.Errorf("gnubg: %w: %s", err, lastLines(text.Bytes(), 5)))
	}
	var r Record
	st, err := ReadStatistics(text.String(), !cubeOnly)
	if err != nil {
		return fail(fmt.Errorf("%w (gnubg said: %s)", err, lastLines(text.Bytes(), 5)))
	}
	r.Players = st.Players()
	for _, path := range []string{out, cubeOut} {
		ds, cs, err := readDecisionsFile(path, file)
		if err != nil {
			return fail(err)
		}
		r.Decisions = append(r.Decisions, ds...)
		r.CubeDecisions = append(r.CubeDecisions, cs...)
	}
	return r, nil
}

// readDecisionsFile reads the script's JSON lines, naming each with file.
func readDecisionsFile(path, file string) ([]Decision, []CubeDecision, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	ds, cs, err := ReadDecisions(f)
	for i := range ds {
		ds[i].File = file
	}
	for i := range cs {
		cs[i].File = file
	}
	return ds, cs, err
}

// ReadDecisions reads chequer and cube decisions written as JSON lines
// (the script's, or bgtool gnubg-verdict --decisions'): a line with a
// "role" is a cube decision.
func ReadDecisions(r io.Reader) ([]Decision, []CubeDecision, error) {
	var (
		ds []Decision
		cs []CubeDecision
	)
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		var probe struct {
			Role *string `json:"role"`
		}
		if err := json.Unmarshal(sc.Bytes(), &probe); err != nil {
			return nil, nil, fmt.Errorf("decisions line %d: %w", line, err)
		}
		if probe.Role != nil {
			var c CubeDecision
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				return nil, nil, fmt.Errorf("decisions line %d: %w", line, err)
			}
			if err := c.check(); err != nil {
				return nil, nil, fmt.Errorf("decisions line %d: cube decision: %w", line, err)
			}
			cs = append(cs, c)
			continue
		}
		var d Decision
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, nil, fmt.Errorf("decisions line %d: %w", line, err)
		}
		if d.Error < -1e-9 {
			// gnubg lists its best move first; a played move cannot beat it.
			return nil, nil, fmt.Errorf("decisions line %d: error %v below 0", line, d.Error)
		}
		ds = append(ds, d)
	}
	return ds, cs, sc.Err()
}

// ReadDecisionFiles reads the chequer and cube decisions of the files at
// paths (bgtool gnubg-verdict --decisions'), in order.
func ReadDecisionFiles(paths []string) ([]Decision, []CubeDecision, error) {
	var (
		ds []Decision
		cs []CubeDecision
	)
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		more, moreCube, err := ReadDecisions(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		ds = append(ds, more...)
		cs = append(cs, moreCube...)
	}
	return ds, cs, nil
}

// RecordsOf groups decisions read back by record (their File, in the
// order first met), for a breakdown without gnubg: each record's players
// are the names its decisions carry, and its figures are left zero.
func RecordsOf(ds []Decision, cs []CubeDecision) []Record {
	var out []Record
	index := map[string]int{}
	record := func(file, player string) *Record {
		i, ok := index[file]
		if !ok {
			i = len(out)
			index[file] = i
			out = append(out, Record{})
		}
		r := &out[i]
		if r.Players[0].Name != player && r.Players[1].Name != player {
			if r.Players[0].Name == "" {
				r.Players[0].Name = player
			} else {
				r.Players[1].Name = player
			}
		}
		return r
	}
	for _, d := range ds {
		r := record(d.File, d.Player)
		r.Decisions = append(r.Decisions, d)
	}
	for _, c := range cs {
		r := record(c.File, c.Player)
		r.CubeDecisions = append(r.CubeDecisions, c)
	}
	return out
}

// lastLines is the last n lines of b, for error messages.
func lastLines(b []byte, n int) string {
	b = bytes.TrimRight(b, "\n")
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			n--
			if n == 0 {
				return string(b[i+1:])
			}
		}
	}
	return string(b)
}

// Record is one record's figures and decisions.
type Record struct {
	Players       [2]Player
	Decisions     []Decision
	CubeDecisions []CubeDecision
}

// AnalyseDecisionFiles runs AnalyseDecisions on every file as
// AnalyseFiles runs Analyse.
func AnalyseDecisionFiles(ctx context.Context, binary string, files []string, plies, jobs int, cubeOnly bool, progress func(done, total int)) ([]Record, error) {
	records := make([]Record, len(files))
	err := forEachFile(len(files), jobs, progress, func(i int) (err error) {
		records[i], err = AnalyseDecisions(ctx, binary, files[i], plies, cubeOnly)
		return err
	})
	return records, err
}

// GroupDecisions sums the chequer figures of the records' decisions by
// group (key names a decision's group): for each group, each record's
// two players with that group's unforced moves and error only, so that
// Summarise gives a group's rates with intervals over the same records.
func GroupDecisions(records []Record, key func(Decision) (string, error)) (map[string][][2]Player, error) {
	groups := map[string][][2]Player{}
	for i, r := range records {
		for _, d := range r.Decisions {
			k, err := key(d)
			if err != nil {
				return nil, err
			}
			if p := groupPlayer(groups, records, k, i, d.Player); p != nil {
				p.UnforcedMoves++
				p.ChequerError += d.Error
			}
		}
	}
	return groups, nil
}

// groupPlayer is record i's player named name in group k, the group made
// (every record's players without decisions) if it is new; nil if the
// record has no player of that name.
func groupPlayer(groups map[string][][2]Player, records []Record, k string, i int, name string) *Player {
	g := groups[k]
	if g == nil {
		g = blankGroup(records)
		groups[k] = g
	}
	for side := range g[i] {
		if g[i][side].Name == name {
			return &g[i][side]
		}
	}
	return nil
}

// blankGroup is a group of records' players without decisions.
func blankGroup(records []Record) [][2]Player {
	g := make([][2]Player, len(records))
	for i, r := range records {
		for side := range g[i] {
			g[i][side] = Player{Name: r.Players[side].Name, Records: 1}
		}
	}
	return g
}
