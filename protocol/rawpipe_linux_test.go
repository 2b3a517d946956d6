package protocol

import (
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// A raw pipe carries more than the pipe holds, in both directions, waits
// while it is full or empty, and reports the end of the stream and a
// reader gone.
func TestRawPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rw, ok := rawPipeOf(w).(*rawPipe)
	if !ok {
		t.Fatal("no raw pipe over an *os.File")
	}
	rr := rawPipeOf(r).(*rawPipe)

	data := make([]byte, 1<<20+123)
	for i := range data {
		data[i] = byte(i * 7)
	}
	got := make(chan []byte, 1)
	go func() {
		var buf bytes.Buffer
		p := make([]byte, 5000)
		for {
			n, err := rr.Read(p)
			buf.Write(p[:n])
			if err != nil {
				if err != io.EOF {
					t.Errorf("read: %v", err)
				}
				got <- buf.Bytes()
				return
			}
		}
	}()
	if n, err := rw.Write(data); n != len(data) || err != nil {
		t.Fatalf("write = %d, %v", n, err)
	}
	w.Close()
	select {
	case b := <-got:
		if !bytes.Equal(b, data) {
			t.Fatalf("read %d bytes, not the %d written", len(b), len(data))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reader did not finish")
	}

	// Writing to a pipe whose reader has gone fails with EPIPE.
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	r2.Close()
	if _, err := rawPipeOf(w2).(*rawPipe).Write([]byte("name\n")); !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("write to a closed pipe: %v, want EPIPE", err)
	}

	// A read deadline ends a read that waits.
	r3, w3, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r3.Close()
	defer w3.Close()
	r3.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := rawPipeOf(r3).(*rawPipe).Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the deadline: %v", err)
	}
}
