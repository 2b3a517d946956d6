package ringmaster

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gamemill/gamemill/competitions"
)

// display shows a run's progress: a full-screen view redrawn every second
// on a terminal (Live), or one line per finished game, or nothing (Quiet).
type display struct {
	run     *runner
	opts    RunOptions
	mu      sync.Mutex
	running map[string]string // game id -> "a vs b"
	recent  []string
	voids   int
	done    chan struct{}
	wg      sync.WaitGroup
	// began and doneAtStart are when the live view started and how many
	// games were finished then, for the rate and the ETA.
	began       time.Time
	doneAtStart int
	// size reports the terminal's rows and columns, 0 when unknown.
	size func() (rows, cols int)
}

func newDisplay(run *runner, opts RunOptions) *display {
	return &display{run: run, opts: opts, running: map[string]string{}, done: make(chan struct{}),
		size: func() (int, int) { return terminalSize(opts.Display) }}
}

func (d *display) start(ctx context.Context) {
	if d.opts.Quiet || !d.opts.Live {
		return
	}
	d.began = time.Now()
	if data, err := d.run.rm.loadReportData(ctx, d.run.st); err == nil {
		d.doneAtStart = len(data.results)
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			d.redraw(ctx)
			select {
			case <-d.done:
				// A last frame with the run's end state: a run can
				// finish, or be stopped, between two ticks. An
				// interrupted run's context is cancelled; the frame
				// still reads the store.
				d.redraw(context.WithoutCancel(ctx))
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
}

func (d *display) stop() {
	close(d.done)
	d.wg.Wait()
	if !d.opts.Quiet && d.opts.Live {
		// A frame ends at its last line's end; what follows starts below.
		io.WriteString(d.opts.Display, "\r\n")
	}
}

func (d *display) startGame(job competitions.Job) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.running[job.GameID] = job.PlayerA + " vs " + job.PlayerB
}

func (d *display) endGame(gameID string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.running, gameID)
}

func (d *display) result(gameID, desc string) {
	line := fmt.Sprintf("game %s: %s", gameID, desc)
	d.mu.Lock()
	d.recent = append(d.recent, line)
	if len(d.recent) > 6 {
		d.recent = d.recent[len(d.recent)-6:]
	}
	d.mu.Unlock()
	if !d.opts.Quiet && !d.opts.Live {
		fmt.Fprintln(d.opts.Display, line)
	}
}

func (d *display) void(gameID string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.voids++
}

// redraw paints the live view (liveFrame.render), cut to the terminal's
// size: the status line with elapsed time, rate, ETA and a progress bar,
// the Ctrl-X hint and the games in progress first, then the summary (an
// all-play-all's grid and ratings), warnings, each matchup's bar, the
// matchups' figures and recent results, as far as they fit.
func (d *display) redraw(ctx context.Context) {
	d.mu.Lock()
	ids := make([]string, 0, len(d.running))
	for id := range d.running {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	f := liveFrame{Now: time.Now(), Began: d.began, Running: ids, Recent: append([]string(nil), d.recent...), Voids: d.voids,
		DoneAtStart: d.doneAtStart}
	d.mu.Unlock()
	d.run.mu.Lock()
	f.StopReason, f.Started = d.run.stopReason, d.run.started
	d.run.mu.Unlock()
	f.Competition, f.MaxGames = d.run.rm.Comp.Code, d.opts.MaxGames
	if data, err := d.run.rm.loadReportData(ctx, d.run.st); err != nil {
		f.Report = []string{fmt.Sprintf("(report: %v)", err)}
	} else {
		stats := d.run.rm.gather(data)
		f.Done = len(data.results)
		for _, s := range stats {
			f.Planned += s.m.NumberOfGames
			f.Matchups = append(f.Matchups, matchupProgress{Name: s.m.Name, Done: s.played, Planned: s.m.NumberOfGames})
		}
		// The short report is the competition's own section (an
		// all-play-all's grid), the matchups' summaries and the voids;
		// the section is the summary the view shows first.
		var short, summaries bytes.Buffer
		d.run.rm.writeShortReport(&short, data)
		for i, s := range stats {
			if i > 0 {
				fmt.Fprintln(&summaries)
			}
			d.run.rm.printMatchupSummary(&summaries, s)
		}
		text := short.String()
		if p := strings.Index(text, summaries.String()); summaries.Len() > 0 && p >= 0 {
			f.Summary, f.Report = textLines(text[:p]), textLines(text[p:])
		} else {
			f.Report = textLines(text)
		}
	}
	f.Warnings = d.run.log.recentWarnings(4)
	rows, cols := d.size()
	// One write per frame, so the terminal never shows half a frame.
	d.opts.Display.Write([]byte(f.render(rows, cols)))
}

// textLines splits text into lines, without the trailing blank ones.
func textLines(text string) []string {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}
