package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Backgammon command names.
const (
	CmdSetGame     = "set_game"
	CmdSetPosition = "set_position"
	CmdGenMove     = "genmove"
	CmdGenCube     = "gencube"
	CmdGenTake     = "gentake"
	CmdEvaluate    = "evaluate"
)

// ExtensionPrefix starts the name of every Gamemill-specific command that
// is not part of the backgammon command set.
const ExtensionPrefix = "gamemill-"

// Variants returns the variant names set_game accepts.
func Variants() []string {
	return []string{"standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3"}
}

// MaxMatchLength is the longest match a gnubg match ID can describe.
const MaxMatchLength = 32767

// NoMove is the genmove reply for a roll with no legal move.
const NoMove = "none"

// GameRules are the arguments of set_game: the variant, the match length
// (0 for a money game) and the optional rules.
type GameRules struct {
	Variant     string // one of Variants()
	MatchLength int    // 0 for money play
	Crawford    bool   // Crawford rule (matches only)
	Jacoby      bool   // Jacoby rule (money games only)
	Beavers     bool   // beavers allowed (money games only)
	Cubeless    bool   // no doubling cube at all
}

// Args returns the set_game arguments for r:
// VARIANT MATCH_LENGTH followed by the flag words in a fixed order.
func (r GameRules) Args() []string {
	args := []string{r.Variant, strconv.Itoa(r.MatchLength)}
	if r.Crawford {
		args = append(args, "crawford")
	}
	if r.Jacoby {
		args = append(args, "jacoby")
	}
	if r.Beavers {
		args = append(args, "beavers")
	}
	if r.Cubeless {
		args = append(args, "cubeless")
	}
	return args
}

// Validate reports rules that are unknown or contradictory: an unknown
// variant, a match length out of range, Crawford in a money game or
// without a cube, Jacoby or beavers in a match or without a cube.
func (r GameRules) Validate() error {
	if !validVariant(r.Variant) {
		return fmt.Errorf("unknown variant %q (want one of %s)", r.Variant, strings.Join(Variants(), ", "))
	}
	if r.MatchLength < 0 || r.MatchLength > MaxMatchLength {
		return fmt.Errorf("match length %d out of range 0..%d", r.MatchLength, MaxMatchLength)
	}
	if r.Crawford && r.MatchLength == 0 {
		return errors.New("crawford applies to matches only, not to money games (match length 0)")
	}
	if r.Jacoby && r.MatchLength > 0 {
		return errors.New("jacoby applies to money games only (match length 0)")
	}
	if r.Beavers && r.MatchLength > 0 {
		return errors.New("beavers apply to money games only (match length 0)")
	}
	if r.Cubeless && (r.Crawford || r.Jacoby || r.Beavers) {
		return errors.New("crawford, jacoby and beavers need a cube; they conflict with cubeless")
	}
	return nil
}

func validVariant(v string) bool {
	return slices.Contains(Variants(), v)
}

// ParseGameRules parses set_game arguments:
// VARIANT MATCH_LENGTH [crawford] [jacoby] [beavers] [cubeless].
// Words are case-insensitive; each flag may appear once, in any order. The
// result is validated with [GameRules.Validate].
func ParseGameRules(args []string) (GameRules, error) {
	if len(args) < 2 {
		return GameRules{}, fmt.Errorf("set_game: want VARIANT MATCH_LENGTH [crawford] [jacoby] [beavers] [cubeless], got %d arguments", len(args))
	}
	r := GameRules{Variant: strings.ToLower(args[0])}
	if !isDigits(args[1]) || len(args[1]) > 6 {
		return GameRules{}, fmt.Errorf("set_game: match length %q is not a small non-negative integer", args[1])
	}
	r.MatchLength, _ = strconv.Atoi(args[1])
	for _, a := range args[2:] {
		var flag *bool
		switch strings.ToLower(a) {
		case "crawford":
			flag = &r.Crawford
		case "jacoby":
			flag = &r.Jacoby
		case "beavers":
			flag = &r.Beavers
		case "cubeless":
			flag = &r.Cubeless
		default:
			return GameRules{}, fmt.Errorf("set_game: unknown rule %q (want crawford, jacoby, beavers or cubeless)", a)
		}
		if *flag {
			return GameRules{}, fmt.Errorf("set_game: rule %q given twice", a)
		}
		*flag = true
	}
	if err := r.Validate(); err != nil {
		return GameRules{}, fmt.Errorf("set_game: %w", err)
	}
	return r, nil
}

// TakeDecision is the answer to a double.
type TakeDecision int

// The answers to a double.
const (
	Take TakeDecision = iota + 1
	Drop
	Beaver
)

// String returns the protocol word: "take", "drop" or "beaver".
func (d TakeDecision) String() string {
	switch d {
	case Take:
		return "take"
	case Drop:
		return "drop"
	case Beaver:
		return "beaver"
	}
	return fmt.Sprintf("TakeDecision(%d)", int(d))
}

