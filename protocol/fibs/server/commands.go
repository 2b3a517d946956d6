package server

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gamemill/gamemill/protocol/fibs"
)

// command runs one command line of a logged-in client; true ends the
// connection.
func (s *Server) command(c *client, line string) bool {
	cmd := fibs.ParseCommand(line)
	if cmd.Verb == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// What the command changes in a match is saved before anyone hears of
	// it: a crash then loses nothing a player saw.
	s.holding = true
	defer s.flushLocked()
	before := c.match
	defer func() {
		s.saveLocked(before)
		if c.match != before {
			s.saveLocked(c.match)
		}
	}()
	c.idle = time.Now()
	switch cmd.Verb {
	case "bye", "quit", "exit", "adios", "ciao":
		c.send("", fmt.Sprintf("Goodbye %s. Goodbye.", c.name))
		return true
	case "who":
		s.whoLocked(c, false)
	case "rawwho":
		s.whoLocked(c, true)
	case "rating", "ratings":
		s.rating(c, cmd.Args)
	case "help":
		help(c, cmd.Args)
	case "toggle":
		s.toggle(c, cmd.Args)
	case "set":
		set(c, cmd.Args)
	case "invite":
		s.invite(c, cmd.Args)
	case "join":
		s.join(c, cmd.Args)
	case "leave":
		if m := c.match; m != nil && m.betweenGames() {
			if s.detachLocked(c, "leaves") != nil {
				c.send("** You left the match. The match could not be saved.")
			} else {
				c.send("** You left the match. The match was saved.")
			}
		} else {
			c.send("** You're not playing.")
		}
	case "show":
		if len(cmd.Args) == 1 && cmd.Args[0] == "saved" {
			s.showSaved(c)
		} else {
			c.send("** Usage: show saved")
		}
	case "watch":
		s.watch(c, cmd.Args)
	case "unwatch":
		if c.watching == "" {
			c.send("** You're not watching.")
		} else {
			c.sendf("You stop watching %s.", c.watching)
			c.watching = ""
		}
	case "board":
		if c.match == nil {
			c.send("** You're not playing.")
		} else {
			c.sendBoard(c.match.boardFor(c.seat))
		}
	case "roll", "double", "accept", "reject", "move", "m", "resign", "beaver":
		if c.match == nil {
			c.send("** You're not playing.")
			return false
		}
		c.match.act(s, c, cmd)
	case "shout", "tell", "say", "kibitz", "whisper":
		s.chat(c, cmd)
	default:
		c.sendf("** Unknown command: '%s'", cmd.Verb)
	}
	return false
}

// set changes a variable: boardstyle 1 and 2 draw ASCII boards, 3 sends
// CLIP board lines; other variables are taken and not used.
func set(c *client, args []string) {
	if len(args) != 2 {
		c.send("** Usage: set VARIABLE VALUE")
		return
	}
	if args[0] == "boardstyle" {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 || n > 3 {
			c.send("** Valid arguments are the numbers 1 to 3.")
			return
		}
		c.boardStyle = n
	}
	c.sendf("Value of '%s' set to %s.", args[0], args[1])
}

// rating tells a player's rating and experience, their own by default;
// the player need not be logged in.
func (s *Server) rating(c *client, args []string) {
	if len(args) > 1 {
		c.send("** Usage: rating [USER]")
		return
	}
	name, st := c.name, Standing{Rating: c.own.Rating, Experience: c.own.Experience}
	if len(args) == 1 && args[0] != c.name {
		name = args[0]
		if u := s.users[name]; u != nil {
			st = Standing{Rating: u.own.Rating, Experience: u.own.Experience}
		} else {
			var err error
			if st, err = s.store.Standing(name); err != nil {
				c.sendf("** There is no one called %s.", name)
				return
			}
		}
	}
	c.sendf("rating of %s: %.2f  experience: %d", name, st.Rating, st.Experience)
}

func (s *Server) toggle(c *client, args []string) {
	if len(args) != 1 {
		c.send("** Usage: toggle NAME")
		return
	}
	o := &c.own
	var p *bool
	var on, off string
	switch args[0] {
	case "ready":
		p, on, off = &o.Ready, "You're now ready to invite or join someone.", "You're now refusing to play with someone."
	case "notify":
		p, on, off = &o.Notify, "You'll be notified when new users log in.", "You won't be notified when new users log in."
	case "double":
		p, on, off = &o.Double, "You will be asked if you want to double.", "You won't be asked if you want to double."
	case "autoboard":
		p, on, off = &o.Autoboard, "The board will be refreshed after every move.", "The board won't be refreshed after every move."
	case "moreboards":
		p, on, off = &o.Moreboards, "Will send rawboards after rolling.", "Won't send rawboards after rolling."
	case "silent":
		p, on, off = &o.Silent, "You won't hear what other players shout.", "You will hear what other players shout."
	default:
		c.sendf("** Don't know how to toggle %s.", args[0])
		return
	}
	*p = !*p
	if *p {
		c.send("** " + on)
	} else {
		c.send("** " + off)
	}
}

