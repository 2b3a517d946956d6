package gogame

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/protocol"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// Referee plays Go games over GTP v2 as gomill's ringmaster does, but
// judges every move by engine/gogame: an occupied point, suicide, the ko
// point (and, with superko, a repeated position) forfeit the mover, where
// gomill trusts the engine that rejects a move. docs/go.md lists the
// differences.
type Referee struct {
	Settings Settings
	// MoveLimit ends a game with no winner (RE "Void") after this many
	// moves, passes included (0: no limit).
	MoveLimit int
	// Log receives the referee's notes on a game.
	Log func(format string, args ...any)
}

// Result texts of Go games, as gomill writes RE.
const (
	ResultVoid    = "Void" // the move limit: no winner
	ResultUnknown = "?"    // the players' scores disagree or are missing
	ResultJigo    = "0"
)

// game is one game in progress.
type game struct {
	ref   *Referee
	seats [2]referee.Seat // seat 0 plays Black
	board *rules.Game
	out   referee.Outcome
	rec   record
	// claims says, by seat, whether the engine may claim and knows how.
	claims [2]bool
	info   referee.GameInfo
	// known holds, by seat, the gomill extensions the engine offers.
	known [2]map[string]bool
	// cpuAtStart is each engine's gomill-cpu_time before the game, or -1.
	cpuAtStart [2]float64
	clocks     [2]*clock // nil without a time control
	// owed holds, by seat, the opponent's last move, told to the engine
	// (play) with its next request.
	owed [2]*rules.Played
	// listed is each engine's answer to list_commands, asked at setup.
	listed [2]protocol.Reply
}

func (g *game) logf(format string, args ...any) {
	if g.ref.Log != nil {
		g.ref.Log(format, args...)
	}
}

// Play referees one game: seat 0 plays Black. An error is returned only
// for a void game (*referee.VoidError) or a cancelled context.
func (r *Referee) Play(ctx context.Context, info referee.GameInfo, seats [2]referee.Seat) (referee.Outcome, error) {
	g := &game{ref: r, seats: seats, info: info}
	g.out = referee.Outcome{Winner: -1, ForfeitBy: -1, FirstMover: 0, Ending: referee.EndNormal,
		Stats: map[string][2]int{StatBlack: {1, 0}}}
	board, err := rules.NewGame(rules.Settings{Size: r.Settings.BoardSize, Komi: r.Settings.Komi, Superko: r.Settings.Superko})
	if err != nil {
		return g.out, fmt.Errorf("go referee: %w", err)
	}
	g.board = board
	g.rec = record{event: info.Event, gameID: info.ID, settings: r.Settings, seats: seats, logf: r.Log, comments: map[int]string{}}
	err = g.play(ctx)
	g.out.Stats[StatCaptures] = [2]int{g.board.Captured(rules.Black), g.board.Captured(rules.White)}
	if err == nil {
		g.engineCPU(ctx)
	}
	g.clockStats()
	g.out.Moves = g.board.MoveCount()
	g.out.Records = g.rec.write(g.board, &g.out, err)
	return g.out, err
}

func (g *game) play(ctx context.Context) error {
	if err := g.setUp(ctx); err != nil {
		return err
	}
	if err := g.extensions(ctx); err != nil {
		return err
	}
	if err := g.startClocks(ctx); err != nil {
		return err
	}
	if done, err := g.playOpening(ctx); err != nil || done {
		return err
	}
	for !g.board.Over() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if g.ref.MoveLimit > 0 && g.board.MoveCount() >= g.ref.MoveLimit {
			g.out.Result, g.out.Ending = ResultVoid, referee.EndMoveLimit
			g.out.Detail = fmt.Sprintf("hit move limit (%d moves)", g.board.MoveCount())
			return nil
		}
		done, err := g.turn(ctx)
		if err != nil || done {
			return err
		}
	}
	return g.score(ctx)
}

// seatOf is the seat playing colour c.
func seatOf(c rules.Color) int {
	if c == rules.Black {
		return 0
	}
	return 1
}

func colourWord(c rules.Color) string {
	if c == rules.Black {
		return "b"
	}
	return "w"
}

