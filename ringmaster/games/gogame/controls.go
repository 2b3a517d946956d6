package gogame

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// gomill's GTP extensions that the referee uses where an engine offers
// them.
const (
	cmdExplain  = "gomill-explain_last_move" // a comment on the engine's last move
	cmdDescribe = "gomill-describe_engine"   // a description for the game comment
	cmdCPUTime  = "gomill-cpu_time"          // the engine's CPU seconds so far
)

// Statistics of games with a clock (game_stats names), by seat.
const (
	StatThinks      = "thinks"       // genmove answers timed
	StatThinkMillis = "think_ms"     // their wall time in all, milliseconds
	StatLongest     = "max_think_ms" // the longest, milliseconds (a maximum over games)
)

// maxEngineComment bounds an engine's move comment or description kept in
// the record.
const maxEngineComment = 2000

// extensions reads which of gomill's extensions each engine offers (its
// answer to list_commands, asked at setup), and asks its description and
// its CPU time so far. An engine without list_commands offers none; one
// that went away voids the game.
func (g *game) extensions(ctx context.Context) error {
	for i, seat := range g.seats {
		g.known[i] = map[string]bool{}
		g.cpuAtStart[i] = -1
		resp, err := g.listed[i].Text, g.listed[i].Err
		if err != nil {
			if !referee.IsForfeit(err) {
				return g.void(ctx, i, fmt.Errorf("list_commands: %w", err))
			}
			continue
		}
		for _, line := range strings.Split(resp, "\n") {
			switch c := strings.TrimSpace(line); c {
			case cmdExplain, cmdDescribe, cmdCPUTime:
				g.known[i][c] = true
			}
		}
		if g.known[i][cmdDescribe] {
			if d, err := seat.Player.Do(ctx, cmdDescribe); err == nil && strings.TrimSpace(d) != "" {
				g.rec.descriptions[i] = clip(strings.TrimSpace(d))
			}
		}
		g.cpuAtStart[i] = g.cpuTime(ctx, i)
	}
	return nil
}

// cpuTime is the seat's gomill-cpu_time in seconds, or -1.
func (g *game) cpuTime(ctx context.Context, seat int) float64 {
	if !g.known[seat][cmdCPUTime] {
		return -1
	}
	resp, err := g.seats[seat].Player.Do(ctx, cmdCPUTime)
	if err != nil {
		return -1
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(resp), 64)
	if err != nil || f < 0 || f > 1e9 {
		return -1
	}
	return f
}

// engineCPU sets each engine's own CPU figure for the game, where it
// reports one: the difference over the game, since an engine kept
// between games counts from its start.
func (g *game) engineCPU(ctx context.Context) {
	for i := range g.seats {
		if g.cpuAtStart[i] < 0 {
			continue
		}
		if end := g.cpuTime(ctx, i); end >= g.cpuAtStart[i] {
			g.out.EngineCPU[i] = time.Duration((end - g.cpuAtStart[i]) * float64(time.Second))
		}
	}
}

// explain records the engine's comment on the move it just played.
func (g *game) explain(ctx context.Context, seat int) {
	if !g.known[seat][cmdExplain] {
		return
	}
	resp, err := g.seats[seat].Player.Do(ctx, cmdExplain)
	if err == nil && strings.TrimSpace(resp) != "" {
		g.rec.comments[g.board.MoveCount()-1] = clip(strings.TrimSpace(resp))
	}
}

func clip(s string) string {
	if len(s) > maxEngineComment {
		return s[:maxEngineComment] + "..."
	}
	return s
}

// startClocks sends each engine the time control (a setup command: a
// failure voids the game) and starts its clock.
func (g *game) startClocks(ctx context.Context) error {
	tc := g.ref.Settings.Clock
	if tc == nil {
		return nil
	}
	for i, seat := range g.seats {
		if _, err := seat.Player.Do(ctx, "time_settings", tc.gtpArgs()...); err != nil {
			return g.void(ctx, i, fmt.Errorf("time_settings: %w", err))
		}
		g.clocks[i] = newClock(*tc)
	}
	return nil
}