func (s *Server) chat(c *client, cmd fibs.Command) {
	switch cmd.Verb {
	case "shout":
		text := strings.Join(cmd.Args, " ")
		for _, u := range s.users {
			if u != c && !u.own.Silent {
				u.sendClip(fmt.Sprintf("13 %s %s", c.name, text), fmt.Sprintf("%s shouts: %s", c.name, text))
			}
		}
		c.sendClip("17 "+text, "** You shout: "+text)
	case "tell":
		if len(cmd.Args) < 2 {
			c.send("** Usage: tell USER TEXT")
			return
		}
		u := s.users[cmd.Args[0]]
		if u == nil {
			c.sendf("** There is no one called %s.", cmd.Args[0])
			return
		}
		text := strings.Join(cmd.Args[1:], " ")
		u.sendClip(fmt.Sprintf("12 %s %s", c.name, text), fmt.Sprintf("%s tells you: %s", c.name, text))
		c.sendClip(fmt.Sprintf("16 %s %s", u.name, text), fmt.Sprintf("** You tell %s: %s", u.name, text))
	default:
		if c.match == nil {
			c.send("** You're not playing.")
			return
		}
		text := strings.Join(cmd.Args, " ")
		if o := c.match.conns[1-c.seat]; o != nil {
			o.sendClip(fmt.Sprintf("12 %s %s", c.name, text), fmt.Sprintf("%s says: %s", c.name, text))
		}
		opp := c.match.players[1-c.seat]
		c.sendClip(fmt.Sprintf("16 %s %s", opp, text), fmt.Sprintf("** You say to %s: %s", opp, text))
	}
}

// invite: "invite NAME N", "invite NAME unlimited", or "invite NAME" to
// resume the saved match with NAME.
func (s *Server) invite(c *client, args []string) {
	if len(args) < 1 || len(args) > 2 {
		c.send("** Usage: invite USER [LENGTH|unlimited]")
		return
	}
	if c.match != nil {
		c.send("** You can't play two games at once")
		return
	}
	to := args[0]
	u := s.users[to]
	switch {
	case to == c.name:
		c.send("** You can't invite yourself.")
		return
	case u == nil:
		c.sendf("** There is no one called %s.", to)
		return
	case u.match != nil:
		c.sendf("** %s is already playing with someone else.", to)
		return
	}
	saved, err := s.store.loadSaved(c.name, to)
	if err != nil {
		s.log.Printf("invite: %v", err)
	}
	length := -1
	if len(args) == 2 {
		if args[1] == "unlimited" {
			length = fibs.Unlimited
		} else if n, err := strconv.Atoi(args[1]); err == nil && n >= 1 && n <= 99 {
			length = n
		} else {
			c.send("** The match length must be 1 to 99 or 'unlimited'.")
			return
		}
		if saved != nil {
			// As on FIBS the invitee is warned: joining replaces the saved
			// match with the new one.
			u.sendf("** WARNING: Don't accept if you want to continue your saved match with %s!", c.name)
			c.sendf("** You have a saved match with %s: it is replaced if %s joins.", to, to)
		}
	} else if saved == nil {
		c.sendf("** There's no saved match with %s. Please give a match length.", to)
		return
	}
	if !u.own.Ready && length >= 0 {
		c.sendf("** %s is refusing games.", to)
		return
	}
	// Crossing invitations to the same match: the second is a join.
	if l, ok := s.invites[[2]string{to, c.name}]; ok && l == length {
		s.startMatch(u, c, length)
		return
	}
	s.invites[[2]string{c.name, to}] = length
	if length < 0 {
		c.sendf("** You invited %s to resume a saved match.", to)
		u.sendf("%s wants to resume a saved match with you.", c.name)
	} else {
		c.sendf("** You invited %s to %s match.", to, lengthText(length))
		u.sendf("%s wants to play %s match with you.", c.name, lengthText(length))
	}
	u.sendf("Type 'join %s' to accept.", c.name)
}

func lengthText(n int) string {
	if n == fibs.Unlimited {
		return "an unlimited"
	}
	return fmt.Sprintf("a %d point", n)
}

// join: "join NAME" accepts NAME's invitation; a bare "join" starts the
// next game of the match.
func (s *Server) join(c *client, args []string) {
	if len(args) == 0 {
		if c.match == nil {
			c.send("** Error: Nobody invited you.")
			return
		}
		c.match.joinNext(s, c)
		return
	}
	from := args[0]
	length, ok := s.invites[[2]string{from, c.name}]
	inviter := s.users[from]
	if !ok || inviter == nil {
		c.sendf("** %s didn't invite you.", from)
		return
	}
	if c.match != nil || inviter.match != nil {
		c.send("** You can't play two games at once")
		return
	}
	s.startMatch(inviter, c, length)
}

// watch makes c a spectator of a player's match: boards only.
func (s *Server) watch(c *client, args []string) {
	if len(args) != 1 {
		c.send("** Usage: watch USER")
		return
	}
	if c.match != nil {
		c.send("** You can't watch another game while you're playing.")
		return
	}
	u := s.users[args[0]]
	if u == nil {
		c.sendf("** There is no one called %s.", args[0])
		return
	}
	c.watching = u.name
	c.sendf("You're now watching %s.", u.name)
	if u.match != nil {
		c.sendBoard(u.match.watcherBoard(u.seat))
	}
}

func (s *Server) showSaved(c *client) {
	rows, err := s.store.savedFor(c.name)
	if err != nil {
		s.log.Printf("show saved: %v", err)
	}
	if len(rows) == 0 {
		c.send("no saved games.")
		return
	}
	c.send(" opponent          matchlength   score (your points first)")
	for _, r := range rows {
		mark := " "
		if s.users[r.opponent] != nil {
			mark = "*"
		}
		l := strconv.Itoa(r.length)
		if r.length == 0 {
			l = "unlimited"
		}
		c.sendf(" %s%-16s %6s %10d - %2d", mark, r.opponent, l, r.mine, r.theirs)
	}
}
