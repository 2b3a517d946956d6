package fibs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 50)
	in := "login: " // the prompt, with no line ending: returned at once
	lr := NewLineReader(strings.NewReader(in), 40)
	if l, err := lr.ReadLine(); l != "login: " || err != nil {
		t.Fatalf("prompt: %q %v", l, err)
	}
	lr = NewLineReader(strings.NewReader("a\r\n"+long+"\nb\n"+long), 40)
	want := []struct {
		line string
		err  error
	}{{"a", nil}, {"", ErrLineTooLong}, {"b", nil}, {"", ErrLineTooLong}, {"", io.EOF}}
	for i, w := range want {
		l, err := lr.ReadLine()
		if l != w.line || !errors.Is(err, w.err) {
			t.Fatalf("read %d: %q %v, want %q %v", i, l, err, w.line, w.err)
		}
	}
}

// fakeServer answers a scripted conversation on the server end of a pipe:
// for each command it reads, it checks it and writes the answer lines.
func fakeServer(t *testing.T, conn net.Conn, greeting string, script [][2]string) <-chan error {
	done := make(chan error, 1)
	go func() {
		defer conn.Close()
		if _, err := io.WriteString(conn, greeting); err != nil {
			done <- err
			return
		}
		r := bufio.NewReader(conn)
		for _, step := range script {
			line, err := r.ReadString('\n')
			if err != nil {
				done <- err
				return
			}
			if got := strings.TrimRight(line, "\r\n"); got != step[0] {
				done <- errors.New("server got " + got + ", want " + step[0])
				return
			}
			if _, err := io.WriteString(conn, step[1]); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	return done
}

func TestSessionLoginAndOrder(t *testing.T) {
	c, s := net.Pipe()
	done := fakeServer(t, s, "\r\nFIBS\r\nlogin: ", [][2]string{
		{"login gamemill 1008 bot secret", "1 bot 1041253132 host\r\n2 bot 1 1 0 0 0 0 1 1 0 0 1 0 1 1500.00 0 0 0 0 0 UTC\r\n3\r\nhello\r\n4\r\n"},
		{"set boardstyle 3", "Value of 'boardstyle' set to 3.\r\n"},
		{"toggle ready", "** You're now ready to invite or join someone.\r\n"},
	})
	var transcript []string
	sess := NewSession(c, SessionOptions{Transcript: func(sent bool, line string) {
		if sent {
			transcript = append(transcript, line)
		}
	}})
	defer sess.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	msgs, err := sess.Login(ctx, "gamemill", "bot", "secret")
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-1]; last.Kind != Welcome || last.Name != "bot" {
		t.Fatalf("login ended with %+v", last)
	}
	// Two commands back to back: the second waits for the first's answer.
	if err := sess.Send(ctx, "set boardstyle 3"); err != nil {
		t.Fatal(err)
	}
	if err := sess.Send(ctx, "toggle ready"); err != nil {
		t.Fatal(err)
	}
	kinds := map[Kind]bool{}
	for !kinds[Toggle] {
		m, err := sess.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		kinds[m.Kind] = true
	}
	for _, k := range []Kind{OwnInfo, MOTDStart, MOTDEnd, SettingValue} {
		if !kinds[k] {
			t.Errorf("no %v message", k)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(transcript, "\n"), "secret") {
		t.Errorf("the transcript shows the password: %q", transcript)
	}
}

func TestSessionLoginRefused(t *testing.T) {
	c, s := net.Pipe()
	done := fakeServer(t, s, "login: ", [][2]string{{"login gamemill 1008 bot wrong", "\r\nlogin: "}})
	sess := NewSession(c, SessionOptions{})
	defer sess.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := sess.Login(ctx, "gamemill", "bot", "wrong"); !errors.Is(err, ErrLoginRefused) {
		t.Fatalf("login: %v", err)
	}
	<-done
}

// A slow server: the second command is held back until the first is
// answered, however long that takes, and sent exactly once.
func TestSessionWaitsForSlowServer(t *testing.T) {
	c, s := net.Pipe()
	sess := NewSession(c, SessionOptions{})
	defer sess.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := make(chan string, 4)
	go func() {
		r := bufio.NewReader(s)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(got)
				return
			}
			got <- strings.TrimSpace(line)
		}
	}()
	if err := sess.Send(ctx, "roll"); err != nil {
		t.Fatal(err)
	}
	sent := make(chan error, 1)
	go func() { sent <- sess.Send(ctx, "move 8-4 6-4") }()
	if first := <-got; first != "roll" {
		t.Fatalf("first command %q", first)
	}
	select {
	case line := <-got:
		t.Fatalf("%q sent before the server answered", line)
	case <-time.After(300 * time.Millisecond):
	}
	// Chat is no answer.
	io.WriteString(s, "12 someone hi\r\n")
	select {
	case line := <-got:
		t.Fatalf("%q sent after chat only", line)
	case <-time.After(200 * time.Millisecond):
	}
	io.WriteString(s, "You roll 4 and 2.\r\n")
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if second := <-got; second != "move 8-4 6-4" {
		t.Fatalf("second command %q", second)
	}
	s.Close()
	for line := range got {
		t.Fatalf("extra command %q", line)
	}
}

