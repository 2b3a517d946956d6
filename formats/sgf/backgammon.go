package sgf

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"regexp"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/record"
)

// GNU Backgammon's SGF (GM[6]) holds one game tree per game. Its root node
// carries the match: MI[length:N][game:G][ws:S0][bs:S1] (G counts from 0,
// S0 and S1 the score before the game), PW and PB (player 0 is White, player
// 1 Black), RU (colon-separated: Crawford, CrawfordGame, Jacoby, NoCube,
// Nackgammon, Hypergammon1..3), RE (W+2, B+1R for a resignation), DT, EV,
// RO, PC, GC. Each later node holds one action: W[52lhjh] is White rolling
// 5-2 and moving its checkers l to h and j to h, where a..x are the points
// counted from White's side (a is White's 1-point, Black's 24-point), y the
// bar and z borne off; W[double], B[take], B[drop]; a double by the player
// facing a double is a beaver. PL[W]DI[53] records a roll on its own.
// Resignations are not written: a game that stops in play with a result was
// resigned (record.Replay infers it).

var reRE = regexp.MustCompile(`^([WB])\+(\d+)([A-Za-z]*)$`)

// Read parses a gnubg SGF file into a record. Moves become notation with
// 25 for the bar and 0 for off, hits marked; record.Replay checks them and
// makes them canonical. Rules the file does not state are those of
// record.DefaultRules. Analysis properties are ignored; setup properties
// (AB, AW, AE, CO, CV) are refused, since a record cannot hold them.
func Read(r io.Reader) (*record.Match, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("sgf: read: %w", err)
	}
	trees, err := Parse(data)
	if err != nil {
		return nil, err
	}
	m := &record.Match{Rules: backgammon.Rules{MatchLength: -1}}
	var rules *backgammon.Rules
	beaver := false
	for ti, t := range trees {
		nodes := t.MainLine()
		g, err := readGame(m, &rules, nodes, ti, &beaver)
		if err != nil {
			return nil, err
		}
		m.Games = append(m.Games, g)
	}
	if rules == nil {
		r := record.DefaultRules(m.MatchLength)
		rules = &r
	}
	if beaver && m.MatchLength == 0 {
		rules.Beavers = true // the file shows that beavers were allowed
	}
	m.Rules = *rules
	return m, nil
}

func nodeErr(n *Node, format string, args ...any) error {
	return &SyntaxError{Line: n.Line, Column: n.Column, Err: fmt.Errorf(format, args...)}
}

