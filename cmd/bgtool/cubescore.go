package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg/verdict"
	"github.com/spf13/pflag"
)

// runCubeScore prices cube decisions that judges would make on the
// positions of records, by the equities of an analysis taken as the
// truth (gnubg-verdict --decisions at 2 ply, say): bgbot with the engine
// arguments of each --bgbot, and the analyses named by --judged (the same
// records analysed at another depth: each decision goes the way its own
// equities say). The first judge is the baseline of the gaps.
func runCubeScore(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	bgbots := fs.StringArray("bgbot", nil, "a bgbot judge: its engine arguments in one string (\"\" for the default player); repeat for several")
	judged := fs.StringArray("judged", nil, "a judge: decisions of the same records from another analysis (gnubg-verdict --decisions), each taken by its own equities; FILE,FILE... for one analysis kept in several files; repeat for several judges")
	classes := fs.StringSlice("classes", nil, "score only the decisions in positions of these classes (contact, crashed, race; default: all)")
	model := fs.Bool("model", false, "a judge: bgbot's cube model fed the truth's own cubeless probabilities, which tells the model's errors from the evaluation's")
	bias := fs.String("bias", "", "then, for bgbot's cube model with these engine arguments (\"\" for the default player's) fed the truth's probabilities, print by score and cube the mean of its no double and double/take less the truth's over the close doubling decisions: where the model leans")
	biasMin := fs.Int("bias-min", 20, "with --bias, the fewest decisions of a group printed")
	if err := cli.Parse(fs, args, 1, -1); err != nil {
		return err
	}
	biasSet := fs.Changed("bias")
	if len(*bgbots)+len(*judged) == 0 && !*model && !biasSet {
		return cli.Usagef("cube-score: no judge: name one with --bgbot, --judged, --model or --bias")
	}
	keep, err := bgbot.ParseClasses(*classes)
	if err != nil {
		return cli.Usagef("cube-score: --classes: %v", err)
	}
	_, cs, err := verdict.ReadDecisionFiles(fs.Args())
	if err != nil {
		return fmt.Errorf("cube-score: %w", err)
	}
	if len(*classes) > 0 {
		if cs, err = decisionsOfClasses(cs, keep); err != nil {
			return fmt.Errorf("cube-score: %w", err)
		}
	}
	if len(cs) == 0 {
		return fmt.Errorf("cube-score: %s: no cube decisions", strings.Join(fs.Args(), ", "))
	}
	type judge struct {
		name   string
		decide func(verdict.CubeDecision) (string, error)
	}
	var judges []judge
	for _, a := range *bgbots {
		decide, err := bgbotCubeJudge(a)
		if err != nil {
			return fmt.Errorf("cube-score: --bgbot %q: %w", a, err)
		}
		name := "bgbot " + a
		if strings.TrimSpace(a) == "" {
			name = "bgbot (default)"
		}
		judges = append(judges, judge{name, decide})
	}
	if *model {
		decide, err := modelCubeJudge()
		if err != nil {
			return fmt.Errorf("cube-score: --model: %w", err)
		}
		judges = append(judges, judge{"bgbot's model with the truth's probabilities", decide})
	}
	for _, path := range *judged {
		_, other, err := verdict.ReadDecisionFiles(strings.Split(path, ","))
		if err != nil {
			return fmt.Errorf("cube-score: %w", err)
		}
		byKey := map[string]verdict.CubeDecision{}
		for _, d := range other {
			byKey[verdict.CubeKey(d)] = d
		}
		judges = append(judges, judge{path, func(d verdict.CubeDecision) (string, error) {
			o, ok := byKey[verdict.CubeKey(d)]
			if !ok {
				return "", fmt.Errorf("not in %s", path)
			}
			return o.BestAction(), nil
		}})
	}
	fmt.Fprintf(stdout, "%d cube decisions of %d records priced by %s\n", len(cs), len(verdict.RecordsOf(nil, cs)), strings.Join(fs.Args(), ", "))
	fmt.Fprintf(stdout, "errors in EMG; rates in mEMG per close decision (by the truth's equities)\n")
	var base []float64
	for i, j := range judges {
		costs, actions, err := verdict.CubeCosts(cs, j.decide)
		if err != nil {
			return fmt.Errorf("cube-score: %s: %w", j.name, err)
		}
		doubler, taker := verdict.TallyCube(cs, costs, actions)
		fmt.Fprintf(stdout, "%s\n", j.name)
		fmt.Fprintf(stdout, "  doubling: %6d decisions (%5d close) %8.3f EMG %6.2f mEMG  doubles %5d, missed %4d, wrong %4d\n",
			doubler.Decisions, doubler.Close, doubler.Error, doubler.Rate(), doubler.Yes, doubler.Missed, doubler.WrongYes)
		fmt.Fprintf(stdout, "  answers:  %6d decisions %16.3f EMG %6.2f mEMG  takes %7d, wrong passes %d, wrong takes %d\n",
			taker.Decisions, taker.Error, taker.Rate(), taker.Yes, taker.Missed, taker.WrongYes)
		all := doubler
		all.Close += taker.Close
		all.Error += taker.Error
		fmt.Fprintf(stdout, "  all: %.2f mEMG per close decision", all.Rate())
		if i == 0 {
			base = costs
			fmt.Fprintln(stdout)
			continue
		}
		gap, interval := verdict.CostGap(cs, base, costs)
		fmt.Fprintf(stdout, "; less %s, decision by decision: %s\n", judges[0].name, signedInterval(gap, interval))
	}
	if biasSet {
		if err := printModelBias(stdout, cs, *bias, *biasMin); err != nil {
			return fmt.Errorf("cube-score: --bias: %w", err)
		}
	}
	return nil
}

