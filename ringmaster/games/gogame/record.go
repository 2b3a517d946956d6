package gogame

import (
	"fmt"
	"strings"
	"time"

	rules "github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/formats/sgf"
	"github.com/gamemill/gamemill/ringmaster/referee"
)

// record collects what the game's SGF needs beyond the moves.
type record struct {
	event, gameID string
	settings      Settings
	seats         [2]referee.Seat
	scores        []string // each scorer's final_score, for the last comment
}

// write returns the game's SGF (FF[4] GM[1]) by format: SZ, KM, HA and AB
// for the handicap, PB and PW (the player codes), RE, DT, EV, GN, a root
// comment naming the players, and the last node's comment with the result's
// reason and the scorers' answers. A void game (voidErr set) keeps its SGF
// only when at least one move was played, with RE[Void] and the reason.
func (r *record) write(g *rules.Game, out *referee.Outcome, voidErr error) map[string]string {
	moves := g.Moves()
	if voidErr != nil && len(moves) == 0 {
		return nil
	}
	size := r.settings.BoardSize
	root := &sgf.Node{}
	add := func(n *sgf.Node, id string, values ...string) {
		n.Props = append(n.Props, sgf.Property{ID: id, Values: values})
	}
	add(root, "FF", "4")
	add(root, "GM", "1")
	add(root, "CA", "UTF-8")
	add(root, "AP", "gamemill ringmaster")
	add(root, "SZ", fmt.Sprint(size))
	add(root, "KM", komiText(r.settings.Komi))
	if hc := g.Handicap(); len(hc) > 0 {
		add(root, "HA", fmt.Sprint(len(hc)))
		var pts []string
		for _, m := range hc {
			pts = append(pts, m.SGF(size))
		}
		add(root, "AB", pts...)
	}
	add(root, "PB", r.seats[0].Code)
	add(root, "PW", r.seats[1].Code)
	add(root, "DT", time.Now().UTC().Format("2006-01-02"))
	if r.event != "" {
		add(root, "EV", r.event)
	}
	add(root, "GN", r.gameID)
	result := out.Result
	if voidErr != nil {
		result = ResultVoid
	}
	add(root, "RE", result)
	add(root, "C", fmt.Sprintf("Black %s\nWhite %s", r.seats[0].Code, r.seats[1].Code))
	nodes := []*sgf.Node{root}
	for _, p := range moves {
		n := &sgf.Node{}
		v := ""
		if p.Move != rules.Pass {
			v = p.Move.SGF(size)
		}
		add(n, strings.ToUpper(colourWord(p.Color)), v)
		nodes = append(nodes, n)
	}
	var last []string
	switch {
	case voidErr != nil:
		last = append(last, "void: "+oneLine(voidErr.Error()))
	case out.Detail != "":
		last = append(last, out.Detail)
	}
	last = append(last, r.scores...)
	if len(last) > 0 {
		n := nodes[len(nodes)-1]
		text := strings.Join(last, "\n")
		if n == root {
			// One C property a node: the root already has its comment.
			root.Props[len(root.Props)-1].Values[0] += "\n\n" + text
		} else {
			add(n, "C", text)
		}
	}
	return map[string]string{"sgf": sgf.Format([]*sgf.Tree{{Nodes: nodes}})}
}