// setUp sends each engine the board size, a clear board and the komi (in
// one batch with the questions asked of it at the start of every game),
// and places the handicap; a failure voids the game (a setup command, as
// gomill).
func (g *game) setUp(ctx context.Context) error {
	s := g.ref.Settings
	for i, seat := range g.seats {
		cmds := []protocol.Command{protocol.Cmd("boardsize", strconv.Itoa(s.BoardSize)), protocol.Cmd("clear_board"), protocol.Cmd("komi", komiText(s.Komi))}
		setup := len(cmds) // the commands whose failure voids the game
		claims := seat.Config != nil && seat.Config.AllowClaim
		if claims {
			cmds = append(cmds, protocol.Cmd("known_command", "gomill-genmove_ex"))
		}
		cmds = append(cmds, protocol.Cmd("list_commands"))
		replies, err := protocol.DoAll(ctx, seat.Player, cmds...)
		for j, r := range replies[:min(len(replies), setup)] {
			if r.Err != nil {
				return g.void(ctx, i, fmt.Errorf("%s: %w", cmds[j].Name, r.Err))
			}
		}
		if len(replies) < setup {
			return g.void(ctx, i, fmt.Errorf("%s: %w", cmds[len(replies)].Name, err))
		}
		if claims && len(replies) > setup {
			g.claims[i] = replies[setup].Err == nil && strings.TrimSpace(replies[setup].Text) == "true"
		}
		g.listed[i] = protocol.Reply{Err: err}
		if err == nil {
			g.listed[i] = replies[len(replies)-1]
		}
	}
	if s.Handicap == 0 {
		return nil
	}
	n := strconv.Itoa(s.Handicap)
	if s.HandicapStyle == HandicapFixed {
		want, err := rules.FixedHandicap(s.BoardSize, s.Handicap)
		if err != nil {
			return fmt.Errorf("go referee: %w", err)
		}
		for i, seat := range g.seats {
			resp, err := seat.Player.Do(ctx, "fixed_handicap", n)
			if err != nil {
				return g.void(ctx, i, fmt.Errorf("fixed_handicap: %w", err))
			}
			got, perr := parseVertices(resp, s.BoardSize)
			if perr != nil || !sameSet(got, want) {
				return g.void(ctx, i, fmt.Errorf("bad response from fixed_handicap command to %s: %q", seat.Code, resp))
			}
		}
		_, err = g.board.SetFixedHandicap(s.Handicap)
		return err
	}
	resp, err := g.seats[0].Player.Do(ctx, "place_free_handicap", n)
	if err != nil {
		return g.void(ctx, 0, fmt.Errorf("place_free_handicap: %w", err))
	}
	stones, err := parseVertices(resp, s.BoardSize)
	if err == nil && len(stones) != s.Handicap {
		err = fmt.Errorf("%d stones for a handicap of %d", len(stones), s.Handicap)
	}
	if err == nil {
		err = g.board.SetFreeHandicap(stones)
	}
	if err != nil {
		return g.void(ctx, 0, fmt.Errorf("bad response from place_free_handicap command to %s: %q: %v", g.seats[0].Code, resp, err))
	}
	args := make([]string, len(stones))
	for i, m := range stones {
		args[i] = m.String()
	}
	if _, err := g.seats[1].Player.Do(ctx, "set_free_handicap", args...); err != nil {
		return g.void(ctx, 1, fmt.Errorf("set_free_handicap: %w", err))
	}
	return nil
}

