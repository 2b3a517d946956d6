package ringmaster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gamemill/gamemill/competitions"
	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// commandNeeder is a game that knows which GTP commands beyond the basic
// ones a matchup's games will send each engine (Go: the handicap
// placement, the clock's, a referee engine's final_score); the players it
// names may include some that sit in no seat (a referee engine).
type commandNeeder interface {
	NeededCommands(m *control.Matchup, players map[string]*control.Player) map[string][]string
}

// checkedPlayers lists the players a run needs, each with the rules of its
// first matchup (for the set_game check) and the commands its games will
// need it to know (sorted).
func (r *Ringmaster) checkedPlayers() ([]string, map[string]*control.Matchup, map[string][]string, error) {
	first := map[string]*control.Matchup{}
	needs := map[string][]string{}
	needer, _ := r.Game.(commandNeeder)
	var codes []string
	matchups := r.Comp.Matchups
	if r.Comp.Planner != nil || r.Comp.Proposer != nil {
		// Later matchups are not known yet (a tuner's candidates are made
		// as it goes); every competitor plays under the top-level settings.
		matchups = nil
		for _, c := range r.Comp.Competitors {
			matchups = append(matchups, r.Comp.Expand(contest.Matchup{ID: "check", A: c, B: c, Games: 1}))
		}
	}
	for _, m := range matchups {
		if m.NumberOfGames == 0 {
			continue
		}
		for _, c := range []string{m.PlayerA, m.PlayerB} {
			if _, ok := first[c]; !ok {
				first[c] = m
				codes = append(codes, c)
			}
		}
		if needer == nil {
			continue
		}
		need := needer.NeededCommands(m, r.Comp.Players)
		for _, c := range slices.Sorted(maps.Keys(need)) {
			if _, ok := first[c]; !ok {
				if r.Comp.Players[c] == nil {
					return nil, nil, nil, fmt.Errorf("%s: unknown player %q (a player the games need besides the seats: a referee)", r.Comp.Where(m, "referee"), c)
				}
				first[c] = m
				codes = append(codes, c)
			}
			needs[c] = append(needs[c], need[c]...)
		}
	}
	sort.Strings(codes)
	for c, cmds := range needs {
		slices.Sort(cmds)
		needs[c] = slices.Compact(cmds)
	}
	return codes, first, needs, nil
}

// missingCommandError is a startup check's refusal: an engine does not
// know a command the competition needs.
type missingCommandError struct{ command string }

func (e *missingCommandError) Error() string {
	return fmt.Sprintf("known_command %s: false, and the competition needs it", e.command)
}

// checkFailure is the message for a player that failed its startup check:
// one line for a missing command, else the error on the next line.
func checkFailure(code string, err error) string {
	var mc *missingCommandError
	if errors.As(err, &mc) {
		return fmt.Sprintf("player %s failed startup check: it does not know %s, which the competition needs", code, mc.command)
	}
	return fmt.Sprintf("player %s failed startup check:\n%v", code, err)
}

