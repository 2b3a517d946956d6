package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/online"
)

// DefaultStateDir is where the bridge keeps its matches in progress when
// not told: $XDG_STATE_HOME/gamemill/fibsbridge when XDG_STATE_HOME is
// set, else gamemill/fibsbridge in the user's cache directory. Never the
// working directory.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "gamemill", "fibsbridge"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no state directory: %w", err)
	}
	return filepath.Join(d, "gamemill", "fibsbridge"), nil
}

// StatePath is the state file of user on server in dir: one per server
// (host and port) and user, so that two bridges, or one bridge on two
// servers, never share a match.
func StatePath(dir, server, user string) string {
	host := server
	if u, err := url.Parse(server); err == nil && u.Host != "" {
		host = u.Host
	}
	return filepath.Join(dir, online.FileName(host)+"-"+online.FileName(user)+".json")
}

// saveState writes the match in progress (or its absence) to the state
// file, so that a bridge killed and restarted resumes it.
func (b *Bridge) saveState() {
	path := b.opt.StateFile
	if path == "" {
		return
	}
	if b.cur == nil {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			b.logf("state file: %v", err)
		}
		return
	}
	if b.cur.b != nil {
		b.cur.Record = b.cur.b.Match()
	}
	data, err := json.Marshal(b.cur)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o700)
	}
	if err == nil {
		err = atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(data); return err })
	}
	if err != nil {
		b.logf("state file: %v", err)
	}
}

// loadState reads the state file: a match saved on this server is
// resumed; one from another server is left alone.
func (b *Bridge) loadState() error {
	path := b.opt.StateFile
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var mt matchState
	if err := json.Unmarshal(data, &mt); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if mt.Server != b.opt.Server {
		return fmt.Errorf("%s: a match with %s on %q, not on %s: not resumed", path, mt.Opponent, mt.Server, b.opt.Server)
	}
	if mt.Record != nil && !mt.Partial {
		rb, err := fibs.Rebuild(mt.Record)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		mt.b = rb
	}
	b.cur = &mt
	b.logf("saved match with %s loaded from %s", mt.Opponent, path)
	return nil
}
