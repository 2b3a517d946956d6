package server

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/fibsboard"
	"github.com/gamemill/gamemill/formats/mat"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/protocol/fibs"
)

// match is a match in progress between two connected players. The server
// referees it: every action goes through a record.Builder, whose
// backgammon.State decides legality, and the dice come from the server.
type match struct {
	players [2]string
	conns   [2]*client
	b       *record.Builder
	colour  [2]int  // each seat's colour this game: 1 (O, moves 24 to 1) or -1 (X, 1 to 24)
	joined  [2]bool // between games: who typed join
	// watchers are the spectators, gathered before each board is sent.
	watchers []*client
	srv      *Server
	// savedAt is the progress of the last save; saveFailing says the last
	// try failed; done says the match is over (and no longer saved).
	savedAt     progress
	saveFailing bool
	done        bool
}

// progress tells apart the states a match goes through: every action adds
// to a game's actions or turns its roll into a move, and every game end
// scores points.
type progress struct {
	games, actions int
	last           record.Kind
	points         int
	colour0        int
}

func (m *match) progress() progress {
	rec := m.b.Match()
	p := progress{games: len(rec.Games), colour0: m.colour[0]}
	if p.games > 0 {
		g := rec.Games[p.games-1]
		p.actions, p.points = len(g.Actions), g.Points
		if len(g.Actions) > 0 {
			p.last = g.Actions[len(g.Actions)-1].Kind
		}
	}
	return p
}

func (m *match) st() *bg.State { return m.b.State() }

func (m *match) saved() savedMatch {
	return savedMatch{players: m.players, colour0: m.colour[0], rec: m.b.Match().Clone()}
}

func (m *match) betweenGames() bool { return m.st().GameState != bg.GamePlaying }

func direction(colour int) int { return -colour }

// nameFor is how seat sees player p: "You" or the name.
func (m *match) nameFor(seat, p int) string {
	if seat == p {
		return fibs.You
	}
	return m.players[p]
}

// tell sends seat its line and the opponent the other.
func (m *match) tell(seat int, mine, theirs string) {
	if c := m.conns[seat]; c != nil && mine != "" {
		c.send(mine)
	}
	if c := m.conns[1-seat]; c != nil && theirs != "" {
		c.send(theirs)
	}
}

// boardFor writes the board line from seat's view.
func (m *match) boardFor(seat int) string {
	s := m.st()
	b := fibsboard.FromState(s, seat, fibs.You, m.players[1-seat])
	if s.GameState != bg.GamePlaying {
		b.Turn = 0
	}
	if s.Money() {
		b.MatchLength = fibsboard.Money
	}
	return b.WithOrientation(m.colour[seat], direction(m.colour[seat])).String()
}

func (m *match) boards() {
	m.watchers = m.watchers[:0]
	if m.srv != nil {
		for _, u := range m.srv.users {
			if u.watching == m.players[0] || u.watching == m.players[1] {
				m.watchers = append(m.watchers, u)
			}
		}
	}
	for seat, c := range m.conns {
		if c != nil && c.own.Autoboard {
			c.sendBoard(m.boardFor(seat))
		}
	}
	for _, w := range m.watchers {
		if w.watching == m.players[0] {
			w.sendBoard(m.watcherBoard(0))
		} else if w.watching == m.players[1] {
			w.sendBoard(m.watcherBoard(1))
		}
	}
}

// watcherBoard is seat's board with the player's name in place of "You".
func (m *match) watcherBoard(seat int) string {
	b, _ := fibsboard.Parse(m.boardFor(seat))
	b.Player = m.players[seat]
	return b.String()
}