// ParseTakeDecision parses "take", "drop" or "beaver", ignoring case.
func ParseTakeDecision(s string) (TakeDecision, error) {
	switch strings.ToLower(s) {
	case "take":
		return Take, nil
	case "drop":
		return Drop, nil
	case "beaver":
		return Beaver, nil
	}
	return 0, fmt.Errorf("take decision %s is not take, drop or beaver", quoteShort(s))
}

// moveWord matches one word of gnubg move notation: a chain of hops from
// "bar" or a point, each hop to a point or "off", optionally marked "*" for
// a hit, optionally followed by a repeat count such as "(2)".
var moveWord = regexp.MustCompile(`^(bar|[0-9]{1,2})(/([0-9]{1,2}|off)\*?)+(\([1-4]\))?$`)

// CheckMoveSyntax reports whether s (already lower case, single spaces)
// looks like a gnubg move or "none". It checks the notation only, never
// legality: that is the referee's job.
func CheckMoveSyntax(s string) error {
	if s == NoMove {
		return nil
	}
	words := strings.Split(s, " ")
	if len(words) > 8 {
		return fmt.Errorf("move %s has more than 8 parts", quoteShort(s))
	}
	for _, w := range words {
		if !moveWord.MatchString(w) {
			return fmt.Errorf("move %s: %s is not gnubg move notation", quoteShort(s), quoteShort(w))
		}
	}
	return nil
}

// NormalizeMove lower-cases a move and collapses its white space.
func NormalizeMove(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// BackgammonClient sends the backgammon command set through a Controller.
// Every method uses Timeout per command (zero: no limit beyond ctx). Like
// the Controller, it is for one goroutine at a time.
type BackgammonClient struct {
	C       *Controller
	Timeout time.Duration
	// R, when set, is used instead of C: any player that sends a command
	// and returns its success text (player.Player does), with its own
	// timeouts.
	R Requester
}

// Requester sends one command and returns the success response text.
type Requester interface {
	Do(ctx context.Context, command string, args ...string) (string, error)
}

// do sends a command and insists on a one-line reply.
func (b *BackgammonClient) do(ctx context.Context, command string, args ...string) (string, error) {
	var text string
	var err error
	if b.R != nil {
		text, err = b.R.Do(ctx, command, args...)
	} else {
		text, err = b.C.Do(ctx, b.Timeout, command, args...)
	}
	if err != nil {
		return "", err
	}
	if strings.Contains(text, "\n") {
		return "", &ProtocolError{Command: command, Reason: fmt.Sprintf("reply %s spans several lines", quoteShort(text))}
	}
	return text, nil
}

// SetGame sends set_game with the rules' arguments. The rules are
// validated first; invalid rules are not sent.
func (b *BackgammonClient) SetGame(ctx context.Context, r GameRules) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("set_game: %w", err)
	}
	_, err := b.do(ctx, CmdSetGame, r.Args()...)
	return err
}

// SetPosition sends set_position with a gnubg position ID and match ID.
// The IDs are passed through as strings; they must be single words.
func (b *BackgammonClient) SetPosition(ctx context.Context, positionID, matchID string) error {
	for _, id := range []string{positionID, matchID} {
		if id == "" || strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' || r == '#' || r == 0x7f }) {
			return fmt.Errorf("set_position: invalid ID %q", id)
		}
	}
	_, err := b.do(ctx, CmdSetPosition, positionID, matchID)
	return err
}

// GenMove asks for the move of the player on roll with the dice in the
// match ID. It returns the reply normalised to lower case with single
// spaces: a move in gnubg notation such as "24/18 13/11", or [NoMove]
// ("none") when no move is legal. A reply that is not move notation is a
// [*ProtocolError]; legality is not checked here.
func (b *BackgammonClient) GenMove(ctx context.Context) (string, error) {
	text, err := b.do(ctx, CmdGenMove)
	if err != nil {
		return "", err
	}
	move := NormalizeMove(text)
	if move == "" {
		return "", &ProtocolError{Command: CmdGenMove, Reason: "empty move"}
	}
	if err := CheckMoveSyntax(move); err != nil {
		return "", &ProtocolError{Command: CmdGenMove, Reason: err.Error()}
	}
	return move, nil
}

// GenCube asks whether the player on roll doubles before rolling. The reply
// must be "double" or "no_double" (case-insensitive).
func (b *BackgammonClient) GenCube(ctx context.Context) (bool, error) {
	text, err := b.do(ctx, CmdGenCube)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "double":
		return true, nil
	case "no_double":
		return false, nil
	}
	return false, &ProtocolError{Command: CmdGenCube, Reason: fmt.Sprintf("reply %s is not double or no_double", quoteShort(text))}
}

