package protocol

import (
	"context"
	"errors"
)

// Batcher is a Requester that can send several commands in one write and
// read their responses in order ([Controller.DoAll]): a client that knows
// its next commands ahead (a position to set and the question about it, a
// move to tell and the request for the reply) then pays one write and one
// wait for the engine instead of one of each per command.
type Batcher interface {
	DoAll(ctx context.Context, cmds []Command) ([]Reply, error)
}

// DoAll sends cmds through r as one batch when r is a Batcher, else one by
// one with Do. Either way every command is sent, in order, and a failure
// response is that command's Reply.Err; any other error ends the batch and
// is returned with the replies before it.
func DoAll(ctx context.Context, r Requester, cmds ...Command) ([]Reply, error) {
	if b, ok := r.(Batcher); ok {
		return b.DoAll(ctx, cmds)
	}
	replies := make([]Reply, 0, len(cmds))
	for _, c := range cmds {
		text, err := r.Do(ctx, c.Name, c.Args...)
		var fe *FailureError
		if err != nil && !errors.As(err, &fe) {
			return replies, err
		}
		replies = append(replies, Reply{Text: text, Err: err})
	}
	return replies, nil
}

// Cmd is a command with its arguments, as DoAll takes it.
func Cmd(name string, args ...string) Command {
	return Command{Name: name, Args: args}
}

// DoAll sends a batch through c with the bound timeout.
func (t timed) DoAll(ctx context.Context, cmds []Command) ([]Reply, error) {
	return t.c.DoAll(ctx, t.timeout, cmds)
}
