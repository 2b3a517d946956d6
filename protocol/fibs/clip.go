// Package fibs speaks CLIP, the client protocol of the First Internet
// Backgammon Server (FIBS) and its clones: it reads the lines a server
// sends (numbered CLIP messages, the free-text game messages a bot must
// recognise, board lines, "** " errors), writes the commands a client
// sends, converts moves between FIBS notation ("8-4 6-4", "bar-22",
// "5-off") and engine/backgammon moves, and runs a client session over any
// line transport (TCP or WebSocket).
//
// The formats come from the FIBS client protocol page (Evan McLean, "FIBS
// Client Protocol Detailed Specification", fibs.com/fibs_interface.html),
// BaldLies' CLIP-BUGS notes (github.com/gflohr/BaldLies), Gibbon's CLIP
// reader tests (gnu_gibbon, src/test-clip-reader.c) and FIBSCookieMonster
// (as ported in alcacoop/it.alcacoop.backgammon, fibs/CookieMonster.java).
package fibs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gamemill/gamemill/formats/fibsboard"
)

// Kind says what a server line is.
type Kind int

// The numbered CLIP messages keep their numbers.
const (
	Unknown          Kind = 0
	Welcome          Kind = 1  // 1 name lastlogin lasthost
	OwnInfo          Kind = 2  // 2 name allowpip autoboard ... timezone
	MOTDStart        Kind = 3  // 3
	MOTDEnd          Kind = 4  // 4
	WhoInfo          Kind = 5  // 5 name opponent watching ready away rating experience idle login hostname client email
	WhoEnd           Kind = 6  // 6
	Login            Kind = 7  // 7 name message
	Logout           Kind = 8  // 8 name message
	Message          Kind = 9  // 9 from time message
	MessageDelivered Kind = 10 // 10 name
	MessageSaved     Kind = 11 // 11 name
	Says             Kind = 12 // 12 name text
	Shouts           Kind = 13
	Whispers         Kind = 14
	Kibitzes         Kind = 15
	YouSay           Kind = 16 // 16 name text
	YouShout         Kind = 17 // 17 text
	YouWhisper       Kind = 18
	YouKibitz        Kind = 19
	Alert            Kind = 20 // 20 name text (some servers)
)

// Free-text messages.
const (
	LoginPrompt      Kind = iota + 100 // "login: " (no line ending)
	Board                              // board:You:...  (boardstyle 3)
	Error                              // "** " anything not listed below
	Invitation                         // NAME wants to play a N point match with you. (N 0: unlimited)
	ResumeInvitation                   // NAME wants to resume a saved match with you.
	TypeJoin                           // Type 'join NAME' to accept.
	YouInvited                         // ** You invited NAME to a N point match. (or to resume)
	MatchStarted                       // ** You are now playing a N point match with NAME / ** Player NAME has joined you for a N point match.
	MatchResumed                       // You are now playing with NAME. Your running match was loaded. / NAME has joined you. Your running match was loaded.
	NewGame                            // Starting a new game with NAME.
	FirstRoll                          // You rolled 3, NAME rolled 5  (Text holds the line)
	Rolls                              // NAME rolls D1 and D2. / You roll D1 and D2.
	PleaseMove                         // Please move N pieces.
	YourTurnToMove                     // It's your turn to move.
	RollOrDouble                       // It's your turn to roll or double.
	Moves                              // NAME moves 8-5 6-5 .
	CantMove                           // NAME can't move. / You can't move.
	Doubles                            // NAME doubles. Type 'accept' or 'reject'. / You double. Please wait for NAME to accept or reject.
	AcceptsDouble                      // NAME accepts the double.  The cube shows N. / You accept the double.  The cube shows N.
	WantsToResign                      // NAME wants to resign. You will win N points. Type 'accept' or 'reject'. / You want to resign. NAME will win N points.
	ResignAccepted                     // You accept and win N points. / NAME accepts and wins N points.
	Rejects                            // You reject. The game continues. / NAME rejects. The game continues.
	GivesUp                            // NAME gives up. You win N points. / You give up. NAME wins N points.
	WinsGame                           // You win the game and get N points. Congratulations! / NAME wins the game and gets N points. Sorry.
	Score                              // score in N point match: A-3 B-5
	JoinNextGame                       // Type 'join' if you want to play the next game, type 'leave' if you don't.
	WinsMatch                          // You win the N point match 8-4 . / NAME wins the N point match 8-4 .
	GameSaved                          // NAME leaves. The game was saved. (Text says how: "leaves", "logs in again", "drops connection", ...)
	PleaseWaitJoin                     // ** Please wait for NAME to join too.
	Goodbye                            // ... Goodbye.
	SettingValue                       // Value of 'boardstyle' set to 3.
	Toggle                             // "** You'll be notified ..." and the like: a toggle's confirmation
	SavedHeader                        // opponent matchlength score (your points first)
	SavedMatch                         //  NAME  5  2 -  1 (a leading * or ** marks an opponent who is logged in)
	NoSavedGames                       // no saved games.
	NoSavedMatch                       // ** There's no saved match with NAME. Please give a match length.
)

