package ringmaster

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/referee"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// MatchLengther is what a game implements, optionally, when a matchup's
// games are matches of a length (backgammon): the ratings then put an
// N-point match on the FIBS scale, P = 1/(1+10^(-D*sqrt(N)/2000)), so that
// matches of different lengths combine. 0 means a single game, on the Elo
// scale.
type MatchLengther interface {
	MatchLength(s control.GameSettings) int
}

// DefaultPrior is the virtual draws per player of `ringmaster ratings`
// and of an all-play-all's grid (ratings.DefaultPrior).
const DefaultPrior = ratings.DefaultPrior

// RatingsOptions configure Ratings.
type RatingsOptions struct {
	// Anchor, when set, fixes that player's rating at AnchorRating;
	// otherwise the ratings average AnchorRating.
	Anchor       string
	AnchorRating float64
	// Prior adds virtual draws per player (see ratings.FitOptions), so
	// that a player who won or lost every game gets a finite rating:
	// ratings.DefaultPrior in `ringmaster ratings` and in the grid of an
	// all-play-all's report; 0 is maximum likelihood.
	Prior float64
}

// RatingsTable is one rating table over the results of several
// competitions.
type RatingsTable struct {
	Competitions []string
	Game         string
	// Games is how many results were fitted; Excluded how many were left
	// out (no winner and no draw: unknown results, the move limit; or a
	// matchup no longer in its control file).
	Games, Excluded int
	// Matches and Single count the games on the FIBS scale (matches) and
	// on the Elo scale (single games).
	Matches, Single int
	// Merged lists the players found in several competitions with the same
	// definition, and Split those whose code means different players in
	// different competitions (rated apart as CODE@COMPETITION).
	Merged, Split []PlayerSources
	Table         *ratings.Table
	Anchor        string
}

// PlayerSources is a rated player and the competitions it played in.
type PlayerSources struct {
	Player       string
	Competitions []string
}

