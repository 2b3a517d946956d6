package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/benchset"
	"github.com/gamemill/gamemill/formats/recordfile"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/gamemill/gamemill/player/gnubg"
	"github.com/spf13/pflag"
)

// supervise runs one supervised generation: self-play positions labelled by
// the network's own deeper search, or by gnubg's evaluation (--teacher
// gnubg), and the network trained toward them.
func supervise(ctx context.Context, fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	from := fs.String("from", "", "weights file to start from (default: the embedded weights)")
	out := fs.String("out", "bgbot.bgnet", "weights file to write")
	positions := fs.Int("positions", 100000, "positions to label: from self-play, or at most this many from --records")
	plies := fs.Int("plies", 1, fmt.Sprintf("depth of the labels, 1..%d", bgbot.MaxPlies))
	epochs := fs.Int("epochs", 2, "passes over the labelled positions")
	alpha := fs.Float64("alpha", 0.003, "learning rate at the start")
	alphaEnd := fs.Float64("alpha-end", 0.0005, "learning rate at the end (linear decay)")
	seed := fs.Uint64("seed", 1, "seed of the self-play dice and the shuffles")
	workers := fs.IntP("parallel", "j", runtime.NumCPU(), "goroutines labelling positions (the result does not depend on it)")
	cli.Alias(fs, "workers", "parallel")
	labels := fs.StringSlice("labels", nil, "labelled positions to fit (files written by --save-labels; repeat the flag or separate by commas to fit several together) instead of sampling and labelling")
	saveLabels := fs.String("save-labels", "", "also write the labelled positions to this file")
	prunerFile := fs.String("pruner", "", "pruning network for the labelling searches (default: the embedded one)")
	alternatives := fs.Int("alternatives", 0, "also label, after each self-play position, the positions the next N best 0-ply moves would have left")
	noPrune := fs.Bool("no-prune", false, "label with unpruned searches (about four times slower at 2 plies)")
	teacher := fs.String("teacher", "self", "who labels the positions: self (the network's own search at --plies) or gnubg (gnubg's cubeless evaluation at --plies, 0 allowed)")
	optimizer := fs.String("optimizer", "sgd", "how the fit steps: sgd (one step per position, --alpha the step) or adam (mini-batches of --batch positions with the Adam rule, --alpha Adam's step size, about 0.001)")
	batch := fs.Int("batch", 64, "positions per mini-batch with --optimizer adam")
	rank := fs.Float64("rank", 0, "with --optimizer adam, also fit the equity differences between the positions of one decision's candidate moves, weighted by this (the default networks were fitted at 50 and 25; needs labels sampled with --alternatives, which record the decisions)")
	classes := fs.StringSlice("classes", []string{"contact", "crashed", "leading", "race"}, "networks to fit (contact, crashed, leading, race): positions the others judge are left out of the fit, so those networks stay as they are")
	layout := fs.Int("layout", 0, "first widen the starting network to this input layout (3 adds race features for races, 4 for crashed positions too), keeping what it computes; 0 keeps its layout")
	sampleClasses := fs.StringSlice("sample-classes", nil, "sample only positions that these networks judge (contact, crashed, leading, race), --positions of them, so that no labelling is spent on the others (default: all)")
	sampleWindow := fs.Float64Slice("sample-window", nil, "sample only positions whose 0-ply win chance for the side on roll (by --from's network) lies in LO,HI: the doubling window, where a cube network's errors turn into wrong decisions (default: all)")
	bearoffFile := fs.String("bearoff", "", "bearoff database file (bgtrain makebearoff) whose exact positions are not sampled and that the network's own labels use (default: 10 checkers, built)")
	hidden := fs.Int("hidden", 0, "first widen the starting network to this many hidden units, keeping what it computes (new units start small, from --seed); 0 keeps its size")
	crashed := fs.Bool("crashed", false, "first give crashed positions a network of their own, starting as a copy of the contact network (nothing changes when the starting network has one)")
	leading := fs.Bool("leading", false, fmt.Sprintf("then give contact positions where the side on roll leads the race by %d pips or more, the positions a trailing side's moves leave, a network of their own (leading), starting as a copy of the contact network (nothing changes when the starting network has one)", bgbot.LeadingPips))
	gnubgBin := fs.String("gnubg", "gnubg", "gnubg program for --teacher gnubg (a bare name is looked for on PATH, then in /usr/games)")
	records := fs.StringSlice("records", nil, "game records (.mat or .sgf files, or directories of them) whose chequer decisions give the positions to label instead of self-play: the positions the move played and the 1+--alternatives best 0-ply moves leave, each once, --positions at most")
	sampleLead := fs.IntSlice("sample-lead", nil, "with --records, sample only decisions where the mover's pip lead (the opponent's pip count less its own; negative when it trails) lies in LO,HI (default: all)")
	sampleScores := fs.StringSlice("sample-scores", nil, "with --records, sample only decisions at these stages of play: "+benchset.StagesHelp+" (default: all)")
	if err := cli.Parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *positions < 1 || *epochs < 1 || !(*alpha > 0) || !(*alphaEnd >= 0) || *workers < 1 || *alternatives < 0 {
		return cli.Usagef("supervise: need --parallel >= 1, --positions >= 1, --alternatives >= 0, --epochs >= 1, --alpha > 0, --alpha-end >= 0")
	}
	if *optimizer != "sgd" && *optimizer != "adam" {
		return cli.Usagef("supervise: --optimizer is sgd or adam, not %q", *optimizer)
	}
	if *batch < 1 {
		return cli.Usagef("supervise: need --batch >= 1")
	}
	if !(*rank >= 0) || (*rank > 0 && *optimizer != "adam") {
		return cli.Usagef("supervise: --rank is at least 0, and only with --optimizer adam")
	}
	fitClass, err := classSet(*classes)
	if err != nil {
		return err
	}
	if len(*records) > 0 && len(*labels) > 0 {
		return cli.Usagef("supervise: --records samples new positions; it does not go with --labels")
	}
	keepStage, err := benchset.StageFilter(*sampleScores)
	if err != nil {
		return cli.Usagef("supervise: --sample-scores: %v", err)
	}
	if keepStage != nil && len(*records) == 0 {
		return cli.Usagef("supervise: --sample-scores chooses among the decisions of --records")
	}
	keepDecision, err := decisionFilter(keepStage, *sampleLead)
	if err != nil {
		return err
	}
	if len(*sampleLead) > 0 && len(*records) == 0 {
		return cli.Usagef("supervise: --sample-lead chooses among the decisions of --records")
	}
	var sampleClass [bgbot.NumClasses]bool
	if len(*sampleClasses) > 0 {
		if len(*labels) > 0 {
			return cli.Usagef("supervise: --sample-classes samples new positions; it does not go with --labels")
		}
		if sampleClass, err = classSet(*sampleClasses); err != nil {
			return err
		}
	}
	if len(*sampleWindow) > 0 {
		if len(*labels) > 0 {
			return cli.Usagef("supervise: --sample-window samples new positions; it does not go with --labels")
		}
		if len(*sampleWindow) != 2 || !(0 <= (*sampleWindow)[0] && (*sampleWindow)[0] < (*sampleWindow)[1] && (*sampleWindow)[1] <= 1) {
			return cli.Usagef("supervise: --sample-window takes LO,HI with 0 <= LO < HI <= 1, not %v", *sampleWindow)
		}
	}
	switch *teacher {
	case "self":
		if *plies < 1 || *plies > bgbot.MaxPlies {
			return cli.Usagef("supervise: --plies 1..%d for the network's own labels", bgbot.MaxPlies)
		}
	case "gnubg":
		if *plies < 0 || *plies > gnubg.MaxPlies {
			return cli.Usagef("supervise: --plies 0..%d for gnubg's labels", gnubg.MaxPlies)
		}
	default:
		return cli.Usagef("supervise: --teacher is self or gnubg, not %q", *teacher)
	}
	w, err := loadWeights(*from)
	if err != nil {
		return fmt.Errorf("supervise: %w", err)
	}
	w = w.Clone()
	if (*hidden != 0 && *hidden != w.Hidden) || (*layout != 0 && *layout != w.Layout) {
		newHidden, newLayout := max(*hidden, w.Hidden), max(*layout, w.Layout)
		if *hidden != 0 && *hidden < w.Hidden {
			return cli.Usagef("supervise: --hidden %d is below the starting network's %d", *hidden, w.Hidden)
		}
		if *layout != 0 && (*layout < w.Layout || bgbot.InputsOf(*layout) == 0) {
			return cli.Usagef("supervise: --layout %d: want a layout of %d..%d, not below the starting network's %d", *layout, bgbot.LayoutV1, bgbot.LayoutLast, w.Layout)
		}
		if w, err = w.Widen(newLayout, newHidden, bgbot.SeededRand(*seed)); err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
		fmt.Fprintf(stdout, "widened to layout %d, %d hidden units\n", w.Layout, w.Hidden)
	}
	if *crashed {
		if w, err = splitCrashed(w, stdout); err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
	}
	if *leading {
		if w, err = splitLeading(w, stdout); err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
	}
	// Without a crashed (leading) network the contact network judges
	// those positions, so fitting that class alone would quietly fit it.
	for _, c := range []int{bgbot.ClassCrashed, bgbot.ClassLeading} {
		if fitClass[c] && !fitClass[bgbot.ClassContact] && w.Classes() <= c {
			name := bgbot.ClassName(c)
			return cli.Usagef("supervise: --classes %s: the starting network %q has no %s network (add --%s to give it one)", name, *from, name, name)
		}
	}
	var pruner *bgbot.Pruner
	if !*noPrune && *teacher == "self" { // gnubg's labels need no pruner of ours
		if pruner, err = loadPruner(*prunerFile); err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
	}
	db, err := bgbot.LoadBearoff(*bearoffFile)
	if err != nil {
		return fmt.Errorf("supervise: %w", err)
	}
	begin := time.Now()
	progress := func(stage string) func(done, total int) {
		step := 0
		return func(done, total int) {
			if done >= step || done == total {
				fmt.Fprintf(stdout, "%s: %d/%d after %v\n", stage, done, total, time.Since(begin).Round(time.Second))
				step = done + total/10
			}
		}
	}
	var (
		data   []bgbot.Labelled
		groups []int32 // which decision each position came from, where known
	)
	if len(*labels) > 0 {
		if data, groups, err = readLabelFiles(*labels); err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
	} else {
		var boards []backgammon.Board
		keep := sampleFilter(w, sampleClass, len(*sampleClasses) > 0, *sampleWindow)
		if len(*records) > 0 {
			var ds []bgbot.RecordedDecision
			if ds, err = loadRecordedDecisions(*records, keepDecision); err != nil {
				return fmt.Errorf("supervise: %w", err)
			}
			boards, groups, err = bgbot.SampleRecordedDecisions(ctx, w, db, ds, *alternatives, keep, *positions)
			if err == nil {
				fmt.Fprintf(stdout, "sampled %d positions from %d recorded decisions\n", len(boards), len(ds))
			}
		} else {
			boards, groups, err = bgbot.SampleDecisionsWhere(ctx, w, db, *positions, *seed, *alternatives, keep)
		}
		if err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
		if *teacher == "gnubg" {
			data, err = gnubgLabels(ctx, *gnubgBin, *plies, *workers, boards, progress("label"))
		} else {
			data, err = bgbot.Label(ctx, w, db, pruner, boards, *plies, *workers, progress("label"))
		}
		if err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
	}
	if *saveLabels != "" {
		f, err := os.Create(*saveLabels)
		if err != nil {
			return fmt.Errorf("supervise: %w", err)
		}
		err = bgbot.WriteLabelledGroups(f, data, groups)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("supervise: %s: %w", *saveLabels, err)
		}
	}
	data, groups = onlyClasses(w, data, groups, fitClass)
	if *rank > 0 && groups == nil {
		return cli.Usagef("supervise: --rank needs labels that record their decisions (sampled by this version with --alternatives)")
	}
	if *optimizer == "adam" {
		err = bgbot.FitAdamRanked(ctx, w, data, groups, *rank, *epochs, *batch, *alpha, *alphaEnd, *seed, progress("fit"))
	} else {
		err = bgbot.Fit(ctx, w, data, *epochs, *alpha, *alphaEnd, *seed, progress("fit"))
	}
	if err != nil {
		return fmt.Errorf("supervise: %w", err)
	}
	if err := writeWeights(*out, w); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s after %v\n", *out, time.Since(begin).Round(time.Second))
	return nil
}