func readGame(m *record.Match, rules **backgammon.Rules, nodes []*Node, ti int, beaver *bool) (record.Game, error) {
	root := nodes[0]
	g := record.Game{Number: ti + 1}
	if gm, ok := root.Value("GM"); ok && strings.TrimSpace(gm) != "6" {
		return g, nodeErr(root, "GM[%s] is not backgammon (GM[6])", gm)
	}
	length := -1
	for _, v := range root.Values("MI") {
		key, val, ok := strings.Cut(v, ":")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(val))
		switch key {
		case "length", "game", "ws", "bs":
			if err != nil || n < 0 || n > 1<<30 {
				return g, nodeErr(root, "MI %s: want a number, got %q", key, val)
			}
		}
		switch key {
		case "length":
			length = n
		case "game":
			if n != ti {
				return g, nodeErr(root, "MI game:%d in game tree %d (want game:%d)", n, ti+1, ti)
			}
		case "ws":
			g.ScoreBefore[0] = n
		case "bs":
			g.ScoreBefore[1] = n
		}
	}
	if length < 0 {
		if m.MatchLength < 0 {
			return g, nodeErr(root, "no match length (MI[length:N])")
		}
		length = m.MatchLength
	}
	if m.MatchLength < 0 {
		m.MatchLength = length
	} else if m.MatchLength != length {
		return g, nodeErr(root, "match length %d differs from the first game's %d", length, m.MatchLength)
	}
	var players [2]string
	players[0], _ = root.Value("PW")
	players[1], _ = root.Value("PB")
	if ti == 0 {
		m.Players = players
	} else if players != m.Players && players != [2]string{} {
		return g, nodeErr(root, "players %q and %q differ from the first game's %q and %q", players[0], players[1], m.Players[0], m.Players[1])
	}
	for id, dst := range map[string]*string{"DT": &m.Date, "EV": &m.Event, "RO": &m.Round, "PC": &m.Place, "GC": &m.Comment} {
		if v, ok := root.Value(id); ok && *dst == "" {
			*dst = v
		}
	}
	if c, ok := root.Value("C"); ok {
		g.Comment = c
	}
	if ru, ok := root.Value("RU"); ok {
		r := record.DefaultRules(length)
		r.Crawford = false
		for _, tok := range strings.Split(ru, ":") {
			switch strings.ToLower(strings.TrimSpace(tok)) {
			case "crawford":
				r.Crawford = true
			case "crawfordgame":
				r.Crawford = true
				g.Crawford = true
			case "jacoby":
				r.Jacoby = true
			case "nocube":
				r.Cube = false
			case "beavers":
				r.Beavers = true
			case "nackgammon":
				r.Variant = backgammon.Nackgammon
			case "hypergammon1":
				r.Variant = backgammon.Hypergammon1
			case "hypergammon2":
				r.Variant = backgammon.Hypergammon2
			case "hypergammon3":
				r.Variant = backgammon.Hypergammon3
			}
		}
		if *rules == nil {
			*rules = &r
		} else {
			if (*rules).Variant != r.Variant {
				return g, nodeErr(root, "variant %v in RU[%s] differs from the first game's %v", r.Variant, ru, (*rules).Variant)
			}
			(*rules).Crawford = (*rules).Crawford || r.Crawford
		}
	}
	if re, ok := root.Value("RE"); ok && strings.TrimSpace(re) != "" {
		mm := reRE.FindStringSubmatch(strings.TrimSpace(re))
		if mm == nil {
			return g, nodeErr(root, "result RE[%s]: want W+N or B+N", re)
		}
		n, err := strconv.Atoi(mm[2])
		if err != nil || n < 1 || n > 1<<30 {
			return g, nodeErr(root, "result RE[%s]: bad points", re)
		}
		g.Winner, g.Points = 0, n
		if mm[1] == "B" {
			g.Winner = 1
		}
	}
	// The board, seen from player 0, to mark hits in the notation.
	board := variantOf(*rules).StartBoard()
	pendingDice := [2]int{}
	pendingPlayer := -1
	doubled := false
	var set *setup // a position set up before the game's first action
	for ni, n := range nodes {
		if ni == 0 {
			continue
		}
		for _, pr := range n.Props {
			switch pr.ID {
			case "AB", "AW", "AE", "CP", "CV":
				if len(g.Actions) > 0 {
					return g, nodeErr(n, "setup property %s after the game's first action is not supported", pr.ID)
				}
				if set == nil {
					set = &setup{board: variantOf(*rules).StartBoard(), mover: -1, cube: 1, owner: -1}
				}
				if err := set.apply(pr); err != nil {
					return g, nodeErr(n, "%s: %v", pr.ID, err)
				}
			case "CO":
				return g, nodeErr(n, "setup property %s is not supported", pr.ID)
			}
		}
		if pl, ok := n.Value("PL"); ok && set != nil && len(g.Actions) == 0 {
			mover, ok := map[string]int{"W": 0, "B": 1}[pl]
			if !ok {
				return g, nodeErr(n, "PL[%s]: want W or B", pl)
			}
			set.mover = mover
		}
		if v, ok := n.Value("DI"); ok {
			d, err := parseDice(v)
			if err != nil {
				return g, nodeErr(n, "DI[%s]: %v", v, err)
			}
			pl, _ := n.Value("PL")
			switch pl {
			case "W":
				pendingPlayer = 0
			case "B":
				pendingPlayer = 1
			default:
				return g, nodeErr(n, "DI without PL[W] or PL[B]")
			}
			pendingDice = d
		}
		player := -1
		var val string
		for _, id := range []string{"W", "B"} {
			if v, ok := n.Value(id); ok {
				if player >= 0 {
					return g, nodeErr(n, "both W and B in one node")
				}
				player, val = map[string]int{"W": 0, "B": 1}[id], v
			}
		}
		if player < 0 {
			continue
		}
		if len(g.Actions) == 0 && set != nil {
			if err := set.begin(&g, &board, player, length, *rules); err != nil {
				return g, nodeErr(n, "set-up position: %v", err)
			}
		}
		a := record.Action{Player: player}
		a.Comment, _ = n.Value("C")
		switch strings.ToLower(strings.TrimSpace(val)) {
		case "double":
			if doubled {
				a.Kind = record.Beaver
				*beaver = true
			} else {
				a.Kind = record.Double
			}
			doubled = !doubled
		case "beaver":
			a.Kind, doubled, *beaver = record.Beaver, false, true
		case "take":
			a.Kind, doubled = record.Take, false
		case "drop", "pass":
			a.Kind, doubled = record.Drop, false
		case "resign":
			return g, nodeErr(n, "resign nodes are not supported")
		default:
			dice, steps, err := parseMove(val, player)
			if err != nil {
				return g, nodeErr(n, "move %s[%s]: %v", map[int]string{0: "W", 1: "B"}[player], val, err)
			}
			if len(g.Actions) == 0 && set == nil {
				board = variantOf(*rules).StartBoard()
			}
			view := board
			if player == 1 {
				view = view.Swap()
			}
			var mv backgammon.Move
			for i, s := range steps {
				mv.Steps[i] = s
			}
			mv.N = int8(len(steps))
			hits := record.Hits(view, mv)
			var parts []string
			for i, s := range steps {
				t := fmt.Sprintf("%d/%d", s.From, s.To)
				if hits[i] {
					t += "*"
				}
				parts = append(parts, t)
			}
			view = view.Apply(mv)
			if player == 1 {
				view = view.Swap()
			}
			board = view
			a.Kind, a.Dice, a.Move = record.Move, dice, strings.Join(parts, " ")
			pendingPlayer = -1
		}
		g.Actions = append(g.Actions, a)
	}
	if pendingPlayer < 0 && len(g.Actions) == 0 && set != nil {
		// A position set up with nothing played after it.
		if err := set.begin(&g, &board, max(set.mover, 0), length, *rules); err != nil {
			return g, nodeErr(nodes[len(nodes)-1], "set-up position: %v", err)
		}
	}
	if pendingPlayer >= 0 {
		if len(g.Actions) == 0 && set != nil {
			if err := set.begin(&g, &board, pendingPlayer, length, *rules); err != nil {
				return g, nodeErr(nodes[len(nodes)-1], "set-up position: %v", err)
			}
		}
		g.Actions = append(g.Actions, record.Action{Player: pendingPlayer, Kind: record.Roll, Dice: pendingDice})
	}
	return g, nil
}

