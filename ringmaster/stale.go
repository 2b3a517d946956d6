package ringmaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/protocol"
)

// engineRegistry keeps CODE.engines: the engines a run has running, as a
// journal of JSON lines, one player.Record appended at each launch and
// one closing line ({"token": ..., "closed": true}) at each close, each
// in one write to a file kept open; the file goes when no engine runs. A
// run that dies without closing its engines (SIGKILL) leaves the file
// behind; the next run hands the engines it lists as still running to
// player.StopStale before it starts anything.
type engineRegistry struct {
	path    string
	mu      sync.Mutex
	running map[string]bool // tokens of the engines running
	f       *os.File        // the journal while it is open
}

// journalLine is one line of CODE.engines.
type journalLine struct {
	player.Record
	Closed bool `json:"closed,omitempty"`
}

// stopStaleEngines stops what a dead run left, as CODE.engines lists it,
// and returns how many processes it signalled.
func stopStaleEngines(path string) (int, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	records, err := runningEngines(data)
	if err != nil {
		// A damaged list cannot name anything safely; drop it.
		return 0, os.Remove(path)
	}
	n, err := player.StopStale(records)
	if rerr := os.Remove(path); err == nil && rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = rerr
	}
	return n, err
}

// runningEngines reads CODE.engines: the engines launched and not closed,
// in launch order. A line that does not parse (a write cut short) is
// skipped; a list written as one JSON array, as older runs wrote it, is
// read as it is.
func runningEngines(data []byte) ([]player.Record, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		var records []player.Record
		if err := json.Unmarshal(t, &records); err != nil {
			return nil, err
		}
		return records, nil
	}
	var order []string
	byToken := map[string]player.Record{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var l journalLine
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &l) != nil || l.Token == "" {
			continue
		}
		if l.Closed {
			delete(byToken, l.Token)
			continue
		}
		if _, dup := byToken[l.Token]; !dup {
			order = append(order, l.Token)
		}
		byToken[l.Token] = l.Record
	}
	var records []player.Record
	for _, tok := range order {
		if r, ok := byToken[tok]; ok {
			records = append(records, r)
			delete(byToken, tok)
		}
	}
	return records, nil
}

// track lists a launched engine until it is closed: the player returned
// forgets it in Close. Only subprocesses are listed (a player.Process, or
// an adapter such as an agent that runs one and gives its Record); a nil
// registry lists nothing.
func (r *engineRegistry) track(p player.Player) player.Player {
	proc, ok := p.(interface{ Record() player.Record })
	if !ok || r == nil {
		return p
	}
	rec := proc.Record()
	r.mu.Lock()
	if r.running == nil {
		r.running = map[string]bool{}
	}
	r.running[rec.Token] = true
	r.appendLocked(journalLine{Record: rec})
	r.mu.Unlock()
	return &trackedPlayer{Player: p, forget: func() {
		r.mu.Lock()
		delete(r.running, rec.Token)
		if len(r.running) == 0 {
			r.removeLocked()
		} else {
			r.appendLocked(journalLine{Record: player.Record{PGID: rec.PGID, Token: rec.Token}, Closed: true})
		}
		r.mu.Unlock()
	}}
}

// trackedPlayer is a listed engine: closing it takes it off the list.
type trackedPlayer struct {
	player.Player
	once   sync.Once
	forget func()
}

func (t *trackedPlayer) Unwrap() player.Player { return t.Player }

func (t *trackedPlayer) DoAll(ctx context.Context, cmds []protocol.Command) ([]protocol.Reply, error) {
	return protocol.DoAll(ctx, t.Player, cmds...)
}

func (t *trackedPlayer) Close() error {
	err := t.Player.Close()
	t.once.Do(t.forget)
	return err
}

// appendLocked adds one line to the journal, opening it if need be. A
// failure here only weakens the clean-up after a crash.
func (r *engineRegistry) appendLocked(l journalLine) {
	if r.f == nil {
		f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return
		}
		r.f = f
	}
	data, err := json.Marshal(l)
	if err != nil {
		return
	}
	r.f.Write(append(data, '\n'))
}

// removeLocked removes the journal once no engine runs.
func (r *engineRegistry) removeLocked() {
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
	os.Remove(r.path)
}
