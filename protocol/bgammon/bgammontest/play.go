package bgammontest

import (
	"fmt"
	"strings"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol/bgammon"
)

func (s *Server) die() int { return s.rng.IntN(6) + 1 }

// play handles the commands of a game in progress.
func (s *Server) play(c *client, cmd string, args []string) {
	g := c.g
	failType := map[string]string{"roll": "failedroll", "r": "failedroll", "move": "failedmove", "m": "failedmove", "mv": "failedmove", "ok": "failedok", "k": "failedok"}[cmd]
	refuse := func(reason string) {
		if failType != "" {
			s.failed(c, failType, reason)
		} else {
			s.notice(c, reason)
		}
	}
	switch {
	case g == nil:
		refuse("You are not currently in a match.")
		return
	case g.over:
		return
	case g.seats[1-c.seat] == nil || g.b == nil:
		refuse("You may not play until your opponent rejoins the match.")
		return
	}
	st := g.state()
	seat := c.seat
	switch cmd {
	case "roll", "r":
		s.roll(g, c, st)
	case "double", "d":
		if st.GameState != bg.GamePlaying || st.Move != seat || !g.mayDouble(st) {
			s.notice(c, "You may not double at this time.")
			return
		}
		if err := g.b.Double(seat); err != nil {
			s.notice(c, "You may not double at this time.")
			return
		}
		s.notice(g.seats[1-seat], fmt.Sprintf("%s offers a double (%d points).", c.name, 2*st.CubeValue))
		s.boards(g, false)
	case "ok", "k":
		switch {
		case st.GameState == bg.GamePlaying && st.Doubled && st.Turn == seat:
			if err := g.b.Take(seat); err != nil {
				s.notice(c, err.Error())
				return
			}
			s.notice(g.seats[1-seat], c.name+" accepted double.")
			s.boards(g, false)
		case st.GameState != bg.GamePlaying || st.Move != seat || st.Doubled:
			s.notice(c, "It is not your turn.")
		case st.Dice[0] == 0:
			s.notice(c, "You must roll first.")
		default:
			s.endTurn(g, c, st)
		}
	case "move", "m", "mv":
		s.move(g, c, st, args)
	case "reset":
		if st.GameState == bg.GamePlaying && st.Move == seat && g.pending != nil {
			g.pending, g.steps = nil, nil
			s.boards(g, false)
		}
	case "resign":
		switch {
		case st.GameState == bg.GamePlaying && st.Doubled && st.Turn == seat:
			if err := g.b.Drop(seat); err != nil {
				s.notice(c, err.Error())
				return
			}
			s.notice(g.seats[1-seat], c.name+" declined double offer.")
			s.won(g, g.names[1-seat])
		case st.GameState == bg.GamePlaying && st.Move == seat && !st.Doubled:
			level := lossLevel(st.BoardFor(seat))
			g.pending, g.steps = nil, nil
			if err := g.b.Resign(seat, level); err != nil {
				s.notice(c, err.Error())
				return
			}
			if err := g.b.AcceptResignation(1 - seat); err != nil {
				s.notice(c, err.Error())
				return
			}
			s.won(g, g.names[1-seat])
		default:
			s.notice(c, "You may not resign until it is your turn.")
		}
	}
}

// lossLevel is what the server charges a resigning player on roll of b:
// a backgammon with a checker on the bar or in the opponent's home
// board, a gammon with none borne off, else a single game.
func lossLevel(b bg.Board) bg.Result {
	for i := 18; i <= bg.BarIndex; i++ {
		if b[bg.OnRoll][i] > 0 {
			return bg.Backgammon
		}
	}
	if b.OnBoard(bg.OnRoll) == bgammon.Checkers {
		return bg.Gammon
	}
	return bg.Single
}

func (s *Server) roll(g *game, c *client, st *bg.State) {
	seat := c.seat
	if st.GameState != bg.GamePlaying {
		// The opening roll: one die each, rolled again on a tie.
		if g.opening[seat] != 0 {
			s.failed(c, "failedroll", "It is not your turn to roll.")
			return
		}
		g.opening[seat] = s.die()
		s.openingRolled(g, c.name)
		for g.opening[0] != 0 && g.opening[0] == g.opening[1] {
			g.opening = [2]int{s.die(), s.die()}
			s.openingRolled(g, g.names[0])
		}
		if g.opening[0] == 0 || g.opening[1] == 0 {
			return
		}
		first := 0
		if g.opening[1] > g.opening[0] {
			first = 1
		}
		if err := g.b.Roll(first, g.opening[0], g.opening[1]); err != nil {
			s.opt.Logf("opening roll: %v", err)
			return
		}
		g.opening = [2]int{}
		s.boards(g, false)
		return
	}
	if st.Move != seat || st.Doubled || st.Dice[0] != 0 {
		s.failed(c, "failedroll", "It is not your turn to roll.")
		return
	}
	s.rollFor(g, seat)
}

func (s *Server) openingRolled(g *game, who string) {
	for seat, c := range g.seats {
		if c != nil {
			s.send(c, map[string]any{"Type": "rolled", "Player": who, "Roll1": g.opening[seat], "Roll2": g.opening[1-seat]})
		}
	}
}