// The same session code over a WebSocket: one line per text frame.
func TestSessionOverWebSocket(t *testing.T) {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		conn := NewWSConn(ws)
		defer conn.Close()
		io.WriteString(conn, "login: ")
		lr := NewLineReader(conn, 0)
		line, err := lr.ReadLine()
		if err != nil || !strings.HasPrefix(line, "login ") {
			return
		}
		io.WriteString(conn, "1 bot 1041253132 host\r\nYou roll 3 and 1.Please move 2 pieces.\n")
		lr.ReadLine()
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/fibs")
	if err != nil {
		t.Fatal(err)
	}
	sess := NewSession(conn, SessionOptions{})
	defer sess.Close()
	if _, err := sess.Login(ctx, "gamemill", "bot", "pw"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []Kind{Rolls, PleaseMove} {
		m, err := sess.Next(ctx)
		if err != nil || m.Kind != want {
			t.Fatalf("got %v %q %v, want %v", m.Kind, m.Raw, err, want)
		}
	}
}

// Malformed and oversized lines are logged and skipped; what follows them
// is read as usual.
func TestSessionSkipsBadLines(t *testing.T) {
	c, s := net.Pipe()
	var logged []string
	var mu sync.Mutex
	sess := NewSession(c, SessionOptions{Log: func(format string, args ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(format, args...))
		mu.Unlock()
	}})
	defer sess.Close()
	go func() {
		io.WriteString(s, strings.Repeat("z", MaxLine+100)+"\r\n")
		io.WriteString(s, "board:You:x:1:2:3\r\n")
		io.WriteString(s, "You roll 3 and 1.\r\n")
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		m, err := sess.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind == Rolls {
			break
		}
		if m.Kind != Unknown {
			t.Fatalf("bad line read as %v: %q", m.Kind, m.Raw)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) != 2 || !strings.Contains(logged[0], "over") || !strings.Contains(logged[1], "unreadable") {
		t.Fatalf("logged %q", logged)
	}
}

// hostileServer serves one connection on 127.0.0.1 with script and
// returns the address to dial.
func hostileServer(t *testing.T, script func(c net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		script(c)
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
	})
	return "tcp://" + l.Addr().String()
}

// heapPeak samples the live heap until stop is called and returns the
// peak growth over the heap when it started; it cancels ctx once the
// growth passes limit, so that an unbounded reader fails the test early
// instead of exhausting the machine.
func heapPeak(cancel context.CancelFunc, limit uint64) (stop func() uint64) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	quit, result := make(chan struct{}), make(chan uint64)
	go func() {
		var peak uint64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > base && ms.HeapAlloc-base > peak {
				peak = ms.HeapAlloc - base
			}
			if peak > limit {
				cancel()
			}
			select {
			case <-quit:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(quit)
		return <-result
	}
}

// A server that answers the login with an endless stream of junk: Login
// gives up after MaxLoginLines messages, and what it keeps stays small.
func TestLoginFloodIsBounded(t *testing.T) {
	junk := []byte(strings.Repeat("Welcome to the flood, have some more lines.\r\n", 64))
	addr := hostileServer(t, func(c net.Conn) {
		io.WriteString(c, "login: ")
		for {
			if _, err := c.Write(junk); err != nil {
				return
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := Dial(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	sess := NewSession(conn, SessionOptions{LoginTimeout: 10 * time.Second})
	const limit = 64 << 20
	stop := heapPeak(cancel, limit)
	msgs, err := sess.Login(ctx, "gamemill", "bot", "pw")
	peak := stop()
	sess.Close()
	if !errors.Is(err, ErrNoWelcome) {
		t.Fatalf("login against a flood: %v (heap grew %d MB)", err, peak>>20)
	}
	if len(msgs) > MaxLoginLines {
		t.Errorf("login kept %d messages", len(msgs))
	}
	if peak > limit {
		t.Fatalf("the heap grew %d MB during the flood", peak>>20)
	}
	t.Logf("%v; kept %d messages; heap peak +%.1f MB", err, len(msgs), float64(peak)/(1<<20))
}

// A server that reads the login and then says nothing: Login gives up
// after the login timeout with ErrNoWelcome, not at the caller's deadline.
func TestLoginTimesOutOnSilentServer(t *testing.T) {
	addr := hostileServer(t, func(c net.Conn) {
		io.WriteString(c, "login: ")
		bufio.NewReader(c).ReadString('\n')
		io.Copy(io.Discard, c) // silent until the client hangs up
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := Dial(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	sess := NewSession(conn, SessionOptions{LoginTimeout: 300 * time.Millisecond})
	defer sess.Close()
	_, err = sess.Login(ctx, "gamemill", "bot", "pw")
	if !errors.Is(err, ErrNoWelcome) || ctx.Err() != nil {
		t.Fatalf("login against a silent server: %v (caller's context: %v)", err, ctx.Err())
	}
}
