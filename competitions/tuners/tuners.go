// Package tuners holds the tuning algorithms behind the ringmaster's tuning
// competitions: mc_tuner and ce_tuner as gomill runs them, and spsa as
// fishtest runs it.
//
// A tuner proposes games between candidates (settings of the parameters)
// and an opponent, or between two candidates, and learns from their
// results. It is pure logic: it plays nothing, stores nothing and reads no
// control file. The ringmaster turns each Candidate into a player by
// filling the {code} placeholders of the control file's [candidate] table
// with the candidate's Params, chooses seats, plays the game and hands the
// result back.
//
// # Resume
//
// A tuner's state is a function of the games it was told about. A run that
// was killed is resumed by making a new tuner with the same config and
// seed, replaying the finished games through Issued and Record in the order
// they finished, re-issuing the games that were in flight (the same Game
// values, as stored), and then asking Next for more. With one game at a
// time this gives exactly the state of a run never killed; with several,
// it gives exactly the state at the kill (the in-flight games included).
// Every Game carries what its tuner needs to rebuild it (Detail), so
// Issued and Record check a stored game against the config and report one
// that no longer fits (a control file changed between runs).
package tuners

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Value is one parameter's value in a candidate.
type Value struct {
	// Text fills the {code} placeholder in the candidate's command and
	// arguments: integers without a decimal point, other numbers as %g
	// with 12 significant digits ("0.3", "1.5e-05"), explicit values as
	// given.
	Text string
	// Num is the numeric value, for reports and means; NaN for an explicit
	// value that is not a number.
	Num float64
}

// Params maps parameter codes to values.
type Params map[string]Value

// Candidate is one setting of the parameters.
type Candidate struct {
	// Name is unique among a tuner's candidates, a pure function of the
	// config and of the game number, generation or iteration, and passes
	// ValidName: "#12" (mc_tuner), "g3#12" (ce_tuner), "i12+" and "i12-"
	// (spsa).
	Name   string
	Params Params
}

// Game is one game a tuner asks for.
type Game struct {
	// Number is the game's number in issue order, from 0.
	Number int
	// A plays B when B is set (spsa's plus against minus), else the
	// tuner's fixed opponent.
	A Candidate
	B *Candidate
	// Pair is shared by the two games that must be played as a pair, -1
	// for a game on its own. The two games of a pair are played with the
	// same dice (paired dice) and with A in the same seat (the same colour
	// in Go), so that the luck and the seat's advantage cancel: in spsa's
	// "pair" mode A is plus in one game and minus in the other, so the
	// candidates swap seats; in "opponent" mode plus and minus each meet
	// the opponent from the same seat with the same dice.
	Pair int
	// Detail is the tuner's own record of how it built the game (mc_tuner:
	// the path through its tree; spsa: the parameter vector the iteration
	// was built from). The ringmaster stores it with the game and gives it
	// back unchanged on resume.
	Detail string
}

// Status says whether a tuner has a game to offer.
type Status int

const (
	// Ready: Next returned a game to play.
	Ready Status = iota
	// Wait: results of issued games are needed first (ce_tuner's barrier
	// between generations).
	Wait
	// Done: the tuner wants no more games.
	Done
)

