// Package fibsboard reads and writes FIBS board strings (CLIP boardstyle 3):
// 53 colon-separated fields that describe a position, the dice, the cube
// and the match from one player's view ("You"). GNU Backgammon's external
// interface speaks this format; FromState writes the form gnubg itself
// writes (colour 1, direction -1, home 0, bar 25).
package fibsboard

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// NumFields is the number of colon-separated fields of a board string,
// counting the leading "board".
const NumFields = 53

// Money is the match length FIBS writes for an unlimited match; gnubg
// writes 0. Both read as money play.
const Money = 9999

// Board holds every field of a board string. Points[i] is field 6+i:
// positive counts are O's checkers (colour 1), negative ones X's (colour -1).
// Points 1..24 are numbered so that a player with direction -1 moves from 24
// down to 1; Points[0] and Points[25] are the bars, Points[Bar] being
// You's.
type Board struct {
	Player, Opponent           string  // fields 1, 2
	MatchLength                int     // field 3: 0 or 9999 for money play
	PlayerScore, OpponentScore int     // fields 4, 5
	Points                     [26]int // fields 6..31
	Turn                       int     // field 32: the colour on roll, 0 when no game is in progress
	PlayerDice, OpponentDice   [2]int  // fields 33, 34 and 35, 36
	Cube                       int     // field 37
	PlayerMayDouble            int     // field 38
	OpponentMayDouble          int     // field 39
	WasDoubled                 int     // field 40: non-zero while a double awaits an answer
	Colour                     int     // field 41: 1 (O) or -1 (X)
	Direction                  int     // field 42: -1 moves from 24 to 1, 1 from 1 to 24
	Home, Bar                  int     // fields 43, 44: 0 and 25 for direction -1, 25 and 0 for direction 1
	PlayerHome, OpponentHome   int     // fields 45, 46: checkers borne off
	PlayerOnBar, OpponentOnBar int     // fields 47, 48
	CanMove                    int     // field 49: checkers You may move with the dice rolled
	ForcedMove                 int     // field 50
	DidCrawford                int     // field 51: the Crawford game has been played (gnubg: post-Crawford)
	Redoubles                  int     // field 52: FIBS's redouble limit; gnubg reads non-zero as "no Crawford rule"
}

// fieldNames names the fields by index, for error messages.
var fieldNames = func() [NumFields]string {
	var n [NumFields]string
	copy(n[:], []string{"board", "player name", "opponent name", "match length", "player score", "opponent score"})
	n[6] = "point 0 (bar)"
	for i := 1; i < 25; i++ {
		n[6+i] = fmt.Sprintf("point %d", i)
	}
	n[31] = "point 25 (bar)"
	copy(n[32:], []string{"turn", "player die 1", "player die 2", "opponent die 1", "opponent die 2",
		"cube", "player may double", "opponent may double", "was doubled", "colour", "direction",
		"home", "bar", "player on home", "opponent on home", "player on bar", "opponent on bar",
		"can move", "forced move", "did Crawford", "redoubles"})
	return n
}()

// FieldName names field i (0..52) of a board string.
func FieldName(i int) string {
	if i < 0 || i >= NumFields {
		return fmt.Sprintf("field %d", i)
	}
	return fieldNames[i]
}

// ints lists pointers to the numeric fields in order, from field 3 on.
func (b *Board) ints() []*int {
	p := []*int{&b.MatchLength, &b.PlayerScore, &b.OpponentScore}
	for i := range b.Points {
		p = append(p, &b.Points[i])
	}
	return append(p, &b.Turn, &b.PlayerDice[0], &b.PlayerDice[1], &b.OpponentDice[0], &b.OpponentDice[1],
		&b.Cube, &b.PlayerMayDouble, &b.OpponentMayDouble, &b.WasDoubled, &b.Colour, &b.Direction,
		&b.Home, &b.Bar, &b.PlayerHome, &b.OpponentHome, &b.PlayerOnBar, &b.OpponentOnBar,
		&b.CanMove, &b.ForcedMove, &b.DidCrawford, &b.Redoubles)
}

// FieldError reports a field of a board string that cannot be read.
type FieldError struct {
	Index int // 0..52
	Value string
	Err   error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("FIBS board field %d (%s) %q: %v", e.Index, FieldName(e.Index), e.Value, e.Err)
}

func (e *FieldError) Unwrap() error { return e.Err }

