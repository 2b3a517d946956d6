// Package protocol implements the Go Text Protocol (GTP) version 2 framing
// used between Gamemill and its engines, on both sides of the pipe. Like
// net/textproto, it knows lines, ids and responses, never a game: command
// sets live in their own packages beside it (protocol/bgcmd for
// backgammon).
//
// The controller side ([Controller]) sends one command at a time and reads
// the matching response, turning everything that can go wrong with an engine
// into a typed error: [*FailureError] for a "?" response, [*ProtocolError]
// for a malformed response (a command set adds [*ReplyError] for a
// well-framed reply that breaks its command's grammar), [ErrEngineExited]
// when the channel breaks and [ErrTimeout] when the engine does not answer
// in time.
//
// The server side ([Server]) reads commands, dispatches them to [Handler]s
// and writes the responses, like net/http does for HTTP requests.
//
// A command set's client sends through a [Requester]: a Controller bound to
// a timeout ([Controller.WithTimeout]) or any player that answers commands.
// See docs/protocol.md for the full description of the wire format.
package protocol
