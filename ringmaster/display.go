package ringmaster

import (
	"bytes"
	"context"
	"fmt"
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
}

func newDisplay(run *runner, opts RunOptions) *display {
	return &display{run: run, opts: opts, running: map[string]string{}, done: make(chan struct{})}
}

func (d *display) start(ctx context.Context) {
	if d.opts.Quiet || !d.opts.Live {
		return
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

// redraw paints the live view: status, results so far, games in
// progress, recent results and warnings.
func (d *display) redraw(ctx context.Context) {
	var buf bytes.Buffer
	buf.WriteString("\x1b[H\x1b[2J")
	d.mu.Lock()
	ids := make([]string, 0, len(d.running))
	for id := range d.running {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	recent := append([]string(nil), d.recent...)
	voids := d.voids
	d.mu.Unlock()
	d.run.mu.Lock()
	reason, started := d.run.stopReason, d.run.started
	d.run.mu.Unlock()
	switch {
	case reason != "":
		fmt.Fprintf(&buf, "waiting for workers to finish: %s\n", reason)
	case len(ids) == 1:
		fmt.Fprintf(&buf, "game in progress: %s\n", ids[0])
	default:
		fmt.Fprintf(&buf, "%d games in progress: %s\n", len(ids), strings.Join(ids, " "))
	}
	if d.opts.MaxGames >= 0 {
		fmt.Fprintf(&buf, "will start at most %d more games in this run\n", max(0, d.opts.MaxGames-started))
	}
	buf.WriteString("(Ctrl-X or 'ringmaster stop' to halt gracefully, Ctrl-C to interrupt)\n\n")
	if voids > 0 {
		fmt.Fprintf(&buf, "%d void games; see log file.\n", voids)
	}
	if data, err := loadReportData(ctx, d.run.st); err != nil {
		fmt.Fprintf(&buf, "(report: %v)\n", err)
	} else {
		d.run.rm.writeShortReport(&buf, data)
	}
	buf.WriteString("\n= Results =\n")
	for _, r := range recent {
		buf.WriteString(r + "\n")
	}
	if w := d.run.log.recentWarnings(4); len(w) > 0 {
		buf.WriteString("= Warnings =\n")
		for _, line := range w {
			buf.WriteString(line + "\n")
		}
	}
	// One write per frame, so the terminal never shows half a frame.
	d.opts.Display.Write(buf.Bytes())
}
