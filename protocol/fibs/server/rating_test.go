package server

import (
	"math"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// The FIBS formula as its help page states it, written out again here so
// that the server's code is checked against the text, not against itself.
func fibsFormula(rw, rl float64, xw, xl, n int) (float64, float64) {
	d := math.Abs(rw - rl)
	upset := 1 / (math.Pow(10, d*math.Sqrt(float64(n))/2000) + 1)
	p := upset // the favourite (or an equal) won
	if rw < rl {
		p = 1 - upset // the underdog won
	}
	kw := math.Max(1, -float64(xw)/100+5)
	kl := math.Max(1, -float64(xl)/100+5)
	return rw + 4*kw*math.Sqrt(float64(n))*p, rl - 4*kl*math.Sqrt(float64(n))*p
}

// Two accounts' ratings and experience after a finished match are the
// FIBS formula's: the favourite and the underdog winning, new and
// experienced players (K from 5 down to 1 at 400 experience), short and
// long matches, and the seat of the winner either way.
func TestRatingsAfterMatchFollowFIBSFormula(t *testing.T) {
	cases := []struct {
		name         string
		ra, rb       float64
		xa, xb       int
		length       int
		scoreA, scoB int
	}{
		{"new players, 1 point", 1500, 1500, 0, 0, 1, 1, 0},
		{"favourite wins", 1800, 1600, 500, 500, 5, 5, 2},
		{"underdog wins", 1600, 1800, 1000, 450, 5, 5, 3},
		{"loser in seat a, 7 points", 1550.25, 1490.5, 120, 20, 7, 4, 7},
		{"experience 399 and 400", 1700, 1650, 399, 400, 3, 3, 1},
		{"big gap, long match, underdog wins", 1300, 2000, 50, 5000, 11, 11, 9},
		{"K between 1 and 5 for both", 1512.34, 1498.76, 250, 310, 9, 0, 9},
	}
	st, err := OpenStore(filepath.Join(t.TempDir(), "fibsd.db"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, u := range []string{"a", "b"} {
		if err := st.AddUser(u, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, u := range []struct {
				name string
				r    float64
				x    int
			}{{"a", c.ra, c.xa}, {"b", c.rb, c.xb}} {
				if _, err := st.db.Exec(`UPDATE users SET rating = ?, experience = ? WHERE name = ?`, u.r, u.x, u.name); err != nil {
					t.Fatal(err)
				}
			}
			after, err := st.finishMatch("a", "b", c.length, [2]int{c.scoreA, c.scoB}, "")
			if err != nil {
				t.Fatal(err)
			}
			var wantA, wantB float64
			if c.scoreA > c.scoB {
				wantA, wantB = fibsFormula(c.ra, c.rb, c.xa, c.xb, c.length)
			} else {
				wantB, wantA = fibsFormula(c.rb, c.ra, c.xb, c.xa, c.length)
			}
			for i, u := range []struct {
				name string
				want float64
				x    int
			}{{"a", wantA, c.xa}, {"b", wantB, c.xb}} {
				stored, err := st.Standing(u.name)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(stored.Rating-u.want) > 1e-9 || stored.Experience != u.x+c.length {
					t.Errorf("%s: stored %.6f/%d, want %.6f/%d", u.name, stored.Rating, stored.Experience, u.want, u.x+c.length)
				}
				if after[i] != stored {
					t.Errorf("%s: finishMatch returned %+v, stored %+v", u.name, after[i], stored)
				}
			}
			t.Logf("%s: a %.2f -> %.2f, b %.2f -> %.2f", c.name, c.ra, wantA, c.rb, wantB)
		})
	}
}

// Worked figures from the formula's description: two new players of
// equal rating in a 1-point match move by 4*5*1*0.5 = 10 points.
func TestRateNewPlayersOnePoint(t *testing.T) {
	w, l := Rate(Standing{Rating: InitialRating}, Standing{Rating: InitialRating}, 1)
	if w != (Standing{Rating: 1510, Experience: 1}) || l != (Standing{Rating: 1490, Experience: 1}) {
		t.Fatalf("Rate(new, new, 1) = %+v, %+v; want 1510/1 and 1490/1", w, l)
	}
}

// A database made before ratings gets the columns at the new-account
// values; an unlimited match changes no rating.
func TestRatingColumnsAddedAndUnlimitedUnrated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	st, err := OpenStore(path, bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddUser("a", "pw"); err != nil {
		t.Fatal(err)
	}
	if err := st.AddUser("b", "pw"); err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"rating", "experience"} {
		if _, err := st.db.Exec(`ALTER TABLE users DROP COLUMN ` + col); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	st, err = OpenStore(path, bcrypt.MinCost)
	if err != nil {
		t.Fatalf("reopen a database without rating columns: %v", err)
	}
	defer st.Close()
	if got, err := st.Standing("a"); err != nil || got != (Standing{Rating: InitialRating}) {
		t.Fatalf("standing after the columns were added: %+v, %v", got, err)
	}
	if _, err := st.finishMatch("a", "b", 0, [2]int{3, 1}, ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Standing("a"); got != (Standing{Rating: InitialRating}) {
		t.Fatalf("an unlimited match changed a's standing to %+v", got)
	}
}
