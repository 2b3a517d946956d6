package bgbot

import (
	"math"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// A gammon won with a centred cube under the Jacoby rule counts one point,
// so Move's cubeful objective must not value it at two; with the cube
// turned it does, and the cubeless objective always does.
func TestMoveObjectiveGammonUnderJacoby(t *testing.T) {
	bot, err := NewBot(Config{Level: LevelNet, CubefulMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	cubeless, err := NewBot(Config{Level: LevelNet})
	if err != nil {
		t.Fatal(err)
	}
	var won backgammon.Board // the mover has borne off everything
	won[backgammon.Opponent][12] = 15
	gammon := Probs{Win: 1, WinGammon: 1}
	cases := []struct {
		name  string
		bot   *Bot
		owner int
		want  float32
	}{
		{"cubeful, centred cube", bot, -1, 1},
		{"cubeful, the mover owns the cube", bot, 0, 2},
		{"cubeful, the opponent owns the cube", bot, 1, 2},
		{"cubeless, centred cube", cubeless, -1, 2},
	}
	for _, c := range cases {
		s := backgammon.NewMatch(backgammon.Rules{Cube: true, Jacoby: true})
		if err := s.StartGame(0, 3, 1); err != nil {
			t.Fatal(err)
		}
		s.CubeOwner = c.owner
		if c.owner >= 0 {
			s.CubeValue = 2
		}
		obj, _, err := c.bot.moveObjective(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := obj(&won, gammon); got != c.want {
			t.Errorf("%s: a gammon won is worth %v cubes, want %v", c.name, got, c.want)
		}
	}
}

// Move's objective for a candidate is minus the cubeful equity of the
// opponent on roll after it (one minus its match winning chance): where
// the opponent may double, the better of no double and double/take-or-pass
// as Bot.Cube prices that decision for it. Where the mover owns the cube,
// that is worth at least a centred cube to it.
func TestMoveObjectiveIsOpponentsCubeDecision(t *testing.T) {
	bot, err := NewBot(Config{Level: LevelNet, CubefulMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	rules := []backgammon.Rules{
		{Cube: true, Jacoby: true},
		{Cube: true, CubeLimit: 4},
		{MatchLength: 5, Cube: true, Crawford: true},
	}
	scores := [][2]int{{0, 0}, {2, 3}, {3, 1}}
	owners := []struct{ owner, value int }{{-1, 1}, {0, 2}, {1, 2}, {1, 4}}
	dice := backgammon.NewDice(7, 0)
	checked, doubled, owned := 0, 0, 0
	for ri, r := range rules {
		for _, o := range owners {
			s := backgammon.NewMatch(r)
			if !r.Money() {
				s.Score = scores[ri%len(scores)]
			}
			first, d0, d1 := dice.Opening()
			if err := s.StartGame(first, d0, d1); err != nil {
				t.Fatal(err)
			}
			// Play a game by cubeless moves, the cube set by hand, and
			// check the objective at every tenth move.
			for n := 0; s.GameState == backgammon.GamePlaying && n < 300; n++ {
				switch s.Decision() {
				case backgammon.DecideCube, backgammon.NeedRoll:
					if err := s.SetDice(dice.Roll()); err != nil {
						t.Fatal(err)
					}
					continue
				case backgammon.DecideMove:
				default:
					t.Fatalf("unexpected decision %v", s.Decision())
				}
				s.CubeOwner, s.CubeValue = o.owner, o.value
				m, p, _ := bot.ChooseMove(s.Board, s.Dice[0], s.Dice[1])
				if n%10 == 0 {
					after := s.Board.Apply(m)
					if _, over := Outcome(&after, 15); !over {
						obj, _, err := bot.moveObjective(s)
						if err != nil {
							t.Fatal(err)
						}
						got := float64(obj(&after, p))
						if s.CubeOwner == s.Move {
							// The opponent cannot double: owning the cube
							// must be worth at least as much to the mover as
							// a centred cube at the same value (gammons
							// aside, which the Jacoby rule treats apart).
							if !r.Jacoby {
								centred := *s
								centred.CubeOwner = -1
								cobj, _, err := bot.moveObjective(&centred)
								if err != nil {
									t.Fatal(err)
								}
								if c := float64(cobj(&after, p)); got < c-1e-6 {
									t.Errorf("%+v, move %d: owning the cube worth %.5f to the mover, a centred one %.5f", r, n, got, c)
								}
							}
							owned++
						} else {
							opp := *s
							opp.Board, opp.Move, opp.Turn, opp.Dice = after.Swap(), 1-s.Move, 1-s.Move, [2]int{}
							ce, err := bot.Cube(&opp)
							if err != nil {
								t.Fatal(err)
							}
							want := ce.NoDouble
							if opp.CanDouble() && ce.ShouldDouble() {
								want = min(ce.DoubleTake, ce.DoublePass)
								doubled++
							}
							if r.Money() {
								want = -want
							} else {
								want = 1 - want
							}
							if math.Abs(got-want) > 1e-4 {
								t.Errorf("%+v, cube %d owned by %d, move %d: objective %.5f, the opponent's cube decision gives %.5f", r, o.value, o.owner, n, got, want)
							}
						}
						checked++
					}
				}
				if err := s.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 50 || doubled == 0 || owned == 0 {
		t.Fatalf("checked %d candidates, %d with the opponent doubling, %d with the mover owning the cube: too few to mean anything", checked, doubled, owned)
	}
}

// CubelessClasses set the cubeful objective aside in their classes only:
// in a crashed position the bot that lists crashed chooses as the
// cubeless bot does, in an ordinary contact position as the cubeful one.
func TestCubelessClasses(t *testing.T) {
	mixed := netBot(t, Config{CubefulMoves: true, CubelessClasses: []int{ClassCrashed}})
	cubeful := netBot(t, Config{CubefulMoves: true})
	cubeless := netBot(t, Config{})
	crashed := backgammon.Board{raceSide(map[int]int8{1: 10, 7: 2, 13: 3}), raceSide(map[int]int8{24: 2, 13: 5, 8: 3, 6: 5})}
	if Class(&crashed) != ClassCrashed {
		t.Fatal("the crashed board is not crashed")
	}
	contact := backgammon.Standard.StartBoard()
	p := Probs{Win: 0.7, WinGammon: 0.3}
	for _, r := range []backgammon.Rules{{Cube: true}, {MatchLength: 5, Cube: true, Crawford: true}} {
		for _, c := range []struct {
			name  string
			board backgammon.Board
			like  *Bot
		}{{"crashed", crashed, cubeless}, {"contact", contact, cubeful}} {
			s := backgammon.NewMatch(r)
			if err := s.StartGame(0, 3, 1); err != nil {
				t.Fatal(err)
			}
			s.Board = c.board
			m, _, ok := cubeless.ChooseMove(s.Board, 3, 1)
			if !ok {
				t.Fatalf("%s: no move", c.name)
			}
			after := s.Board.Apply(m)
			value := func(bot *Bot) float32 {
				obj, _, err := bot.moveObjective(s)
				if err != nil {
					t.Fatal(err)
				}
				return obj(&after, p)
			}
			got, want := value(mixed), value(c.like)
			if got != want {
				t.Errorf("%+v, %s: objective %v, want %v as the %s bot's", r, c.name, got, want, c.name)
			}
			if cl, cf := value(cubeless), value(cubeful); cl == cf {
				t.Errorf("%+v, %s: cubeless and cubeful objectives agree (%v), so the case tells nothing", r, c.name, cl)
			}
		}
	}
}