// turn asks the engine to move for the colour to play, checks the move and
// tells the opponent. done is set when the game ended (resignation,
// claim, forfeit).
func (g *game) turn(ctx context.Context) (done bool, err error) {
	c := g.board.ToPlay()
	seat := seatOf(c)
	p := g.seats[seat].Player
	// The opponent's last move, the clock and the request for a move go
	// in one batch: the engine's answers come back together.
	var cmds []protocol.Command
	told := g.owed[seat]
	if told != nil {
		cmds = append(cmds, protocol.Cmd("play", colourWord(told.Color), strings.ToUpper(told.Move.String())))
		g.owed[seat] = nil
	}
	if clk := g.clocks[seat]; clk != nil {
		secs, stones := clk.timeLeft()
		cmds = append(cmds, protocol.Cmd("time_left", colourWord(c), strconv.Itoa(secs), strconv.Itoa(stones)))
	}
	genmove := protocol.Cmd("genmove", colourWord(c))
	if g.claims[seat] {
		genmove = protocol.Cmd("gomill-genmove_ex", colourWord(c), "claim")
	}
	cmds = append(cmds, genmove)
	start := time.Now()
	replies, err := protocol.DoAll(ctx, p, cmds...)
	// A batch that broke before its last answer is the move's failure
	// (the error names every command left unanswered).
	if told != nil && len(replies) > 0 {
		if err := replies[0].Err; err != nil {
			// Our rules passed the move, so a rejection is the rejecter's
			// fault, whatever it says.
			g.forfeit(seat, fmt.Sprintf("rejected the legal move %s %s: %v", colourWord(told.Color), told.Move, err))
			return true, nil
		}
		replies = replies[1:]
	}
	if g.clocks[seat] != nil && len(replies) > 0 {
		if err := replies[0].Err; err != nil {
			return true, g.engineError(ctx, seat, "time_left", err)
		}
		replies = replies[1:]
	}
	var resp string
	if len(replies) > 0 {
		resp, err = replies[0].Text, replies[0].Err
	}
	took := time.Since(start)
	g.out.Decisions[seat]++
	if err != nil {
		return true, g.engineError(ctx, seat, "genmove", err)
	}
	if clk := g.clocks[seat]; clk != nil {
		before := clk.String()
		if clk.charge(took) {
			g.win(1-seat, referee.EndTime, colourLetter(c.Opponent())+"+T",
				fmt.Sprintf("%s lost on time: took %.2fs with %s left (margin %gs)", g.seats[seat].Code, took.Seconds(), before, clk.tc.Margin.Seconds()))
			return true, nil
		}
	}
	word := strings.ToLower(strings.TrimSpace(resp))
	switch {
	case word == "resign":
		g.win(1-seat, referee.EndResignation, colourLetter(c.Opponent())+"+R",
			fmt.Sprintf("%s resigned", g.seats[seat].Code))
		return true, nil
	case word == "claim" && g.claims[seat]:
		g.win(seat, referee.EndClaim, colourLetter(c)+"+", fmt.Sprintf("%s claims the win", g.seats[seat].Code))
		return true, nil
	}
	m, perr := rules.ParseVertex(word, g.ref.Settings.BoardSize)
	if perr != nil {
		g.forfeit(seat, fmt.Sprintf("attempted ill-formed move %q", resp))
		return true, nil
	}
	if err := g.board.Play(c, m); err != nil {
		g.forfeit(seat, fmt.Sprintf("attempted illegal move %s: %v", m, ruleReason(err)))
		return true, nil
	}
	g.explain(ctx, seat)
	if g.board.Over() {
		// The second pass ends the game; the opponent need not hear it.
		return false, nil
	}
	// The opponent hears the move with its next request.
	g.owed[1-seat] = &rules.Played{Color: c, Move: m}
	return false, nil
}

// ruleReason is the rules' error without its colour-and-move prefix.
func ruleReason(err error) string {
	for _, e := range []error{rules.ErrOccupied, rules.ErrSuicide, rules.ErrKo, rules.ErrSuperko} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return err.Error()
}

func colourLetter(c rules.Color) string {
	if c == rules.Black {
		return "B"
	}
	return "W"
}

// win ends the game with a winner.
func (g *game) win(seat int, ending, result, detail string) {
	g.out.Winner, g.out.Ending, g.out.Result, g.out.Detail = seat, ending, result, detail
	g.out.Points[seat], g.out.Points[1-seat] = 1, -1
}

func (g *game) forfeit(seat int, reason string) {
	g.logf("forfeit by %s: %s", g.seats[seat].Code, reason)
	colour := rules.Black
	if seat == 1 {
		colour = rules.White
	}
	g.win(1-seat, referee.EndForfeit, colourLetter(colour.Opponent())+"+F", fmt.Sprintf("forfeit by %s: %s", g.seats[seat].Code, oneLine(reason)))
	g.out.ForfeitBy = seat
}

// void voids the game because of the engine in seat (see referee.Void).
func (g *game) void(ctx context.Context, seat int, err error) error {
	return referee.Void(ctx, g.seats, seat, err)
}