// startupChecks starts each needed engine once: it must answer
// protocol_version (2), name and version, and pass the game's own check
// (backgammon: accept set_game). Engine
// stderr goes to stderr when given (the check command), else is discarded.
func (r *Ringmaster) startupChecks(ctx context.Context, st *store.Store, stderr io.Writer, engines *engineRegistry) error {
	codes, first, needs, err := r.checkedPlayers()
	if err != nil {
		return err
	}
	for _, code := range codes {
		name, version, err := r.checkPlayer(ctx, code, first[code], needs[code], stderr, engines)
		if err != nil {
			return errors.New(checkFailure(code, err))
		}
		if st != nil {
			if err := st.SetEngine(ctx, code, name, version); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Ringmaster) checkPlayer(ctx context.Context, code string, m *control.Matchup, needs []string, stderr io.Writer, engines *engineRegistry) (name, version string, err error) {
	p := r.Comp.Players[code]
	check := *p
	if stderr == nil {
		check.DiscardStderr = true
	}
	pl, err := r.launch(ctx, &check, launchOptions{gameID: "startup-check", seed: competitions.DiceSeed(r.Comp.Seed, "startup-check", 0), slot: -1, stderr: stderr, engines: engines})
	if err != nil {
		return "", "", err
	}
	defer pl.Close()
	pv, err := pl.Do(ctx, "protocol_version")
	if err != nil {
		return "", "", err
	}
	if v, perr := strconv.ParseFloat(strings.TrimSpace(pv), 64); perr != nil || v != 2 {
		return "", "", fmt.Errorf("protocol_version answered %q, want 2", pv)
	}
	if name, err = pl.Do(ctx, "name"); err != nil {
		return "", "", err
	}
	if version, err = pl.Do(ctx, "version"); err != nil {
		return "", "", err
	}
	if err := r.Game.CheckPlayer(ctx, pl, m); err != nil {
		return "", "", err
	}
	for _, c := range needs {
		known, err := pl.Do(ctx, "known_command", c)
		if err != nil {
			return "", "", fmt.Errorf("known_command %s: %w", c, err)
		}
		if strings.TrimSpace(known) != "true" {
			return "", "", &missingCommandError{command: c}
		}
	}
	return engineText(name), engineText(version), nil
}

// maxEngineText is the most of an engine's name or version kept: they
// reach terminals, reports and records.
const maxEngineText = 100

// engineText makes an engine's self-description safe to print: one line,
// control characters escaped, at most maxEngineText bytes.
func engineText(s string) string {
	s = sanitize(strings.Join(strings.Fields(s), " "))
	if len(s) > maxEngineText {
		cut := maxEngineText
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// Check runs the startup checks with engine stderr shown, printing what it
// does.
func (r *Ringmaster) Check(ctx context.Context, out, stderr io.Writer) error {
	codes, first, needs, err := r.checkedPlayers()
	if err != nil {
		return err
	}
	var failed []string
	for _, code := range codes {
		fmt.Fprintf(out, "checking player %s\n", code)
		name, version, err := r.checkPlayer(ctx, code, first[code], needs[code], stderr, nil)
		if err != nil {
			fmt.Fprintln(out, checkFailure(code, err))
			failed = append(failed, code)
			continue
		}
		fmt.Fprintf(out, "player %s: %s %s\n", code, name, version)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d player(s) failed the startup checks: %s", len(failed), strings.Join(failed, ", "))
	}
	return nil
}

// settingsText is what a matchup's results mean: the game, the seed (the
// dice of every game), the move limit and the game's canonical settings.
// Results played under another text must not be pooled with these.
func settingsText(c *control.Competition, m *control.Matchup) string {
	return fmt.Sprintf("seed=%d move_limit=%d %s", c.Seed, m.MoveLimit, m.Settings.Canonical())
}

// checkConsistency refuses to continue when the control file's players or
// settings for a matchup differ from those its stored results were played
// under, and records the settings of matchups that have none stored.
func (r *Ringmaster) checkConsistency(ctx context.Context, st *store.Store) error {
	results, err := st.Results(ctx)
	if err != nil {
		return err
	}
	byID := map[string]*control.Matchup{}
	matchups := r.matchupsFrom(results)
	for _, m := range matchups {
		byID[m.ID] = m
	}
	played := map[string]bool{}
	for _, res := range results {
		played[res.MatchupID] = true
		m := byID[res.MatchupID]
		if m == nil {
			continue
		}
		a, b := res.PlayerA, res.PlayerB
		if res.Swapped {
			a, b = b, a
		}
		if a != m.PlayerA || b != m.PlayerB {
			return fmt.Errorf("existing results for matchup %s are inconsistent with control file:\nresult players are %s,%s;\ncontrol file players are %s,%s",
				m.ID, a, b, m.PlayerA, m.PlayerB)
		}
	}
	stored, err := st.MatchupSettings(ctx)
	if err != nil {
		return err
	}
	for _, m := range matchups {
		now := settingsText(r.Comp, m)
		if old, ok := stored[m.ID]; ok && played[m.ID] && (old[0] != r.Comp.Game || old[1] != now) {
			key := changedKey(old[1], now)
			return fmt.Errorf("%s: changed since matchup %s's %s were played (they were played with %s; the control file now says %s).\n"+
				"Results played under different settings cannot be pooled: restore the setting, or give the changed matchup a new id (id = \"...\") to start it afresh",
				r.Comp.Where(m, key), m.ID, plural(countOf(results, m.ID), "result"), valueOf(old[1], key), valueOf(now, key))
		}
		if err := st.SetMatchupSettings(ctx, m.ID, r.Comp.Game, now); err != nil {
			return err
		}
	}
	return nil
}

// changedKey returns the first key whose value differs between two
// settings texts ("k=v k=v ...").
func changedKey(old, now string) string {
	o := strings.Fields(old)
	n := strings.Fields(now)
	for i := range min(len(o), len(n)) {
		if o[i] != n[i] {
			k, _, _ := strings.Cut(n[i], "=")
			return k
		}
	}
	return "game"
}

func valueOf(text, key string) string {
	for _, f := range strings.Fields(text) {
		if k, v, ok := strings.Cut(f, "="); ok && k == key {
			return key + " = " + v
		}
	}
	return "other settings"
}

func countOf(results []store.GameResult, matchupID string) int {
	n := 0
	for _, r := range results {
		if r.MatchupID == matchupID {
			n++
		}
	}
	return n
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
