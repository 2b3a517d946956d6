package bridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/protocol/fibs"
)

func TestDefaultStateDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_STATE_HOME", home)
	d, err := DefaultStateDir()
	if err != nil || d != filepath.Join(home, "gamemill", "fibsbridge") {
		t.Fatalf("with XDG_STATE_HOME: %q, %v", d, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	if d, err := DefaultStateDir(); err != nil || d != filepath.Join(cache, "gamemill", "fibsbridge") {
		t.Fatalf("without XDG_STATE_HOME: %q, %v", d, err)
	}
}

// One state file per server (host and port) and user, named safely.
func TestStatePathPerServerAndUser(t *testing.T) {
	paths := map[string]bool{}
	for _, c := range []struct{ server, user string }{
		{"tcp://fibs.com:4321", "bot"},
		{"tcp://fibs.com:4321", "bot2"},
		{"tcp://localhost:4321", "bot"},
		{"tcp://localhost:4322", "bot"},
		{"ws://localhost:4380/fibs", "bot"},
	} {
		p := StatePath("/state", c.server, c.user)
		if filepath.Dir(p) != "/state" || strings.ContainsAny(filepath.Base(p), ":/") {
			t.Errorf("StatePath(%q, %q) = %q", c.server, c.user, p)
		}
		paths[p] = true
	}
	if len(paths) != 5 {
		t.Errorf("%d state files for 5 servers and users: %v", len(paths), paths)
	}
}

// A match saved on another server (the same state file given to a bridge
// on a new server) is not resumed there: the bridge goes on with its own
// invitation.
func TestSavedMatchFromAnotherServerIsNotLoaded(t *testing.T) {
	srv := newScriptServer(t)
	b, logs := testBridge(t, srv.url(), func(o *Options) { o.Invite, o.InviteLen = "alice", 3 })
	other := b.opt
	other.Server = "tcp://elsewhere.example:4321"
	writeState(t, other, "alice", record.DefaultRules(5))
	start(t, b, logs)
	c := srv.accept(t)
	c.login("alice")
	c.expect("invite alice 3")
	if !strings.Contains(logs.String(), "not resumed") {
		t.Errorf("the bridge did not say why it left the saved match")
	}
}

// A bridge with the default state directory writes nothing in its working
// directory: state and records go where they are told.
func TestNoFileInTheWorkingDirectory(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	srv := newScriptServer(t)
	dir, err := DefaultStateDir()
	if err != nil {
		t.Fatal(err)
	}
	b, _, done := runBridge(t, srv, func(o *Options) { o.StateFile = StatePath(dir, o.Server, o.User) })
	f := startMatch(t, srv, 1)
	f.play()
	finished(t, f, b, done)
	if ents, err := os.ReadDir(cwd); err != nil || len(ents) != 0 {
		t.Fatalf("the working directory holds %v (%v)", ents, err)
	}
}

func TestStepsDirection(t *testing.T) {
	for _, c := range []struct {
		move string
		want int
	}{
		{"8-5 6-5", -1}, {"17-20 19-20", 1}, {"bar-22", -1}, {"bar-3", 1},
		{"5-off 3-off", -1}, {"22-off", 1}, {"", 0},
	} {
		steps, err := fibs.ParseSteps(c.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := stepsDirection(steps); got != c.want {
			t.Errorf("stepsDirection(%q) = %d, want %d", c.move, got, c.want)
		}
	}
}
