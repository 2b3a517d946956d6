package ringmaster

import (
	"fmt"
	"strings"
	"time"
)

// liveFrame is what one frame of the live view shows; render lays it out.
type liveFrame struct {
	Competition string
	Now, Began  time.Time
	// Done and Planned count the competition's finished and planned
	// games; DoneAtStart those finished when the view began, so that the
	// rate is this run's.
	Done, Planned, DoneAtStart int
	Started, MaxGames          int // games started in this run, and its limit (<0 none)
	StopReason                 string
	Running                    []string // ids of the games in progress
	Voids                      int
	Matchups                   []matchupProgress
	Summary                    []string // an all-play-all's grid and ratings
	Report                     []string // the matchups' summaries and voids
	Recent                     []string // the last results
	Warnings                   []string
}

// matchupProgress is one matchup's line of the live view.
type matchupProgress struct {
	Name          string
	Done, Planned int
}

const liveHint = "(Ctrl-X or 'ringmaster stop' to halt gracefully, Ctrl-C to interrupt)"

// render lays the frame out for a terminal of rows by cols (0: unknown,
// no limit): the cursor goes home, each line clears what the last frame
// left to its right, and the screen below the last line is cleared, so
// the view is redrawn in place without a blank flash. The status, its bar
// and the hint come first and are never cut; then, as far as they fit,
// the summary (an all-play-all's grid and ratings), warnings, a bar per
// matchup, the matchups' figures and the last results, the section that
// reaches the bottom ending with "... N more".
func (f liveFrame) render(rows, cols int) string {
	head := []string{f.status(), f.bar(cols), liveHint, f.inProgress()}
	if f.MaxGames >= 0 {
		head = append(head, fmt.Sprintf("will start at most %d more games in this run", max(0, f.MaxGames-f.Started)))
	}
	if f.Voids > 0 {
		head = append(head, fmt.Sprintf("%d void games; see log file.", f.Voids))
	}
	var sections [][]string
	if len(f.Summary) > 0 {
		sections = append(sections, f.Summary)
	}
	if len(f.Warnings) > 0 {
		sections = append(sections, append([]string{"= Warnings ="}, f.Warnings...))
	}
	if len(f.Matchups) > 1 {
		sections = append(sections, f.matchupBars(cols))
	}
	sections = append(sections, f.Report)
	if len(f.Recent) > 0 {
		sections = append(sections, append([]string{"= Results ="}, f.Recent...))
	}

	lines := head
	left := -1 // rows left; -1 unlimited
	if rows > 0 {
		left = rows - len(head)
	}
	for _, sec := range sections {
		if left == 0 {
			break
		}
		if left > 0 {
			left-- // the blank line before the section
		}
		lines = append(lines, "")
		if left < 0 || len(sec) <= left {
			lines = append(lines, sec...)
			if left > 0 {
				left -= len(sec)
			}
			continue
		}
		if left > 0 {
			shown := left - 1
			lines = append(lines, sec[:shown]...)
			lines = append(lines, fmt.Sprintf("... %d more", len(sec)-shown))
			left = 0
		}
	}
	if rows > 0 && len(lines) > rows {
		lines = lines[:rows]
	}
	var b strings.Builder
	b.WriteString("\x1b[H")
	for i, l := range lines {
		if cols > 0 {
			l = cut(l, cols-1) // a full last column would wrap on some terminals
		}
		b.WriteString(l)
		b.WriteString("\x1b[K")
		if i < len(lines)-1 {
			b.WriteString("\r\n")
		}
	}
	b.WriteString("\x1b[J")
	return b.String()
}

// status is the first line: games done of planned, time since the view
// began, this run's rate and the time left at that rate.
func (f liveFrame) status() string {
	elapsed := f.Now.Sub(f.Began)
	played := f.Done - f.DoneAtStart
	rate, eta := "--", "--"
	if played > 0 && elapsed > 0 {
		perMinute := float64(played) / elapsed.Minutes()
		rate = fmt.Sprintf("%.1f", perMinute)
		left := max(0, f.Planned-f.Done)
		if f.MaxGames >= 0 {
			left = min(left, max(0, f.MaxGames-f.Started)+len(f.Running))
		}
		eta = clock(time.Duration(float64(left) / perMinute * float64(time.Minute)))
	}
	return fmt.Sprintf("%s: %d/%d games  elapsed %s  %s games/min  ETA %s", f.Competition, f.Done, f.Planned, clock(elapsed), rate, eta)
}

// bar is the competition's progress bar, as wide as the terminal allows.
func (f liveFrame) bar(cols int) string {
	width := 50
	if cols > 0 {
		width = max(10, min(width, cols-20))
	}
	return progressBar(f.Done, f.Planned, width)
}

// matchupBars is a progress bar per matchup, two to a line where the
// terminal is wide enough.
func (f liveFrame) matchupBars(cols int) []string {
	var entries []string
	widest := 0
	for _, m := range f.Matchups {
		e := fmt.Sprintf("%s %s", shortBar(m.Done, m.Planned, 8), m.Name)
		entries = append(entries, e)
		widest = max(widest, len(e))
	}
	if cols <= 0 || 2*widest+2 > cols-1 {
		return entries
	}
	var lines []string
	for i := 0; i < len(entries); i += 2 {
		if i+1 == len(entries) {
			lines = append(lines, entries[i])
			break
		}
		lines = append(lines, fmt.Sprintf("%-*s  %s", widest, entries[i], entries[i+1]))
	}
	return lines
}

func (f liveFrame) inProgress() string {
	switch {
	case f.StopReason != "":
		return "waiting for workers to finish: " + f.StopReason
	case len(f.Running) == 1:
		return "game in progress: " + f.Running[0]
	}
	return fmt.Sprintf("%d games in progress: %s", len(f.Running), strings.Join(f.Running, " "))
}

// progressBar draws done of total as [####....] with the percentage and
// the counts; an unknown total (0) draws no bar.
func progressBar(done, total, width int) string {
	if total <= 0 {
		return fmt.Sprintf("%d games", done)
	}
	filled := min(width, width*done/total)
	return fmt.Sprintf("[%s%s] %3d%% %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		100*done/total, done, total)
}

// shortBar draws done of total as [##......] 8/24, without the
// percentage, for the matchups' bars.
func shortBar(done, total, width int) string {
	if total <= 0 {
		return fmt.Sprintf("%d games", done)
	}
	filled := min(width, width*done/total)
	return fmt.Sprintf("[%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
}

// clock writes a duration as H:MM:SS.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// cut shortens a line to n columns (the live view's lines are ASCII, bar
// player names).
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