// startMatch begins (or resumes) the match between inviter and joiner.
func (s *Server) startMatch(inviter, joiner *client, length int) {
	delete(s.invites, [2]string{inviter.name, joiner.name})
	delete(s.invites, [2]string{joiner.name, inviter.name})
	m := &match{srv: s}
	if length < 0 {
		sv, err := s.store.loadSaved(inviter.name, joiner.name)
		if err != nil || sv == nil {
			inviter.sendf("** ERROR: Saved match is corrupt. Please start another one.")
			joiner.sendf("** ERROR: Saved match is corrupt. Please start another one.")
			s.log.Printf("resume %s-%s: %v", inviter.name, joiner.name, err)
			return
		}
		b, err := fibs.Rebuild(sv.rec)
		if err != nil {
			s.log.Printf("resume %s-%s: %v", inviter.name, joiner.name, err)
			inviter.send("** ERROR: Saved match is corrupt. Please start another one.")
			joiner.send("** ERROR: Saved match is corrupt. Please start another one.")
			return
		}
		m.players, m.b = sv.players, b
		m.colour = [2]int{sv.colour0, -sv.colour0}
		// The saved row stays until a newer save replaces it.
		m.savedAt = m.progress()
	} else {
		m.players = [2]string{inviter.name, joiner.name}
		rules := record.DefaultRules(length)
		m.b = record.NewBuilder(m.players, rules)
		c0 := 1
		if s.dice()%2 == 0 {
			c0 = -1
		}
		m.colour = [2]int{c0, -c0} // random for the first game, then swapped every game
		// A saved match between the two (the invitee was warned) is
		// replaced by this one's first save.
	}
	for seat, name := range m.players {
		c := s.users[name]
		m.conns[seat] = c
		c.match, c.seat = m, seat
	}
	if length < 0 {
		joiner.sendf("You are now playing with %s. Your running match was loaded.", inviter.name)
		inviter.sendf("%s has joined you. Your running match was loaded.", joiner.name)
		s.log.Printf("match %s-%s resumed", m.players[0], m.players[1])
		if m.betweenGames() {
			m.joined = [2]bool{}
			m.tell(0, "Type 'join' if you want to play the next game, type 'leave' if you don't.", "Type 'join' if you want to play the next game, type 'leave' if you don't.")
			return
		}
		m.boards()
		m.prompt(s)
		return
	}
	joiner.sendf("** You are now playing %s match with %s", lengthText(length), inviter.name)
	inviter.sendf("** Player %s has joined you for %s match.", joiner.name, lengthText(length))
	s.log.Printf("match %s-%s started, length %d", m.players[0], m.players[1], length)
	m.startGame(s)
}

// startGame plays the opening roll and hands the first move over.
func (m *match) startGame(s *Server) {
	var d [2]int
	for d[0] == d[1] {
		d = [2]int{s.dice(), s.dice()}
	}
	first := 0
	if d[1] > d[0] {
		first = 1
	}
	if err := m.b.Roll(first, d[first], d[1-first]); err != nil {
		s.log.Printf("match %s-%s: opening roll: %v", m.players[0], m.players[1], err)
		return
	}
	for seat, c := range m.conns {
		if c == nil {
			continue
		}
		c.sendf("Starting a new game with %s.", m.players[1-seat])
		c.sendf("You rolled %d, %s rolled %d", d[seat], m.players[1-seat], d[1-seat])
	}
	m.tell(first, "It's your turn to move.", fmt.Sprintf("%s makes the first move.", m.players[first]))
	m.afterRoll(s)
}

