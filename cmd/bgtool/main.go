// Command bgtool inspects backgammon positions: it draws a position given
// by gnubg IDs, lists the legal moves of a roll, and converts match records.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/textboard"
	"github.com/gamemill/gamemill/internal/cli"
	"github.com/spf13/pflag"
)

const usage = `usage: bgtool COMMAND [flags] ARGS

commands:
  board POSITION_ID [MATCH_ID]   draw a position as gnubg does, with pip counts,
                                 turn, score and cube (default match ID: money
                                 game, centred cube, player 1 (X) to roll)
  moves POSITION_ID DICE         list every legal move for dice such as 52:
                                 the move, a tab, the position ID after it
                                 from the opponent's view
  convert IN OUT                 convert a match record
  analyse FILE                   judge every decision of a .mat or .sgf record
                                 with bgbot: error rates, luck, rating estimates
  gnubg-verdict FILE.mat...      have GNU Backgammon analyse records and print
                                 each player's chequer and cube error rates
  verdict-breakdown FILE.jsonl...  break down again, without gnubg, the
                                 decisions gnubg-verdict --decisions wrote
  verdict-compare A.jsonl B.jsonl  compare two runs' decisions on the same
                                 dice record by record: each player's change
                                 in chequer error rate, with an interval
  cube-score TRUTH.jsonl...      price the cube decisions bgbot (--bgbot ARGS)
                                 or another analysis (--judged FILE) would
                                 make on recorded positions by gnubg's
                                 equities (gnubg-verdict --decisions)
  gnubg-benchset FILE...         make a benchmark set (bgtrain benchmark --set)
                                 of the records' positions judged by gnubg
  gnubg-moveset FILE...          make a move set (bgtrain benchmark --moves):
                                 the records' chequer decisions, every legal
                                 move's result judged by gnubg
  mine-positions FILE...         write a positions file (a ringmaster suite)
                                 of the records' positions by class, the
                                 mover's pip lead and the cube
  rollout POSITION_ID [MATCH_ID] roll out a position, its cube decision
                                 (--cube) or its chequer decision (--dice)
                                 with bgbot: equities and standard errors

Run 'bgtool COMMAND --help' for a command's flags.

exit status: 0 ok; 1 error; 2 usage
`

// defaultMatchID is a money game with the cube centred and player 1 to roll.
const defaultMatchID = "cAkAAAAAAAAA"

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// program is bgtool's commands; each Run parses its own flags.
func program(stdout, stderr io.Writer) *cli.Program {
	return &cli.Program{
		Name:    "bgtool",
		Summary: "bgtool inspects backgammon positions and match records: draws positions, lists legal moves, converts and analyses records, and has GNU Backgammon judge them.",
		Usage:   usage,
		Commands: []cli.Command{
			{Name: "board", Args: "POSITION_ID [MATCH_ID]", Summary: "Draw a position given by gnubg IDs as gnubg does, with pip counts, turn, score and cube.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return runBoard(fs, args, stdout) }},
			{Name: "moves", Args: "POSITION_ID DICE", Summary: "List every legal move of a roll, each with the position ID after it from the opponent's view.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return runMoves(fs, args, stdout) }},
			{Name: "convert", Args: "IN OUT", Summary: "Convert a match record between the formats that its file names' extensions name.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return runConvert(fs, args, stdout) }},
			{Name: "analyse", Aliases: []string{"analyze"}, Args: "FILE.mat|FILE.sgf", Summary: "Judge every decision of a match record with bgbot: error rates, luck and rating estimates.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return runAnalyse(fs, args, stdout) }},
			{Name: "gnubg-verdict", Args: "FILE.mat...", Summary: "Have GNU Backgammon analyse match records and print each player's chequer and cube error rates.",
				Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
					return runVerdict(ctx, fs, args, stdout, stderr)
				}},
			{Name: "verdict-breakdown", Args: "FILE.jsonl...", Summary: "Break down again, without gnubg, the decisions that gnubg-verdict --decisions wrote.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error {
					return runVerdictBreakdown(fs, args, stdout)
				}},
			{Name: "verdict-compare", Args: "A.jsonl B.jsonl", Summary: "Compare two runs' decisions on the same dice, record by record: each player's change in chequer error rate.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error {
					return runVerdictCompare(fs, args, stdout)
				}},
			{Name: "cube-score", Args: "TRUTH.jsonl...", Summary: "Price the cube decisions of bgbot or of another analysis on recorded positions by gnubg's equities.",
				Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return runCubeScore(fs, args, stdout) }},
			{Name: "gnubg-benchset", Args: "FILE.mat|FILE.sgf|DIR...", Summary: "Make a benchmark set (bgtrain benchmark --set) of the records' positions judged by gnubg.",
				Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
					return runGnubgSet(ctx, fs, args, stdout, stderr)
				}},
			{Name: "gnubg-moveset", Args: "FILE.mat|FILE.sgf|DIR...", Summary: "Make a move set (bgtrain benchmark --moves): the records' chequer decisions, every legal move's result judged by gnubg.",
				Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
					return runGnubgMoves(ctx, fs, args, stdout, stderr)
				}},
			{Name: "mine-positions", Args: "FILE.mat|FILE.sgf|DIR...", Summary: "Write a positions file (a ringmaster suite) of the records' positions by class, the mover's pip lead and the cube.", Run: func(_ context.Context, fs *pflag.FlagSet, args []string) error { return runMine(fs, args, stdout) }},
			{Name: "rollout", Args: "POSITION_ID [MATCH_ID]", Summary: "Roll out a position, its cube decision or its chequer decision with bgbot: equities and their standard errors.",
				Run: func(ctx context.Context, fs *pflag.FlagSet, args []string) error {
					return runRollout(ctx, fs, args, stdout, stderr)
				}},
		},
	}
}

