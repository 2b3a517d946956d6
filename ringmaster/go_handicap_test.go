package ringmaster_test

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/gamemill/gamemill/engine/gogame"
	"github.com/gamemill/gamemill/internal/peertest"
)

// TestGobotPlaysBlackInFreeHandicapGames: gobot, as Black in a free
// handicap competition against GNU Go, passes the startup check (it knows
// place_free_handicap) and places its stones in every game: each record
// holds the handicap stones as Black's setup and replays, no game is void.
func TestGobotPlaysBlackInFreeHandicapGames(t *testing.T) {
	const handicap = 3
	text := fmt.Sprintf(`competition_type = "playoff"
game = "go"
board_size = 9
komi = 0.5
handicap = %d
handicap_style = "free"
move_limit = 200

[players.gobot]
command = [%q, "--playouts", "50", "--resign", "0"]

[players.gnugo]
command = [%q, "--mode", "gtp", "--level", "1", "--chinese-rules"]

[[matchups]]
id = "m"
players = ["gobot", "gnugo"]
alternating = false
number_of_games = 2
`, handicap, gobotBin, peertest.GnuGo(t))
	rm, rows := runGo(t, t.TempDir(), "h.toml", text)
	if len(rows) != 2 {
		t.Fatalf("%d games done, want 2", len(rows))
	}
	for id, r := range rows {
		if r.black != "gobot" {
			t.Errorf("game %s: black is %s, want gobot", id, r.black)
		}
		rec := readRecord(t, r.sgf)
		if rec.Handicap != handicap || len(rec.AddBlack) != handicap || len(rec.AddWhite) != 0 {
			t.Errorf("game %s: HA %d with %d black and %d white setup stones, want %d black handicap stones\n%s",
				id, rec.Handicap, len(rec.AddBlack), len(rec.AddWhite), handicap, r.sgf)
		}
		seen := map[gogame.Move]bool{}
		for _, p := range rec.AddBlack {
			if seen[p] {
				t.Errorf("game %s: handicap stone %v placed twice", id, p)
			}
			seen[p] = true
		}
		if _, err := rec.Replay(false); err != nil {
			t.Errorf("game %s: the record does not replay: %v", id, err)
		}
	}
	db, err := sql.Open("sqlite", rm.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var voids int
	if err := db.QueryRow("SELECT COUNT(*) FROM voids").Scan(&voids); err != nil {
		t.Fatal(err)
	}
	if voids != 0 {
		t.Errorf("%d void attempts, want none", voids)
	}
}
