package server

import (
	"fmt"
	"sort"
	"strings"
)

// helpTopics is what 'help COMMAND' says: the usage line, then what the
// command does.
var helpTopics = map[string][]string{
	"accept":     {"accept", "Accept your opponent's double, or their offer to resign (you win the points offered)."},
	"board":      {"board", "Show the board of your match in your board style (see 'set')."},
	"bye":        {"bye", "Log out; a match in progress is saved. Also: quit, exit, adios, ciao."},
	"double":     {"double", "Offer the cube to your opponent before you roll (not in the Crawford game, not when your opponent owns the cube)."},
	"formula":    {"formula", "How ratings change after a match:", "D is the difference of the two ratings, n the match length.", "The underdog wins with the chance P_upset = 1/(10^(D*sqrt(n)/2000)+1).", "P is P_upset if the favourite wins and 1-P_upset if the underdog wins.", "K is max(1, 5 - experience/100) for each player, from their own experience.", "The winner gains 4*K*sqrt(n)*P, the loser loses 4*K*sqrt(n)*P (each with their own K),", "and both gain n experience. Unlimited matches are not rated."},
	"help":       {"help [COMMAND]", "List the commands, or tell what one does."},
	"invite":     {"invite USER LENGTH|unlimited, or invite USER", "Invite USER to a match of LENGTH points (1 to 99) or an unlimited one; without a length, to resume your saved match with USER."},
	"join":       {"join USER, or join", "Accept USER's invitation; a bare 'join' starts the next game of your match."},
	"leave":      {"leave", "Leave your match between games; it is saved and can be resumed with 'invite'."},
	"move":       {"move FROM-TO ...", "Move your checkers, one FROM-TO step a die: points 1 to 24, 'bar' and 'off', e.g. 'move 8-5 6-5' or 'm bar-22 13-11'. Also: m."},
	"rating":     {"rating [USER]", "Show your rating and experience, or USER's. Also: ratings. See 'help formula'."},
	"rawwho":     {"rawwho", "List who is logged in as CLIP who lines (for client programs)."},
	"reject":     {"reject", "Refuse your opponent's double (you lose the game at the current cube), or their offer to resign."},
	"resign":     {"resign n|g|b", "Offer to resign a normal game, a gammon or a backgammon; your opponent accepts or rejects."},
	"roll":       {"roll", "Roll the dice."},
	"say":        {"say TEXT", "Say TEXT to your opponent. Also: kibitz, whisper."},
	"set":        {"set boardstyle 1|2|3", "Choose how boards are shown: 1 and 2 are ASCII boards for people (2 has the point numbers outside the frame), 3 is the one-line board for client programs (the default)."},
	"shout":      {"shout TEXT", "Say TEXT to everyone logged in (except those who toggled silent)."},
	"show":       {"show saved", "List your saved matches: opponent, length and score; * marks an opponent who is logged in."},
	"tell":       {"tell USER TEXT", "Say TEXT to USER."},
	"toggle":     {"toggle ready|notify|double|autoboard|moreboards|silent", "Switch a setting on or off: ready to play, hear of logins, be asked to double, boards after every move, boards after rolling, hear shouts."},
	"unwatch":    {"unwatch", "Stop watching."},
	"watch":      {"watch USER", "Watch USER's match: you get its boards, seen from USER."},
	"who":        {"who", "List who is logged in: P playing, R ready to play, rating, experience, idle time, opponent."},
	"boardstyle": {"set boardstyle 1|2|3", "See 'help set'."},
}

// help answers 'help' with the list of topics and 'help TOPIC' with one.
func help(c *client, args []string) {
	if len(args) == 0 {
		names := make([]string, 0, len(helpTopics))
		for n := range helpTopics {
			names = append(names, n)
		}
		sort.Strings(names)
		c.send("Commands (type 'help COMMAND' for more):")
		for i := 0; i < len(names); i += 6 {
			row := names[i:min(i+6, len(names))]
			var sb strings.Builder
			for _, n := range row {
				fmt.Fprintf(&sb, "  %-11s", n)
			}
			c.send(strings.TrimRight(sb.String(), " "))
		}
		return
	}
	topic := strings.ToLower(args[0])
	text, ok := helpTopics[topic]
	if !ok {
		c.sendf("** There's no help on '%s'.", args[0])
		return
	}
	c.sendf("NAME: %s", topic)
	c.sendf("USAGE: %s", text[0])
	for _, l := range text[1:] {
		c.send("  " + l)
	}
}
