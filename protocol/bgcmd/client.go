package bgcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/protocol"
)

// Client sends the backgammon command set through a Requester: a
// [protocol.Controller] bound to a timeout, or a player with its own
// timeouts. Like the Controller, it is for one goroutine at a time.
//
// A reply that is well framed but breaks a command's grammar is a
// [*protocol.ReplyError]; the channel stays usable after it. Errors from
// the Requester are returned as they are.
type Client struct {
	R protocol.Requester
	// known caches known_command answers: an engine's commands do not
	// change while it runs.
	known map[string]bool
}

// NewClient returns a Client sending through r.
func NewClient(r protocol.Requester) *Client { return &Client{R: r} }

// do sends a command and insists on a one-line reply.
func (b *Client) do(ctx context.Context, command string, args ...string) (string, error) {
	text, err := b.R.Do(ctx, command, args...)
	return oneLine(command, text, err)
}

// oneLine passes on command's reply when it is one line.
func oneLine(command, text string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if strings.Contains(text, "\n") {
		return "", &protocol.ReplyError{Command: command, Reply: text, Reason: fmt.Sprintf("reply %s spans several lines", quoteShort(text))}
	}
	return text, nil
}

// ask sends set_position with positionID and matchID and then command, in
// one batch where the Requester takes batches ([protocol.DoAll]), and
// returns command's one-line reply. A failed set_position is the error,
// whatever the engine answered to command.
func (b *Client) ask(ctx context.Context, positionID, matchID, command string) (string, error) {
	if err := checkIDs(positionID, matchID); err != nil {
		return "", err
	}
	replies, err := protocol.DoAll(ctx, b.R, protocol.Cmd(CmdSetPosition, positionID, matchID), protocol.Cmd(command))
	if len(replies) > 0 && replies[0].Err != nil {
		return "", replies[0].Err
	}
	if err != nil {
		return "", err
	}
	return oneLine(command, replies[1].Text, replies[1].Err)
}

func checkIDs(positionID, matchID string) error {
	for _, id := range []string{positionID, matchID} {
		if id == "" || strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' || r == '#' || r == 0x7f }) {
			return fmt.Errorf("set_position: invalid ID %q", id)
		}
	}
	return nil
}

// SetGame sends set_game with the rules' arguments. The rules are
// validated first; invalid rules are not sent.
func (b *Client) SetGame(ctx context.Context, r GameRules) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("set_game: %w", err)
	}
	_, err := b.do(ctx, CmdSetGame, r.Args()...)
	return err
}

// SetPosition sends set_position with a gnubg position ID and match ID.
// The IDs are passed through as strings; they must be single words.
func (b *Client) SetPosition(ctx context.Context, positionID, matchID string) error {
	if err := checkIDs(positionID, matchID); err != nil {
		return err
	}
	_, err := b.do(ctx, CmdSetPosition, positionID, matchID)
	return err
}

// GenMove asks for the move of the player on roll with the dice in the
// match ID. It returns the reply normalised to lower case with single
// spaces: a move in gnubg notation such as "24/18 13/11", or [NoMove]
// ("none") when no move is legal. A reply that is not move notation is a
// [*protocol.ReplyError]; legality is not checked here.
func (b *Client) GenMove(ctx context.Context) (string, error) {
	return genMove(b.do(ctx, CmdGenMove))
}

// genMove reads GenMove's reply.
func genMove(text string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	move := NormalizeMove(text)
	if move == "" {
		return "", &protocol.ReplyError{Command: CmdGenMove, Reply: text, Reason: "empty move"}
	}
	if err := CheckMoveSyntax(move); err != nil {
		return "", &protocol.ReplyError{Command: CmdGenMove, Reply: text, Reason: err.Error()}
	}
	return move, nil
}

// GenCube asks whether the player on roll doubles before rolling. The reply
// must be "double" or "no_double" (case-insensitive).
func (b *Client) GenCube(ctx context.Context) (bool, error) {
	return genCube(b.do(ctx, CmdGenCube))
}