// engineError is a forfeit by the seat (nil returned: the game is over) or
// a void game (the error returned), as referee.EngineFailure decides.
func (g *game) engineError(ctx context.Context, seat int, what string, err error) error {
	forfeit, voidErr := referee.EngineFailure(ctx, g.seats, seat, what, err)
	if forfeit {
		g.forfeit(seat, referee.ForfeitReason(g.seats, seat, what, err))
	}
	return voidErr
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// score settles a game ended by two passes: by the players' final_score
// (gomill's default) or by our own area count.
func (g *game) score(ctx context.Context) error {
	s := g.ref.Settings
	area := g.board.AreaScore()
	switch s.Scorer {
	case ScorerInternal:
		area.Komi += s.compensation()
		g.settle(area.Winner(), area.String(), fmt.Sprintf("area count: black %d, white %d, komi %s%s",
			area.Black, area.White, komiText(s.Komi), compensationText(s)))
		return nil
	case ScorerReferee:
		return g.refereeScore(ctx)
	}
	var reports []scoreReport
	for i, seat := range g.seats {
		if seat.Config != nil && !seat.Config.ReliableScorer {
			continue
		}
		resp, err := seat.Player.Do(ctx, "final_score")
		if err != nil {
			// A scorer that cannot score is no reason to lose the game.
			g.logf("final_score from %s: %v", seat.Code, err)
			g.rec.scores = append(g.rec.scores, fmt.Sprintf("%s: final_score failed: %v", seat.Code, oneLine(err.Error())))
			continue
		}
		r := parseScore(resp)
		r.seat = i
		reports = append(reports, r)
		g.rec.scores = append(g.rec.scores, fmt.Sprintf("%s: %s", seat.Code, strings.TrimSpace(resp)))
	}
	var usable []scoreReport
	for _, r := range reports {
		if r.ok {
			usable = append(usable, r)
		}
	}
	switch {
	case len(usable) == 0:
		g.unknown("no score reported")
	case len(usable) == 2 && usable[0].winner != usable[1].winner:
		// The result stays unsettled (the area count does not remove dead
		// stones, so it cannot overrule the players), but the dispute is
		// charged to each player whose claim the area count does not
		// back: a player claiming its losses is found out.
		counted := area
		counted.Komi += s.compensation()
		var disputes [2]int
		for _, r := range usable {
			if r.winner != counted.Winner() {
				disputes[r.seat] = 1
			}
		}
		g.out.Stats[referee.StatDisputes] = disputes
		g.unknown(fmt.Sprintf("players disagreed: %s says %s, %s says %s (the referee's area count: %s)",
			g.seats[usable[0].seat].Code, usable[0].text, g.seats[usable[1].seat].Code, usable[1].text, counted))
	case len(usable) == 2 && usable[0].winner != rules.Empty && (usable[0].margin != usable[1].margin || usable[0].margin <= 0):
		g.settle(usable[0].winner, colourLetter(usable[0].winner)+"+", "unknown margin")
	default:
		r := usable[0]
		text := r.text
		if r.winner != rules.Empty && r.margin <= 0 {
			text = colourLetter(r.winner) + "+"
		}
		g.settle(r.winner, text, "")
	}
	return nil
}

func compensationText(s Settings) string {
	if c := s.compensation(); c > 0 {
		return fmt.Sprintf(", handicap compensation %g (%s)", c, s.Compensation)
	}
	return ""
}

// settle records a scored result: a winner, or a jigo when winner is Empty.
func (g *game) settle(winner rules.Color, result, detail string) {
	if winner == rules.Empty {
		g.out.Result, g.out.Detail = ResultJigo, detail
		if detail == "" {
			g.out.Detail = "jigo"
		}
		return
	}
	g.win(seatOf(winner), referee.EndNormal, result, detail)
}

func (g *game) unknown(detail string) {
	g.out.Winner, g.out.Ending, g.out.Result, g.out.Detail = -1, referee.EndUnknown, ResultUnknown, detail
}

// scoreReport is one engine's answer to final_score.
type scoreReport struct {
	seat   int
	ok     bool
	winner rules.Color // Empty for a jigo
	margin float64     // 0 when absent or unparsable
	text   string      // upper-cased, as gomill reads it
}

// parseScore reads "B+3.5", "W+R"-style answers and "0" as gomill does:
// the reply is upper-cased; a winner with no usable margin is still a
// winner.
func parseScore(resp string) scoreReport {
	t := strings.ToUpper(strings.TrimSpace(resp))
	r := scoreReport{text: t}
	if t == "0" {
		r.ok, r.winner = true, rules.Empty
		return r
	}
	if len(t) < 2 || t[1] != '+' || (t[0] != 'B' && t[0] != 'W') {
		return r
	}
	r.ok, r.winner = true, rules.Black
	if t[0] == 'W' {
		r.winner = rules.White
	}
	if m, err := strconv.ParseFloat(t[2:], 64); err == nil && m > 0 {
		r.margin = m
	}
	return r
}

// parseVertices reads a list of vertices (a handicap reply); a pass or a
// point given twice is an error.
func parseVertices(resp string, size int) ([]rules.Move, error) {
	var out []rules.Move
	seen := map[rules.Move]bool{}
	for _, w := range strings.Fields(resp) {
		m, err := rules.ParseVertex(w, size)
		if err != nil {
			return nil, err
		}
		if m == rules.Pass {
			return nil, errors.New("pass in a handicap")
		}
		if seen[m] {
			return nil, fmt.Errorf("duplicate point %s", m)
		}
		seen[m] = true
		out = append(out, m)
	}
	return out, nil
}

func sameSet(a, b []rules.Move) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[rules.Move]bool{}
	for _, m := range a {
		in[m] = true
	}
	for _, m := range b {
		if !in[m] {
			return false
		}
	}
	return true
}
