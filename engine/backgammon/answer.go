package backgammon

import (
	"fmt"
	"strings"
)

// Answer is the reply to a double: the one enum for it, shared by the
// bots, the engine protocol and the referee.
type Answer int

// The answers to a double.
const (
	Take   Answer = iota + 1 // accept the double and play on at the higher stake
	Drop                     // refuse it and lose the game at the stake before the double
	Beaver                   // take and redouble at once, keeping the cube (money play)
)

// String returns the word the protocol and records use: "take", "drop" or
// "beaver".
func (a Answer) String() string {
	switch a {
	case Take:
		return "take"
	case Drop:
		return "drop"
	case Beaver:
		return "beaver"
	}
	return fmt.Sprintf("answer(%d)", int(a))
}

// ParseAnswer parses "take", "drop" or "beaver", ignoring case.
func ParseAnswer(s string) (Answer, error) {
	switch strings.ToLower(s) {
	case "take":
		return Take, nil
	case "drop":
		return Drop, nil
	case "beaver":
		return Beaver, nil
	}
	const max = 40
	if len(s) > max {
		s = s[:max] + "..."
	}
	return 0, fmt.Errorf("answer %q is not take, drop or beaver", s)
}

// AnswerDouble applies a to the double on offer ([State.Take],
// [State.Drop] or [State.Beaver]).
func (s *State) AnswerDouble(a Answer) error {
	switch a {
	case Take:
		return s.Take()
	case Drop:
		return s.Drop()
	case Beaver:
		return s.Beaver()
	}
	return fmt.Errorf("answer the double: invalid %v", a)
}