func (s Status) String() string {
	switch s {
	case Ready:
		return "ready"
	case Wait:
		return "wait"
	case Done:
		return "done"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// Tuner is a tuning algorithm. It is not safe for concurrent use: the
// ringmaster serialises calls.
type Tuner interface {
	// Next proposes game n, where n is the number of games issued so far.
	// It does not change the tuner's state, and any randomness it uses is
	// drawn from a stream seeded by the seed and n (or the generation or
	// iteration), so the same sequence of Issued and Record calls always
	// gives the same games.
	Next(n int) (Game, Status)
	// Issued tells the tuner that g is being played: a game from Next, or
	// a stored game replayed or re-issued on resume. It fails for a game
	// the tuner cannot have proposed with this config and seed.
	Issued(g Game) error
	// Record gives the result of an issued game: score is A's share: 1 a
	// win, 0 a loss, 0.5 a draw or no result, or a luck-adjusted share
	// (1+x)/2 for A's luck-adjusted result x, which falls outside [0,1]
	// where x falls outside [-1,1]. It must be finite. A share is not
	// clipped: spsa's signal is the difference of two shares, which
	// clipping would erase when both fall on one side (mc_tuner counts a
	// share above one half as a win).
	Record(g Game, score float64) error
	// Best returns the current best estimate.
	Best() Params
	// Figures returns, per parameter in config order, its best value and
	// the tuner's own figures for it.
	Figures() []ParamFigure
	// WriteReport writes the short or the full text report, in gomill's
	// layout where gomill has one.
	WriteReport(w io.Writer, full bool) error
	// JSON returns the tuner's report section as a value encoding/json
	// encodes: {"type": ..., "best": {code: value}, "parameters": [...],
	// ...}. It is a pointer to MCReport, CEReport or SPSAReport.
	JSON() any
}

// Figure is one named number.
type Figure struct {
	Name  string
	Value float64
}

// ParamFigure is what a tuner says about one parameter.
type ParamFigure struct {
	Code    string
	Best    Value
	Figures []Figure // tuner-specific: mean, variance, theta, ...
}

// ConfigError is a config that New refuses. Field names the offending key
// as a path into the control file, e.g. "parameters[1].max".
type ConfigError struct {
	Field   string
	Problem string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Problem }

func configErrorf(field, format string, args ...any) error {
	return &ConfigError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// nameChars are the characters a candidate name may hold besides letters
// and digits: those of a player code, and '#', which no control-file code
// may use, so that mc_tuner's and ce_tuner's names never clash with one.
const nameChars = "-!$%&*+.:;<=>?^_~#"

// ValidName reports whether s can name a candidate: 1 to 64 ASCII letters,
// digits and -!$%&*+.:;<=>?^_~#.
func ValidName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(nameChars, c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// validCode reports whether s can be a parameter code: a player-code
// identifier (no '#').
func validCode(s string) bool {
	return ValidName(s) && !strings.Contains(s, "#")
}

// checkCodes checks the parameters' codes: present, valid and distinct.
func checkCodes(codes []string) error {
	if len(codes) == 0 {
		return configErrorf("parameters", "at least one parameter is needed")
	}
	seen := make(map[string]int, len(codes))
	for i, c := range codes {
		field := fmt.Sprintf("parameters[%d].code", i)
		if !validCode(c) {
			return configErrorf(field, "invalid parameter code %q: use at most 64 letters, digits and -!$%%&*+.:;<=>?^_~", c)
		}
		if j, ok := seen[c]; ok {
			return configErrorf(field, "duplicate parameter code %q (also parameters[%d])", c, j)
		}
		seen[c] = i
	}
	return nil
}

// NumberValue returns the Value of a number: integer rounds it half up
// first; Num is the value Text says, so what a report shows is what the
// engine plays.
func NumberValue(x float64, integer bool) Value {
	if integer {
		x = math.Floor(x + 0.5)
	}
	text := formatNumber(x)
	num, err := strconv.ParseFloat(text, 64)
	if err != nil {
		num = x
	}
	return Value{Text: text, Num: num}
}

// formatNumber writes x as %g does with 12 significant digits (as
// Python's str, and so gomill, shows a float): trailing zeros dropped, so
// 0.1+0.2 is "0.3", and an exponent only below 1e-4 or from 1e12 on.
func formatNumber(x float64) string {
	if x == 0 {
		return "0" // also for -0
	}
	return strconv.FormatFloat(x, 'g', 12, 64)
}

// jsonValue is how a Value appears in JSON: its number when it has one,
// else its text.
func jsonValue(v Value) any {
	if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
		return v.Text
	}
	return v.Num
}

// bestJSON is the "best" map of a report.
func bestJSON(p Params) map[string]any {
	m := make(map[string]any, len(p))
	for code, v := range p {
		m[code] = jsonValue(v)
	}
	return m
}

// formatParams writes params as gomill does: "code:value; code:value", in
// config order.
func formatParams(codes []string, p Params) string {
	var b strings.Builder
	for i, c := range codes {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c)
		b.WriteByte(':')
		b.WriteString(p[c].Text)
	}
	return b.String()
}

// checkScore refuses a score that is not a finite number.
func checkScore(g Game, score float64) error {
	if !finite(score) {
		return fmt.Errorf("game %d: score %v is not a finite number", g.Number, score)
	}
	return nil
}

// sameParams compares two settings by their text, which is what the
// engine sees.
func sameParams(codes []string, a, b Params) bool {
	if len(a) != len(codes) || len(b) != len(codes) {
		return false
	}
	for _, c := range codes {
		va, oka := a[c]
		vb, okb := b[c]
		if !oka || !okb || va.Text != vb.Text {
			return false
		}
	}
	return true
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Competition types, as the control file's competition_type names them.
const (
	TypeMC   = "mc_tuner"
	TypeCE   = "ce_tuner"
	TypeSPSA = "spsa"
)

// New returns the tuner a config describes: an MCConfig, CEConfig or
// SPSAConfig.
func New(cfg any, seed int64) (Tuner, error) {
	switch c := cfg.(type) {
	case MCConfig:
		return NewMC(c, seed)
	case CEConfig:
		return NewCE(c, seed)
	case SPSAConfig:
		return NewSPSA(c, seed)
	}
	return nil, fmt.Errorf("tuners: no tuner takes a %T", cfg)
}
