// Command launcher starts an engine with player.Launch, prints the
// engine's player.Record as one line of JSON, and then waits to be killed:
// the stand-in for a ringmaster that dies without closing its engines.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/gamemill/gamemill/player"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: launcher ENGINE [ARGS...]")
		os.Exit(2)
	}
	p, err := player.Launch(context.Background(), player.Spec{Argv: os.Args[1:], Timeout: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(1)
	}
	// One round trip: the engine is up (and has started its children).
	if _, err := p.Do(context.Background(), "name"); err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(p.Record()); err != nil {
		os.Exit(1)
	}
	time.Sleep(time.Hour)
}
