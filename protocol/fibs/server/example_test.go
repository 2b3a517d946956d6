package server_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/gamemill/gamemill/protocol/fibs"
	"github.com/gamemill/gamemill/protocol/fibs/server"
)

// A server on a loopback port chosen by the system, as httptest.NewServer
// starts one, stopped by cancelling its context.
func ExampleServer_Run() {
	dir, err := os.MkdirTemp("", "fibs-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	st, err := server.OpenStore(filepath.Join(dir, "fibsd.db"), bcrypt.MinCost)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	if err := st.AddUser("alice", "secret"); err != nil {
		log.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	srv := server.New(server.Config{Records: filepath.Join(dir, "matches")}, st, log.New(io.Discard, "", 0))
	go func() { done <- srv.Run(ctx, l, nil) }()

	conn, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	lines := fibs.NewLineReader(conn, 4096) // returns the login prompt, which has no line ending
	for {
		line, err := lines.ReadLine()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q\n", line)
		if line == "login: " {
			break
		}
	}
	fmt.Fprint(conn, "login example 1008 alice secret\r\n")
	welcome, err := lines.ReadLine()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Fields(welcome)[:2])

	cancel()
	fmt.Println("Run:", <-done)
	// Output:
	// "FIBS-style backgammon server (gamemill fibsd)"
	// ""
	// "login: "
	// [1 alice]
	// Run: <nil>
}
