package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/rollout"
	"github.com/gamemill/gamemill/engine/bgbot/rollout/gnubgplayer"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/spf13/pflag"
)

// rolloutOutput is 'bgtool rollout --json”s document.
type rolloutOutput struct {
	PositionID string           `json:"position_id"`
	MatchID    string           `json:"match_id"`
	Decision   string           `json:"decision"` // position, cube or chequer
	Dice       *[2]int          `json:"dice,omitempty"`
	Settings   rollout.Settings `json:"settings"`
	// Units of the cubeful figures: "points" (per unit of the cube at
	// the decision) or "mwc" (match winning chance).
	CubefulUnits string           `json:"cubeful_units,omitempty"`
	Results      []rollout.Result `json:"results"`
	// Best is the proper cube action of a cube decision by the rollout.
	Best string `json:"best,omitempty"`
}

// runRollout implements 'bgtool rollout POSITION_ID [MATCH_ID]'.
func runRollout(ctx context.Context, fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) error {
	trials := fs.Int("trials", 1296, "games played from each alternative (a multiple of 36 keeps the quasi-random first roll balanced)")
	seed := fs.Uint64("seed", 1, "seed of the dice")
	truncate := fs.Int("truncate", 0, "stop each game after this many turns and take the bot's evaluation there (0: play every game out)")
	cubeless := fs.Bool("cubeless", false, "roll out without the cube (a cube decision is always cubeful)")
	plainDice := fs.Bool("plain-dice", false, "plain pseudo-random dice instead of quasi-random ones")
	stratify := fs.Int("stratify", 36, "spread the quasi-random first roll over the 36 rolls (36) or the 21 distinct rolls (21, a non-double weighing twice a double; a multiple of 21 trials keeps it balanced)")
	noVR := fs.Bool("no-variance-reduction", false, "no luck correction")
	cubelessLuck := fs.Bool("cubeless-luck", false, "correct the cubeful result's luck with cubeless evaluations rather than bgbot's cubeful ones")
	noBearoffTrunc := fs.Bool("no-bearoff-truncation", false, "play games out inside the bearoff databases rather than ending them there with the databases' exact values")
	playerName := fs.String("player", "bgbot", "who decides the moves and cube actions: bgbot, or gnubg (through its external interface, at --plies for both; bgbot still judges the luck and the truncated positions)")
	plies := fs.Int("plies", 0, fmt.Sprintf("bgbot's depth for chequer play, 0..%d", bgbot.MaxPlies))
	cubePlies := fs.Int("cube-plies", 0, fmt.Sprintf("bgbot's depth for cube decisions, 0..%d (at least --plies)", bgbot.MaxPlies))
	dice := fs.String("dice", "", "roll out a chequer decision: the top --top moves with these dice, such as 52")
	top := fs.Int("top", 5, "with --dice: how many of bgbot's best moves to roll out")
	cube := fs.Bool("cube", false, "roll out the cube decision: no double, double/take, double/pass")
	jobs := fs.IntP("jobs", "j", runtime.NumCPU(), "games played at once (the results do not depend on it)")
	statePath := fs.String("state", "", "keep the rollout's state in this file: a rollout found there goes on from where it stopped, up to --trials")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	variant := fs.String("variant", "standard", "variant: standard, nackgammon, hypergammon1..3")
	recordPath := fs.String("record", "", "roll out a decision of this match record (.mat or .sgf) instead of a position given by IDs: --game and --action pick it")
	gameNo := fs.Int("game", 1, "with --record: the game, counted from 1")
	actionNo := fs.Int("action", 1, "with --record: the action of the game, counted from 1: a move (its chequer decision) or a double (its cube decision)")
	if err := cli.Parse(fs, args, 0, 2); err != nil {
		return err
	}
	if (*recordPath == "") == (fs.NArg() == 0) {
		return cli.Usagef("rollout: give a position ID (and a match ID) or --record, not both")
	}
	switch {
	case *trials < 1:
		return cli.Usagef("rollout: --trials %d: want at least 1", *trials)
	case *truncate < 0:
		return cli.Usagef("rollout: --truncate %d: want 0 or more", *truncate)
	case *plies < 0 || *plies > bgbot.MaxPlies:
		return cli.Usagef("rollout: --plies %d out of range 0..%d", *plies, bgbot.MaxPlies)
	case *cubePlies < 0 || *cubePlies > bgbot.MaxPlies:
		return cli.Usagef("rollout: --cube-plies %d out of range 0..%d", *cubePlies, bgbot.MaxPlies)
	case *jobs < 1:
		return cli.Usagef("rollout: --jobs %d: want at least 1", *jobs)
	case *top < 1:
		return cli.Usagef("rollout: --top %d: want at least 1", *top)
	case *stratify != 36 && *stratify != 21:
		return cli.Usagef("rollout: --stratify %d: want 36 or 21", *stratify)
	case *stratify == 21 && *plainDice:
		return cli.Usagef("rollout: --stratify 21 needs quasi-random dice, not --plain-dice")
	case *playerName != "bgbot" && *playerName != "gnubg":
		return cli.Usagef("rollout: --player %q: want bgbot or gnubg", *playerName)
	case *cube && *dice != "":
		return cli.Usagef("rollout: --cube and --dice: a decision is either a cube decision or a chequer decision")
	}
	v, err := backgammon.ParseVariant(*variant)
	if err != nil {
		return cli.Usagef("rollout: %v", err)
	}
	positionID, matchID := fs.Arg(0), defaultMatchID
	if fs.NArg() == 2 {
		matchID = fs.Arg(1)
	}
	if *recordPath != "" {
		var kind record.Kind
		var d [2]int
		if positionID, matchID, kind, d, err = recordDecision(*recordPath, *gameNo, *actionNo); err != nil {
			return err
		}
		switch {
		case kind == record.Double && *dice == "" && !*cube:
			*cube = true
		case kind == record.Move && *dice == "" && !*cube:
			*dice = fmt.Sprintf("%d%d", d[0], d[1])
		}
	}
	rules := backgammon.Rules{Variant: v, Cube: true, Crawford: true}
	s, err := gnubgid.DecodeState(positionID, matchID, rules)
	if err != nil {
		return fmt.Errorf("rollout: %w", err)
	}
	if s.GameState != backgammon.GamePlaying {
		return fmt.Errorf("rollout: %s:%s: no game in progress", positionID, matchID)
	}
	set := rollout.Settings{
		Seed: *seed, Truncate: *truncate, Cubeful: !*cubeless, PlainDice: *plainDice, Stratify: *stratify, NoVarianceReduction: *noVR,
		CubelessLuck: *cubelessLuck && !*cubeless && !*noVR, NoBearoffTruncation: *noBearoffTrunc,
		Bot: fmt.Sprintf("bgbot %d ply, cube %d ply", *plies, max(*plies, *cubePlies)),
	}
	if *playerName == "gnubg" {
		if v != backgammon.Standard {
			return cli.Usagef("rollout: --player gnubg plays only standard backgammon, not %s", v)
		}
		set.Bot = fmt.Sprintf("gnubg %d ply, cube %d ply; bgbot %d ply judges", *plies, max(*plies, *cubePlies), *plies)
	}
	// The bots share one set of bearoff databases, which the trials also
	// end in.
	db, err := bgbot.NewBearoff(bgbot.DefaultBearoffCheckers)
	if err != nil {
		return fmt.Errorf("rollout: %w", err)
	}
	db2, err := bgbot.NewBearoff2(bgbot.MaxBearoff2Checkers)
	if err != nil {
		return fmt.Errorf("rollout: %w", err)
	}
	newBot := func() (*bgbot.Bot, error) {
		b, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Plies: *plies, CubePlies: *cubePlies, Bearoff: db, Bearoff2: db2})
		if err != nil {
			return nil, err
		}
		b.SetVariant(v)
		return b, nil
	}
	out := rolloutOutput{PositionID: positionID, MatchID: matchID}
	var r *rollout.Rollout
	switch {
	case *dice != "":
		d := *dice
		if len(d) != 2 || d[0] < '1' || d[0] > '6' || d[1] < '1' || d[1] > '6' {
			return cli.Usagef("rollout: --dice %q: want two digits 1..6, such as 52", d)
		}
		d1, d2 := int(d[0]-'0'), int(d[1]-'0')
		if s.Decision() != backgammon.DecideMove {
			if err := s.SetDice(d1, d2); err != nil {
				return fmt.Errorf("rollout: %w", err)
			}
		} else if s.Dice != [2]int{d1, d2} && s.Dice != [2]int{d2, d1} {
			return fmt.Errorf("rollout: the position has %d%d rolled, not %s", s.Dice[0], s.Dice[1], d)
		}
		bot, err := newBot()
		if err != nil {
			return fmt.Errorf("rollout: %w", err)
		}
		cands, err := rollout.Candidates(s, bot)
		if err != nil {
			return err
		}
		if len(cands) == 1 && cands[0].Move.N == 0 {
			return fmt.Errorf("rollout: %s:%s: no legal move with %s", positionID, matchID, d)
		}
		if len(cands) > *top {
			cands = cands[:*top]
		}
		if r, err = rollout.NewChequer(s, rules, set, cands); err != nil {
			return err
		}
		out.Decision, out.Dice = "chequer", &[2]int{d1, d2}
	case *cube:
		if r, err = rollout.NewCube(s, rules, set); err != nil {
			return err
		}
		out.Decision = "cube"
	default:
		if r, err = rollout.NewPosition(s, rules, set); err != nil {
			return err
		}
		out.Decision = "position"
	}
	rc := rollout.RunConfig{NewBot: newBot, Workers: *jobs, Batch: max(36, 4**jobs), Bearoff: db, Bearoff2: db2}
	if *playerName == "gnubg" {
		rc.NewPlayer = func() (rollout.Player, error) {
			return gnubgplayer.Launch(ctx, gnubg.Options{Plies: *plies, Timeout: time.Minute})
		}
	}
	if *statePath != "" {
		saved, err := rollout.Load(*statePath)
		switch {
		case err == nil:
			if err := saved.SameQuestion(r); err != nil {
				return fmt.Errorf("rollout: %s holds another rollout: %w", *statePath, err)
			}
			r = saved
		case errors.Is(err, os.ErrNotExist):
		default:
			return err
		}
		rc.Checkpoint = func(r *rollout.Rollout) error { return r.Save(*statePath) }
	}
	// Ctrl-C (or SIGTERM) stops the rollout after the batch in progress,
	// which the state file keeps, and closes the gnubg players; a second
	// signal kills at once.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop)
	if err := r.Run(ctx, *trials, rc); err != nil {
		if *statePath != "" && ctx.Err() != nil {
			fmt.Fprintf(stderr, "bgtool rollout: stopped after %d trials; %s holds them\n", r.Trials(), *statePath)
		}
		return err
	}
	out.Settings = r.Settings
	out.Results = r.Results()
	if r.Settings.Cubeful {
		out.CubefulUnits = "points"
		if !s.Money() {
			out.CubefulUnits = "mwc"
		}
	}
	if out.Decision == "cube" {
		if out.Best, err = rollout.ProperCubeAction(out.Results); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	return writeRollout(stdout, s, out)
}

