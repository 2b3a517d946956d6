package server

import (
	"slices"
	"testing"

	"github.com/gamemill/gamemill/protocol/fibs/server/servertest"
)

// The plain FIBS login: a wrong password is refused in FIBS's words and
// counts as a failed attempt, the next try with the right one logs in,
// and the person gets plain text (no CLIP welcome line, a readable who
// table and tells).
func TestPlainLogin(t *testing.T) {
	ts := startServer(t, Config{LoginAttempts: 2})
	h := servertest.Dial(t, ts.addr)
	h.Until("login: ")
	h.Type("a")
	h.Until("password: ")
	h.Type("wrong")
	h.Until("** User not known or wrong password.")
	h.Until("login: ")
	h.Type("a")
	h.Until("password: ")
	// A telnet program agrees to stop echoing, and ends the password
	// line with CR NUL in character mode.
	if _, err := h.Conn.Write([]byte("\xff\xfd\x01pa\r\x00")); err != nil {
		t.Fatal(err)
	}
	h.Until("Welcome a.")
	if want := [][2]byte{{251, 1}, {252, 1}, {251, 1}, {252, 1}}; !slices.Equal(h.Telnet, want) {
		t.Fatalf("telnet commands around the two password prompts: %v, want WILL ECHO and WONT ECHO twice", h.Telnet)
	}
	for _, l := range h.Seen {
		if len(l) > 2 && l[:2] == "1 " {
			t.Fatalf("a person got the CLIP welcome line %q", l)
		}
	}
	bot := servertest.Dial(t, ts.addr)
	bot.Login("b")
	h.Until("b logs in.")
	bot.Type("tell a hello there")
	h.Until("b tells you: hello there")
	h.Type("tell b hi")
	h.Until("** You tell b: hi")
	bot.Until("12 a hi")
	h.Type("who")
	h.Until("  name ")
	h.Until("- b ")
	h.Until("2 users logged in")

	// Two wrong passwords close the connection.
	x := servertest.Dial(t, ts.addr)
	for range 2 {
		x.Until("login: ")
		x.Type("a")
		x.Until("password: ")
		x.Type("nope")
	}
	x.Until("** Too many failed logins.")
}

// With --register a name typed at the login prompt that is not taken
// becomes an account with the password typed next.
func TestPlainLoginRegisters(t *testing.T) {
	ts := startServer(t, Config{Register: true})
	h := servertest.Dial(t, ts.addr)
	h.Until("login: ")
	h.Type("newbie")
	h.Until("password: ")
	h.Type("s3cret")
	h.Until("Welcome newbie. This is your first login.")
	if ok, known, _, _, _ := ts.srv.store.checkUser("newbie", "s3cret"); !ok || !known {
		t.Fatalf("newbie's account: ok %v, known %v", ok, known)
	}
}

// Over WebSocket the password prompt comes without telnet commands: they
// are not UTF-8, and a browser drops a connection whose text frame is not.
func TestPlainLoginOverWebSocket(t *testing.T) {
	ts := startServer(t, Config{})
	p, err := dialWS(t, startWS(t, ts), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	p.read("login: ", true)
	p.say("a")
	p.read("password: ", true)
	p.say("pa")
	p.read("Welcome a. This is your first login.", true)
}
