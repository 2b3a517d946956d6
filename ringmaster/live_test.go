package ringmaster

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// screenLines strips the live view's control sequences and splits it into
// the lines a terminal shows.
func screenLines(frame string) []string {
	plain := regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]").ReplaceAllString(frame, "")
	return strings.Split(strings.ReplaceAll(plain, "\r\n", "\n"), "\n")
}

// allPlayAllFrame is the live view of a 5-player all-play-all a third of
// the way through: the grid and ratings, ten matchups, a long report,
// recent results and warnings, far more than 24 rows.
func allPlayAllFrame() liveFrame {
	began := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	f := liveFrame{Competition: "ratings", Began: began, Now: began.Add(90 * time.Second),
		Done: 80, Planned: 240, DoneAtStart: 20, MaxGames: -1,
		Running: []string{"net_v_noise05_31", "heuristic_v_noise20_30"}}
	players := []string{"net", "noise05", "net-noisy", "heuristic", "noise20"}
	f.Summary = []string{"80 games played", "", "            A     B     C     D     E"}
	for i, p := range players {
		f.Summary = append(f.Summary, fmt.Sprintf("%c %-9s 4-4   4-4   4-4   4-4   4-4", 'A'+i, p))
	}
	f.Summary = append(f.Summary, "", "Bradley-Terry ratings (as 'ringmaster ratings': mean 0, 95% interval, 1 virtual draw per player)",
		"FIBS scale: an N-point match is won with P = 1/(1+10^(-D*sqrt(N)/2000))")
	for _, p := range players {
		f.Summary = append(f.Summary, fmt.Sprintf("  %-12s   +0  (-300 to +300)  32 games", p))
	}
	for i := range players {
		for j := i + 1; j < len(players); j++ {
			name := players[i] + " v " + players[j]
			f.Matchups = append(f.Matchups, matchupProgress{Name: name, Done: 8, Planned: 24})
			f.Report = append(f.Report, name+" (8/24 games)", "3-point match, Crawford, independent dice",
				"   wins  moved first: won  other moved first: won  gammons  backgammons  forfeits",
				fmt.Sprintf("match points/match (+1 win, -1 loss) for %s: +0.250, 95%% interval -0.600 to +1.000 (8 games)", players[i]), "")
		}
	}
	for i := range 6 {
		f.Recent = append(f.Recent, fmt.Sprintf("game net_v_noise05_%d: net beat noise05 3-1", i))
	}
	f.Warnings = []string{"warning: heuristic: slow move", "warning: noise20: slow move"}
	return f
}

// TestLiveViewFitsTerminal renders a 5-player all-play-all into a 24x80
// terminal: at most 24 lines of at most 80 columns, with the status line
// (elapsed time, rate, ETA), the bar and the Ctrl-X hint at the top, and
// the cut sections saying how many lines they left out.
func TestLiveViewFitsTerminal(t *testing.T) {
	f := allPlayAllFrame()
	lines := screenLines(f.render(24, 80))
	if len(lines) > 24 {
		t.Errorf("%d lines in a 24-row terminal:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	// 60 games in 1.5 minutes: 40 a minute; 160 left: 4 minutes.
	if want := "ratings: 80/240 games  elapsed 0:01:30  40.0 games/min  ETA 0:04:00"; lines[0] != want {
		t.Errorf("status %q, want %q", lines[0], want)
	}
	if !regexp.MustCompile(`^\[#{1,}\.+\]  33% 80/240$`).MatchString(lines[1]) {
		t.Errorf("bar %q", lines[1])
	}
	if lines[2] != liveHint {
		t.Errorf("line 3 %q, want the hint", lines[2])
	}
	text := strings.Join(lines, "\n")
	if !strings.Contains(text, "2 games in progress") || !strings.Contains(text, f.Summary[len(f.Summary)-1]) {
		t.Errorf("missing games in progress or the summary's last line:\n%s", text)
	}
	if !regexp.MustCompile(`(?m)^\.\.\. \d+ more$`).MatchString(text) {
		t.Errorf("no '... N more' line:\n%s", text)
	}
	// A taller terminal shows the warnings and the matchups' bars, two to
	// a line.
	tall := strings.Join(screenLines(f.render(40, 80)), "\n")
	if !strings.Contains(tall, "= Warnings =") ||
		!regexp.MustCompile(`(?m)^\[##\.{6}\] 8/24 net v noise05 +\[##\.{6}\] 8/24 net v net-noisy$`).MatchString(tall) {
		t.Errorf("40 rows: missing warnings or the matchups' bars:\n%s", tall)
	}
	// Redrawn in place: home, clear each line's rest, clear below.
	frame := f.render(24, 80)
	if !strings.HasPrefix(frame, "\x1b[H") || !strings.HasSuffix(frame, "\x1b[J") || strings.Contains(frame, "\x1b[2J") {
		t.Errorf("frame does not redraw in place: %q...", frame[:20])
	}
}

// TestLiveViewUnknownSize: with no terminal size nothing is cut, and
// before the first game of the run there is no rate or ETA.
func TestLiveViewUnknownSize(t *testing.T) {
	f := allPlayAllFrame()
	f.Done = f.DoneAtStart
	lines := screenLines(f.render(0, 0))
	if len(lines) < 24+len(f.Report) {
		t.Errorf("%d lines, want everything", len(lines))
	}
	if !strings.Contains(lines[0], "-- games/min  ETA --") {
		t.Errorf("status %q before the run's first game", lines[0])
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "... ") {
			t.Errorf("cut without a size: %q", l)
		}
	}
}
