// Command bgtool inspects backgammon positions: it draws a position given
// by gnubg IDs, lists the legal moves of a roll, and converts match records.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/spf13/pflag"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/formats/gnubgid"
	"github.com/gamemill/gamemill/formats/textboard"
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

Run 'bgtool COMMAND --help' for a command's flags.
`

// defaultMatchID is a money game with the cube centred and player 1 to roll.
const defaultMatchID = "cAkAAAAAAAAA"

// errUsage marks errors that exit with status 2.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "board":
		err = runBoard(args[1:], stdout)
	case "moves":
		err = runMoves(args[1:], stdout)
	case "convert":
		return runConvert(args[1:], stdout, stderr)
	default:
		err = fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "bgtool: %v\n\n%s", err, usage)
		return 2
	}
	fmt.Fprintf(stderr, "bgtool: %v\n", err)
	return 1
}

// newFlags makes a flag set that prints its help to out and reports
// errors as usage errors.
func newFlags(name, args string, out io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: bgtool %s [flags] %s\n\nflags:\n%s", name, args, fs.FlagUsages())
	}
	return fs
}

func parseFlags(fs *pflag.FlagSet, args []string, min, max int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
	}
	if n := fs.NArg(); n < min || n > max {
		return fmt.Errorf("%w: %s: want %d to %d arguments, got %d", errUsage, fs.Name(), min, max, n)
	}
	return nil
}

func runBoard(args []string, stdout io.Writer) error {
	fs := newFlags("board", "POSITION_ID [MATCH_ID]", stdout)
	asJSON := fs.Bool("json", false, "print the position as JSON")
	name0 := fs.String("name0", "gnubg", "name of player 0 (O, drawn at the top)")
	name1 := fs.String("name1", "root", "name of player 1 (X, drawn at the bottom)")
	variant := fs.String("variant", "standard", "variant: standard, nackgammon, hypergammon1..3")
	if err := parseFlags(fs, args, 1, 2); err != nil {
		return err
	}
	v, err := backgammon.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: board: %v", errUsage, err)
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

func runMoves(args []string, stdout io.Writer) error {
	fs := newFlags("moves", "POSITION_ID DICE", stdout)
	asJSON := fs.Bool("json", false, "print the moves as JSON")
	variant := fs.String("variant", "standard", "variant: standard, nackgammon, hypergammon1..3")
	eval := fs.Bool("eval", false, "judge each move with bgbot's network (cubeless money equity), best first")
	plies := fs.Int("plies", 0, "with --eval: search depth")
	if err := parseFlags(fs, args, 2, 2); err != nil {
		return err
	}
	v, err := backgammon.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: moves: %v", errUsage, err)
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
