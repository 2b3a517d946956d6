package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// Request is the body of every endpoint: a position, given either by
// gnubg's position ID and match ID or by a board and the game's context,
// and the level and depth to judge it at.
type Request struct {
	PositionID string `json:"position_id,omitempty"`
	MatchID    string `json:"match_id,omitempty"`

	// Board is 26 signed numbers from the view of the player on roll:
	// Board[p], p = 1..24, the checkers on its point p (positive: the
	// player on roll's, negative: the opponent's); Board[25] the player on
	// roll's checkers on the bar (>= 0) and Board[0] the opponent's
	// (<= 0). Checkers not on the board are borne off.
	Board []int `json:"board,omitempty"`
	// Dice are the rolled dice, absent before the roll.
	Dice []int `json:"dice,omitempty"`
	// CubeValue is the cube's value (1 when absent); CubeOwner is
	// "centre" (when absent), "on_roll" or "opponent".
	CubeValue int    `json:"cube_value,omitempty"`
	CubeOwner string `json:"cube_owner,omitempty"`
	// MatchLength is 0 for money play; Score is the player on roll's
	// score and then the opponent's; Crawford marks the Crawford game.
	MatchLength int   `json:"match_length,omitempty"`
	Score       []int `json:"score,omitempty"`
	Crawford    bool  `json:"crawford,omitempty"`
	// Jacoby applies the Jacoby rule in money play (true when absent).
	Jacoby *bool `json:"jacoby,omitempty"`

	// Level is "net" (when absent), "heuristic" or "random"; Plies the
	// search depth, 0 when absent, up to the server's limit.
	Level string `json:"level,omitempty"`
	Plies int    `json:"plies,omitempty"`
}

// FieldError is a request the server cannot use, naming the field at
// fault ("" for the body as a whole).
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("%s: %v", e.Field, e.Err)
}

func (e *FieldError) Unwrap() error { return e.Err }

func fieldErrorf(field, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
}

// DecodeRequest reads one JSON object from r: unknown fields and
// trailing data are errors.
func DecodeRequest(r io.Reader) (Request, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Request{}, fieldErrorf(te.Field, "want %v, got JSON %s", te.Type, te.Value)
		}
		return Request{}, &FieldError{Err: fmt.Errorf("request body: %w", err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return Request{}, &FieldError{Err: errors.New("request body: data after the JSON object")}
	}
	return req, nil
}

// MaxMatchLength is the longest match a board request may name: bgbot's
// match equity table reaches 64 points.
const MaxMatchLength = 64

// rules are the rules of every position the API judges: standard
// backgammon with the cube, the Crawford rule in matches.
func rules(matchLength int) backgammon.Rules {
	return backgammon.Rules{Variant: backgammon.Standard, Cube: true, Crawford: matchLength > 0}
}

// State turns the request's position into a game state with a game in
// play.
func (req *Request) State() (*backgammon.State, error) {
	byID := req.PositionID != "" || req.MatchID != ""
	byBoard := req.Board != nil
	switch {
	case byID && byBoard:
		return nil, fieldErrorf("board", "give either position_id and match_id or a board, not both")
	case byID:
		return req.stateFromIDs()
	case byBoard:
		return req.stateFromBoard()
	}
	return nil, fieldErrorf("position_id", "missing: give position_id and match_id, or a board")
}

func (req *Request) stateFromIDs() (*backgammon.State, error) {
	for _, f := range []struct {
		name string
		set  bool
	}{{"dice", req.Dice != nil}, {"cube_value", req.CubeValue != 0}, {"cube_owner", req.CubeOwner != ""},
		{"match_length", req.MatchLength != 0}, {"score", req.Score != nil}, {"crawford", req.Crawford}, {"jacoby", req.Jacoby != nil}} {
		if f.set {
			return nil, fieldErrorf(f.name, "the match ID holds it: give it only with a board")
		}
	}
	if req.PositionID == "" {
		return nil, fieldErrorf("position_id", "missing")
	}
	if req.MatchID == "" {
		return nil, fieldErrorf("match_id", "missing")
	}
	board, err := gnubgid.DecodePosition(req.PositionID)
	if err == nil {
		err = board.Validate(backgammon.Standard)
	}
	if err != nil {
		return nil, &FieldError{Field: "position_id", Err: err}
	}
	key, err := gnubgid.DecodeMatchKey(req.MatchID)
	if err != nil {
		return nil, &FieldError{Field: "match_id", Err: err}
	}
	s, err := gnubgid.DecodeState(req.PositionID, req.MatchID, rules(key.MatchLength))
	if err != nil {
		return nil, &FieldError{Field: "match_id", Err: err}
	}
	if s.GameState != backgammon.GamePlaying {
		return nil, fieldErrorf("match_id", "no game in progress")
	}
	return s, nil
}