var kindNames = map[Kind]string{
	Unknown: "unknown", Welcome: "welcome", OwnInfo: "own-info", MOTDStart: "motd-start", MOTDEnd: "motd-end",
	WhoInfo: "who-info", WhoEnd: "who-end", Login: "login", Logout: "logout", Message: "message",
	MessageDelivered: "message-delivered", MessageSaved: "message-saved", Says: "says", Shouts: "shouts",
	Whispers: "whispers", Kibitzes: "kibitzes", YouSay: "you-say", YouShout: "you-shout",
	YouWhisper: "you-whisper", YouKibitz: "you-kibitz", Alert: "alert",
	LoginPrompt: "login-prompt", Board: "board", Error: "error", Invitation: "invitation",
	ResumeInvitation: "resume-invitation", TypeJoin: "type-join", YouInvited: "you-invited",
	MatchStarted: "match-started", MatchResumed: "match-resumed", NewGame: "new-game", FirstRoll: "first-roll",
	Rolls: "rolls", PleaseMove: "please-move", YourTurnToMove: "your-turn-to-move", RollOrDouble: "roll-or-double",
	Moves: "moves", CantMove: "cant-move", Doubles: "doubles", AcceptsDouble: "accepts-double",
	WantsToResign: "wants-to-resign", ResignAccepted: "resign-accepted", Rejects: "rejects", GivesUp: "gives-up",
	WinsGame: "wins-game", Score: "score", JoinNextGame: "join-next-game", WinsMatch: "wins-match",
	GameSaved: "game-saved", PleaseWaitJoin: "please-wait-join", Goodbye: "goodbye", SettingValue: "setting",
	Toggle: "toggle", SavedHeader: "saved-header", SavedMatch: "saved-match", NoSavedGames: "no-saved-games",
	NoSavedMatch: "no-saved-match",
}

func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// You is the name FIBS uses for the reader in game messages.
const You = "You"

// Unlimited is the match length of an unlimited (money) match.
const Unlimited = 0

// MaxMatchLength is the longest match FIBS plays; a longer length in a
// server line is not read as one.
const MaxMatchLength = 99

// Msg is one parsed server line. Which fields are set depends on Kind;
// Raw always holds the line.
type Msg struct {
	Kind Kind
	Raw  string
	// Name is the player the message is about ("You" for the reader);
	// Other the second player where there is one.
	Name, Other string
	// N is the number the message carries: a match length (0 unlimited),
	// points won, the cube value, the number of pieces to move, a time.
	N int
	// Score is a match score, Name's first ("score in", "wins the match").
	Score [2]int
	Dice  [2]int
	Steps []Step // Moves: the steps in FIBS point numbers
	Text  string // chat text, the error text after "** ", the setting value
	Board *fibsboard.Board
	Who   *Who
	Own   *Own
}

