// Package protocol implements the Go Text Protocol (GTP) version 2 framing
// used between Gamemill and its engines, on both sides of the pipe, and the
// backgammon command set built on top of it.
//
// The controller side ([Controller]) sends one command at a time and reads
// the matching response, turning everything that can go wrong with an engine
// into a typed error: [*FailureError] for a "?" response, [*ProtocolError]
// for a malformed response, [ErrEngineExited] when the channel breaks and
// [ErrTimeout] when the engine does not answer in time.
//
// The server side ([Server]) reads commands, dispatches them to [Handler]s
// and writes the responses, like net/http does for HTTP requests.
//
// The backgammon command set ([BackgammonClient], [RegisterBackgammon]) works
// at the string level: positions and match states travel as gnubg position
// and match IDs and this package never decodes them. See docs/protocol.md for
// the full description of the wire format.
package protocol
