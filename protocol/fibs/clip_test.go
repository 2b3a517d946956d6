package fibs

import (
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
