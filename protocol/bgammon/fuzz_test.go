package bgammon

import (
	"reflect"
	"testing"
)

// FuzzParseEvent: any line either fails to parse or gives an event the
// rest of the package can use without panicking; a board flipped twice
// is the same board.
func FuzzParseEvent(f *testing.F) {
	for line := range eventLines {
		f.Add(line)
	}
	f.Add(`{"Type":"board","Board":` + startRaw + `,"Turn":2,"Roll1":3,"Roll2":3,"PlayerNumber":2,"Points":3,"DoubleValue":1}`)
	f.Add(`{"Type":"board","Board":` + startRaw + `,"Turn":1,"Roll1":6,"Roll2":5,"Moves":[[24,18]],"DoubleOffered":true}`)
	f.Fuzz(func(t *testing.T, line string) {
		ev, err := ParseEvent(line)
		if err != nil {
			return
		}
		b, ok := ev.(BoardEvent)
		if !ok {
			return
		}
		st := b.State
		c := st.Canonical()
		if err := c.ValidateView(); err != nil {
			t.Fatalf("a valid view became invalid when made canonical: %v", err)
		}
		if st.PlayerNumber == 2 && !reflect.DeepEqual(c.Flipped().Board, st.Board) {
			t.Fatalf("flipping twice changed the board")
		}
		c.Sides()
		c.MayDouble()
		lossLevel(&c)
		if es, ok := c.State(); ok && es.Dice[0] != 0 {
			es.LegalMoves()
		}
	})
}