// afterRoll shows the roll's board and asks for the move, or passes when
// no move is possible.
func (m *match) afterRoll(s *Server) {
	st := m.st()
	seat := st.Move
	legal := st.LegalMoves()
	if len(legal) == 1 && legal[0].N == 0 {
		m.boards()
		m.tell(seat, "You can't move.", fmt.Sprintf("%s can't move.", m.players[seat]))
		if err := m.b.Play(seat, bg.Move{}); err != nil {
			s.log.Printf("match %s-%s: no move: %v", m.players[0], m.players[1], err)
		}
		m.next(s)
		return
	}
	m.boards()
	if c := m.conns[seat]; c != nil {
		c.sendf("Please move %d piece%s.", legal[0].N, plural(int(legal[0].N)))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// next goes on after a move: the game's end, or the next turn.
func (m *match) next(s *Server) {
	st := m.st()
	if st.GameState != bg.GamePlaying {
		m.endGame(s)
		return
	}
	m.prompt(s)
}

// prompt asks the player whose decision it is for it; a roll that needs
// no decision (the cube is not the player's to turn) is rolled at once.
func (m *match) prompt(s *Server) {
	st := m.st()
	switch st.Decision() {
	case bg.DecideCube:
		if c := m.conns[st.Move]; c != nil && !c.own.Double {
			m.roll(s)
			return
		}
		m.boards()
		m.tell(st.Move, "It's your turn. Please roll or double", "")
	case bg.NeedRoll:
		m.roll(s)
	case bg.DecideMove:
		m.boards()
		legal := st.LegalMoves()
		m.tell(st.Move, fmt.Sprintf("Please move %d piece%s.", legal[0].N, plural(int(legal[0].N))), "")
	case bg.DecideTake:
		m.boards()
		m.tell(st.Turn, fmt.Sprintf("%s doubles. Type 'accept' or 'reject'.", m.players[st.Move]), "")
	case bg.DecideResign:
		m.boards()
		pts := int(st.Resigned) * st.CubeValue
		m.tell(st.Turn, fmt.Sprintf("%s wants to resign. You will win %d point%s. Type 'accept' or 'reject'.", m.players[st.Move], pts, plural(pts)), "")
	}
}

func (m *match) roll(s *Server) {
	st := m.st()
	seat := st.Move
	d0, d1 := s.dice(), s.dice()
	if err := m.b.Roll(seat, d0, d1); err != nil {
		s.log.Printf("match %s-%s: roll: %v", m.players[0], m.players[1], err)
		return
	}
	m.tell(seat, fmt.Sprintf("You roll %d and %d.", d0, d1), fmt.Sprintf("%s rolls %d and %d.", m.players[seat], d0, d1))
	m.afterRoll(s)
}

// act runs a game command of player c: only in c's own match, and only
// when the decision is c's.
func (m *match) act(s *Server, c *client, cmd fibs.Command) {
	st := m.st()
	seat := c.seat
	if st.GameState != bg.GamePlaying {
		c.send("** The game is over: type 'join' to play the next game.")
		return
	}
	if st.Turn != seat {
		switch cmd.Verb {
		case "move", "m":
			c.send("** It's not your turn to move.")
		case "roll":
			c.send("** It's not your turn to roll the dice.")
		default:
			c.send("** It's not your turn.")
		}
		return
	}
	opp := m.players[1-seat]
	switch d := st.Decision(); cmd.Verb {
	case "roll":
		if d != bg.DecideCube && d != bg.NeedRoll {
			c.send("** You did already roll the dice.")
			return
		}
		m.roll(s)
	case "double":
		if d != bg.DecideCube {
			c.send("** You can't double now.")
			return
		}
		if err := m.b.Double(seat); err != nil {
			c.send(doubleError(m.st(), seat))
			return
		}
		m.tell(seat, fmt.Sprintf("You double. Please wait for %s to accept or reject.", opp),
			fmt.Sprintf("%s doubles. Type 'accept' or 'reject'.", c.name))
		m.boards()
	case "accept":
		switch d {
		case bg.DecideTake:
			if err := m.b.Take(seat); err != nil {
				c.send("** You can't accept now.")
				return
			}
			cube := m.st().CubeValue
			m.tell(seat, fmt.Sprintf("You accept the double.  The cube shows %d.", cube),
				fmt.Sprintf("%s accepts the double.  The cube shows %d.", c.name, cube))
			m.roll(s)
		case bg.DecideResign:
			if err := m.b.AcceptResignation(seat); err != nil {
				c.send("** You can't accept now.")
				return
			}
			pts := m.st().Points
			m.tell(seat, fmt.Sprintf("You accept and win %d point%s.", pts, plural(pts)),
				fmt.Sprintf("%s accepts and wins %d point%s.", c.name, pts, plural(pts)))
			m.endGame(s)
		default:
			c.send("** There's nothing to accept.")
		}
	case "reject":
		switch d {
		case bg.DecideTake:
			if err := m.b.Drop(seat); err != nil {
				c.send("** You can't reject now.")
				return
			}
			pts := m.st().Points
			m.tell(seat, fmt.Sprintf("You give up. %s wins %d point%s.", opp, pts, plural(pts)),
				fmt.Sprintf("%s gives up. You win %d point%s.", c.name, pts, plural(pts)))
			m.endGame(s)
		case bg.DecideResign:
			if err := m.b.DeclineResignation(seat); err != nil {
				c.send("** You can't reject now.")
				return
			}
			m.tell(seat, "You reject. The game continues.", fmt.Sprintf("%s rejects. The game continues.", c.name))
			m.prompt(s)
		default:
			c.send("** There's nothing to reject.")
		}
	case "resign":
		level := map[string]bg.Result{"n": bg.Single, "normal": bg.Single, "g": bg.Gammon, "gammon": bg.Gammon, "b": bg.Backgammon, "backgammon": bg.Backgammon}
		var lv bg.Result
		if len(cmd.Args) == 1 {
			lv = level[strings.ToLower(cmd.Args[0])]
		}
		if lv == bg.NoResult {
			c.send("** Usage: resign n|g|b")
			return
		}
		if err := m.b.Resign(seat, lv); err != nil {
			c.sendf("** You can't resign now.")
			return
		}
		pts := int(lv) * m.st().CubeValue
		m.tell(seat, fmt.Sprintf("You want to resign. %s will win %d point%s.", opp, pts, plural(pts)),
			fmt.Sprintf("%s wants to resign. You will win %d point%s. Type 'accept' or 'reject'.", c.name, pts, plural(pts)))
	case "move", "m":
		if d != bg.DecideMove {
			c.send("** You have to roll the dice before moving.")
			return
		}
		steps, err := fibs.ParseSteps(strings.Join(cmd.Args, " "))
		if err != nil || len(steps) == 0 {
			c.send("** Usage: move FROM-TO ... (points 1 to 24, bar, off; one FROM-TO a die)")
			return
		}
		mv, err := fibs.ToMove(steps, direction(m.colour[seat]))
		if err == nil {
			err = m.b.Play(seat, mv)
		}
		if err != nil {
			// The rules' own reason names our internal point numbers: the
			// player hears FIBS's words instead.
			c.send(moveError(m.st(), steps, direction(m.colour[seat])))
			return
		}
		if o := m.conns[1-seat]; o != nil {
			o.sendf("%s moves %s .", c.name, fibs.FormatSteps(steps))
		}
		m.next(s)
	default:
		c.sendf("** You can't %s in a match.", cmd.Verb)
	}
}

// endGame announces a finished game, and the match's end or the wait for
// both players to join the next game.
func (m *match) endGame(s *Server) {
	st := m.st()
	w := st.Winner
	if st.GameState == bg.GameOver {
		m.tell(w, fmt.Sprintf("You win the game and get %d point%s. Congratulations!", st.Points, plural(st.Points)),
			fmt.Sprintf("%s wins the game and gets %d point%s. Sorry.", m.players[w], st.Points, plural(st.Points)))
	}
	if !st.Money() {
		for seat, c := range m.conns {
			if c != nil {
				c.sendf("score in %d point match: %s-%d %s-%d", st.MatchLength, m.players[seat], st.Score[seat], m.players[1-seat], st.Score[1-seat])
			}
		}
	}
	if !st.Money() && st.MatchOver() {
		sc := st.Score
		m.tell(w, fmt.Sprintf("You win the %d point match %d-%d .", st.MatchLength, sc[w], sc[1-w]),
			fmt.Sprintf("%s wins the %d point match %d-%d .", m.players[w], st.MatchLength, sc[w], sc[1-w]))
		m.finish(s)
		return
	}
	m.joined = [2]bool{}
	m.tell(0, "Type 'join' if you want to play the next game, type 'leave' if you don't.", "Type 'join' if you want to play the next game, type 'leave' if you don't.")
}

// joinNext records a player's join between games; when both have, the
// next game starts with the colours swapped.
func (m *match) joinNext(s *Server, c *client) {
	if !m.betweenGames() {
		c.send("** The game is still going on.")
		return
	}
	m.joined[c.seat] = true
	if !m.joined[1-c.seat] {
		c.sendf("** Please wait for %s to join too.", m.players[1-c.seat])
		return
	}
	if m.conns[1-c.seat] == nil {
		return
	}
	m.colour = [2]int{-m.colour[0], -m.colour[1]}
	m.startGame(s)
}

// finish writes the match record (.mat), lists it and frees the players.
func (m *match) finish(s *Server) {
	rec := m.b.Match().Clone()
	rec.Event = "fibsd"
	rec.Date = time.Now().UTC().Format("2006-01-02")
	file := ""
	if s.cfg.Records != "" {
		name := fmt.Sprintf("%s-%s-%s.mat", time.Now().UTC().Format("20060102T150405.000"), m.players[0], m.players[1])
		file = filepath.Join(s.cfg.Records, name)
		if err := mat.WriteFile(file, rec); err != nil {
			s.log.Printf("match %s-%s: %v", m.players[0], m.players[1], err)
		}
	}
	sc := m.st().Score
	after, err := s.store.finishMatch(m.players[0], m.players[1], m.st().MatchLength, sc, file)
	if err != nil {
		s.log.Printf("match %s-%s: %v", m.players[0], m.players[1], err)
	} else {
		for seat, c := range m.conns {
			if c != nil {
				c.own.Rating, c.own.Experience = after[seat].Rating, after[seat].Experience
			}
		}
	}
	m.done = true
	s.log.Printf("match %s-%s finished %d-%d (%s)", m.players[0], m.players[1], sc[0], sc[1], file)
	for _, c := range m.conns {
		if c != nil {
			c.match, c.seat = nil, -1
		}
	}
}