// run is the whole command; its result is the exit status (0 success or
// --help, 1 a failure, 2 a usage error).
func run(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return program(stdout, stderr).Main(ctx, args, stdout, stderr)
}

func runBoard(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	asJSON := fs.Bool("json", false, "print the position as JSON")
	name0 := fs.String("name0", "gnubg", "name of player 0 (O, drawn at the top)")
	name1 := fs.String("name1", "root", "name of player 1 (X, drawn at the bottom)")
	variant := fs.String("variant", "standard", "variant: standard, nackgammon, hypergammon1..3")
	if err := cli.Parse(fs, args, 1, 2); err != nil {
		return err
	}
	v, err := backgammon.ParseVariant(*variant)
	if err != nil {
		return cli.Usagef("board: %v", err)
	}
	matchID := defaultMatchID
	if fs.NArg() == 2 {
		matchID = fs.Arg(1)
	}
	s, err := gnubgid.DecodeState(fs.Arg(0), matchID, backgammon.Rules{Variant: v, Cube: true, Crawford: true})
	if err != nil {
		return fmt.Errorf("board: %w", err)
	}
	names := [2]string{*name0, *name1}
	if *asJSON {
		return writeJSON(stdout, boardJSON(s, names))
	}
	_, err = io.WriteString(stdout, textboard.Draw(s, names)+textboard.Summary(s, names))
	return err
}

func runMoves(fs *pflag.FlagSet, args []string, stdout io.Writer) error {
	asJSON := fs.Bool("json", false, "print the moves as JSON")
	variant := fs.String("variant", "standard", "variant: standard, nackgammon, hypergammon1..3")
	eval := fs.Bool("eval", false, "judge each move with bgbot's network (cubeless money equity), best first")
	plies := fs.Int("plies", 0, "with --eval: search depth")
	if err := cli.Parse(fs, args, 2, 2); err != nil {
		return err
	}
	v, err := backgammon.ParseVariant(*variant)
	if err != nil {
		return cli.Usagef("moves: %v", err)
	}
	b, err := gnubgid.DecodePosition(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("moves: %w", err)
	}
	if err := b.Validate(v); err != nil {
		return fmt.Errorf("moves: position ID %q: %w", fs.Arg(0), err)
	}
	d := fs.Arg(1)
	if len(d) != 2 || d[0] < '1' || d[0] > '6' || d[1] < '1' || d[1] > '6' {
		return fmt.Errorf("moves: dice %q: want two digits 1..6, such as 52", d)
	}
	d1, d2 := int(d[0]-'0'), int(d[1]-'0')
	moves, results := backgammon.LegalMoves(b, d1, d2)
	out := movesOutput{PositionID: fs.Arg(0), Dice: [2]int{d1, d2}, Moves: []moveOutput{}}
	for i, m := range moves {
		out.Moves = append(out.Moves, moveOutput{Move: backgammon.Format(b, m), PositionID: gnubgid.EncodePosition(results[i].Swap())})
	}
	if *eval {
		if err := evaluateMoves(out.Moves, results, v, *plies); err != nil {
			return fmt.Errorf("moves: %w", err)
		}
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	for _, m := range out.Moves {
		line := m.Move + "\t" + m.PositionID
		if m.Equity != nil {
			line += fmt.Sprintf("\t%+.3f", *m.Equity)
		}
		if _, err := fmt.Fprintln(stdout, line); err != nil {
			return err
		}
	}
	return nil
}

// evaluateMoves has bgbot's network judge the position after each move,
// from the mover's view, and sorts the moves best first (a stable sort,
// so equal moves keep the generator's order).
func evaluateMoves(moves []moveOutput, results []backgammon.Board, v backgammon.Variant, plies int) error {
	bot, err := bgbot.NewBot(bgbot.Config{Level: bgbot.LevelNet, Plies: plies})
	if err != nil {
		return err
	}
	bot.SetVariant(v)
	for i := range moves {
		p := bot.Probs(results[i].Swap()).Invert()
		eq := float64(p.Equity())
		probs := [5]float64{}
		for k := range probs {
			probs[k] = float64(p[k])
		}
		moves[i].Equity, moves[i].Probs = &eq, &probs
	}
	sort.SliceStable(moves, func(i, j int) bool { return *moves[i].Equity > *moves[j].Equity })
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
