package ringmaster

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"

	"github.com/gamemill/gamemill/player"
)

// engineRegistry keeps CODE.engines: the engines a run has running, as
// player.Records, rewritten (atomically) at each launch and close. A run
// that dies without closing its engines (SIGKILL) leaves the file behind;
// the next run hands it to player.StopStale before it starts anything.
type engineRegistry struct {
	path    string
	mu      sync.Mutex
	running map[int]player.Record // by process group id
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
	var records []player.Record
	if err := json.Unmarshal(data, &records); err != nil {
		// A damaged list cannot name anything safely; drop it.
		return 0, os.Remove(path)
	}
	n, err := player.StopStale(records)
	if rerr := os.Remove(path); err == nil && rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = rerr
	}
	return n, err
}

// track lists a launched engine until it is closed: the player returned
// forgets it in Close. Only subprocesses are listed; a nil registry lists
// nothing.
func (r *engineRegistry) track(p player.Player) player.Player {
	proc, ok := p.(*player.Process)
	if !ok || r == nil {
		return p
	}
	rec := proc.Record()
	r.mu.Lock()
	r.running[rec.PGID] = rec
	r.writeLocked()
	r.mu.Unlock()
	return &trackedPlayer{Player: p, forget: func() {
		r.mu.Lock()
		delete(r.running, rec.PGID)
		r.writeLocked()
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

func (t *trackedPlayer) Close() error {
	err := t.Player.Close()
	t.once.Do(t.forget)
	return err
}

func (r *engineRegistry) writeLocked() {
	if len(r.running) == 0 {
		os.Remove(r.path)
		return
	}
	list := make([]player.Record, 0, len(r.running))
	for _, rec := range r.running {
		list = append(list, rec)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].PGID < list[j].PGID })
	data, _ := json.Marshal(list)
	// A failure here only weakens the clean-up after a crash.
	writeFileAtomic(r.path, data)
}