// LeftOnline reports whether m is a GameSaved message about a player who
// left the match but not the server: one who typed leave, or who logged
// in again from another connection.
func (m Msg) LeftOnline() bool {
	return m.Kind == GameSaved && (m.Text == "leaves" || m.Text == "logs in again")
}

// Who is a CLIP who info line (5).
type Who struct {
	Name       string
	Opponent   string // "" for "-"
	Watching   string // "" for "-"
	Ready      bool
	Away       bool
	Rating     float64
	Experience int
	Idle       int   // seconds
	Login      int64 // Unix time
	Host       string
	Client     string // "" for "-"
	Email      string // "" for "-"
}

// String writes the who info line.
func (w Who) String() string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	return fmt.Sprintf("5 %s %s %s %d %d %.2f %d %d %d %s %s %s", w.Name, dash(w.Opponent), dash(w.Watching),
		b2i(w.Ready), b2i(w.Away), w.Rating, w.Experience, w.Idle, w.Login, dash(w.Host), dash(w.Client), dash(w.Email))
}

// Own is the CLIP own info line (2): the toggles and settings of the
// logged-in user.
type Own struct {
	Name                                      string
	AllowPip, Autoboard, Autodouble, Automove bool
	Away, Bell, Crawford, Double              bool
	Experience                                int
	Greedy, Moreboards, Moves, Notify         bool
	Rating                                    float64
	Ratings, Ready                            bool
	Redoubles                                 int // -1 for unlimited
	Report, Silent                            bool
	Timezone                                  string
}

// String writes the own info line.
func (o Own) String() string {
	red := strconv.Itoa(o.Redoubles)
	if o.Redoubles < 0 {
		red = "unlimited"
	}
	return fmt.Sprintf("2 %s %d %d %d %d %d %d %d %d %d %d %d %d %d %.2f %d %d %s %d %d %s", o.Name,
		b2i(o.AllowPip), b2i(o.Autoboard), b2i(o.Autodouble), b2i(o.Automove), b2i(o.Away), b2i(o.Bell),
		b2i(o.Crawford), b2i(o.Double), o.Experience, b2i(o.Greedy), b2i(o.Moreboards), b2i(o.Moves),
		b2i(o.Notify), o.Rating, b2i(o.Ratings), b2i(o.Ready), red, b2i(o.Report), b2i(o.Silent), o.Timezone)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MaxLine is the longest line Parse reads; FIBS lines are short (a board
// line is under 200 bytes), so anything longer is garbage.
const MaxLine = 4096

// name matches a FIBS user name (and "You"). A name is never all digits:
// "12 alice hi" is a CLIP message (12: says), not a line about a user
// called 12.
const name = `([A-Za-z0-9_<>.\-]*[A-Za-z_<>.\-][A-Za-z0-9_<>.\-]*)`

var nameRe = regexp.MustCompile(`^` + name + `$`)

// validName reports whether s can be a user name in a server line.
func validName(s string) bool { return nameRe.MatchString(s) }

type pattern struct {
	kind Kind
	re   *regexp.Regexp
	fill func(m *Msg, g []string)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

const matchLen = `(an unlimited|a \d+ point|\d+-point|unlimited)`

// lenText reads a match length as matchLen writes it: 1 to MaxMatchLength
// points, or unlimited.
func lenText(s string) (int, error) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "an "), "a ")
	if strings.HasPrefix(s, "unlimited") {
		return Unlimited, nil
	}
	digits := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' })[0]
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > MaxMatchLength {
		return 0, fmt.Errorf("match length %.20s is not 1 to %d or unlimited", digits, MaxMatchLength)
	}
	return n, nil
}

// setLength stores the match length s in m.N, or makes m Unknown (the
// reason in Text) when s is no FIBS match length; false then.
func setLength(m *Msg, s string) bool {
	n, err := lenText(s)
	if err != nil {
		*m = Msg{Kind: Unknown, Raw: m.Raw, Text: err.Error()}
		return false
	}
	m.N = n
	return true
}