// Parse reads a board string. Spaces around fields are ignored (FIBS pads
// some numbers); a trailing newline is allowed. It checks the form and the
// ranges of the fields that describe the setup (colour, direction, home,
// bar); ToState checks that the position makes sense.
func Parse(s string) (Board, error) {
	var b Board
	s = strings.TrimRight(s, "\r\n")
	f := strings.Split(s, ":")
	if len(f) != NumFields {
		return b, fmt.Errorf("FIBS board: want %d colon-separated fields, got %d", NumFields, len(f))
	}
	if strings.TrimSpace(f[0]) != "board" {
		return b, &FieldError{0, f[0], errors.New(`want "board"`)}
	}
	b.Player, b.Opponent = strings.TrimSpace(f[1]), strings.TrimSpace(f[2])
	for i, p := range b.ints() {
		idx := 3 + i
		v, err := strconv.Atoi(strings.TrimSpace(f[idx]))
		if err != nil {
			return Board{}, &FieldError{idx, f[idx], errors.New("not an integer")}
		}
		*p = v
	}
	check := func(idx int, ok bool, want string) error {
		if ok {
			return nil
		}
		return &FieldError{idx, strings.TrimSpace(f[idx]), errors.New(want)}
	}
	for _, e := range []error{
		check(41, b.Colour == 1 || b.Colour == -1, "want 1 or -1"),
		check(42, b.Direction == 1 || b.Direction == -1, "want 1 or -1"),
		check(43, b.Home == homeFor(b.Direction), fmt.Sprintf("want %d for direction %d", homeFor(b.Direction), b.Direction)),
		check(44, b.Bar == 25-homeFor(b.Direction), fmt.Sprintf("want %d for direction %d", 25-homeFor(b.Direction), b.Direction)),
	} {
		if e != nil {
			return Board{}, e
		}
	}
	return b, nil
}

func homeFor(direction int) int {
	if direction == 1 {
		return 25
	}
	return 0
}

// String writes the board string.
func (b Board) String() string {
	var sb strings.Builder
	sb.WriteString("board:")
	sb.WriteString(b.Player)
	sb.WriteByte(':')
	sb.WriteString(b.Opponent)
	for _, p := range b.ints() {
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(*p))
	}
	return sb.String()
}

// index is the Points index of You's point p (1..24).
func (b *Board) index(p int) int {
	if b.Direction == 1 {
		return 25 - p
	}
	return p
}

// FromState writes the board of a state from player me's view, the way
// gnubg writes it: colour 1, direction -1, home 0, bar 25; money play as
// match length 0; the may-double fields give the cube's owner (both 1 when
// centred, never both 0), was-doubled is 1 while a double is pending (the
// turn field then names the doubler), did-Crawford is the post-Crawford
// flag, and redoubles is 1 in match play without the Crawford rule. Colons
// in names become underscores.
func FromState(s *backgammon.State, me int, myName, oppName string) Board {
	b := Board{
		Player:      strings.ReplaceAll(myName, ":", "_"),
		Opponent:    strings.ReplaceAll(oppName, ":", "_"),
		MatchLength: s.MatchLength,
		Colour:      1, Direction: -1, Home: 0, Bar: 25,
		Cube:            s.CubeValue,
		PlayerMayDouble: 1, OpponentMayDouble: 1,
	}
	b.PlayerScore, b.OpponentScore = s.Score[me], s.Score[1-me]
	board := s.BoardFor(me)
	mine, theirs := &board[backgammon.OnRoll], &board[backgammon.Opponent]
	for p := 1; p <= 24; p++ {
		if n := int(mine[p-1]); n > 0 {
			b.Points[b.index(p)] = n * b.Colour
		}
		if n := int(theirs[p-1]); n > 0 {
			b.Points[b.index(25-p)] = -n * b.Colour
		}
	}
	b.Points[b.Bar] = int(mine[backgammon.BarIndex]) * b.Colour
	b.Points[b.Home] = -int(theirs[backgammon.BarIndex]) * b.Colour
	b.PlayerOnBar, b.OpponentOnBar = int(mine[backgammon.BarIndex]), int(theirs[backgammon.BarIndex])
	b.PlayerHome = board.Borne(backgammon.OnRoll, s.Variant)
	b.OpponentHome = board.Borne(backgammon.Opponent, s.Variant)
	switch s.CubeOwner {
	case me:
		b.OpponentMayDouble = 0
	case 1 - me:
		b.PlayerMayDouble = 0
	}
	if s.GameState == backgammon.GamePlaying {
		if s.Move == me {
			b.Turn = b.Colour
			b.PlayerDice = s.Dice
			if s.Dice[0] != 0 && !s.Doubled {
				ms, _ := backgammon.LegalMoves(board, s.Dice[0], s.Dice[1])
				b.CanMove = len(ms[0].StepList())
			}
		} else {
			b.Turn = -b.Colour
			b.OpponentDice = s.Dice
		}
		if s.Doubled {
			b.WasDoubled = 1
		}
	}
	if !s.Money() {
		if s.PostCrawford {
			b.DidCrawford = 1
		}
		if !s.Rules.Crawford {
			b.Redoubles = 1
		}
	}
	return b
}

