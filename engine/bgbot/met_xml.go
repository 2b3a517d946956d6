package bgbot

import (
	_ "embed"
	"encoding/xml"
	"fmt"
)

// The Kazaross-XG2 match equity table (Neil Kazaross, 2011: rolled out by
// eXtreme Gammon to 9 points, then gnubg rollouts to 15, extended to 25),
// in gnubg's XML format as GNU Backgammon distributes it (met/
// Kazaross-XG2.xml; the file keeps its copyright and permission notice).
//
//go:embed weights/Kazaross-XG2.xml
var kazarossXG2 []byte

// DefaultMET returns the match equity table the bots use: Kazaross-XG2,
// 25 points (longer matches are clamped to it, as MET.Win does). Each
// call returns a fresh copy.
func DefaultMET() (*MET, error) {
	m, err := ParseMETXML(kazarossXG2)
	if err != nil {
		return nil, fmt.Errorf("default match equity table: %w", err)
	}
	return m, nil
}

// metXML is the part of gnubg's match equity table format that holds
// explicit tables.
type metXML struct {
	Length int `xml:"info>length"`
	Pre    struct {
		Type string    `xml:"type,attr"`
		Rows []metRows `xml:"row"`
	} `xml:"pre-crawford-table"`
	Post []struct {
		Type   string    `xml:"type,attr"`
		Player string    `xml:"player,attr"`
		Rows   []metRows `xml:"row"`
	} `xml:"post-crawford-table"`
}

type metRows struct {
	Me []float64 `xml:"me"`
}

// ParseMETXML reads a match equity table in gnubg's XML format with
// explicit tables (as Kazaross-XG2.xml): the pre-Crawford table, row i and
// column j the chance that a player needing i+1 points beats one needing
// j+1 (a 1-away entry is the Crawford game), and one post-Crawford row for
// both players, entry j the chance of a trailer needing j+1 against a
// leader needing 1. The result's GammonRate is 0 (not known).
func ParseMETXML(data []byte) (*MET, error) {
	var x metXML
	if err := xml.Unmarshal(data, &x); err != nil {
		return nil, fmt.Errorf("match equity table: %w", err)
	}
	n := x.Length
	if n < 2 || n > 64 {
		return nil, fmt.Errorf("match equity table: length %d out of range 2..64", n)
	}
	if x.Pre.Type != "explicit" || len(x.Pre.Rows) != n {
		return nil, fmt.Errorf("match equity table: want an explicit pre-Crawford table of %d rows, have %q with %d", n, x.Pre.Type, len(x.Pre.Rows))
	}
	if len(x.Post) != 1 || x.Post[0].Type != "explicit" || x.Post[0].Player != "both" || len(x.Post[0].Rows) != 1 {
		return nil, fmt.Errorf("match equity table: want one explicit post-Crawford row for both players")
	}
	check := func(where string, row []float64) error {
		if len(row) != n {
			return fmt.Errorf("match equity table: %s has %d entries, want %d", where, len(row), n)
		}
		for j, v := range row {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("match equity table: %s entry %d is %v", where, j+1, v)
			}
		}
		return nil
	}
	for i, r := range x.Pre.Rows {
		if err := check(fmt.Sprintf("pre-Crawford row %d", i+1), r.Me); err != nil {
			return nil, err
		}
	}
	post := x.Post[0].Rows[0].Me
	if err := check("post-Crawford row", post); err != nil {
		return nil, err
	}
	m := &MET{Len: n, post: make([]float64, n+1), craw: make([]float64, n+1), pre: make([][]float64, n+1)}
	for a := range m.pre {
		m.pre[a] = make([]float64, n+1)
	}
	for a := 1; a <= n; a++ {
		m.post[a] = post[a-1]
		m.craw[a] = x.Pre.Rows[a-1].Me[0] // the trailer needing a in the Crawford game
		for b := 1; b <= n; b++ {
			m.pre[a][b] = x.Pre.Rows[a-1].Me[b-1]
		}
	}
	m.post[1], m.craw[1] = 0.5, 0.5
	return m, nil
}
