package httpapi

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// FuzzRequest feeds arbitrary bodies to the decoder and the position
// builder: each either fails with a FieldError or gives a game in play
// whose IDs decode to the same state.
func FuzzRequest(f *testing.F) {
	for _, seed := range []string{
		`{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}`,
		`{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "level": "heuristic", "plies": 1}`,
		`{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "dice": [3,1]}`,
		`{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "cube_value": 4, "cube_owner": "opponent", "match_length": 7, "score": [4, 2]}`,
		`{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "match_length": 5, "score": [4, 2], "crawford": true}`,
		`{"board": [-1,0,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "jacoby": false}`,
		`{"board": [0,0,0,0,0,0,5,0,3,0,0,0,0,4,0,0,0,0,0,-4,-2,-2,0,-2,-2,1], "dice": [6,4]}`,
		`{"board": [1,2,3]}`,
		`{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "dice": [1,1]}`,
		`{} {}`,
		`{"plies": -1}`,
		`[`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := DecodeRequest(bytes.NewReader(body))
		if err == nil {
			var s *backgammon.State
			if s, err = req.State(); err == nil {
				if s.GameState != backgammon.GamePlaying {
					t.Fatalf("%s: game state %v", body, s.GameState)
				}
				pos, match := gnubgid.Encode(s)
				again, err := gnubgid.DecodeState(pos, match, rules(s.MatchLength))
				if err != nil {
					t.Fatalf("%s: its IDs %s %s do not decode: %v", body, pos, match, err)
				}
				if again.Board != s.Board || again.Dice != s.Dice || again.CubeValue != s.CubeValue || again.CubeOwner != s.CubeOwner || again.Score != s.Score {
					t.Fatalf("%s: state %+v, through its IDs %+v", body, s, again)
				}
				return
			}
		}
		var fe *FieldError
		if !errors.As(err, &fe) || err.Error() == "" {
			t.Fatalf("%s: error %v is no FieldError", body, err)
		}
	})
}