// ToState reads the board as a state of a game in progress, in which You
// are player me (always 0) and the opponent player 1. The variant, cube
// use, Jacoby and beaver rules come from rules; the match length, the
// score, and the Crawford rule (off when redoubles is non-zero in match
// play) come from the board. The Crawford game is inferred as gnubg does:
// match play, a player 1-away, did-Crawford 0 and the Crawford rule on.
// Errors name the field at fault.
func (b Board) ToState(rules backgammon.Rules) (s *backgammon.State, me int, err error) {
	me = 0
	if b.Colour != 1 && b.Colour != -1 {
		return nil, me, &FieldError{41, strconv.Itoa(b.Colour), errors.New("want 1 or -1")}
	}
	if b.Direction != 1 && b.Direction != -1 {
		return nil, me, &FieldError{42, strconv.Itoa(b.Direction), errors.New("want 1 or -1")}
	}
	if b.Home != homeFor(b.Direction) || b.Bar != 25-b.Home {
		return nil, me, &FieldError{44, strconv.Itoa(b.Bar), fmt.Errorf("home %d and bar %d do not fit direction %d", b.Home, b.Bar, b.Direction)}
	}
	if b.MatchLength < 0 {
		return nil, me, &FieldError{3, strconv.Itoa(b.MatchLength), errors.New("negative")}
	}
	rules.MatchLength = b.MatchLength
	if b.MatchLength == Money {
		rules.MatchLength = 0
	}
	if rules.MatchLength > 0 {
		rules.Crawford = b.Redoubles == 0
	}
	// The board, from You's view (You = side OnRoll for now).
	var bd backgammon.Board
	for p := 1; p <= 24; p++ {
		idx := b.index(p)
		v := b.Points[idx] * b.Colour
		switch {
		case v > 0:
			bd[backgammon.OnRoll][p-1] = int8(min(v, 127))
		case v < 0:
			bd[backgammon.Opponent][25-p-1] = int8(min(-v, 127))
		}
	}
	myBar, oppBar := b.Points[b.Bar]*b.Colour, -b.Points[b.Home]*b.Colour
	if myBar < 0 || myBar > 15 {
		return nil, me, &FieldError{6 + b.Bar, strconv.Itoa(b.Points[b.Bar]), fmt.Errorf("You's bar holds %d", myBar)}
	}
	if oppBar < 0 || oppBar > 15 {
		return nil, me, &FieldError{6 + b.Home, strconv.Itoa(b.Points[b.Home]), fmt.Errorf("the opponent's bar holds %d", oppBar)}
	}
	bd[backgammon.OnRoll][backgammon.BarIndex] = int8(myBar)
	bd[backgammon.Opponent][backgammon.BarIndex] = int8(oppBar)
	if err := bd.Validate(rules.Variant); err != nil {
		return nil, me, fmt.Errorf("FIBS board fields 6..31 (points): %w", err)
	}
	if b.PlayerOnBar != myBar {
		return nil, me, &FieldError{47, strconv.Itoa(b.PlayerOnBar), fmt.Errorf("the bar point holds %d", myBar)}
	}
	if b.OpponentOnBar != oppBar {
		return nil, me, &FieldError{48, strconv.Itoa(b.OpponentOnBar), fmt.Errorf("the bar point holds %d", oppBar)}
	}
	if n := bd.Borne(backgammon.OnRoll, rules.Variant); b.PlayerHome != n {
		return nil, me, &FieldError{45, strconv.Itoa(b.PlayerHome), fmt.Errorf("the points leave %d borne off", n)}
	}
	if n := bd.Borne(backgammon.Opponent, rules.Variant); b.OpponentHome != n {
		return nil, me, &FieldError{46, strconv.Itoa(b.OpponentHome), fmt.Errorf("the points leave %d borne off", n)}
	}
	s = backgammon.NewMatch(rules)
	s.Score = [2]int{b.PlayerScore, b.OpponentScore}
	if b.PlayerScore < 0 || !s.Money() && b.PlayerScore >= s.MatchLength {
		return nil, me, &FieldError{4, strconv.Itoa(b.PlayerScore), fmt.Errorf("want 0..%d", s.MatchLength-1)}
	}
	if b.OpponentScore < 0 || !s.Money() && b.OpponentScore >= s.MatchLength {
		return nil, me, &FieldError{5, strconv.Itoa(b.OpponentScore), fmt.Errorf("want 0..%d", s.MatchLength-1)}
	}
	var dice [2]int
	switch b.Turn {
	case b.Colour:
		s.Move, dice = me, b.PlayerDice
		s.Board = bd
	case -b.Colour:
		s.Move, dice = 1-me, b.OpponentDice
		s.Board = bd.Swap()
	default:
		return nil, me, &FieldError{32, strconv.Itoa(b.Turn), fmt.Errorf("want %d or %d: no game in progress", b.Colour, -b.Colour)}
	}
	if (dice[0] == 0) != (dice[1] == 0) || dice[0] < 0 || dice[0] > 6 || dice[1] < 0 || dice[1] > 6 {
		idx := 33
		if s.Move != me {
			idx = 35
		}
		return nil, me, &FieldError{idx, fmt.Sprintf("%d:%d", dice[0], dice[1]), errors.New("want two dice 1..6, or 0 and 0")}
	}
	s.Dice, s.Turn = dice, s.Move
	s.GameState = backgammon.GamePlaying
	if b.Cube < 1 || b.Cube > backgammon.MaxCube || b.Cube&(b.Cube-1) != 0 {
		return nil, me, &FieldError{37, strconv.Itoa(b.Cube), errors.New("want a power of two")}
	}
	s.CubeValue = b.Cube
	switch {
	case b.WasDoubled != 0:
		if dice[0] != 0 {
			return nil, me, &FieldError{40, strconv.Itoa(b.WasDoubled), errors.New("double pending after the dice were rolled")}
		}
		s.Doubled, s.Turn = true, 1-s.Move
	case b.PlayerMayDouble == 0 && b.OpponentMayDouble == 0:
		return nil, me, &FieldError{38, "0", errors.New("neither player may double and no double is pending")}
	}
	switch {
	case b.PlayerMayDouble != 0 && b.OpponentMayDouble == 0:
		s.CubeOwner = me
	case b.PlayerMayDouble == 0 && b.OpponentMayDouble != 0:
		s.CubeOwner = 1 - me
	default:
		s.CubeOwner = -1
	}
	if !s.Money() {
		oneAway := s.Score[0] == s.MatchLength-1 || s.Score[1] == s.MatchLength-1
		switch {
		case oneAway && b.DidCrawford == 0 && rules.Crawford:
			s.CrawfordGame = true
		case oneAway:
			s.PostCrawford = true
		}
	}
	return s, me, nil
}