// printModelBias prints verdict.ModelBias for bgbot's cube model with the
// engine arguments args fed the truth's probabilities, groups of at least
// least decisions.
func printModelBias(w io.Writer, cs []verdict.CubeDecision, args string, least int) error {
	bot, err := botFromArgs(args)
	if err != nil {
		return err
	}
	key := groupKeyOf([]decisionGrouper{decisionGroups["score"], decisionGroups["cube"]})
	groups, err := verdict.ModelBias(cs, func(d verdict.CubeDecision) (string, error) { return key(cubeSituation(d)) }, func(d verdict.CubeDecision) (float64, float64, error) {
		p, s, err := truthProbs(d)
		if err != nil {
			return 0, 0, err
		}
		ce, err := bot.CubeWith(s, p)
		if err != nil {
			return 0, 0, err
		}
		scale, err := bgbot.NewMoverEquity(s)
		if err != nil {
			return 0, 0, err
		}
		return scale.Own(ce.NoDouble), scale.Own(ce.DoubleTake), nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "where bgbot's cube model (%q) leans, fed the truth's probabilities: its equity less the truth's, mean over the close doubling decisions\n", args)
	fmt.Fprintf(w, "%-48s %9s %10s %12s\n", "score (doubler first), cube", "decisions", "no double", "double/take")
	for _, g := range groups {
		if g.Decisions < least {
			continue
		}
		fmt.Fprintf(w, "%-48s %9d %+10.3f %+12.3f\n", g.Group, g.Decisions, g.NoDouble, g.DoubleTake)
	}
	return nil
}

// botFromArgs builds the bgbot that the engine arguments args (one
// string, "" for the default player) describe.
func botFromArgs(args string) (*bgbot.Bot, error) {
	opts, err := gtpengine.ParseArgs(strings.Fields(args))
	if err != nil {
		return nil, err
	}
	e, err := gtpengine.New(opts)
	if err != nil {
		return nil, err
	}
	return e.Bot(), nil
}

// truthProbs is the state of a recorded cube decision and the truth's
// cubeless probabilities for the doubler on roll.
func truthProbs(d verdict.CubeDecision) (bgbot.Probs, *backgammon.State, error) {
	var p bgbot.Probs
	if len(d.Probs) != len(p) {
		return p, nil, fmt.Errorf("no probabilities (written before gnubg-verdict recorded them)")
	}
	s, err := d.State()
	if err != nil {
		return p, nil, err
	}
	for k := range p {
		p[k] = float32(d.Probs[k])
	}
	return p, s, nil
}

// bgbotCubeJudge builds bgbot from engine arguments and returns its cube
// decisions on recorded positions.
func bgbotCubeJudge(args string) (func(verdict.CubeDecision) (string, error), error) {
	bot, err := botFromArgs(args)
	if err != nil {
		return nil, err
	}
	return func(d verdict.CubeDecision) (string, error) {
		s, err := d.State()
		if err != nil {
			return "", err
		}
		if d.Role == "doubler" {
			double, err := bot.Double(s)
			if double {
				return "double", err
			}
			return "no double", err
		}
		a, err := bot.Take(s)
		if a == backgammon.Drop {
			return "pass", err
		}
		return "take", err
	}, nil
}

// decisionsOfClasses keeps the decisions whose positions are of a class
// in keep.
func decisionsOfClasses(cs []verdict.CubeDecision, keep []int) ([]verdict.CubeDecision, error) {
	var out []verdict.CubeDecision
	for _, d := range cs {
		b, err := gnubgid.DecodePosition(d.PositionID)
		if err != nil {
			return nil, fmt.Errorf("%s game %d: %w", d.File, d.Game, err)
		}
		if slices.Contains(keep, bgbot.Class(&b)) {
			out = append(out, d)
		}
	}
	return out, nil
}

// modelCubeJudge returns the decisions of bgbot's cube model fed each
// decision's own cubeless probabilities.
func modelCubeJudge() (func(verdict.CubeDecision) (string, error), error) {
	bot, err := botFromArgs("")
	if err != nil {
		return nil, err
	}
	return func(d verdict.CubeDecision) (string, error) {
		p, s, err := truthProbs(d)
		if err != nil {
			return "", err
		}
		ce, err := bot.CubeWith(s, p)
		switch {
		case err != nil:
			return "", err
		case d.Role == "taker" && ce.DoubleTake > ce.DoublePass:
			return "pass", nil
		case d.Role == "taker":
			return "take", nil
		case ce.ShouldDouble():
			return "double", nil
		}
		return "no double", nil
	}, nil
}