func (req *Request) stateFromBoard() (*backgammon.State, error) {
	if len(req.Board) != 26 {
		return nil, fieldErrorf("board", "%d numbers, want 26", len(req.Board))
	}
	var b backgammon.Board
	for p, n := range req.Board {
		if n < -15 || n > 15 {
			return nil, fieldErrorf("board", "board[%d] = %d: more than 15 checkers", p, n)
		}
		switch {
		case p == 0 && n > 0:
			return nil, fieldErrorf("board", "board[0] = %d: the opponent's bar holds only the opponent's checkers (negative)", n)
		case p == 25 && n < 0:
			return nil, fieldErrorf("board", "board[25] = %d: the bar of the player on roll holds only its checkers (positive)", n)
		case p == 0:
			b[backgammon.Opponent][backgammon.BarIndex] = int8(-n)
		case p == 25:
			b[backgammon.OnRoll][backgammon.BarIndex] = int8(n)
		case n > 0:
			b[backgammon.OnRoll][p-1] = int8(n)
		case n < 0:
			b[backgammon.Opponent][24-p] = int8(-n)
		}
	}
	if err := b.Validate(backgammon.Standard); err != nil {
		return nil, &FieldError{Field: "board", Err: err}
	}
	if b.OnBoard(backgammon.OnRoll) == 0 || b.OnBoard(backgammon.Opponent) == 0 {
		return nil, fieldErrorf("board", "a side has no checkers left: the game is over")
	}
	key := gnubgid.MatchKey{CubeOwner: gnubgid.CubeCentred, GameState: int(backgammon.GamePlaying), MatchLength: req.MatchLength, Crawford: req.Crawford}
	switch len(req.Dice) {
	case 0:
	case 2:
		for _, d := range req.Dice {
			if d < 1 || d > 6 {
				return nil, fieldErrorf("dice", "die %d out of range 1..6", d)
			}
		}
		key.Dice = [2]int{req.Dice[0], req.Dice[1]}
	default:
		return nil, fieldErrorf("dice", "%d numbers, want 2", len(req.Dice))
	}
	cube := req.CubeValue
	if cube == 0 {
		cube = 1
	}
	if cube < 1 || cube > 1<<15 || bits.OnesCount(uint(cube)) != 1 {
		return nil, fieldErrorf("cube_value", "%d is not a power of two from 1 to 32768", req.CubeValue)
	}
	key.CubeLog2 = bits.TrailingZeros(uint(cube))
	switch req.CubeOwner {
	case "", "centre", "center":
		if cube != 1 {
			return nil, fieldErrorf("cube_owner", "a centred cube at %d", cube)
		}
	case "on_roll":
		key.CubeOwner = 0
	case "opponent":
		key.CubeOwner = 1
	default:
		return nil, fieldErrorf("cube_owner", "%q: want centre, on_roll or opponent", req.CubeOwner)
	}
	if req.MatchLength < 0 || req.MatchLength > MaxMatchLength {
		return nil, fieldErrorf("match_length", "%d out of range 0..%d", req.MatchLength, MaxMatchLength)
	}
	switch {
	case req.Score == nil:
	case len(req.Score) != 2:
		return nil, fieldErrorf("score", "%d numbers, want 2", len(req.Score))
	case req.MatchLength == 0:
		return nil, fieldErrorf("score", "a score needs a match_length")
	default:
		for _, n := range req.Score {
			if n < 0 || n >= req.MatchLength {
				return nil, fieldErrorf("score", "%d out of range 0..%d in a %d-point match", n, req.MatchLength-1, req.MatchLength)
			}
		}
		key.Score = [2]int{req.Score[0], req.Score[1]}
	}
	if req.Jacoby != nil {
		if req.MatchLength > 0 {
			return nil, fieldErrorf("jacoby", "the Jacoby rule is for money play only")
		}
		key.JacobyOff = !*req.Jacoby
	}
	if req.MatchLength > 0 {
		key.JacobyOff = true // as gnubg writes match IDs
	}
	matchID := gnubgid.EncodeMatchKey(key)
	s, err := gnubgid.DecodeState(gnubgid.EncodePosition(b), matchID, rules(req.MatchLength))
	if err != nil {
		field := "board"
		if req.Crawford {
			field = "crawford"
		}
		return nil, &FieldError{Field: field, Err: err}
	}
	return s, nil
}

// engineArgs are the request's level and depth as engine flags, checked
// against the server's deepest search.
func (req *Request) engineArgs(maxPlies int) ([]string, error) {
	level := req.Level
	if level == "" {
		level = "net"
	}
	if _, err := bgbot.ParseLevel(level); err != nil {
		return nil, &FieldError{Field: "level", Err: err}
	}
	if req.Plies < 0 || req.Plies > maxPlies {
		return nil, fieldErrorf("plies", "%d out of range 0..%d", req.Plies, maxPlies)
	}
	return []string{"--level", level, "--plies", fmt.Sprint(req.Plies)}, nil
}