// setup is a position set up by gnubg's setup properties before a game's
// first action: AE empties points, AB and AW add Black's (player 1's) and
// White's (player 0's) checkers, one per letter (a point list's a:c covers
// a to c; y is the bar), PL names the player on roll, CV and CP give the
// cube's value and its owner (c centred, w, b). The board starts as the
// variant's start, as in gnubg.
type setup struct {
	board backgammon.Board // seen from player 0, as readGame keeps it
	mover int              // from PL, -1 if none
	cube  int
	owner int // -1 centred
}

func (s *setup) apply(pr Property) error {
	switch pr.ID {
	case "CV":
		v, err := strconv.Atoi(strings.TrimSpace(pr.Values[0]))
		if err != nil || v < 1 || v > 1<<15 || v&(v-1) != 0 {
			return fmt.Errorf("want a power of two, got %q", pr.Values[0])
		}
		s.cube = v
		return nil
	case "CP":
		owner, ok := map[string]int{"c": -1, "w": 0, "b": 1}[strings.ToLower(strings.TrimSpace(pr.Values[0]))]
		if !ok {
			return fmt.Errorf("want c, w or b, got %q", pr.Values[0])
		}
		s.owner = owner
		return nil
	}
	for _, v := range pr.Values {
		from, to, isRange := strings.Cut(strings.TrimSpace(v), ":")
		if !isRange {
			to = from
		}
		if len(from) != 1 || len(to) != 1 || from[0] < 'a' || to[0] > 'y' || from[0] > to[0] {
			return fmt.Errorf("bad point %q (want a to y, or a range such as a:y)", v)
		}
		for c := from[0]; c <= to[0]; c++ {
			for player := range 2 {
				if pr.ID == "AE" || pr.ID == "AW" && player == 0 || pr.ID == "AB" && player == 1 {
					p, _ := point(c, player)
					side := [2]int{backgammon.OnRoll, backgammon.Opponent}[player]
					i := p - 1
					if p == 25 {
						i = backgammon.BarIndex
					}
					if pr.ID == "AE" {
						s.board[side][i] = 0
					} else {
						s.board[side][i]++
					}
				}
			}
		}
	}
	return nil
}