// sampleFilter is the test a sampled position must pass: judged by one
// of the classes in class (when byClass), and with a 0-ply win chance for
// the side on roll within window (when given). Nil when nothing is
// filtered. Sampling runs on one goroutine, so one evaluator serves.
func sampleFilter(w *bgbot.Weights, class [bgbot.NumClasses]bool, byClass bool, window []float64) func(*backgammon.Board) bool {
	if !byClass && len(window) == 0 {
		return nil
	}
	ev := w.NewEvaluator()
	return func(b *backgammon.Board) bool {
		if byClass && !class[w.NetClass(b)] {
			return false
		}
		if len(window) == 2 {
			win := float64(ev.Evaluate(*b)[bgbot.Win])
			return window[0] <= win && win <= window[1]
		}
		return true
	}
}

// decisionFilter is the filter of recorded decisions by --sample-scores'
// stages (keepStage, nil for all) and --sample-lead's LO,HI (the mover's
// pip lead before the roll is played; empty for any): nil when it keeps
// every decision.
func decisionFilter(keepStage func(*backgammon.State) bool, lead []int) (func(*backgammon.State) bool, error) {
	if len(lead) == 0 {
		return keepStage, nil
	}
	if len(lead) != 2 || lead[0] > lead[1] {
		return nil, cli.Usagef("supervise: --sample-lead takes LO,HI with LO <= HI, not %v", lead)
	}
	return func(s *backgammon.State) bool {
		l := benchset.Lead(&s.Board)
		return lead[0] <= l && l <= lead[1] && (keepStage == nil || keepStage(s))
	}, nil
}