// playerIdentity is what makes two players of the same code one player:
// the same game, kind, command, arguments and settings.
func playerIdentity(game string, p *control.Player) string {
	env := make([]string, 0, len(p.Environ))
	for k, v := range p.Environ {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	aliases := make([]string, 0, len(p.GTPAliases))
	for k, v := range p.GTPAliases {
		aliases = append(aliases, k+"="+v)
	}
	sort.Strings(aliases)
	return fmt.Sprintf("game=%q kind=%q command=%q args=%q cwd=%q env=%q startup=%q aliases=%q plies=%d noise=%v",
		game, p.Kind, p.Command, p.Args, p.Cwd, env, p.StartupCommands, aliases, p.Plies, p.Noise)
}

// Ratings fits one table of ratings to every result of the competitions
// (ratings.FitBradleyTerry): the first-move advantage fitted, draws where
// games were drawn, N-point matches on the FIBS scale when the game knows
// match lengths. The same player code with the same definition in several
// competitions is one player; a code defined differently is rated apart
// per competition.
func Ratings(ctx context.Context, rms []*Ringmaster, opts RatingsOptions) (*RatingsTable, error) {
	if len(rms) == 0 {
		return nil, errors.New("no competitions")
	}
	var sources []ratingSource
	seen := map[string]bool{}
	for _, rm := range rms {
		code := rm.Comp.Code
		if rm.Comp.Game != rms[0].Comp.Game {
			return nil, fmt.Errorf("%s plays %s and %s plays %s: one table rates one game", rms[0].Comp.Path, rms[0].Comp.Game, rm.Comp.Path, rm.Comp.Game)
		}
		if seen[code] {
			return nil, fmt.Errorf("two competitions named %s: rename one control file", code)
		}
		seen[code] = true
		var results []store.GameResult
		if err := rm.withExistingStore(ctx, func(st *store.Store) error {
			var err error
			results, err = st.Results(ctx)
			return err
		}); err != nil {
			return nil, fmt.Errorf("%s: %w", rm.Comp.Path, err)
		}
		sources = append(sources, ratingSource{rm, results})
	}
	return rateResults(sources, opts)
}

// ratingSource is one competition's results for a rating table.
type ratingSource struct {
	rm      *Ringmaster
	results []store.GameResult
}

// rateResults fits one table to the results of the sources: Ratings over
// several competitions, and the grid of an all-play-all's report over
// one, so that both give the same numbers for the same results.
func rateResults(sources []ratingSource, opts RatingsOptions) (*RatingsTable, error) {
	t := &RatingsTable{Game: sources[0].rm.Comp.Game, Anchor: opts.Anchor}
	// identities[code] lists the distinct definitions of a code in order,
	// each with the competitions that use it.
	type identity struct {
		text  string
		comps []string
	}
	identities := map[string][]*identity{}
	for _, src := range sources {
		rm, results := src.rm, src.results
		code := rm.Comp.Code
		t.Competitions = append(t.Competitions, code)
		used := map[string]bool{}
		for _, res := range results {
			used[res.PlayerA], used[res.PlayerB] = true, true
		}
		for p := range used {
			text := "undefined in " + code // a player no longer in the control file
			if def := rm.Comp.Players[p]; def != nil {
				text = playerIdentity(t.Game, def)
			}
			var id *identity
			for _, i := range identities[p] {
				if i.text == text {
					id = i
				}
			}
			if id == nil {
				id = &identity{text: text}
				identities[p] = append(identities[p], id)
			}
			id.comps = append(id.comps, code)
		}
	}
	nameOf := func(code, comp string) string {
		ids := identities[code]
		if len(ids) == 1 {
			return code
		}
		for _, id := range ids {
			for _, c := range id.comps {
				if c == comp {
					return code + "@" + id.comps[0]
				}
			}
		}
		return code + "@" + comp
	}
	codes := make([]string, 0, len(identities))
	for c := range identities {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		ids := identities[c]
		for _, id := range ids {
			switch {
			case len(ids) > 1:
				t.Split = append(t.Split, PlayerSources{Player: c + "@" + id.comps[0], Competitions: id.comps})
			case len(id.comps) > 1:
				t.Merged = append(t.Merged, PlayerSources{Player: c, Competitions: id.comps})
			}
		}
	}

	if err := refuseDisputes(sources, nameOf); err != nil {
		return nil, err
	}
	var games []ratings.Game
	advantage := false
	for _, src := range sources {
		rm := src.rm
		matchups := map[string]*control.Matchup{}
		for _, m := range rm.matchupsFrom(src.results) {
			matchups[m.ID] = m
		}
		ml, knowsLength := rm.Game.(MatchLengther)
		for _, res := range src.results {
			m := matchups[res.MatchupID]
			if m == nil {
				t.Excluded++ // its settings are no longer known
				continue
			}
			g := ratings.Game{A: nameOf(res.PlayerA, rm.Comp.Code), B: nameOf(res.PlayerB, rm.Comp.Code), First: -1}
			switch {
			case res.Winner == res.PlayerA:
				g.Score = 1
			case res.Winner == res.PlayerB:
				g.Score = 0
			case res.Draw():
				g.Score = 0.5
			default:
				t.Excluded++
				continue
			}
			switch res.FirstMover {
			case res.PlayerA:
				g.First = 0
			case res.PlayerB:
				g.First = 1
			}
			advantage = advantage || g.First >= 0
			if knowsLength {
				g.MatchLength = ml.MatchLength(m.Settings)
			}
			if g.MatchLength > 0 {
				t.Matches++
			} else {
				t.Single++
			}
			games = append(games, g)
		}
	}
	t.Games = len(games)
	if opts.Anchor != "" && len(identities[opts.Anchor]) > 1 {
		return nil, fmt.Errorf("anchor %s: the code names different players in different competitions (%s...); anchor one of them",
			opts.Anchor, nameOf(opts.Anchor, identities[opts.Anchor][0].comps[0]))
	}
	table, err := ratings.FitBradleyTerry(games, ratings.FitOptions{Advantage: advantage, Anchor: opts.Anchor,
		AnchorRating: opts.AnchorRating, Prior: opts.Prior})
	if err != nil {
		if opts.Prior == 0 && strings.Contains(err.Error(), "won or lost every game") {
			return nil, fmt.Errorf("%w; the default --prior %g adds a virtual draw per player", err, ratings.DefaultPrior)
		}
		return nil, err
	}
	t.Table = table
	return t, nil
}

// refuseDisputes refuses a table with a player charged with scoring
// disputes (referee.StatDisputes): a disputed game has no result, so the
// fit would drop it, and a player that disputes its losses would be rated
// on its wins alone.
func refuseDisputes(sources []ratingSource, nameOf func(code, comp string) string) error {
	disputes := map[string]int{}
	for _, src := range sources {
		for _, res := range src.results {
			d := res.Stats[referee.StatDisputes]
			for i, code := range [2]string{res.PlayerA, res.PlayerB} {
				if d[i] > 0 {
					disputes[nameOf(code, src.rm.Comp.Code)] += d[i]
				}
			}
		}
	}
	if len(disputes) == 0 {
		return nil
	}
	names := make([]string, 0, len(disputes))
	for name := range disputes {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		names[i] = fmt.Sprintf("%s (%s)", name, plural(disputes[name], "disputed result"))
	}
	return fmt.Errorf("not rated: %s: a disputed game has no result, so a rating would count the player's "+
		"undisputed games only (its losses erased by disputing them); settle the scoring (scorer = \"internal\", or a "+
		"reliable scorer) or leave the player out", strings.Join(names, ", "))
}

// scaleNote says which rating scale the games are on.
func (t *RatingsTable) scaleNote() string {
	switch {
	case t.Matches > 0 && t.Single > 0:
		return "matches on the FIBS scale, single games on the Elo scale: treat with care"
	case t.Matches > 0:
		return "FIBS scale: an N-point match is won with P = 1/(1+10^(-D*sqrt(N)/2000))"
	}
	return "Elo scale: a game is won with P = 1/(1+10^(-D/400))"
}

func sources(ps []PlayerSources) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%s (%s)", p.Player, strings.Join(p.Competitions, ", ")))
	}
	return strings.Join(parts, "; ")
}