// genCube reads GenCube's reply.
func genCube(text string, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "double":
		return true, nil
	case "no_double":
		return false, nil
	}
	return false, &protocol.ReplyError{Command: CmdGenCube, Reply: text, Reason: fmt.Sprintf("reply %s is not double or no_double", quoteShort(text))}
}

// GenTake asks the player facing a double whether to take, drop or beaver.
// The reply must be "take", "drop" or "beaver" (case-insensitive).
func (b *Client) GenTake(ctx context.Context) (backgammon.Answer, error) {
	return genTake(b.do(ctx, CmdGenTake))
}

// genTake reads GenTake's reply.
func genTake(text string, err error) (backgammon.Answer, error) {
	if err != nil {
		return 0, err
	}
	d, perr := backgammon.ParseAnswer(strings.TrimSpace(text))
	if perr != nil {
		return 0, &protocol.ReplyError{Command: CmdGenTake, Reply: text, Reason: perr.Error()}
	}
	return d, nil
}

// Evaluate asks for the evaluation of the position for the player on roll:
// p_win p_win_gammon p_win_backgammon p_lose_gammon p_lose_backgammon
// equity. The reply must hold exactly six finite numbers, the first five
// between 0 and 1.
func (b *Client) Evaluate(ctx context.Context) ([6]float64, error) {
	return evaluate(b.do(ctx, CmdEvaluate))
}

// evaluate reads Evaluate's reply.
func evaluate(text string, err error) ([6]float64, error) {
	if err != nil {
		return [6]float64{}, err
	}
	v, perr := ParseEvaluation(text)
	if perr != nil {
		return [6]float64{}, &protocol.ReplyError{Command: CmdEvaluate, Reply: text, Reason: perr.Error()}
	}
	return v, nil
}

// Knows asks known_command once per command name and remembers the answer.
// The reply must be "true" or "false".
func (b *Client) Knows(ctx context.Context, command string) (bool, error) {
	if k, ok := b.known[command]; ok {
		return k, nil
	}
	text, err := b.do(ctx, "known_command", command)
	if err != nil {
		return false, err
	}
	var k bool
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "true":
		k = true
	case "false":
	default:
		return false, &protocol.ReplyError{Command: "known_command", Reply: text, Reason: fmt.Sprintf("reply %s is not true or false", quoteShort(text))}
	}
	if b.known == nil {
		b.known = map[string]bool{}
	}
	b.known[command] = k
	return k, nil
}

// GenResign asks the player on roll, before its cube decision and roll,
// whether it resigns: the reply is "none" (backgammon.NoResult), "single",
// "gammon" or "backgammon" (case-insensitive).
func (b *Client) GenResign(ctx context.Context) (backgammon.Result, error) {
	return genResign(b.do(ctx, CmdGenResign))
}

// genResign reads GenResign's reply.
func genResign(text string, err error) (backgammon.Result, error) {
	if err != nil {
		return backgammon.NoResult, err
	}
	level, perr := ParseResignation(strings.TrimSpace(text))
	if perr != nil {
		return backgammon.NoResult, &protocol.ReplyError{Command: CmdGenResign, Reply: text, Reason: perr.Error()}
	}
	return level, nil
}

// GenAccept asks the player offered a resignation (in the match ID)
// whether it accepts: the reply is "accept" or "decline"
// (case-insensitive).
func (b *Client) GenAccept(ctx context.Context) (bool, error) {
	return genAccept(b.do(ctx, CmdGenAccept))
}

// genAccept reads GenAccept's reply.
func genAccept(text string, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "accept":
		return true, nil
	case "decline":
		return false, nil
	}
	return false, &protocol.ReplyError{Command: CmdGenAccept, Reply: text, Reason: fmt.Sprintf("reply %s is not accept or decline", quoteShort(text))}
}
