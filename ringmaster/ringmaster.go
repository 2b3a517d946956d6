// Package ringmaster runs competitions described by a control file: it
// launches the players, has the referee play the games N at a time, keeps
// the state in SQLite so a stopped or killed run resumes exactly, shows
// progress while running, and reports the results.
package ringmaster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// Ringmaster is one competition: its control file and the files beside it.
type Ringmaster struct {
	Comp *control.Competition
	// Game is the game the competition plays.
	Game Game
}

// New loads a control file for one of games (the program's registry,
// ringmaster/games.All).
func New(controlPath string, games ...Game) (*Ringmaster, error) {
	comp, err := control.Load(controlPath, controlGames(games)...)
	if err != nil {
		return nil, err
	}
	return &Ringmaster{Comp: comp, Game: findGame(games, comp.Game)}, nil
}

func (r *Ringmaster) base() string { return filepath.Join(r.Comp.Dir, r.Comp.Code) }

// Paths of the competition's files.
func (r *Ringmaster) DBPath() string      { return r.base() + ".db" }
func (r *Ringmaster) LogPath() string     { return r.base() + ".log" }
func (r *Ringmaster) CmdPath() string     { return r.base() + ".cmd" }
func (r *Ringmaster) ReportPath() string  { return r.base() + ".report" }
func (r *Ringmaster) GamesDir() string    { return r.base() + ".games" }
func (r *Ringmaster) VoidDir() string     { return r.base() + ".void" }
func (r *Ringmaster) ProtocolDir() string { return r.base() + ".protocol" }

// EnginesPath is the list of a run's running engines (see engineRegistry).
func (r *Ringmaster) EnginesPath() string { return r.base() + ".engines" }
func (r *Ringmaster) openStore(ctx context.Context) (*store.Store, error) {
	return store.Open(ctx, r.DBPath())
}

// ErrAlreadyRunning is returned when another run holds the competition.
var ErrAlreadyRunning = errors.New("competition is already running")

// lock takes the run lock: an exclusive flock on the database file
// CODE.db itself, which a user does not delete while a run lives (the log,
// rotated or cleaned, is no place for it). SQLite's own locks are fcntl
// locks, which flock does not touch on Linux. The kernel drops the lock
// when the process dies, so a killed run never leaves a stale one. The
// caller closes the returned file only after closing its store: closing
// any descriptor of the file drops the process's fcntl locks on it.
func (r *Ringmaster) lock() (*os.File, error) {
	f, err := os.OpenFile(r.DBPath(), os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", r.DBPath(), err)
	}
	// A run killed a moment ago may still hold the lock briefly through a
	// child caught between fork and exec, so a busy lock is retried for a
	// little while before the competition counts as running.
	deadline := time.Now().Add(2 * time.Second)
	for {
		err := tryLock(f)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, errLockBusy) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", r.DBPath(), err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, ErrAlreadyRunning
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop asks a running competition to stop after its running games finish.
func (r *Ringmaster) Stop() error {
	if err := os.WriteFile(r.CmdPath(), []byte("stop\n"), 0o644); err != nil {
		return fmt.Errorf("write stop request: %w", err)
	}
	return nil
}

// Reset deletes the competition's state and outputs, after making sure no
// run holds it. Errors are collected and the deletion goes on.
func (r *Ringmaster) Reset() error {
	if _, err := os.Stat(r.DBPath()); err == nil {
		f, err := r.lock()
		if err != nil {
			return err
		}
		// Held while deleting, so that no run starts half-way through.
		defer f.Close()
	}
	var errs []error
	for _, p := range []string{r.DBPath(), r.DBPath() + "-wal", r.DBPath() + "-shm", r.DBPath() + "-journal", r.LogPath(), r.CmdPath(), r.ReportPath(), r.EnginesPath()} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for _, d := range []string{r.GamesDir(), r.VoidDir(), r.ProtocolDir()} {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