// WriteText prints the table, its notes and the LOS matrix.
func (t *RatingsTable) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "ratings of %s players from %d games of %s", t.Game, t.Games, strings.Join(t.Competitions, ", "))
	if t.Excluded > 0 {
		fmt.Fprintf(&b, " (%d without a result left out)", t.Excluded)
	}
	fmt.Fprintf(&b, "\n%s\n", t.scaleNote())
	if len(t.Merged) > 0 {
		fmt.Fprintf(&b, "merged (the same player in several competitions): %s\n", sources(t.Merged))
	}
	if len(t.Split) > 0 {
		fmt.Fprintf(&b, "rated apart (one code, different players): %s\n", sources(t.Split))
	}
	if t.Anchor != "" {
		fmt.Fprintf(&b, "anchored: %s\n", t.Anchor)
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "rank\tplayer\trating\t95%% interval\tgames\tscore\t\n")
	for i, p := range t.Table.Players {
		fmt.Fprintf(tw, "%d\t%s\t%.0f\t[%.0f, %.0f]\t%.0f\t%.1f%%\t\n", i+1, p.Player, p.Rating, p.Low, p.High, p.Games, 100*p.Score/p.Games)
	}
	tw.Flush()
	if !math.IsNaN(t.Table.Advantage) {
		fmt.Fprintf(&b, "\nfirst-move advantage: %+.0f (standard error %.0f) rating points\n", t.Table.Advantage, t.Table.AdvantageStdErr)
	}
	if !math.IsNaN(t.Table.DrawElo) {
		fmt.Fprintf(&b, "draw parameter: %.0f (standard error %.0f)\n", t.Table.DrawElo, t.Table.DrawEloStdErr)
	}
	b.WriteString("\nlikelihood of superiority (row stronger than column):\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t")
	for _, p := range t.Table.Players {
		fmt.Fprintf(tw, "%s\t", p.Player)
	}
	fmt.Fprintf(tw, "\n")
	for i, p := range t.Table.Players {
		fmt.Fprintf(tw, "%s\t", p.Player)
		for j := range t.Table.Players {
			if i == j {
				fmt.Fprintf(tw, "-\t")
			} else {
				fmt.Fprintf(tw, "%.2f\t", t.Table.LOS[i][j])
			}
		}
		fmt.Fprintf(tw, "\n")
	}
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV prints one row per player, best first.
func (t *RatingsTable) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "player", "rating", "low", "high", "stderr", "games", "score"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	for i, p := range t.Table.Players {
		cw.Write([]string{strconv.Itoa(i + 1), p.Player, f(p.Rating), f(p.Low), f(p.High), f(p.StdErr),
			strconv.FormatFloat(p.Games, 'f', -1, 64), strconv.FormatFloat(p.Score/p.Games, 'f', 4, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// JSONRatings is `ringmaster ratings --json`.
type JSONRatings struct {
	Competitions []string                        `json:"competitions"`
	Game         string                          `json:"game"`
	Games        int                             `json:"games"`
	Excluded     int                             `json:"excluded"`
	Scale        string                          `json:"scale"`
	Anchor       string                          `json:"anchor,omitempty"`
	Merged       []JSONSources                   `json:"merged"`
	Split        []JSONSources                   `json:"split"`
	Players      []JSONRating                    `json:"players"`
	Advantage    *JSONInterval                   `json:"first_move_advantage"`
	DrawElo      *JSONInterval                   `json:"draw_elo"`
	LOS          map[string]map[string]JSONFloat `json:"los"`
}

// JSONSources is a player and the competitions it played in.
type JSONSources struct {
	Player       string   `json:"player"`
	Competitions []string `json:"competitions"`
}

// JSONRating is one player's row: the rating with its 95% interval, the
// games and the score (the fraction of points won, a draw half).
type JSONRating struct {
	Player string    `json:"player"`
	Rating JSONFloat `json:"rating"`
	Low    JSONFloat `json:"low"`
	High   JSONFloat `json:"high"`
	StdErr JSONFloat `json:"stderr"`
	Games  float64   `json:"games"`
	Score  JSONFloat `json:"score"`
}

// JSON returns the table in its --json form.
func (t *RatingsTable) JSON() JSONRatings {
	scale := "elo"
	switch {
	case t.Matches > 0 && t.Single > 0:
		scale = "mixed"
	case t.Matches > 0:
		scale = "fibs"
	}
	out := JSONRatings{Competitions: t.Competitions, Game: t.Game, Games: t.Games, Excluded: t.Excluded, Scale: scale, Anchor: t.Anchor,
		Merged: []JSONSources{}, Split: []JSONSources{}, LOS: map[string]map[string]JSONFloat{}}
	for _, m := range t.Merged {
		out.Merged = append(out.Merged, JSONSources(m))
	}
	for _, m := range t.Split {
		out.Split = append(out.Split, JSONSources(m))
	}
	for i, p := range t.Table.Players {
		out.Players = append(out.Players, JSONRating{Player: p.Player, Rating: JSONFloat(p.Rating), Low: JSONFloat(p.Low),
			High: JSONFloat(p.High), StdErr: JSONFloat(p.StdErr), Games: p.Games, Score: JSONFloat(p.Score / p.Games)})
		row := map[string]JSONFloat{}
		for j, q := range t.Table.Players {
			if i != j {
				row[q.Player] = JSONFloat(t.Table.LOS[i][j])
			}
		}
		out.LOS[p.Player] = row
	}
	interval := func(v, se float64) *JSONInterval {
		if math.IsNaN(v) {
			return nil
		}
		return &JSONInterval{Value: JSONFloat(v), Low: JSONFloat(v - 1.959964*se), High: JSONFloat(v + 1.959964*se)}
	}
	out.Advantage = interval(t.Table.Advantage, t.Table.AdvantageStdErr)
	out.DrawElo = interval(t.Table.DrawElo, t.Table.DrawEloStdErr)
	return out
}

// WriteJSON prints the table as JSON.
func (t *RatingsTable) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t.JSON())
}