// rollFor rolls for the player on roll and shows it.
func (s *Server) rollFor(g *game, seat int) {
	d0, d1 := s.die(), s.die()
	if err := g.b.Roll(seat, d0, d1); err != nil {
		s.opt.Logf("roll: %v", err)
		return
	}
	s.both(g, map[string]any{"Type": "rolled", "Player": g.names[seat], "Roll1": d0, "Roll2": d1})
	s.boards(g, false)
}

func (s *Server) move(g *game, c *client, st *bg.State, args []string) {
	seat := c.seat
	if st.GameState != bg.GamePlaying || st.Move != seat || st.Dice[0] == 0 || st.Doubled {
		s.failed(c, "failedmove", "It is not your turn to move.")
		return
	}
	if g.pending != nil {
		s.failed(c, "failedmove", "The stand-in takes the whole move in one command; reset first.")
		return
	}
	steps, err := bgammon.ParseSteps(args)
	if err != nil || len(steps) > 4 {
		s.failed(c, "failedmove", "Specify one or more moves in the form FROM/TO. For example: 8/4 6/4")
		return
	}
	c.moves++
	defer s.maybeDrop(c)
	target, ok := applySteps(st.Board, steps)
	var legal *bg.Move
	if ok {
		moves, boards := bg.LegalMoves(st.Board, st.Dice[0], st.Dice[1])
		for i := range boards {
			if boards[i] == target && moves[i].N > 0 {
				legal = &moves[i]
				break
			}
		}
	}
	if legal == nil {
		s.failed(c, "failedmove", "Illegal move.")
		return
	}
	if s.opt.RefuseMoves[c.name] > 0 {
		s.opt.RefuseMoves[c.name]--
		s.failed(c, "failedmove", "Illegal move.")
		return
	}
	g.pending, g.steps = legal, steps
	for _, o := range g.seats {
		if o == nil {
			continue
		}
		var ms [][]int
		for _, stp := range steps {
			from, to := int(stp.From), int(stp.To)
			if from == bg.BarIndex+1 {
				from = bgammon.SpaceBar
			}
			if o.seat != seat {
				from, to = bgammon.FlipSpace(from), bgammon.FlipSpace(to)
			}
			ms = append(ms, []int{from, to})
		}
		s.send(o, map[string]any{"Type": "moved", "Player": c.name, "Moves": ms})
	}
	s.boards(g, false)
	if target.OnBoard(bg.OnRoll) == 0 {
		// The last checker is off: the game ends without an ok.
		g.pending, g.steps = nil, nil
		if err := g.b.Play(seat, *legal); err != nil {
			s.opt.Logf("play: %v", err)
			return
		}
		s.boards(g, true)
		s.won(g, c.name)
	}
}

// maybeDrop closes a connection that DropAfterMoves names, once.
func (s *Server) maybeDrop(c *client) {
	if n := s.opt.DropAfterMoves[c.name]; n > 0 && c.moves == n && !s.drops[c.name] {
		s.drops[c.name] = true
		s.opt.Logf("dropping %s after move %d", c.name, n)
		c.closed = true
	}
}

// applySteps plays steps one by one from the mover's view, each moving
// one of its checkers; false when a step has no checker to move or lands
// on a point the opponent holds.
func applySteps(b bg.Board, steps []bg.Step) (bg.Board, bool) {
	for _, st := range steps {
		from, to := int(st.From), int(st.To)
		if from < 1 || from > bg.BarIndex+1 || to < 0 || to >= from {
			return b, false
		}
		me, opp := &b[bg.OnRoll], &b[bg.Opponent]
		if me[from-1] == 0 {
			return b, false
		}
		me[from-1]--
		if to == 0 {
			continue
		}
		o := 24 - to // the opponent's index of this point
		switch {
		case opp[o] > 1:
			return b, false
		case opp[o] == 1:
			opp[o] = 0
			opp[bg.BarIndex]++
		}
		me[to-1]++
	}
	return b, true
}

// endTurn plays the turn's move (none when the roll has none) and hands
// the dice over: rolled at once when the next player may not double.
func (s *Server) endTurn(g *game, c *client, st *bg.State) {
	if g.pending == nil {
		legal := st.LegalMoves()
		if len(legal) > 0 && legal[0].N > 0 {
			var all []string
			for _, m := range legal {
				all = append(all, bg.Format(st.Board, m))
			}
			s.failed(c, "failedok", "The following legal moves are available: "+strings.Join(all, ", "))
			return
		}
		if err := g.b.Play(c.seat, bg.Move{}); err != nil {
			s.opt.Logf("no move: %v", err)
			return
		}
	} else {
		mv := *g.pending
		g.pending, g.steps = nil, nil
		if err := g.b.Play(c.seat, mv); err != nil {
			s.opt.Logf("play: %v", err)
			return
		}
	}
	st = g.state()
	if !g.mayDouble(st) {
		s.rollFor(g, st.Move)
		return
	}
	s.boards(g, false)
}

// won ends a game: the win event, then the next game's board or, when
// the match is over, the final one.
func (s *Server) won(g *game, winner string) {
	st := g.state()
	ev := map[string]any{"Type": "win", "Player": winner}
	if g.points > 1 {
		ev["Points"] = st.Points
	}
	if st.GameState == bg.GameResigned || st.GameState == bg.GameDropped {
		ev["Resigned"] = g.names[1-st.Winner]
	}
	if st.MatchOver() {
		g.over = true
		s.finished = append(s.finished, g.b.Match().Clone())
	}
	s.both(g, ev)
	s.boards(g, false)
}
