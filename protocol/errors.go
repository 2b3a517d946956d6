package protocol

import (
	"errors"
	"fmt"
)

// ErrEngineExited reports that the channel to the engine broke: its output
// ended (EOF) or writing to its input failed (broken pipe, closed file).
// Errors returned by [Controller.Do] wrap it with context; test with
// errors.Is.
var ErrEngineExited = errors.New("engine exited")

// ErrTimeout reports that the engine did not answer a command before the
// timeout or the context deadline passed. Errors returned by
// [Controller.Do] wrap it with context; test with errors.Is.
var ErrTimeout = errors.New("engine timed out")

// ErrControllerBroken is wrapped, together with the original error, by every
// call to [Controller.Do] made after a timeout, cancellation, protocol error
// or channel failure left the controller out of step with the engine.
var ErrControllerBroken = errors.New("controller unusable after earlier error")

// FailureError is the error for a well-formed failure response ("? message")
// from the engine. The channel stays usable after it.
type FailureError struct {
	Command string // the command name that failed
	Message string // the response text, without the "?" indicator
}

func (e *FailureError) Error() string {
	return fmt.Sprintf("gtp command %q failed: %s", e.Command, e.Message)
}

// ProtocolError is the error for a response that breaks the framing rules:
// a line without a "=" or "?" indicator, a line over the length limit,
// binary garbage, a response whose id does not match the command, or a
// response cut short by the end of the stream. After such an error from
// [Controller.Do] the controller is unusable. A well-framed reply whose
// text breaks a command's grammar is a [*ReplyError] instead.
type ProtocolError struct {
	Command string // the command being answered, "" when unknown
	Reason  string // what was wrong
	Err     error  // underlying cause, if any (for example ErrEngineExited)
}

func (e *ProtocolError) Error() string {
	if e.Command == "" {
		return "gtp protocol error: " + e.Reason
	}
	return fmt.Sprintf("gtp protocol error in response to %q: %s", e.Command, e.Reason)
}

// Unwrap returns the underlying cause, which may be nil.
func (e *ProtocolError) Unwrap() error { return e.Err }

// ReplyError is the error for a well-framed success response whose text
// breaks the grammar of the command it answers (say "maybe" to gencube).
// Command sets built on this package (protocol/bgcmd) return it. Framing
// was kept, so the controller stays usable after it, unlike after a
// [*ProtocolError]: a caller may ask again or judge the engine at fault.
type ReplyError struct {
	Command string // the command answered
	Reply   string // the response text as received
	Reason  string // what was wrong with it
}

func (e *ReplyError) Error() string {
	return fmt.Sprintf("bad reply to %q: %s", e.Command, e.Reason)
}
