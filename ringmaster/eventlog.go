package ringmaster

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// eventLog writes CODE.log: timestamped events, warnings (also shown to
// the user), and engine stderr lines tagged with player and game.
type eventLog struct {
	mu    sync.Mutex
	w     io.Writer
	errs  io.Writer
	warns []string
}

func (l *eventLog) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%s %s\n", time.Now().Format("2006-01-02 15:04:05"), fmt.Sprintf(format, args...))
}

// warnf logs a problem and shows it on the error stream at once.
func (l *eventLog) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	l.printf("%s", msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.warns = append(l.warns, msg)
	fmt.Fprintln(l.errs, msg)
}

func (l *eventLog) recentWarnings(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.warns) > n {
		return append([]string(nil), l.warns[len(l.warns)-n:]...)
	}
	return append([]string(nil), l.warns...)
}

// engineWriter returns a writer for an engine's stderr that prefixes each
// line with the player and game.
func (l *eventLog) engineWriter(code, gameID string) io.Writer {
	return &linePrefixer{log: l, prefix: fmt.Sprintf("[%s %s] ", code, gameID)}
}

type linePrefixer struct {
	log    *eventLog
	prefix string
	mu     sync.Mutex
	buf    bytes.Buffer
}

func (p *linePrefixer) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
	for {
		line, err := p.buf.ReadString('\n')
		if err != nil {
			p.buf.Reset()
			p.buf.WriteString(line)
			if p.buf.Len() > 64<<10 { // an endless line: flush what we have
				p.log.printf("%s%s", p.prefix, p.buf.String())
				p.buf.Reset()
			}
			return len(b), nil
		}
		p.log.printf("%s%s", p.prefix, line[:len(line)-1])
	}
}

// protocolLog is one game's protocol transcript in CODE.protocol/ID.log.
type protocolLog struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
}

func newProtocolLog(dir, gameID string) (*protocolLog, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.Create(filepath.Join(dir, gameID+".log"))
	if err != nil {
		return nil, fmt.Errorf("create protocol log: %w", err)
	}
	return &protocolLog{f: f, w: bufio.NewWriter(f)}, nil
}

func (p *protocolLog) hook(code string) func(sent bool, line string) {
	return func(sent bool, line string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		dir := "<<"
		if sent {
			dir = ">>"
		}
		fmt.Fprintf(p.w, "%s %s: %s\n", dir, code, line)
	}
}

func (p *protocolLog) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.w.Flush()
	return p.f.Close()
}