// patterns are tried in order; the first match wins. Each must match the
// whole line (leading and trailing spaces aside).
var patterns = []pattern{
	// BaldLies writes an opponent's roll "NAME rolled 3 and 1.".
	{Rolls, regexp.MustCompile(`^` + name + ` (?:rolls?|rolled) ([1-6]) and ([1-6])\.$`), func(m *Msg, g []string) {
		m.Name, m.Dice = g[1], [2]int{atoi(g[2]), atoi(g[3])}
	}},
	{FirstRoll, regexp.MustCompile(`^` + name + ` rolled ([1-6]), ` + name + ` rolled ([1-6])\.?$`), func(m *Msg, g []string) {
		m.Name, m.Other, m.Dice = g[1], g[3], [2]int{atoi(g[2]), atoi(g[4])}
	}},
	// BaldLies bears off to "home" ("5-home").
	{Moves, regexp.MustCompile(`^` + name + ` moves ((?:(?:bar|\d+)-(?:off|home|\d+) ?)+)\.?$`), func(m *Msg, g []string) {
		var err error
		if m.Steps, err = ParseSteps(g[2]); err != nil {
			m.Kind, m.Text = Unknown, err.Error()
			return
		}
		m.Name = g[1]
	}},
	{PleaseMove, regexp.MustCompile(`^Please move ([1-4]) pieces?\.$`), func(m *Msg, g []string) { m.N = atoi(g[1]) }},
	{YourTurnToMove, regexp.MustCompile(`^It's your turn to move\.$`), nil},
	{RollOrDouble, regexp.MustCompile(`^It's your turn(?: to roll or double|\. Please roll or double)\.?$`), nil},
	{CantMove, regexp.MustCompile(`^` + name + ` can't move\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{Doubles, regexp.MustCompile(`^` + name + ` doubles\.(?: Type 'accept' or 'reject'\.)?$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{Doubles, regexp.MustCompile(`^You double\. Please wait for ` + name + ` to accept or reject\.$`), func(m *Msg, g []string) {
		m.Name, m.Other = You, g[1]
	}},
	{AcceptsDouble, regexp.MustCompile(`^` + name + ` accepts? the double\.(?:  ?The cube shows (\d+)\.)?$`), func(m *Msg, g []string) {
		m.Name, m.N = g[1], atoi(g[2])
	}},
	{WantsToResign, regexp.MustCompile(`^` + name + ` wants? to resign\. ` + name + ` will win (\d+) points?\.(?: Type 'accept' or 'reject'\.)?$`), func(m *Msg, g []string) {
		m.Name, m.Other, m.N = g[1], g[2], atoi(g[3])
	}},
	{ResignAccepted, regexp.MustCompile(`^` + name + ` accepts? and wins? (\d+) points?\.$`), func(m *Msg, g []string) {
		m.Name, m.N = g[1], atoi(g[2])
	}},
	{Rejects, regexp.MustCompile(`^` + name + ` rejects?\. The game continues\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{GivesUp, regexp.MustCompile(`^` + name + ` gives? up\. ` + name + ` wins? (\d+) points?\.$`), func(m *Msg, g []string) {
		m.Name, m.Other, m.N = g[1], g[2], atoi(g[3])
	}},
	{WinsGame, regexp.MustCompile(`^` + name + ` wins? the game and gets? (\d+) points?\.(?: Congratulations?!| Sorry\.)?$`), func(m *Msg, g []string) {
		m.Name, m.N = g[1], atoi(g[2])
	}},
	{WinsMatch, regexp.MustCompile(`^` + name + ` wins? the (\d+) point match (\d+)-(\d+) ?\.$`), func(m *Msg, g []string) {
		if setLength(m, g[2]) {
			m.Name, m.Score = g[1], [2]int{atoi(g[3]), atoi(g[4])}
		}
	}},
	{WinsMatch, regexp.MustCompile(`^` + name + ` wins an? (\d+) point match against ` + name + ` +(\d+)-(\d+) ?\.$`), func(m *Msg, g []string) {
		if setLength(m, g[2]) {
			m.Name, m.Other, m.Score = g[1], g[3], [2]int{atoi(g[4]), atoi(g[5])}
		}
	}},
	{Score, regexp.MustCompile(`^score in (\d+ point|unlimited) match: ` + name + `-(\d+) ` + name + `-(\d+)$`), func(m *Msg, g []string) {
		if setLength(m, g[1]) {
			m.Name, m.Other = g[2], g[4]
			m.Score = [2]int{atoi(g[3]), atoi(g[5])}
		}
	}},
	{JoinNextGame, regexp.MustCompile(`^Type 'join' if you want to play the next game, type 'leave' if you don't\.$`), nil},
	{Invitation, regexp.MustCompile(`^` + name + ` wants to play ` + matchLen + ` match with you\.$`), func(m *Msg, g []string) {
		if setLength(m, g[2]) {
			m.Name = g[1]
		}
	}},
	{ResumeInvitation, regexp.MustCompile(`^` + name + ` wants to resume a saved match with you\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{TypeJoin, regexp.MustCompile(`^Type 'join ` + name + `' to accept\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{MatchResumed, regexp.MustCompile(`^You are now playing with ` + name + `\. Your running match was loaded\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{MatchResumed, regexp.MustCompile(`^` + name + ` has joined you\. Your running match was loaded\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{MatchStarted, regexp.MustCompile(`^Player ` + name + ` has joined you for ` + matchLen + ` match\.$`), func(m *Msg, g []string) {
		if setLength(m, g[2]) {
			m.Name = g[1]
		}
	}},
	{NewGame, regexp.MustCompile(`^Starting a new game with ` + name + `\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{GameSaved, regexp.MustCompile(`^` + name + ` (logs out|drops connection|leaves|logs in again|is disconnected by the server shutdown)\. The game was saved\.$`), func(m *Msg, g []string) {
		m.Name, m.Text = g[1], g[2]
	}},
	{GameSaved, regexp.MustCompile(`^Connection with ` + name + ` timed out\. The game was saved\.$`), func(m *Msg, g []string) { m.Name, m.Text = g[1], "timed out" }},
	{SettingValue, regexp.MustCompile(`^Value of '(\w+)' set to (\S+)\.$`), func(m *Msg, g []string) { m.Name, m.Text = g[1], g[2] }},
	{Goodbye, regexp.MustCompile(`Goodbye\.$`), nil},
	{SavedHeader, regexp.MustCompile(`^opponent +matchlength +score \(your points first\)$`), nil},
	{SavedMatch, regexp.MustCompile(`^\*{0,2}` + name + ` +(\d+|unlimited) +(\d+) +- +(\d+)$`), func(m *Msg, g []string) {
		if setLength(m, g[2]) {
			m.Name, m.Score = g[1], [2]int{atoi(g[3]), atoi(g[4])}
		}
	}},
	{NoSavedGames, regexp.MustCompile(`^no saved games\.$`), nil},
}

// starPatterns are matched against the text after "** ".
var starPatterns = []pattern{
	{MatchStarted, regexp.MustCompile(`^You are now playing ` + matchLen + ` match with ` + name + `\.?$`), func(m *Msg, g []string) {
		if setLength(m, g[1]) {
			// The name pattern takes dots; the sentence's full stop is no
			// part of the name.
			m.Name = strings.TrimSuffix(g[2], ".")
		}
	}},
	{MatchStarted, regexp.MustCompile(`^Player ` + name + ` has joined you for ` + matchLen + ` match\.$`), func(m *Msg, g []string) {
		if setLength(m, g[2]) {
			m.Name = g[1]
		}
	}},
	{YouInvited, regexp.MustCompile(`^You invited ` + name + ` to ` + matchLen + ` match\.$`), func(m *Msg, g []string) {
		if setLength(m, g[2]) {
			m.Name = g[1]
		}
	}},
	{YouInvited, regexp.MustCompile(`^You invited ` + name + ` to resume a saved match\.$`), func(m *Msg, g []string) {
		m.Name, m.N = g[1], -1
	}},
	{GameSaved, regexp.MustCompile(`^You terminated the game\. The game was saved\.$`), func(m *Msg, g []string) { m.Name, m.Text = You, "terminated" }},
	{GameSaved, regexp.MustCompile(`^Player ` + name + ` (terminated|has left) the game\. The game was saved\.$`), func(m *Msg, g []string) {
		m.Name, m.Text = g[1], g[2]
	}},
	{NoSavedMatch, regexp.MustCompile(`^There's no saved match with ` + name + `\. Please give a match length\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{PleaseWaitJoin, regexp.MustCompile(`^Please wait for ` + name + ` to join too\.$`), func(m *Msg, g []string) { m.Name = g[1] }},
	{Toggle, regexp.MustCompile(`^(?:You're now ready to invite or join someone|You're now refusing to play with someone|You'll be notified|You won't be notified|The board will be refreshed|The board won't be refreshed|You will be asked if you want to double|You won't be asked if you want to double|Will send rawboards|Won't send rawboards|You will hear|You won't hear|Forced moves will|Forced moves won't|You insist on playing with the Crawford rule|You would like to play without)`), nil},
}

// Parse reads one server line (without its line ending). Lines it does
// not know are Unknown; it never fails. A line longer than MaxLine is
// Unknown with Raw cut to MaxLine.
func Parse(line string) Msg {
	line = strings.TrimRight(line, "\r\n")
	if len(line) > MaxLine {
		return Msg{Kind: Unknown, Raw: line[:MaxLine]}
	}
	m := Msg{Raw: line}
	t := strings.TrimSpace(line)
	switch {
	case t == "login:" || strings.HasPrefix(line, "login: ") && strings.TrimSpace(line[len("login: "):]) == "":
		m.Kind = LoginPrompt
		return m
	case strings.HasPrefix(t, "board:"):
		b, err := fibsboard.Parse(t)
		if err != nil {
			m.Text = err.Error()
			return m
		}
		m.Kind, m.Board = Board, &b
		return m
	case strings.HasPrefix(t, "** "):
		m.Text = strings.TrimSpace(t[3:])
		if matchPatterns(&m, starPatterns, m.Text) {
			return m
		}
		m.Kind = Error
		return m
	}
	if n, rest, ok := clipNumber(line); ok {
		if parseNumbered(&m, n, rest) {
			return m
		}
		return Msg{Kind: Unknown, Raw: line}
	}
	matchPatterns(&m, patterns, t)
	return m
}

func matchPatterns(m *Msg, ps []pattern, t string) bool {
	for _, p := range ps {
		g := p.re.FindStringSubmatch(t)
		if g == nil {
			continue
		}
		m.Kind = p.kind
		if p.fill != nil {
			p.fill(m, g)
		}
		return true
	}
	return false
}

// clipNumber splits "N rest" where N is 1..20.
func clipNumber(line string) (Kind, string, bool) {
	i := 0
	for i < len(line) && i < 2 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 0 || i < len(line) && line[i] != ' ' {
		return 0, "", false
	}
	n := atoi(line[:i])
	if n < 1 || n > 20 {
		return 0, "", false
	}
	rest := ""
	if i < len(line) {
		rest = line[i+1:]
	}
	return Kind(n), rest, true
}

// parseNumbered fills m from a numbered CLIP message; false when the line
// does not have the message's form.
func parseNumbered(m *Msg, k Kind, rest string) bool {
	f := strings.Fields(rest)
	m.Kind = k
	switch k {
	case Welcome:
		if len(f) != 3 {
			return false
		}
		t, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return false
		}
		m.Name, m.N, m.Text = f[0], int(t), f[2]
	case OwnInfo:
		o, ok := parseOwn(f)
		if !ok {
			return false
		}
		m.Name, m.Own = o.Name, &o
	case MOTDStart, MOTDEnd, WhoEnd:
		if len(f) != 0 {
			return false
		}
	case WhoInfo:
		w, ok := parseWho(f)
		if !ok {
			return false
		}
		m.Name, m.Who = w.Name, &w
	case Login, Logout:
		if len(f) < 1 {
			return false
		}
		m.Name = f[0]
		m.Text = strings.TrimSpace(rest[len(f[0]):])
	case Message:
		if len(f) < 2 {
			return false
		}
		t, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return false
		}
		m.Name, m.N = f[0], int(t)
		m.Text = afterFields(rest, 2)
	case MessageDelivered, MessageSaved:
		if len(f) != 1 {
			return false
		}
		m.Name = f[0]
	case Says, Shouts, Whispers, Kibitzes, YouSay, Alert:
		if len(f) < 1 {
			return false
		}
		m.Name, m.Text = f[0], afterFields(rest, 1)
	case YouShout, YouWhisper, YouKibitz:
		m.Text = rest
	}
	// The name a message is about is a user name, never all digits.
	return m.Name == "" || validName(m.Name)
}

// afterFields returns s after its first n space-separated fields and the
// one space that follows them; what remains keeps its own spacing.
func afterFields(s string, n int) string {
	for ; n > 0; n-- {
		s = strings.TrimLeft(s, " ")
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return ""
		}
		s = s[i+1:]
	}
	return s
}

func flag(s string) (bool, bool) {
	switch s {
	case "0":
		return false, true
	case "1":
		return true, true
	}
	return false, false
}

func undash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

func parseWho(f []string) (Who, bool) {
	if len(f) != 12 {
		return Who{}, false
	}
	var w Who
	var ok1, ok2 bool
	w.Name, w.Opponent, w.Watching = f[0], undash(f[1]), undash(f[2])
	w.Ready, ok1 = flag(f[3])
	w.Away, ok2 = flag(f[4])
	r, err1 := strconv.ParseFloat(f[5], 64)
	x, err2 := strconv.Atoi(f[6])
	idle, err3 := strconv.Atoi(f[7])
	login, err4 := strconv.ParseInt(f[8], 10, 64)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return Who{}, false
	}
	w.Rating, w.Experience, w.Idle, w.Login = r, x, idle, login
	// FIBS marks a host it could not resolve with a trailing '*'.
	w.Host = strings.TrimSuffix(undash(f[9]), "*")
	w.Client, w.Email = undash(f[10]), undash(f[11])
	return w, true
}

func parseOwn(f []string) (Own, bool) {
	if len(f) != 21 {
		return Own{}, false
	}
	var o Own
	o.Name = f[0]
	bools := []*bool{&o.AllowPip, &o.Autoboard, &o.Autodouble, &o.Automove, &o.Away, &o.Bell, &o.Crawford, &o.Double}
	for i, p := range bools {
		v, ok := flag(f[1+i])
		if !ok {
			return Own{}, false
		}
		*p = v
	}
	x, err := strconv.Atoi(f[9])
	if err != nil {
		return Own{}, false
	}
	o.Experience = x
	for i, p := range []*bool{&o.Greedy, &o.Moreboards, &o.Moves, &o.Notify} {
		v, ok := flag(f[10+i])
		if !ok {
			return Own{}, false
		}
		*p = v
	}
	r, err := strconv.ParseFloat(f[14], 64)
	if err != nil {
		return Own{}, false
	}
	o.Rating = r
	for i, p := range []*bool{&o.Ratings, &o.Ready} {
		v, ok := flag(f[15+i])
		if !ok {
			return Own{}, false
		}
		*p = v
	}
	if f[17] == "unlimited" {
		o.Redoubles = -1
	} else if o.Redoubles, err = strconv.Atoi(f[17]); err != nil {
		return Own{}, false
	}
	for i, p := range []*bool{&o.Report, &o.Silent} {
		v, ok := flag(f[18+i])
		if !ok {
			return Own{}, false
		}
		*p = v
	}
	o.Timezone = f[20]
	return o, true
}