// classSet parses --classes into a set indexed by network class.
func classSet(names []string) ([bgbot.NumClasses]bool, error) {
	var set [bgbot.NumClasses]bool
	for _, name := range names {
		found := false
		for _, c := range networkClasses() {
			if c.name == name {
				set[c.class], found = true, true
			}
		}
		if !found {
			return set, cli.Usagef("supervise: --classes takes contact, crashed, leading and race, not %q", name)
		}
	}
	return set, nil
}

// onlyClasses keeps the positions that one of the chosen networks of w
// judges, and their groups (groups may be nil). A crashed position belongs
// to the contact network when w has no crashed one.
func onlyClasses(w *bgbot.Weights, data []bgbot.Labelled, groups []int32, keep [bgbot.NumClasses]bool) ([]bgbot.Labelled, []int32) {
	if !slices.Contains(keep[:], false) {
		return data, groups // the default: no copy of a set that may be millions long
	}
	out := data[:0:0]
	var kept []int32
	for i := range data {
		if keep[w.NetClass(&data[i].Board)] {
			out = append(out, data[i])
			if groups != nil {
				kept = append(kept, groups[i])
			}
		}
	}
	return out, kept
}

// readLabelFiles reads labelled positions from files in turn, in order;
// Fit shuffles them together. The groups are nil unless every file has
// them; each file's group numbers are moved past the previous file's, so
// that no group spans two files.
func readLabelFiles(names []string) ([]bgbot.Labelled, []int32, error) {
	var (
		all     []bgbot.Labelled
		groups  []int32
		grouped = true
		offset  int32
	)
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, nil, err
		}
		data, g, err := bgbot.ReadLabelledGroups(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, data...)
		grouped = grouped && g != nil
		if grouped {
			var top int32
			for _, n := range g {
				groups = append(groups, n+offset)
				top = max(top, n+offset)
			}
			offset = top + 1
		}
	}
	if !grouped {
		groups = nil
	}
	return all, groups, nil
}