// begin sets game g up at the position (its Start, gnubg's "position
// ID:match ID") once its first action, by player, is read, and makes it
// the board readGame marks hits on.
// rules are the match's so far: nil without RU, which means the defaults.
func (s *setup) begin(g *record.Game, board *backgammon.Board, player, length int, rules *backgammon.Rules) error {
	r := record.DefaultRules(length)
	if rules != nil {
		r = *rules
	}
	mover := s.mover
	if mover < 0 {
		mover = player
	}
	view := s.board
	if mover == 1 {
		view = view.Swap()
	}
	owner := gnubgid.CubeCentred
	if s.owner >= 0 {
		owner = s.owner
	}
	key := gnubgid.MatchKey{CubeLog2: bits.Len(uint(s.cube)) - 1, CubeOwner: owner, DiceOwner: mover, Turn: mover,
		Crawford: g.Crawford, GameState: int(backgammon.GamePlaying), MatchLength: length, Score: g.ScoreBefore, JacobyOff: !r.Jacoby}
	start := gnubgid.EncodePosition(view) + ":" + gnubgid.EncodeMatchKey(key)
	if _, err := record.DecodeStart(start, r); err != nil {
		return err
	}
	g.Start, *board = start, s.board
	return nil
}

func variantOf(r *backgammon.Rules) backgammon.Variant {
	if r == nil {
		return backgammon.Standard
	}
	return r.Variant
}

func parseDice(s string) ([2]int, error) {
	if len(s) != 2 || s[0] < '1' || s[0] > '6' || s[1] < '1' || s[1] > '6' {
		return [2]int{}, errors.New("want two dice 1 to 6")
	}
	return [2]int{int(s[0] - '0'), int(s[1] - '0')}, nil
}

// parseMove reads "52lhjh": the dice, then from/to letter pairs.
func parseMove(v string, player int) ([2]int, []backgammon.Step, error) {
	if len(v) < 2 {
		return [2]int{}, nil, errors.New("want dice and from/to letters")
	}
	dice, err := parseDice(v[:2])
	if err != nil {
		return dice, nil, err
	}
	rest := v[2:]
	if len(rest)%2 != 0 || len(rest) > 8 {
		return dice, nil, errors.New("want up to four from/to letter pairs")
	}
	var steps []backgammon.Step
	for i := 0; i < len(rest); i += 2 {
		from, err := point(rest[i], player)
		if err != nil {
			return dice, nil, err
		}
		to, err := point(rest[i+1], player)
		if err != nil {
			return dice, nil, err
		}
		if from == 0 {
			return dice, nil, errors.New("a checker cannot move from off the board (z)")
		}
		if to == 25 {
			return dice, nil, errors.New("a checker cannot move to the bar (y)")
		}
		steps = append(steps, backgammon.Step{From: int8(from), To: int8(to)})
	}
	return dice, steps, nil
}

// point turns a letter into a point from the mover's view: 25 for the bar,
// 0 for off.
func point(c byte, player int) (int, error) {
	switch {
	case c == 'y':
		return 25, nil
	case c == 'z':
		return 0, nil
	case c >= 'a' && c <= 'x':
		if player == 0 {
			return int(c-'a') + 1, nil
		}
		return 24 - int(c-'a'), nil
	}
	return 0, fmt.Errorf("bad point letter %q (want a to z)", rune(c))
}

// letter is point's inverse.
func letter(p int, player int) byte {
	switch {
	case p >= 25:
		return 'y'
	case p <= 0:
		return 'z'
	case player == 0:
		return byte('a' + p - 1)
	}
	return byte('a' + 24 - p)
}

