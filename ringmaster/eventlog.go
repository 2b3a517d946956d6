package ringmaster

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// eventLog writes CODE.log: timestamped events, warnings (also shown to
// the user), and engine stderr lines tagged with player and game.
type eventLog struct {
	mu    sync.Mutex
	w     io.Writer
	errs  io.Writer
	warns []string
	// engineBytes counts each engine's stderr bytes kept in this run.
	engineBytes map[string]int64
}

// EngineRunLimitFactor times a player's stderr_limit is what one engine
// may write to the log over a whole run.
const EngineRunLimitFactor = 20

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

// engineWriter returns a writer for an engine's stderr that tags each
// line with the player and game ("engine[CODE GAME]: ", control
// characters shown escaped, so that no line can pass for the
// ringmaster's) and keeps at most limit bytes of it per game and
// EngineRunLimitFactor times that per engine in the run; what is dropped
// is counted and said once. The ringmaster's own events are never
// dropped.
func (l *eventLog) engineWriter(code, gameID string, limit int64) io.Writer {
	return &linePrefixer{log: l, code: code, prefix: fmt.Sprintf("engine[%s %s]: ", sanitize(code), sanitize(gameID)), limit: limit}
}

type linePrefixer struct {
	log     *eventLog
	code    string
	prefix  string
	limit   int64 // per game
	mu      sync.Mutex
	buf     bytes.Buffer
	kept    int64
	dropped bool
}

func (p *linePrefixer) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dropped {
		return len(b), nil
	}
	p.buf.Write(b)
	for {
		line, err := p.buf.ReadString('\n')
		if err != nil {
			p.buf.Reset()
			p.buf.WriteString(line)
			if p.buf.Len() > 64<<10 { // an endless line: flush what we have
				p.emit(p.buf.String())
				p.buf.Reset()
			}
			return len(b), nil
		}
		p.emit(line[:len(line)-1])
		if p.dropped {
			p.buf.Reset()
			return len(b), nil
		}
	}
}

// emit logs one line unless this game's or this engine's budget is spent.
func (p *linePrefixer) emit(line string) {
	n := int64(len(line)) + 1
	l := p.log
	l.mu.Lock()
	if l.engineBytes == nil {
		l.engineBytes = map[string]int64{}
	}
	total := l.engineBytes[p.code]
	over := p.limit > 0 && (p.kept+n > p.limit || total+n > EngineRunLimitFactor*p.limit)
	if !over {
		l.engineBytes[p.code] = total + n
	}
	l.mu.Unlock()
	if over {
		p.dropped = true
		p.log.printf("%sstderr limit reached (%d bytes kept in this game, %d by this engine in this run; stderr_limit = %d): the rest of its stderr in this game is dropped",
			p.prefix, p.kept, total, p.limit)
		return
	}
	p.kept += n
	p.log.printf("%s%s", p.prefix, sanitize(line))
}

// sanitize shows control characters (and invalid UTF-8) escaped, so that
// engine text cannot move the cursor, forge a new log line or hide
// itself.
func sanitize(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f || r == utf8.RuneError || (r >= 0x80 && r < 0xa0) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f || r == utf8.RuneError || (r >= 0x80 && r < 0xa0) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
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
