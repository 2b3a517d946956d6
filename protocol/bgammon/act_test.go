package bgammon

import (
	"bufio"
	"context"
	"net"
	"reflect"
	"testing"

	bg "github.com/gamemill/gamemill/engine/backgammon"
)

type firstLegal struct{}

func (firstLegal) Move(_ context.Context, st *bg.State) (bg.Move, error) {
	return st.LegalMoves()[0], nil
}
func (firstLegal) Double(context.Context, *bg.State) (bool, error)      { return false, nil }
func (firstLegal) Take(context.Context, *bg.State) (bg.Answer, error)   { return bg.Take, nil }
func (firstLegal) Resign(context.Context, *bg.State) (bg.Result, error) { return bg.NoResult, nil }

// A board sent twice in a row is answered once; the same board again
// after another (two turns that look alike) is answered again.
func TestDriverAnswersEachTurnOnce(t *testing.T) {
	ours, theirs := net.Pipe()
	defer ours.Close()
	var sent []string
	read := make(chan struct{})
	go func() {
		defer close(read)
		r := bufio.NewScanner(theirs)
		for r.Scan() {
			sent = append(sent, r.Text())
		}
	}()
	c := &Client{conn: NewConn(ours), done: make(chan struct{})}
	d := NewDriver(Options{Policy: Policy{Create: 3}}, firstLegal{})
	d.me = "bot"
	d.m = &match{id: 1, present: true}
	mine := board(start, start, 1, 6, 6, [2]int{})
	theirsTurn := board(start, start, 2, 0, 0, [2]int{})
	ctx := context.Background()
	for _, b := range []*GameState{mine, mine, theirsTurn, mine} {
		cp := *b
		if err := d.act(ctx, c, &cp); err != nil {
			t.Fatal(err)
		}
	}
	ours.Close()
	<-read
	want := []string{"move 24/18 24/18 13/7 13/7", "ok", "move 24/18 24/18 13/7 13/7", "ok"}
	if !reflect.DeepEqual(sent, want) {
		t.Fatalf("sent %q, want %q", sent, want)
	}
}
