package mat

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
)

// Write writes m as a .mat file laid out as gnubg exports it. It replays
// the record (record.Walk) to write each move as its steps, and fails if the
// record does not replay. Rules that differ from record.DefaultRules are
// written as header tags ("; [Jacoby "On"]", and a money cube limit as
// "; [MaxCube "64"]"), which gnubg ignores.
// Resignations, rejected resignations and forfeits leave no line of their
// own: the winner's "Wins N points" line records the result.
func Write(w io.Writer, m *record.Match) error {
	games := make([]*gameLines, len(m.Games))
	for i := range games {
		games[i] = &gameLines{}
	}
	err := record.Walk(m, func(p *record.Position) error {
		gl := games[p.GameIndex]
		a := p.Action
		switch a.Kind {
		case record.Move:
			gl.add(a.Player, moveText(a.Dice, p.Board, p.Move), true)
		case record.Roll:
			gl.add(a.Player, fmt.Sprintf("%d%d:", a.Dice[0], a.Dice[1]), true)
		case record.Double:
			gl.add(a.Player, fmt.Sprintf(" Doubles => %d", 2*p.State.CubeValue), true)
		case record.Take:
			gl.add(a.Player, " Takes", true)
		case record.Drop:
			gl.add(a.Player, " Drops", true)
		case record.Beaver:
			gl.add(a.Player, fmt.Sprintf(" Beavers => %d", 4*p.State.CubeValue), true)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mat: write: %w", err)
	}
	bw := bufio.NewWriter(w)
	writeHeader(bw, m)
	for i := range m.Games {
		g := &m.Games[i]
		gl := games[i]
		if g.Finished() {
			unit := "points"
			if g.Points == 1 {
				unit = "point"
			}
			gl.add(g.Winner, fmt.Sprintf(" Wins %d %s", g.Points, unit), false)
		}
		fmt.Fprintf(bw, " Game %d\n", i+1)
		left := fmt.Sprintf(" %s : %d", playerName(m.Players[0]), g.ScoreBefore[0])
		fmt.Fprintf(bw, "%-31s %s : %d\n", left, playerName(m.Players[1]), g.ScoreBefore[1])
		n := 0
		for _, l := range gl.lines {
			prefix := "     "
			if l.numbered {
				n++
				prefix = fmt.Sprintf("%3d) ", n)
			}
			sep := ""
			if len(l.left) >= 28 && l.hasRight {
				sep = " "
			}
			text := fmt.Sprintf("%s%-28s%s%s", prefix, l.left, sep, l.right)
			if !l.numbered {
				text = strings.TrimRight(text, " ")
			}
			bw.WriteString(text + "\n")
		}
		bw.WriteString("\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("mat: write: %w", err)
	}
	return nil
}

func writeHeader(w *bufio.Writer, m *record.Match) {
	tag := func(name, val string) {
		if val != "" {
			fmt.Fprintf(w, "; [%s \"%s\"]\n", name, oneLine(val))
		}
	}
	tag("Site", m.Place)
	tag("Event", m.Event)
	tag("Round", m.Round)
	tag("EventDate", strings.ReplaceAll(m.Date, "-", "."))
	if m.Rules.Variant != backgammon.Standard {
		for _, v := range variantNames {
			if v.v == m.Rules.Variant {
				tag("Variation", v.name)
			}
		}
	}
	def := record.DefaultRules(m.MatchLength)
	onOff := func(name string, v, d bool) {
		if v != d {
			tag(name, map[bool]string{true: "On", false: "Off"}[v])
		}
	}
	onOff("Crawford", m.Rules.Crawford, def.Crawford)
	onOff("Jacoby", m.Rules.Jacoby, def.Jacoby)
	onOff("Beavers", m.Rules.Beavers, def.Beavers)
	onOff("Cube", m.Rules.Cube, def.Cube)
	if r := m.Rules.InForce(); r.CubeLimit > 0 {
		tag("MaxCube", strconv.Itoa(r.CubeLimit))
	}
	w.WriteString("\n")
	if m.Comment != "" {
		for _, l := range strings.Split(m.Comment, "\n") {
			fmt.Fprintf(w, "; %s\n", l)
		}
	}
	fmt.Fprintf(w, " %d point match\n\n", m.MatchLength)
}

// playerName makes a name fit the player line: a colon would make the line
// ambiguous, and a line break would end it.
func playerName(s string) string {
	return strings.NewReplacer(":", ".", "\n", " ").Replace(s)
}

func oneLine(s string) string {
	return strings.ReplaceAll(s, "\n", " ")
}

// moveText writes a roll and its move as .mat does: each die's step as
// from/to from the mover's side, 25 for the bar, 0 for off, * for a hit.
func moveText(dice [2]int, b backgammon.Board, mv backgammon.Move) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d%d:", dice[0], dice[1])
	hits := record.Hits(b, mv)
	for i, s := range mv.StepList() {
		fmt.Fprintf(&sb, " %d/%d", s.From, s.To)
		if hits[i] {
			sb.WriteByte('*')
		}
	}
	return sb.String()
}

type line struct {
	numbered          bool
	left, right       string
	hasLeft, hasRight bool
}

type gameLines struct{ lines []line }

// add places an entry in its player's column: player 0's always opens a
// line; player 1's goes beside the last line's left entry when that line's
// right column is free.
func (g *gameLines) add(player int, text string, numbered bool) {
	if player == 1 && len(g.lines) > 0 && !g.lines[len(g.lines)-1].hasRight {
		l := &g.lines[len(g.lines)-1]
		l.right, l.hasRight = text, true
		return
	}
	l := line{numbered: numbered}
	if player == 0 {
		l.left, l.hasLeft = text, true
	} else {
		l.right, l.hasRight = text, true
	}
	g.lines = append(g.lines, l)
}