// GenTake asks the player facing a double whether to take, drop or beaver.
// The reply must be "take", "drop" or "beaver" (case-insensitive).
func (b *BackgammonClient) GenTake(ctx context.Context) (TakeDecision, error) {
	text, err := b.do(ctx, CmdGenTake)
	if err != nil {
		return 0, err
	}
	d, perr := ParseTakeDecision(strings.TrimSpace(text))
	if perr != nil {
		return 0, &ProtocolError{Command: CmdGenTake, Reason: perr.Error()}
	}
	return d, nil
}

// Evaluate asks for the evaluation of the position for the player on roll:
// p_win p_win_gammon p_win_backgammon p_lose_gammon p_lose_backgammon
// equity. The reply must hold exactly six finite numbers, the first five
// between 0 and 1.
func (b *BackgammonClient) Evaluate(ctx context.Context) ([6]float64, error) {
	text, err := b.do(ctx, CmdEvaluate)
	if err != nil {
		return [6]float64{}, err
	}
	v, perr := ParseEvaluation(text)
	if perr != nil {
		return [6]float64{}, &ProtocolError{Command: CmdEvaluate, Reason: perr.Error()}
	}
	return v, nil
}

// ParseEvaluation parses an evaluate reply; see [BackgammonClient.Evaluate].
func ParseEvaluation(text string) ([6]float64, error) {
	var v [6]float64
	fields := strings.Fields(text)
	if len(fields) != 6 {
		return v, fmt.Errorf("evaluation %s: want 6 numbers, got %d fields", quoteShort(text), len(fields))
	}
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return v, fmt.Errorf("evaluation field %d: %s is not a finite number", i+1, quoteShort(f))
		}
		if i < 5 && (x < 0 || x > 1) {
			return v, fmt.Errorf("evaluation field %d: probability %v outside 0..1", i+1, x)
		}
		v[i] = x
	}
	return v, nil
}

// FormatEvaluation formats an evaluation as the evaluate reply, six
// numbers with six decimals.
func FormatEvaluation(v [6]float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'f', 6, 64)
	}
	return strings.Join(parts, " ")
}

// BackgammonEngine is the engine side of the backgammon command set. The
// server calls it one command at a time.
type BackgammonEngine interface {
	// SetGame sets the variant, match length and rules for what follows.
	SetGame(GameRules) error
	// SetPosition sets the whole state: a gnubg position ID and match ID
	// (dice, cube, score, turn).
	SetPosition(positionID, matchID string) error
	// GenMove returns the move for the player on roll in gnubg notation,
	// or "none" when no move is legal.
	GenMove(ctx context.Context) (string, error)
	// GenCube reports whether the player on roll doubles.
	GenCube(ctx context.Context) (bool, error)
	// GenTake answers a double offered to the player on roll.
	GenTake(ctx context.Context) (TakeDecision, error)
}

// Evaluator is implemented by engines that support the evaluate command.
type Evaluator interface {
	Evaluate(ctx context.Context) ([6]float64, error)
}

// RegisterBackgammon registers set_game, set_position, genmove, gencube and
// gentake on s, and evaluate when e implements [Evaluator]. Argument errors
// become failure responses without calling e.
func RegisterBackgammon(s *Server, e BackgammonEngine) {
	noArgs := func(name string, f func(ctx context.Context) (string, error)) {
		s.HandleFunc(name, func(ctx context.Context, args []string) (string, error) {
			if len(args) != 0 {
				return "", fmt.Errorf("%w: %s takes no arguments", ErrArgs, name)
			}
			return f(ctx)
		})
	}
	s.HandleFunc(CmdSetGame, func(_ context.Context, args []string) (string, error) {
		r, err := ParseGameRules(args)
		if err != nil {
			return "", err
		}
		return "", e.SetGame(r)
	})
	s.HandleFunc(CmdSetPosition, func(_ context.Context, args []string) (string, error) {
		if len(args) != 2 {
			return "", fmt.Errorf("%w: set_position takes POSITION_ID MATCH_ID", ErrArgs)
		}
		return "", e.SetPosition(args[0], args[1])
	})
	noArgs(CmdGenMove, e.GenMove)
	noArgs(CmdGenCube, func(ctx context.Context) (string, error) {
		d, err := e.GenCube(ctx)
		if err != nil {
			return "", err
		}
		if d {
			return "double", nil
		}
		return "no_double", nil
	})
	noArgs(CmdGenTake, func(ctx context.Context) (string, error) {
		d, err := e.GenTake(ctx)
		if err != nil {
			return "", err
		}
		if d < Take || d > Beaver {
			return "", fmt.Errorf("engine returned invalid take decision %d", int(d))
		}
		return d.String(), nil
	})
	if ev, ok := e.(Evaluator); ok {
		noArgs(CmdEvaluate, func(ctx context.Context) (string, error) {
			v, err := ev.Evaluate(ctx)
			if err != nil {
				return "", err
			}
			return FormatEvaluation(v), nil
		})
	}
}
