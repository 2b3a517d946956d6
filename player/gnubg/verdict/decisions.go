package verdict

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
// with a choice and its error, through gnubg's Python interface (a script
// of ours that gnubg runs with -p). Each player's decisions add up to its
// unforced moves and chequer error in the statistics.
func AnalyseDecisions(ctx context.Context, binary, file string, plies int) ([2]Player, []Decision, error) {
	fail := func(err error) ([2]Player, []Decision, error) {
		return [2]Player{}, nil, fmt.Errorf("analyse %s: %w", file, err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return fail(err)
	}
	if _, err := os.Stat(abs); err != nil {
		return fail(err)
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
	cmd := exec.CommandContext(ctx, binary, "-t", "-q", "-r", "-p", script)
	cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=C", "GAMEMILL_VERDICT_FILE="+abs,
		"GAMEMILL_VERDICT_OUT="+out, "GAMEMILL_VERDICT_PLIES="+strconv.Itoa(plies))
	var text bytes.Buffer
	cmd.Stdout = &text
	cmd.Stderr = &text
	if err := cmd.Run(); err != nil {
		return fail(fmt.Errorf("gnubg: %w: %s", err, lastLines(text.Bytes(), 5)))
	}
	ps, err := ParseStatistics(text.String())
	if err != nil {
		return fail(fmt.Errorf("%w (gnubg said: %s)", err, lastLines(text.Bytes(), 5)))
	}
	ds, err := readDecisions(out, file)
	if err != nil {
		return fail(err)
	}
	return ps, ds, nil
}

// readDecisions reads the script's JSON lines, naming each with file.
func readDecisions(path, file string) ([]Decision, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ds, err := ReadDecisions(f)
	for i := range ds {
		ds[i].File = file
	}
	return ds, err
}

// ReadDecisions reads decisions written as JSON lines (the script's, or
// bgtool gnubg-verdict --decisions').
func ReadDecisions(r io.Reader) ([]Decision, error) {
	var ds []Decision
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		var d Decision
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("decisions line %d: %w", line, err)
		}
		if d.Error < -1e-9 {
			// gnubg lists its best move first; a played move cannot beat it.
			return nil, fmt.Errorf("decisions line %d: error %v below 0", line, d.Error)
		}
		ds = append(ds, d)
	}
	return ds, sc.Err()
}

// RecordsOf groups decisions read back by record (their File, in the
// order first met), for a breakdown without gnubg: each record's players
// are the names its decisions carry, and its figures are left zero.
func RecordsOf(ds []Decision) []Record {
	var out []Record
	index := map[string]int{}
	for _, d := range ds {
		i, ok := index[d.File]
		if !ok {
			i = len(out)
			index[d.File] = i
			out = append(out, Record{})
		}
		r := &out[i]
		if r.Players[0].Name != d.Player && r.Players[1].Name != d.Player {
			if r.Players[0].Name == "" {
				r.Players[0].Name = d.Player
			} else {
				r.Players[1].Name = d.Player
			}
		}
		r.Decisions = append(r.Decisions, d)
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

// Record is one record's figures and chequer decisions.
type Record struct {
	Players   [2]Player
	Decisions []Decision
}

// AnalyseDecisionFiles runs AnalyseDecisions on every file as
// AnalyseFiles runs Analyse.
func AnalyseDecisionFiles(ctx context.Context, binary string, files []string, plies, jobs int, progress func(done, total int)) ([]Record, error) {
	records := make([]Record, len(files))
	err := forEachFile(len(files), jobs, progress, func(i int) (err error) {
		records[i].Players, records[i].Decisions, err = AnalyseDecisions(ctx, binary, files[i], plies)
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
			g := groups[k]
			if g == nil {
				g = blankGroup(records)
				groups[k] = g
			}
			for side := range g[i] {
				if g[i][side].Name == d.Player {
					g[i][side].UnforcedMoves++
					g[i][side].ChequerError += d.Error
				}
			}
		}
	}
	return groups, nil
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