// WithOrientation returns the same board written for You playing colour
// (1 for O, -1 for X) in direction (-1 from 24 to 1, 1 from 1 to 24), with
// home and bar to match: the turn field and the points follow.
func (b Board) WithOrientation(colour, direction int) Board {
	var mine, theirs [26]int // by You's point number; 25 = bar
	for p := 1; p <= 24; p++ {
		v := b.Points[b.index(p)] * b.Colour
		if v > 0 {
			mine[p] = v
		} else if v < 0 {
			theirs[25-p] = -v
		}
	}
	mine[25], theirs[25] = b.Points[b.Bar]*b.Colour, -b.Points[b.Home]*b.Colour
	if b.Turn != 0 {
		b.Turn = b.Turn * b.Colour * colour
	}
	b.Colour, b.Direction = colour, direction
	b.Home = homeFor(direction)
	b.Bar = 25 - b.Home
	b.Points = [26]int{}
	for p := 1; p <= 24; p++ {
		if mine[p] > 0 {
			b.Points[b.index(p)] = mine[p] * colour
		}
		if theirs[p] > 0 {
			b.Points[b.index(25-p)] = -theirs[p] * colour
		}
	}
	b.Points[b.Bar] = mine[25] * colour
	b.Points[b.Home] = -theirs[25] * colour
	return b
}