// Write writes m as gnubg's SGF: one game tree per game. It replays the
// record (record.Walk) to turn moves into their steps and fails if the
// record does not replay. Resignations, rejected resignations and forfeits
// leave no node: the root's RE records the result (with R for a
// resignation).
func Write(w io.Writer, m *record.Match) error {
	bodies := make([]strings.Builder, len(m.Games))
	colour := [2]string{"W", "B"}
	err := record.Walk(m, func(p *record.Position) error {
		a := p.Action
		sb := &bodies[p.GameIndex]
		var val string
		switch a.Kind {
		case record.Move:
			var v strings.Builder
			fmt.Fprintf(&v, "%d%d", a.Dice[0], a.Dice[1])
			for _, s := range p.Move.StepList() {
				v.WriteByte(letter(int(s.From), a.Player))
				v.WriteByte(letter(int(s.To), a.Player))
			}
			val = v.String()
		case record.Roll:
			fmt.Fprintf(sb, "\n;PL[%s]DI[%d%d]", colour[a.Player], a.Dice[0], a.Dice[1])
			return nil
		case record.Double, record.Beaver:
			val = "double"
		case record.Take:
			val = "take"
		case record.Drop:
			val = "drop"
		default:
			return nil
		}
		fmt.Fprintf(sb, "\n;%s[%s]", colour[a.Player], val)
		if a.Comment != "" {
			fmt.Fprintf(sb, "C[%s]", Escape(a.Comment))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sgf: write: %w", err)
	}
	var out strings.Builder
	for i := range m.Games {
		g := &m.Games[i]
		fmt.Fprintf(&out, "(;FF[4]GM[6]CA[UTF-8]AP[Gamemill]MI[length:%d][game:%d][ws:%d][bs:%d]",
			m.MatchLength, i, g.ScoreBefore[0], g.ScoreBefore[1])
		fmt.Fprintf(&out, "PW[%s]PB[%s]", Escape(m.Players[0]), Escape(m.Players[1]))
		if i == 0 {
			for _, f := range []struct{ id, v string }{{"DT", m.Date}, {"EV", m.Event}, {"RO", m.Round}, {"PC", m.Place}, {"GC", m.Comment}} {
				if f.v != "" {
					fmt.Fprintf(&out, "%s[%s]", f.id, Escape(f.v))
				}
			}
		}
		// RU is written even when empty: without it a reader assumes the defaults.
		fmt.Fprintf(&out, "RU[%s]", rulesText(m, g))
		if g.Finished() {
			res := fmt.Sprintf("%s+%d", colour[g.Winner], g.Points)
			if g.End == backgammon.GameResigned {
				res += "R"
			}
			fmt.Fprintf(&out, "RE[%s]", res)
		}
		if g.Comment != "" {
			fmt.Fprintf(&out, "C[%s]", Escape(g.Comment))
		}
		if g.Start != "" {
			if err := writeSetup(&out, g.Start, m.Rules); err != nil {
				return fmt.Errorf("sgf: write: game %d: %w", i+1, err)
			}
		}
		out.WriteString(bodies[i].String())
		out.WriteString(")\n")
	}
	if _, err := io.WriteString(w, out.String()); err != nil {
		return fmt.Errorf("sgf: write: %w", err)
	}
	return nil
}

// writeSetup writes a game's start position (gnubg's "position ID:match
// ID") as gnubg's setup nodes: the player on roll and the checkers, then
// the cube where it is not centred at 1.
func writeSetup(out *strings.Builder, start string, rules backgammon.Rules) error {
	at, err := record.DecodeStart(start, rules)
	if err != nil {
		return fmt.Errorf("start %q: %w", start, err)
	}
	colour := [2]string{"W", "B"}
	fmt.Fprintf(out, "\n;PL[%s]AE[a:y]", colour[at.Move])
	for _, player := range []int{0, 1} {
		side := at.Board[backgammon.Opponent]
		if player == at.Move {
			side = at.Board[backgammon.OnRoll]
		}
		total := 0
		for _, n := range side {
			total += int(n)
		}
		if total == 0 {
			continue
		}
		fmt.Fprintf(out, "A%s", colour[player])
		for i, n := range side {
			p := i + 1
			if i == backgammon.BarIndex {
				p = 25
			}
			for range n {
				fmt.Fprintf(out, "[%c]", letter(p, player))
			}
		}
	}
	if at.CubeValue > 1 {
		fmt.Fprintf(out, "\n;CV[%d]", at.CubeValue)
	}
	if at.CubeOwner == 0 || at.CubeOwner == 1 {
		fmt.Fprintf(out, "\n;CP[%s]", strings.ToLower(colour[at.CubeOwner]))
	}
	return nil
}

func rulesText(m *record.Match, g *record.Game) string {
	var toks []string
	if !m.Rules.Cube {
		toks = append(toks, "NoCube")
	}
	if m.MatchLength > 0 && m.Rules.Crawford {
		toks = append(toks, "Crawford")
		if g.Crawford {
			toks = append(toks, "CrawfordGame")
		}
	}
	if m.MatchLength == 0 && m.Rules.Jacoby {
		toks = append(toks, "Jacoby")
	}
	switch m.Rules.Variant {
	case backgammon.Nackgammon:
		toks = append(toks, "Nackgammon")
	case backgammon.Hypergammon1:
		toks = append(toks, "Hypergammon1")
	case backgammon.Hypergammon2:
		toks = append(toks, "Hypergammon2")
	case backgammon.Hypergammon3:
		toks = append(toks, "Hypergammon3")
	}
	return strings.Join(toks, ":")
}
