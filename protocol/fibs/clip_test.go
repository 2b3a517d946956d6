package fibs

import (
	"fmt"
	"strings"
	"testing"
)

// Transcript lines from public sources. Each case names where it comes
// from:
//
//	[spec]   Evan McLean, "FIBS Client Protocol Detailed Specification",
//	         http://www.fibs.com/fibs_interface.html (rev. 1.3, 2008)
//	[gibbon] Guido Flohr, Gibbon, src/test-clip-reader.c (gnu_gibbon
//	         repository, 2013): lines Gibbon's CLIP reader is tested on
//	[cookie] FIBSCookieMonster as ported in alcacoop/it.alcacoop.backgammon,
//	         core/src/it/alcacoop/fibs/CookieMonster.java: the message forms
//	         its regular expressions match (lines written to fit them)
//	[bald]   Guido Flohr, BaldLies, CLIP-BUGS: board fields, colours
//	[fibsd]  Gamemill's own server, cmd/fibsd: the lines it writes
//
// Only facts and lines were taken, no code.
var transcript = []struct {
	src, line string
	kind      Kind
	check     func(t *testing.T, m Msg)
}{
	{"gibbon", "1 GibbonTestA 1306865048 gibbon.example.com", Welcome, func(t *testing.T, m Msg) {
		eq(t, m.Name, "GibbonTestA")
		eq(t, m.N, 1306865048)
		eq(t, m.Text, "gibbon.example.com")
	}},
	{"gibbon", "2 GibbonTestA 1 1 0 0 0 0 1 1 2396 0 1 0 1 3457.85 0 0 0 0 0 Europe/Sofia", OwnInfo, func(t *testing.T, m Msg) {
		eq(t, m.Own.Name, "GibbonTestA")
		eq(t, m.Own.AllowPip, true)
		eq(t, m.Own.Autoboard, true)
		eq(t, m.Own.Crawford, true)
		eq(t, m.Own.Double, true)
		eq(t, m.Own.Experience, 2396)
		eq(t, m.Own.Moreboards, true)
		eq(t, m.Own.Notify, true)
		eq(t, m.Own.Rating, 3457.85)
		eq(t, m.Own.Redoubles, 0)
		eq(t, m.Own.Timezone, "Europe/Sofia")
	}},
	{"gibbon", "2 GibbonTestC 1 1 0 0 0 0 1 1 2396 0 1 0 1 3457.85 0 0 unlimited 0 0 Europe/Sofia", OwnInfo, func(t *testing.T, m Msg) {
		eq(t, m.Own.Redoubles, -1)
	}},
	{"gibbon", "3", MOTDStart, nil},
	{"gibbon", "4", MOTDEnd, nil},
	{"gibbon", "5 GibbonTestA barrack - 0 0 1418.61 1914 23 1306926526 173.223.48.110 Gibbon_0.1.1 president@whitehouse.gov", WhoInfo, func(t *testing.T, m Msg) {
		w := m.Who
		eq(t, w.Name, "GibbonTestA")
		eq(t, w.Opponent, "barrack")
		eq(t, w.Watching, "")
		eq(t, w.Ready, false)
		eq(t, w.Rating, 1418.61)
		eq(t, w.Experience, 1914)
		eq(t, w.Idle, 23)
		eq(t, w.Login, int64(1306926526))
		eq(t, w.Host, "173.223.48.110")
		eq(t, w.Client, "Gibbon_0.1.1")
	}},
	{"gibbon", "5 GibbonTestB - - 0 0 -35.67 914 23 1306926526 44.55.66.77 Gibbon_0.1.1 foo@bar.baz", WhoInfo, func(t *testing.T, m Msg) {
		eq(t, m.Who.Opponent, "")
		eq(t, m.Who.Rating, -35.67)
	}},
	{"gibbon", "5 GibbonTestC barrack - 0 0 1418.61 1914 23 1306926526 173.223.48.110* Gibbon_0.1.1 president@whitehouse.gov", WhoInfo, func(t *testing.T, m Msg) {
		eq(t, m.Who.Host, "173.223.48.110")
	}},
	{"gibbon", "6", WhoEnd, nil},
	{"gibbon", "7 gflohr gflohr logs in.", Login, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr"); eq(t, m.Text, "gflohr logs in.") }},
	{"gibbon", "8 gflohr gflohr drops connection.", Logout, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr") }},
	{"gibbon", "9 gflohr -1306935184    Be back at 20 p.m.", Message, func(t *testing.T, m Msg) {
		eq(t, m.N, -1306935184)
		eq(t, m.Text, "   Be back at 20 p.m.")
	}},
	{"gibbon", "10 gflohr", MessageDelivered, nil},
	{"gibbon", "11 gflohr", MessageSaved, nil},
	{"gibbon", "12 gflohr    Hello world.", Says, func(t *testing.T, m Msg) { eq(t, m.Text, "   Hello world.") }},
	{"gibbon", "13 gflohr    Hello world.", Shouts, nil},
	{"gibbon", "14 gflohr    Hello world.", Whispers, nil},
	{"gibbon", "15 gflohr    Hello world.", Kibitzes, nil},
	{"gibbon", "16 gflohr    Hello world.", YouSay, nil},
	{"gibbon", "17    Hello world.", YouShout, func(t *testing.T, m Msg) { eq(t, m.Text, "   Hello world.") }},
	{"gibbon", "18    Hello world.", YouWhisper, nil},
	{"gibbon", "19    Hello world.", YouKibitz, nil},
	{"gibbon", "20 gflohr    Mad world!", Alert, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr") }},
	{"gibbon", "** Error: something new went wrong!", Error, func(t *testing.T, m Msg) { eq(t, m.Text, "Error: something new went wrong!") }},
	{"gibbon", "** There is no one called anonymous.", Error, nil},
	// Boards: O (colour 1, direction -1) and X (colour -1, direction 1).
	{"spec", "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0", Board, func(t *testing.T, m Msg) {
		b := m.Board
		eq(t, b.Player, "You")
		eq(t, b.Opponent, "someplayer")
		eq(t, b.MatchLength, 3)
		eq(t, b.Colour, 1)
		eq(t, b.Direction, -1)
		eq(t, b.Turn, 1)
		eq(t, b.PlayerDice, [2]int{6, 2})
	}},
	{"gibbon", "board:joe_white:black_jack:7:5:0:0:0:2:-1:0:-1:4:0:2:0:0:0:-2:4:0:0:0:-3:-2:-4:3:-2:0:0:0:0:-1:0:0:6:6:1:1:1:0:1:-1:0:25:0:0:0:0:2:6:0:0", Board, func(t *testing.T, m Msg) {
		eq(t, m.Board.Turn, -1)
		eq(t, m.Board.OpponentDice, [2]int{6, 6})
		eq(t, m.Board.CanMove, 2)
	}},
	{"gibbon", "board:joe_white:black_jack:1:0:0:0:6:2:0:2:0:0:0:0:0:-1:0:0:-2:0:0:0:0:0:0:-3:-1:-3:-1:-4:0:1:0:0:6:2:1:1:1:0:-1:1:25:0:0:5:0:0:2:4:0:0", Board, func(t *testing.T, m Msg) {
		eq(t, m.Board.Colour, -1)
		eq(t, m.Board.Direction, 1)
		eq(t, m.Board.Home, 25)
		eq(t, m.Board.Bar, 0)
	}},
	{"gibbon", "board:You:GibbonTestA:2:0:1:0:0:0:-1:0:-1:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:1:0:0:0:1:0:1:0:0:0:0:1:1:1:0:-1:1:25:0:0:0:0:0:2:0:0:0", Board, func(t *testing.T, m Msg) {
		eq(t, m.Board.Colour, -1)
		eq(t, m.Board.OpponentScore, 1)
	}},
	{"gibbon", "gflohr rolls 3 and 1.", Rolls, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr"); eq(t, m.Dice, [2]int{3, 1}) }},
	// BaldLies (lib/BaldLies/Session/Message/play.pm) writes the
	// opponent's roll in the past tense and bears off to "home".
	{"baldlies", "gflohr rolled 3 and 1.", Rolls, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr"); eq(t, m.Dice, [2]int{3, 1}) }},
	{"baldlies", "gflohr moves 5-home 3-home .", Moves, func(t *testing.T, m Msg) { eq(t, FormatSteps(m.Steps), "5-off 3-off") }},
	{"baldlies", "** You are now playing a 3 point match with gflohr.", MatchStarted, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr"); eq(t, m.N, 3) }},
	{"gibbon", "You roll 6 and 4.", Rolls, func(t *testing.T, m Msg) { eq(t, m.Name, You); eq(t, m.Dice, [2]int{6, 4}) }},
	{"gibbon", "gflohr moves 8-5 6-5 .", Moves, func(t *testing.T, m Msg) { eq(t, FormatSteps(m.Steps), "8-5 6-5") }},
	{"gibbon", "gflohr moves 17-20 17-20 19-20 19-20 .", Moves, func(t *testing.T, m Msg) { eq(t, len(m.Steps), 4) }},
	{"gibbon", "gflohr moves bar-24 bar-22 .", Moves, func(t *testing.T, m Msg) { eq(t, m.Steps[0], Step{0, 24}) }},
	{"gibbon", "gflohr moves bar-1 bar-3 .", Moves, func(t *testing.T, m Msg) { eq(t, m.Steps[1], Step{0, 3}) }},
	{"gibbon", "gflohr moves 24-off 22-off .", Moves, func(t *testing.T, m Msg) { eq(t, m.Steps[1], Step{22, 0}) }},
	{"gibbon", "GibbonTestB moves 2-off", Moves, func(t *testing.T, m Msg) { eq(t, FormatSteps(m.Steps), "2-off") }},
	{"gibbon", "Starting a new game with gflohr.", NewGame, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr") }},
	{"gibbon", "** You terminated the game. The game was saved.", GameSaved, func(t *testing.T, m Msg) { eq(t, m.Name, You) }},
	{"gibbon", "** Player GibbonTestA terminated the game. The game was saved.", GameSaved, nil},
	{"gibbon", "GibbonTestA logs out. The game was saved.", GameSaved, nil},
	{"gibbon", "GibbonTestA drops connection. The game was saved.", GameSaved, func(t *testing.T, m Msg) { eq(t, m.Name, "GibbonTestA") }},
	{"gibbon", "Connection with GibbonTestA timed out. The game was saved.", GameSaved, nil},
	{"gibbon", "You can't move.", CantMove, func(t *testing.T, m Msg) { eq(t, m.Name, You) }},
	{"gibbon", "GibbonTestA can't move.", CantMove, nil},
	{"gibbon", "You double. Please wait for GibbonTestA to accept or reject.", Doubles, func(t *testing.T, m Msg) { eq(t, m.Name, You); eq(t, m.Other, "GibbonTestA") }},
	{"gibbon", "GibbonTestA doubles. Type 'accept' or 'reject'.", Doubles, func(t *testing.T, m Msg) { eq(t, m.Name, "GibbonTestA") }},
	{"gibbon", "You accept the double.  The cube shows 2.", AcceptsDouble, func(t *testing.T, m Msg) { eq(t, m.Name, You); eq(t, m.N, 2) }},
	{"gibbon", "GibbonTestA accepts the double.  The cube shows 4.", AcceptsDouble, func(t *testing.T, m Msg) { eq(t, m.N, 4) }},
	{"gibbon", "GibbonTestA wants to resign. You will win 6 points. Type 'accept' or 'reject'.", WantsToResign, func(t *testing.T, m Msg) {
		eq(t, m.Name, "GibbonTestA")
		eq(t, m.Other, You)
		eq(t, m.N, 6)
	}},
	{"gibbon", "You want to resign. GibbonTestA will win 1 point.", WantsToResign, func(t *testing.T, m Msg) { eq(t, m.Name, You); eq(t, m.N, 1) }},
	{"gibbon", "You reject. The game continues.", Rejects, nil},
	{"gibbon", "GibbonTestA rejects. The game continues.", Rejects, nil},
	{"gibbon", "GibbonTestA wants to play a 5 point match with you.", Invitation, func(t *testing.T, m Msg) { eq(t, m.Name, "GibbonTestA"); eq(t, m.N, 5) }},
	{"gibbon", "GibbonTestA wants to play an unlimited match with you.", Invitation, func(t *testing.T, m Msg) { eq(t, m.N, Unlimited) }},
	{"gibbon", "GibbonTestA wants to resume a saved match with you.", ResumeInvitation, nil},
	{"gibbon", "Type 'join GibbonTestA' to accept.", TypeJoin, func(t *testing.T, m Msg) { eq(t, m.Name, "GibbonTestA") }},
	{"gibbon", "** You are now playing a 5 point match with gflohr", MatchStarted, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr"); eq(t, m.N, 5) }},
	{"gibbon", "** You are now playing an unlimited match with gflohr", MatchStarted, func(t *testing.T, m Msg) { eq(t, m.N, Unlimited) }},
	{"gibbon", "** gflohr is refusing games.", Error, nil},
	{"gibbon", "** Error: gflohr is already playing with someone else.", Error, nil},
	{"gibbon", "** Player gflohr has joined you for a 5 point match.", MatchStarted, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr"); eq(t, m.N, 5) }},
	{"gibbon", "You are now playing with gflohr. Your running match was loaded.", MatchResumed, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr") }},
	{"gibbon", "gflohr has joined you. Your running match was loaded.", MatchResumed, nil},
	{"gibbon", "Type 'join' if you want to play the next game, type 'leave' if you don't.", JoinNextGame, nil},
	{"gibbon", "You win the game and get 1 point. Congratulations!", WinsGame, func(t *testing.T, m Msg) { eq(t, m.Name, You); eq(t, m.N, 1) }},
	{"gibbon", "GibbonTestA wins the game and gets 4 points. Sorry.", WinsGame, func(t *testing.T, m Msg) { eq(t, m.N, 4) }},
	{"gibbon", "GibbonTestA gives up. You win 2 points.", GivesUp, func(t *testing.T, m Msg) { eq(t, m.Other, You); eq(t, m.N, 2) }},
	{"gibbon", "You give up. GibbonTestA wins 1 point.", GivesUp, func(t *testing.T, m Msg) { eq(t, m.Name, You) }},
	{"gibbon", "You accept and win 2 points.", ResignAccepted, func(t *testing.T, m Msg) { eq(t, m.Name, You); eq(t, m.N, 2) }},
	{"gibbon", "GibbonTestA accepts and wins 1 point.", ResignAccepted, nil},
	{"gibbon", "score in 7 point match: GibbonTestA-3 GibbonTestB-5", Score, func(t *testing.T, m Msg) {
		eq(t, m.N, 7)
		eq(t, m.Score, [2]int{3, 5})
		eq(t, m.Other, "GibbonTestB")
	}},
	{"gibbon", "score in unlimited match: GibbonTestA-3 GibbonTestB-5", Score, func(t *testing.T, m Msg) { eq(t, m.N, Unlimited) }},
	{"gibbon", "** Please wait for GibbonTestA to join too.", PleaseWaitJoin, nil},
	{"gibbon", "** You invited GibbonTestA to a 3 point match.", YouInvited, func(t *testing.T, m Msg) { eq(t, m.N, 3) }},
	{"gibbon", "** You invited GibbonTestA to resume a saved match.", YouInvited, func(t *testing.T, m Msg) { eq(t, m.N, -1) }},
	{"gibbon", "You win the 7 point match 8-4.", WinsMatch, func(t *testing.T, m Msg) { eq(t, m.Name, You); eq(t, m.Score, [2]int{8, 4}) }},
	{"cookie", "GibbonTestA wins the 3 point match 3-0 .", WinsMatch, func(t *testing.T, m Msg) { eq(t, m.N, 3) }},
	{"gibbon", "gflohr wins a 7 point match against GibbonTestA  8-3 .", WinsMatch, func(t *testing.T, m Msg) { eq(t, m.Other, "GibbonTestA") }},
	{"gibbon", "Value of 'boardstyle' set to 3.", SettingValue, func(t *testing.T, m Msg) { eq(t, m.Name, "boardstyle"); eq(t, m.Text, "3") }},
	{"gibbon", "** You're now ready to invite or join someone.", Toggle, nil},
	{"gibbon", "** You won't be notified when new users log in.", Toggle, nil},
	{"cookie", "Please move 2 pieces.", PleaseMove, func(t *testing.T, m Msg) { eq(t, m.N, 2) }},
	{"cookie", "It's your turn to move.", YourTurnToMove, nil},
	{"cookie", "It's your turn. Please roll or double", RollOrDouble, nil},
	{"cookie", "It's your turn to roll or double.", RollOrDouble, nil},
	{"cookie", "login: ", LoginPrompt, nil},
	{"cookie", " opponent matchlength score (your points first)", SavedHeader, nil},
	{"cookie", "  gflohr              5              2 -  1", SavedMatch, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr"); eq(t, m.N, 5); eq(t, m.Score, [2]int{2, 1}) }},
	{"cookie", " *gflohr              5              0 -  3", SavedMatch, func(t *testing.T, m Msg) { eq(t, m.Name, "gflohr") }},
	{"cookie", "no saved games.", NoSavedGames, nil},
	{"spec", "You rolled 3, gflohr rolled 5", FirstRoll, func(t *testing.T, m Msg) { eq(t, m.Dice, [2]int{3, 5}); eq(t, m.Other, "gflohr") }},
	{"fibsd", "alice leaves. The game was saved.", GameSaved, func(t *testing.T, m Msg) {
		eq(t, m.Name, "alice")
		eq(t, m.Text, "leaves")
		eq(t, m.LeftOnline(), true)
	}},
	{"fibsd", "alice logs in again. The game was saved.", GameSaved, func(t *testing.T, m Msg) {
		eq(t, m.Name, "alice")
		eq(t, m.Text, "logs in again")
		eq(t, m.LeftOnline(), true)
	}},
	{"fibsd", "alice is disconnected by the server shutdown. The game was saved.", GameSaved, func(t *testing.T, m Msg) {
		eq(t, m.Name, "alice")
		eq(t, m.Text, "is disconnected by the server shutdown")
		eq(t, m.LeftOnline(), false)
	}},
	{"fibsd", "alice drops connection. The game was saved.", GameSaved, func(t *testing.T, m Msg) {
		eq(t, m.Text, "drops connection")
		eq(t, m.LeftOnline(), false)
	}},
	{"fibsd", "** There's no saved match with alice. Please give a match length.", NoSavedMatch, func(t *testing.T, m Msg) { eq(t, m.Name, "alice") }},
	{"fibsd", "** You are now playing a 99 point match with alice", MatchStarted, func(t *testing.T, m Msg) { eq(t, m.N, 99) }},
}

func eq[T comparable](t *testing.T, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestTranscript(t *testing.T) {
	for _, c := range transcript {
		m := Parse(c.line)
		if m.Kind != c.kind {
			t.Errorf("[%s] %q: kind %v, want %v", c.src, c.line, m.Kind, c.kind)
			continue
		}
		if m.Raw != c.line {
			t.Errorf("[%s] %q: raw %q", c.src, c.line, m.Raw)
		}
		if c.check != nil {
			t.Run(c.line, func(t *testing.T) { c.check(t, m) })
		}
	}
}

func TestWhoAndOwnRoundTrip(t *testing.T) {
	for _, c := range transcript {
		m := Parse(c.line)
		switch {
		case m.Who != nil:
			again := Parse(m.Who.String())
			if again.Who == nil || *again.Who != *m.Who {
				t.Errorf("who %q: written %q reads %+v", c.line, m.Who.String(), again.Who)
			}
		case m.Own != nil:
			again := Parse(m.Own.String())
			if again.Own == nil || *again.Own != *m.Own {
				t.Errorf("own %q: written %q reads %+v", c.line, m.Own.String(), again.Own)
			}
		}
	}
}

func TestUnknownAndMalformed(t *testing.T) {
	for _, line := range []string{
		"", "   ", "hello there", "5 too few fields", "2 x 1 1", "21 out of range", "1 name notanumber host",
		"board:a:b", "moves 8-5", "Please move 9 pieces.",
	} {
		if k := Parse(line).Kind; k != Unknown {
			t.Errorf("%q: kind %v, want unknown", line, k)
		}
	}
	long := make([]byte, MaxLine+10)
	for i := range long {
		long[i] = 'a'
	}
	if m := Parse(string(long)); m.Kind != Unknown || len(m.Raw) != MaxLine {
		t.Errorf("long line: kind %v raw %d bytes", m.Kind, len(m.Raw))
	}
}

func TestSplitGluedLines(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		// [spec] the login prompt has no line ending: the welcome follows it.
		{"login: 1 myname 1041253132 192.168.1.308", []string{"login: ", "1 myname 1041253132 192.168.1.308"}},
		// [cookie] run-on text after a complete message is pushed back.
		{"You roll 3 and 1.Please move 2 pieces.", []string{"You roll 3 and 1.", "Please move 2 pieces."}},
		{"GibbonTestA doubles. Type 'accept' or 'reject'.board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0",
			[]string{"GibbonTestA doubles. Type 'accept' or 'reject'.", "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"}},
		{"** You invited gflohr to a 5 point match.12 gflohr hi", []string{"** You invited gflohr to a 5 point match.", "12 gflohr hi"}},
		// Whole messages stay whole.
		{"GibbonTestA wants to resign. You will win 1 point. Type 'accept' or 'reject'.", []string{"GibbonTestA wants to resign. You will win 1 point. Type 'accept' or 'reject'."}},
		{"12 gflohr You roll 3 and 1.Please move 2 pieces.", []string{"12 gflohr You roll 3 and 1.Please move 2 pieces."}},
		{"no idea. what this is.", []string{"no idea. what this is."}},
	} {
		got := Split(c.line)
		if len(got) != len(c.want) {
			t.Errorf("Split(%q) = %q, want %q", c.line, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Split(%q) = %q, want %q", c.line, got, c.want)
				break
			}
		}
	}
}

func TestCommands(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{LoginCommand("gamemill", "bot", "pw"), "login gamemill 1008 bot pw"},
		{MoveCommand([]Step{{8, 4}, {6, 4}}), "move 8-4 6-4"},
		{MoveCommand([]Step{{0, 22}}), "move bar-22"},
		{MoveCommand([]Step{{5, 0}}), "move 5-off"},
		{ResignCommand(1), "resign n"},
		{ResignCommand(2), "resign g"},
		{ResignCommand(3), "resign b"},
		{InviteCommand("joe", 5), "invite joe 5"},
		{InviteCommand("joe", Unlimited), "invite joe unlimited"},
		{InviteCommand("joe", -1), "invite joe"},
		{JoinCommand("joe"), "join joe"},
		{ToggleCommand("ready"), "toggle ready"},
		{SetCommand("boardstyle", "3"), "set boardstyle 3"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// A match length outside FIBS's 1 to 99 (or unlimited) is no match
// length: the line is Unknown, however large the number, so a hostile
// server cannot hand a client a length no engine accepts.
func TestMatchLengthRange(t *testing.T) {
	for _, line := range []string{
		"** You are now playing a 99999999999999999999 point match with alice",
		"** You are now playing a 100 point match with alice",
		"** You are now playing a 0 point match with alice",
		"** Player alice has joined you for a 99999999999999999999 point match.",
		"Player alice has joined you for a 100 point match.",
		"alice wants to play a 100 point match with you.",
		"alice wants to play a 9223372036854775808 point match with you.",
		"** You invited alice to a 0 point match.",
		"score in 100 point match: alice-1 bob-2",
		"alice wins the 100 point match 100-3 .",
		"alice wins a 123 point match against bob  123-3 .",
		"  alice              100              2 -  1",
	} {
		m := Parse(line)
		if m.Kind != Unknown || m.N != 0 || m.Name != "" || !strings.Contains(m.Text, "match length") {
			t.Errorf("%q: kind %v N %d name %q text %q, want unknown with the reason", line, m.Kind, m.N, m.Name, m.Text)
		}
	}
	for line, want := range map[string]int{
		"** You are now playing a 1 point match with alice":        1,
		"** You are now playing a 99 point match with alice":       99,
		"** You are now playing an unlimited match with alice":     Unlimited,
		"alice wants to play a 99 point match with you.":           99,
		"score in unlimited match: alice-1 bob-2":                  Unlimited,
		"  alice              unlimited              2 -  1":       Unlimited,
		"** Player alice has joined you for a 7 point match.":      7,
		"alice wins a 11 point match against bob  11-3 .":          11,
		"alice wins the 3 point match 3-0 .":                       3,
		"** You invited alice to an unlimited match.":              Unlimited,
		"Player alice has joined you for an unlimited match.":      Unlimited,
		"** Player alice has joined you for an unlimited match.":   Unlimited,
		"** You are now playing a 05 point match with alice":       5,
		"alice wants to play an unlimited match with you.":         Unlimited,
		"  alice              5              2 -  1":               5,
		"score in 5 point match: alice-1 bob-2":                    5,
		"alice wins the 5 point match 5-2 .":                       5,
		"** You invited alice to a 5 point match.":                 5,
		"Player alice has joined you for a 1 point match.":         1,
		"** You are now playing a 1 point match with alice.":       1,
		"** Player bob1 has joined you for a 99 point match.":      99,
		"** You are now playing a 42 point match with p0a":         42,
		"** You are now playing an unlimited match with idle0":     Unlimited,
		"** You are now playing a 3 point match with joe_white":    3,
		"** You are now playing a 3 point match with GibbonTestA.": 3,
	} {
		if m := Parse(line); m.Kind == Unknown || m.Kind == Error || m.N != want {
			t.Errorf("%q: kind %v N %d, want length %d", line, m.Kind, m.N, want)
		}
	}
}

// CLIP numbered messages start with a number from 1 to 20; game messages
// start with a user name. A name is never all digits, so neither is ever
// read as the other: a numbered line stays a numbered message whatever
// its text, and a line about a user called "12" or "123" is no game
// message at all (the server refuses such names).
func TestNumberedLinesAndNamesApart(t *testing.T) {
	// Game messages as FIBS writes them about a user NAME.
	games := []struct {
		line string
		kind Kind
	}{
		{"NAME moves 8-5 6-5 .", Moves},
		{"NAME rolls 3 and 1.", Rolls},
		{"NAME wants to play a 5 point match with you.", Invitation},
		{"NAME wants to resume a saved match with you.", ResumeInvitation},
		{"Type 'join NAME' to accept.", TypeJoin},
		{"NAME doubles. Type 'accept' or 'reject'.", Doubles},
		{"NAME can't move.", CantMove},
		{"NAME leaves. The game was saved.", GameSaved},
		{"NAME wins the game and gets 1 point. Sorry.", WinsGame},
		{"** You are now playing a 5 point match with NAME", MatchStarted},
		{"NAME has joined you. Your running match was loaded.", MatchResumed},
	}
	for _, name := range []string{"alice", "bot1", "p0a", "a12", "joe_white", "X"} {
		for _, g := range games {
			line := strings.ReplaceAll(g.line, "NAME", name)
			if m := Parse(line); m.Kind != g.kind || m.Name != name {
				t.Errorf("%q: kind %v name %q, want %v about %s", line, m.Kind, m.Name, g.kind, name)
			}
			// The same text after a CLIP number is chat, never the game message.
			said := "12 " + name + " " + line
			if m := Parse(said); m.Kind != Says || m.Name != name || m.Text != line {
				t.Errorf("%q: kind %v name %q text %q, want %s says %q", said, m.Kind, m.Name, m.Text, name, line)
			}
		}
	}
	for _, name := range []string{"1", "7", "12", "20", "21", "123", "0", "007"} {
		for _, g := range games {
			line := strings.ReplaceAll(g.line, "NAME", name)
			if m := Parse(line); m.Kind == g.kind {
				t.Errorf("%q: read as %v about %q; an all-digit name is no name", line, m.Kind, m.Name)
			}
		}
		for _, line := range []string{"7 " + name + " " + name + " logs in.", "12 " + name + " hi", "5 " + name + " - - 1 0 1500.00 1 0 1 host - -"} {
			if m := Parse(line); m.Kind != Unknown {
				t.Errorf("%q: read as %v about %q; an all-digit name is no name", line, m.Kind, m.Name)
			}
		}
	}
	// Every numbered message keeps its number, whatever text follows.
	for n := Welcome; n <= Alert; n++ {
		for _, rest := range []string{"alice moves 8-5 6-5 .", "alice wants to play a 5 point match with you."} {
			line := fmt.Sprintf("%d %s", n, rest)
			if m := Parse(line); m.Kind != n && m.Kind != Unknown {
				t.Errorf("%q: read as %v, want %v or unknown", line, m.Kind, n)
			}
		}
	}
}