// gnubgLabels labels boards with gnubg's cubeless evaluation at plies, jobs
// gnubg processes at once. gnubg judges a position before the roll for the
// player on roll, as a Labelled does.
func gnubgLabels(ctx context.Context, bin string, plies, jobs int, boards []backgammon.Board, progress func(done, total int)) ([]bgbot.Labelled, error) {
	path, err := gnubg.FindBinary(bin)
	if err != nil {
		return nil, err
	}
	probs, err := gnubg.Judge(ctx, path, plies, jobs, boards, progress)
	if err != nil {
		return nil, err
	}
	data := make([]bgbot.Labelled, len(boards))
	for i, b := range boards {
		data[i].Board = b
		for k, p := range probs[i] {
			data[i].Probs[k] = float32(p)
		}
	}
	return data, nil
}

// loadRecordedDecisions reads the records that paths name (files, or
// directories of them) and collects their chequer decisions at the match
// states keep accepts (keep nil: all).
func loadRecordedDecisions(paths []string, keep func(*backgammon.State) bool) ([]bgbot.RecordedDecision, error) {
	files, err := recordfile.Expand(paths)
	if err != nil {
		return nil, err
	}
	var ds []bgbot.RecordedDecision
	for _, f := range files {
		m, err := recordfile.Load(f)
		if err != nil {
			return nil, err
		}
		more, err := benchset.RecordedDecisions(m, keep)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		ds = append(ds, more...)
	}
	return ds, nil
}