// writeRollout prints a rollout's results as a table.
func writeRollout(w io.Writer, s *backgammon.State, out rolloutOutput) error {
	var b strings.Builder
	game := "money game"
	if !s.Money() {
		game = fmt.Sprintf("%d-point match at %d-%d", s.MatchLength, s.Score[s.Move], s.Score[1-s.Move])
	}
	fmt.Fprintf(&b, "%s %s: %s, cube %d, ", out.PositionID, out.MatchID, game, s.CubeValue)
	if out.Dice != nil {
		fmt.Fprintf(&b, "%s decision with %d%d\n", out.Decision, out.Dice[0], out.Dice[1])
	} else {
		fmt.Fprintf(&b, "%s\n", map[string]string{"cube": "cube decision", "position": "position before the roll"}[out.Decision])
	}
	st := out.Settings
	kind := "cubeless"
	if st.Cubeful {
		kind = "cubeful"
	}
	diceKind := "quasi-random dice"
	switch {
	case st.PlainDice:
		diceKind = "plain dice"
	case st.Stratify == 21:
		diceKind = "quasi-random dice (first roll over the 21 rolls)"
	}
	vr := "variance reduction"
	switch {
	case st.NoVarianceReduction:
		vr = "no variance reduction"
	case st.CubelessLuck:
		vr = "variance reduction (cubeless luck)"
	}
	var truncs []string
	if st.Truncate > 0 {
		truncs = append(truncs, fmt.Sprintf("after %d turns", st.Truncate))
	}
	if !st.NoBearoffTruncation {
		truncs = append(truncs, "at the bearoff databases")
	}
	trunc := "no truncation"
	if len(truncs) > 0 {
		trunc = "truncated " + strings.Join(truncs, " and ")
	}
	fmt.Fprintf(&b, "%s rollout, %s, %s, %s, seed %d, %s\n\n", kind, diceKind, vr, trunc, st.Seed, st.Bot)
	cubefulHead := ""
	if st.Cubeful {
		cubefulHead = "  cubeful"
		if out.CubefulUnits == "mwc" {
			cubefulHead = "  cubeful (match winning chance, EMG)"
		}
	}
	fmt.Fprintf(&b, "%-24s %7s  %5s  %5s  %5s  %5s  %5s  %s%s\n", "", "trials", "win", "w(g)", "w(bg)", "l(g)", "l(bg)", "cubeless", cubefulHead)
	for _, r := range out.Results {
		if r.Trials == 0 && r.Cubeful != nil {
			fmt.Fprintf(&b, "%-24s %7s  %5s  %5s  %5s  %5s  %5s  %15s  %+.4f (exact)", r.Name, "", "", "", "", "", "", "", r.Cubeful.Mean)
			if r.CubefulEMG != nil {
				fmt.Fprintf(&b, "  %+.4f", r.CubefulEMG.Mean)
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "%-24s %7d  %.3f  %.3f  %.3f  %.3f  %.3f  %+.4f ±%.4f", r.Name, r.Trials,
			r.Probs[0].Mean, r.Probs[1].Mean, r.Probs[2].Mean, r.Probs[3].Mean, r.Probs[4].Mean, r.Equity.Mean, r.Equity.StdErr)
		if r.Cubeful != nil {
			fmt.Fprintf(&b, "  %+.4f ±%.4f", r.Cubeful.Mean, r.Cubeful.StdErr)
		}
		if r.CubefulEMG != nil {
			fmt.Fprintf(&b, "  %+.4f ±%.4f", r.CubefulEMG.Mean, r.CubefulEMG.StdErr)
		}
		b.WriteString("\n")
	}
	if out.Best != "" {
		fmt.Fprintf(&b, "\nproper cube action: %s\n", out.Best)
	}
	fmt.Fprintf(&b, "\n± is one standard error\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// recordDecision finds action actionNo of game gameNo (both from 1) of a
// match record and returns the position before it as gnubg IDs (a move's
// roll included), the kind of decision and a move's dice.
func recordDecision(path string, gameNo, actionNo int) (positionID, matchID string, kind record.Kind, dice [2]int, err error) {
	m, err := loadRecord(path)
	if err != nil {
		return "", "", 0, dice, fmt.Errorf("rollout: %w", err)
	}
	if gameNo < 1 || gameNo > len(m.Games) {
		return "", "", 0, dice, cli.Usagef("rollout: --game %d: %s has games 1..%d", gameNo, path, len(m.Games))
	}
	if n := len(m.Games[gameNo-1].Actions); actionNo < 1 || actionNo > n {
		return "", "", 0, dice, cli.Usagef("rollout: --action %d: game %d of %s has actions 1..%d", actionNo, gameNo, path, n)
	}
	found := false
	err = record.Walk(m, func(p *record.Position) error {
		if p.GameIndex != gameNo-1 || p.ActionIndex != actionNo-1 {
			return nil
		}
		found = true
		kind, dice = p.Action.Kind, p.Action.Dice
		if kind != record.Move && kind != record.Double {
			return fmt.Errorf("action %d is a %v: only a move or a double is a decision to roll out", actionNo, kind)
		}
		positionID, matchID = gnubgid.Encode(p.State)
		return errStopWalk
	})
	if err != nil && !errors.Is(err, errStopWalk) {
		return "", "", 0, dice, fmt.Errorf("rollout: %s: %w", path, err)
	}
	if !found {
		return "", "", 0, dice, fmt.Errorf("rollout: %s: game %d action %d not reached", path, gameNo, actionNo)
	}
	return positionID, matchID, kind, dice, nil
}

// errStopWalk ends a record walk once the decision is found.
var errStopWalk = errors.New("found")
