package scratch

import (
	"context"
	"fmt"
	"github.com/gamemill/gamemill/player/gnubg"
	"os"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
)

func load(t *testing.T, name string) *bgbot.Weights {
	raw, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := bgbot.ParseWeights(raw)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestRaceSet(t *testing.T) {
	f, _ := os.Open(os.Getenv("SET"))
	set, err := benchset.ReadMoves(f)
	if err != nil {
		t.Fatal(err)
	}
	db, err := bgbot.LoadBearoff("/tmp/g/bearoff15.bgbo")
	if err != nil {
		t.Fatal(err)
	}
	g0f, _ := os.Open(os.Getenv("G0"))
	g0, _ := benchset.ReadMoves(g0f)
	g0choice := benchset.SetChoice(g0)
	for _, pair := range [][2]string{{"v7", "w8"}, {"v9", "w10"}} {
		bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Weights: load(t, "/tmp/runs/w/"+pair[0]+".bgnet"), Bearoff: db,
			MoveWeights: []*bgbot.Weights{load(t, "/tmp/runs/w/"+pair[1]+".bgnet")}})
		if err != nil {
			t.Fatal(err)
		}
		choose := benchset.BotChoice(bot)
		type agg struct {
			n         int
			ours, gnu float64
		}
		cats := map[string]*agg{}
		for _, d := range set {
			best := d.Results[0].Equity
			for _, r := range d.Results {
				best = max(best, r.Equity)
			}
			loss := func(b backgammon.Board) float64 {
				for _, r := range d.Results {
					if r.Board == b {
						return best - r.Equity
					}
				}
				return -1
			}
			a := loss(choose(d.Board, d.Dice[0], d.Dice[1]))
			g := loss(g0choice(d.Board, d.Dice[0], d.Dice[1]))
			off := 15 - d.Board.OnBoard(backgammon.OnRoll)
			oppOff := 15 - d.Board.OnBoard(backgammon.Opponent)
			home := true
			for p := 6; p < 25; p++ {
				if d.Board[backgammon.OnRoll][p] > 0 {
					home = false
				}
			}
			c := "other"
			switch {
			case best < -0.99:
				c = "eq<-1 (saving gammon)"
			case best > 1.01:
				c = "eq>1 (winning gammon)"
			case off == 0 && oppOff > 0:
				c = "mover 0 off, opp off"
			case home:
				c = "mover bearing off"
			default:
				c = "mover bearing in"
			}
			for _, k := range []string{c, "all"} {
				if cats[k] == nil {
					cats[k] = &agg{}
				}
				cats[k].n++
				cats[k].ours += a
				cats[k].gnu += g
			}
		}
		fmt.Println(pair)
		for k, v := range cats {
			fmt.Printf("  %-24s %5d ours %.2f gnubg0 %.2f (EMG in all %.3f / %.3f)\n", k, v.n, 1000*v.ours/float64(v.n), 1000*v.gnu/float64(v.n), v.ours, v.gnu)
		}
	}
}

func TestWorst(t *testing.T) {
	f, _ := os.Open(os.Getenv("SET"))
	set, _ := benchset.ReadMoves(f)
	db, _ := bgbot.LoadBearoff("/tmp/g/bearoff15.bgbo")
	w := load(t, "/tmp/runs/w/v9.bgnet")
	bot, _ := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Weights: w, Bearoff: db})
	choose := benchset.BotChoice(bot)
	ev := w.NewEvaluator()
	n := 0
	for _, d := range set {
		bi := 0
		for i, r := range d.Results {
			if r.Equity > d.Results[bi].Equity {
				bi = i
			}
		}
		if d.Results[bi].Equity > -0.99 {
			continue
		}
		c := choose(d.Board, d.Dice[0], d.Dice[1])
		var ce float64
		for _, r := range d.Results {
			if r.Board == c {
				ce = r.Equity
			}
		}
		if d.Results[bi].Equity-ce < 0.01 {
			continue
		}
		n++
		if n > 6 {
			break
		}
		fmt.Printf("board %v dice %v loss %.3f\n", d.Board, d.Dice, d.Results[bi].Equity-ce)
		for _, b := range []backgammon.Board{d.Results[bi].Board, c} {
			sw := b.Swap()
			p := ev.Evaluate(sw).Invert()
			var eq float64
			for _, r := range d.Results {
				if r.Board == b {
					eq = r.Equity
				}
			}
			fmt.Printf("   after %v  gnubg %.3f  ours win %.3f lg %.3f lbg %.3f eq %.3f\n", b, eq, p[0], p[3], p[4], p.Equity())
		}
	}
}

func TestJudgeOne(t *testing.T) {
	var b backgammon.Board
	// mover (after its move, opponent's view swapped later): 10:1 8:1 7:1 6:5 5:2 4:3 3:2 ; opponent 3:1 2:3
	set := func(s *[25]int8, pts map[int]int8) {
		for p, n := range pts {
			s[p-1] = n
		}
	}
	set(&b[backgammon.OnRoll], map[int]int8{10: 1, 8: 1, 7: 1, 6: 5, 5: 2, 4: 3, 3: 2})
	set(&b[backgammon.Opponent], map[int]int8{3: 1, 2: 3})
	c := b
	c[backgammon.OnRoll] = [25]int8{}
	set(&c[backgammon.OnRoll], map[int]int8{14: 1, 7: 1, 6: 5, 5: 2, 4: 4, 3: 2})
	boards := []backgammon.Board{b.Swap(), c.Swap()}
	for _, pl := range []int{0, 1, 2} {
		p, err := gnubg.Judge(context.Background(), "/usr/games/gnubg", pl, 1, boards, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("gnubg plies", pl, p)
	}
	for _, n := range []string{"v7", "v9", "w8", "w10"} {
		ev := load(t, "/tmp/runs/w/"+n+".bgnet").NewEvaluator()
		fmt.Println(n, ev.Evaluate(boards[0]), ev.Evaluate(boards[1]))
	}
}