// clockStats stores each seat's thinking times.
func (g *game) clockStats() {
	if g.clocks[0] == nil {
		return
	}
	var n, total, longest [2]int
	for i, c := range g.clocks {
		n[i], total[i], longest[i] = c.thinks, int(c.total.Milliseconds()), int(c.longest.Milliseconds())
	}
	g.out.Stats[StatThinks], g.out.Stats[StatThinkMillis], g.out.Stats[StatLongest] = n, total, longest
}

// playOpening plays the game's opening (LoadOpenings) on the board and
// tells both engines with play. done is set when an engine rejected an
// opening move (its forfeit: our rules allowed the move).
func (g *game) playOpening(ctx context.Context) (done bool, err error) {
	openings := g.ref.Settings.openings
	if len(openings) == 0 {
		return false, nil
	}
	n, o := openingFor(openings, g.info.Number, g.info.Pair)
	for _, m := range o.Moves {
		if err := g.board.Play(m.Color, m.Move); err != nil {
			return true, fmt.Errorf("go referee: opening %s: %w", o.Name, err)
		}
		for i, seat := range g.seats {
			if _, err := seat.Player.Do(ctx, "play", colourWord(m.Color), strings.ToUpper(m.Move.String())); err != nil {
				if referee.IsForfeit(err) {
					g.forfeit(i, fmt.Sprintf("rejected the opening move %s %s: %v", colourWord(m.Color), m.Move, err))
					return true, nil
				}
				return true, g.void(ctx, i, fmt.Errorf("play (opening): %w", err))
			}
		}
	}
	g.rec.comments[len(o.Moves)-1] = fmt.Sprintf("opening %d of %d (%s): the moves up to here were set by the competition",
		n+1, len(openings), o.Name)
	return false, nil
}

// refereeScore settles a game ended by two passes by the referee engine,
// as gogui-twogtp does: the game is replayed into a fresh instance of it
// and its final_score decides. A referee that fails leaves the game
// without a result, as no player is at fault.
func (g *game) refereeScore(ctx context.Context) error {
	s := g.ref.Settings
	code := s.RefereePlayer
	if g.info.Launch == nil {
		g.unknown(fmt.Sprintf("referee %s: no way to start it here", code))
		return nil
	}
	p, err := g.info.Launch(ctx, code)
	if err != nil {
		return g.refereeFailed(ctx, code, "start", err)
	}
	defer p.Close()
	cmds := [][]string{{"boardsize", strconv.Itoa(s.BoardSize)}, {"clear_board"}, {"komi", komiText(s.Komi)}}
	if h := g.board.Handicap(); len(h) > 0 {
		c := []string{"set_free_handicap"}
		for _, m := range h {
			c = append(c, strings.ToUpper(m.String()))
		}
		cmds = append(cmds, c)
	}
	for _, m := range g.board.Moves() {
		cmds = append(cmds, []string{"play", colourWord(m.Color), strings.ToUpper(m.Move.String())})
	}
	var resp string
	for _, c := range append(cmds, []string{"final_score"}) {
		if resp, err = p.Do(ctx, c[0], c[1:]...); err != nil {
			return g.refereeFailed(ctx, code, c[0], err)
		}
	}
	g.rec.scores = append(g.rec.scores, fmt.Sprintf("%s (referee): %s", code, strings.TrimSpace(resp)))
	r := parseScore(resp)
	if !r.ok {
		g.unknown(fmt.Sprintf("the referee %s answered final_score with %q, not a score", code, oneLine(resp)))
		return nil
	}
	text := r.text
	if r.winner != rules.Empty && r.margin <= 0 {
		text = colourLetter(r.winner) + "+"
	}
	g.settle(r.winner, text, fmt.Sprintf("scored by the referee %s: %s", code, r.text))
	return nil
}

func (g *game) refereeFailed(ctx context.Context, code, what string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	g.logf("referee %s: %s: %v", code, what, err)
	g.unknown(fmt.Sprintf("the referee %s failed: %s: %s", code, what, oneLine(err.Error())))
	return nil
}
