package bgbot

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/gamemill/gamemill/engine/backgammon"
)

// Labelled is a position before the roll (the player on roll is Board[1])
// with its probabilities from a deeper search.
type Labelled struct {
	Board backgammon.Board
	Probs Probs
}

// SamplePositions plays self-play games with w at 0-ply (dice
// NewDice(seed, game)) and returns the first n positions met before a
// roll, leaving out those the bearoff database db answers exactly (db may
// be nil).
func SamplePositions(ctx context.Context, w *Weights, db *Bearoff, n int, seed uint64) ([]backgammon.Board, error) {
	return SampleWithAlternatives(ctx, w, db, n, seed, 0)
}

// SampleWithAlternatives is SamplePositions that also keeps, after each
// position met, the positions the next alternatives best moves by w's 0-ply
// judgement would have left (before the opponent's roll, from its view).
// Self-play only ever shows the network the positions after the moves it
// likes, while choosing a move is ranking those it rejects as well; a
// label for a rejected move's position carries what the network's own
// games never teach it.
func SampleWithAlternatives(ctx context.Context, w *Weights, db *Bearoff, n int, seed uint64, alternatives int) ([]backgammon.Board, error) {
	boards, _, err := SampleDecisions(ctx, w, db, n, seed, alternatives)
	return boards, err
}

// SampleDecisions is SampleWithAlternatives that also says which decision
// each position came from: the alternatives of one decision and the
// position its played move left (the next position met, when it is kept)
// share a group number, and groups are contiguous runs. A position that
// follows no kept decision (a game's first, or one after a roll with no
// legal move) has a group of its own. The groups let a fit compare the
// siblings of one decision with each other (FitAdamRanked).
func SampleDecisions(ctx context.Context, w *Weights, db *Bearoff, n int, seed uint64, alternatives int) ([]backgammon.Board, []int32, error) {
	return SampleDecisionsWhere(ctx, w, db, n, seed, alternatives, nil)
}

// SampleDecisionsWhere is SampleDecisions that keeps only the positions
// keep accepts (all when keep is nil), n of them: the self-play games are
// the same, the others are passed over as exact bear-offs are. It samples
// the positions of one class (races, say) without labelling the rest.
func SampleDecisionsWhere(ctx context.Context, w *Weights, db *Bearoff, n int, seed uint64, alternatives int, keep func(*backgammon.Board) bool) ([]backgammon.Board, []int32, error) {
	wanted := func(b *backgammon.Board) bool {
		_, exact := bearoffExact(db, b)
		return !exact && (keep == nil || keep(b))
	}
	bot, err := NewBot(Config{Level: LevelNet, Weights: w, Bearoff: db, NoBearoff: db == nil})
	if err != nil {
		return nil, nil, fmt.Errorf("sample positions: %w", err)
	}
	out := make([]backgammon.Board, 0, n)
	groups := make([]int32, 0, n)
	next := int32(0) // the next unused group number
	for game := uint64(0); len(out) < n; game++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("sample positions: %w", err)
		}
		dice := backgammon.NewDice(seed, game)
		s := backgammon.NewMatch(backgammon.Rules{Variant: backgammon.Standard})
		first, d0, d1 := dice.Opening()
		if err := s.StartGame(first, d0, d1); err != nil {
			return nil, nil, fmt.Errorf("sample positions: game %d: %w", game, err)
		}
		pending := int32(-1) // the group the next position met joins, if any
		for moves := 0; s.GameState == backgammon.GamePlaying && len(out) < n; {
			if moves++; moves > 4*MaxGamePlies {
				return nil, nil, fmt.Errorf("sample positions: game %d does not end", game)
			}
			switch s.Decision() {
			case backgammon.NeedRoll:
				if err := s.SetDice(dice.Roll()); err != nil {
					return nil, nil, fmt.Errorf("sample positions: game %d: %w", game, err)
				}
			case backgammon.DecideMove:
				b := s.Board
				if wanted(&b) {
					if pending < 0 {
						pending, next = next, next+1
					}
					out = append(out, b)
					groups = append(groups, pending)
				}
				pending = -1
				m, _, moved := bot.ChooseMove(s.Board, s.Dice[0], s.Dice[1])
				if moved { // with no legal move the candidates are stale
					pending, next = next, next+1
					if alternatives > 0 {
						before := len(out)
						out = bot.appendAlternatives(out, m, alternatives, wanted, n)
						for range len(out) - before {
							groups = append(groups, pending)
						}
					}
				}
				if err := s.Play(m); err != nil {
					return nil, nil, fmt.Errorf("sample positions: game %d: %w", game, err)
				}
			default:
				return nil, nil, fmt.Errorf("sample positions: game %d: unexpected decision %v", game, s.Decision())
			}
		}
	}
	return out, groups, nil
}

// appendAlternatives appends to out, up to n in all, the positions after
// the k best candidates of the bot's last 0-ply choice other than the move
// played, from the opponent's view, leaving out finished games and the
// positions wanted refuses.
func (bt *Bot) appendAlternatives(out []backgammon.Board, played backgammon.Move, k int, wanted func(*backgammon.Board) bool, n int) []backgammon.Board {
	c := bt.rankedCandidates()
	for i := 0; i < len(c) && k > 0 && len(out) < n; i++ {
		if c[i].move == played {
			continue
		}
		k--
		if _, over := Outcome(&c[i].board, bt.checkers); over {
			continue
		}
		b := c[i].board.Swap()
		if wanted(&b) {
			out = append(out, b)
		}
	}
	return out
}

// rankedCandidates is the candidates of the bot's last 0-ply choice,
// best first.
func (bt *Bot) rankedCandidates() []candidate {
	slices.SortStableFunc(bt.cands, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	return bt.cands
}

func bearoffExact(db *Bearoff, b *backgammon.Board) (Probs, bool) {
	if db == nil || Contact(b) {
		return Probs{}, false
	}
	return db.Probs(b)
}

// Label judges each position plies deep with w (and db for exact
// bear-offs), on workers goroutines, the searches pruned by pruner when it
// is not nil. The labels do not depend on workers.
func Label(ctx context.Context, w *Weights, db *Bearoff, pruner *Pruner, boards []backgammon.Board, plies, workers int, progress func(done, total int)) ([]Labelled, error) {
	if plies < 0 || plies > MaxPlies {
		return nil, fmt.Errorf("label: plies %d out of range 0..%d", plies, MaxPlies)
	}
	workers = max(workers, 1)
	out := make([]Labelled, len(boards))
	var (
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
	)
	errs := make([]error, workers)
	for k := range workers {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			bot, err := NewBot(Config{Level: LevelNet, Plies: plies, Weights: w, Bearoff: db, NoBearoff: db == nil, Pruner: pruner})
			if err != nil {
				errs[k] = err
				return
			}
			for i := k; i < len(boards); i += workers {
				if i%256 == k {
					if err := ctx.Err(); err != nil {
						errs[k] = err
						return
					}
				}
				out[i] = Labelled{Board: boards[i], Probs: bot.Probs(boards[i])}
				if progress != nil && (i+1)%1000 == 0 {
					mu.Lock()
					done += 1000
					progress(min(done, len(boards)), len(boards))
					mu.Unlock()
				}
			}
		}(k)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("label: %w", err)
		}
	}
	return out, nil
}

// Fit trains w toward the labels for epochs passes, each in an order
// shuffled from seed, with the learning rate decaying linearly from alpha
// to alphaEnd (0 keeps alpha). It is sequential, so reproducible.
func Fit(ctx context.Context, w *Weights, data []Labelled, epochs int, alpha, alphaEnd float64, seed uint64, progress func(done, total int)) error {
	if epochs < 1 || !(alpha > 0) || alphaEnd < 0 {
		return fmt.Errorf("fit: bad configuration: epochs %d alpha %v alpha-end %v", epochs, alpha, alphaEnd)
	}
	if alphaEnd == 0 {
		alphaEnd = alpha
	}
	ev := w.NewEvaluator()
	total := epochs * len(data)
	return visitShuffled(ctx, "fit", len(data), epochs, rand.New(rand.NewPCG(seed, 0x666974)), progress, func(i, step int) {
		a := float32(alpha + (alphaEnd-alpha)*float64(step)/float64(max(total, 1)))
		ev.learn(&data[i].Board, data[i].Probs, a)
	})
}

// visitShuffled calls visit(i, step) for each i in 0..n-1, epochs times,
// each pass in an order shuffled by rng, step counting the calls. It
// checks ctx and reports progress every 4096 steps.
func visitShuffled(ctx context.Context, what string, n, epochs int, rng *rand.Rand, progress func(done, total int), visit func(i, step int)) error {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	total := epochs * n
	step := 0
	for e := range epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			if step%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("%s: epoch %d: %w", what, e+1, err)
				}
				if progress != nil {
					progress(step, total)
				}
			}
			visit(i, step)
			step++
		}
	}
	return nil
}

// labelledMagic starts a labelled-positions file: WriteLabelled's format is
// the magic, a little-endian uint32 count, then per position the 50 board
// counts (int8, Board[0] then Board[1]) and the 5 probabilities (float32).
// groupedMagic starts the same with, after the positions, one int32 group
// number per position (SampleDecisions' groups).
const (
	labelledMagic = "BGLB1\n"
	groupedMagic  = "BGLB2\n"
)

// WriteLabelled writes labelled positions, so that several fits can share
// one (slow) labelling.
func WriteLabelled(out io.Writer, data []Labelled) error {
	return WriteLabelledGroups(out, data, nil)
}

// WriteLabelledGroups is WriteLabelled that also keeps each position's
// decision group; with groups nil it writes WriteLabelled's format.
func WriteLabelledGroups(out io.Writer, data []Labelled, groups []int32) error {
	if groups != nil && len(groups) != len(data) {
		return fmt.Errorf("write labelled: %d groups for %d positions", len(groups), len(data))
	}
	bw := bufio.NewWriter(out)
	if groups != nil {
		bw.WriteString(groupedMagic)
	} else {
		bw.WriteString(labelledMagic)
	}
	if err := binary.Write(bw, binary.LittleEndian, uint32(len(data))); err != nil {
		return fmt.Errorf("write labelled: %w", err)
	}
	if err := binary.Write(bw, binary.LittleEndian, data); err != nil {
		return fmt.Errorf("write labelled: %w", err)
	}
	if groups != nil {
		if err := binary.Write(bw, binary.LittleEndian, groups); err != nil {
			return fmt.Errorf("write labelled: groups: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write labelled: %w", err)
	}
	return nil
}

// ReadLabelled reads what WriteLabelled or WriteLabelledGroups wrote,
// checking every board, and leaves out the groups.
func ReadLabelled(in io.Reader) ([]Labelled, error) {
	data, _, err := ReadLabelledGroups(in)
	return data, err
}

// ReadLabelledGroups reads what WriteLabelled or WriteLabelledGroups
// wrote, checking every board; groups is nil for a file without them.
func ReadLabelledGroups(in io.Reader) (data []Labelled, groups []int32, err error) {
	br := bufio.NewReader(in)
	magic := make([]byte, len(labelledMagic))
	if _, err := io.ReadFull(br, magic); err != nil || (string(magic) != labelledMagic && string(magic) != groupedMagic) {
		return nil, nil, fmt.Errorf("read labelled: not a labelled-positions file (magic %q, %v)", magic, err)
	}
	var n uint32
	if err := binary.Read(br, binary.LittleEndian, &n); err != nil {
		return nil, nil, fmt.Errorf("read labelled: count: %w", err)
	}
	if n > 1<<26 {
		return nil, nil, fmt.Errorf("read labelled: count %d too large", n)
	}
	// Read in chunks, so that a damaged count meets the end of the file
	// before it has cost gigabytes.
	const chunk = 1 << 16
	data = make([]Labelled, 0, min(n, chunk))
	for len(data) < int(n) {
		part := make([]Labelled, min(int(n)-len(data), chunk))
		if err := binary.Read(br, binary.LittleEndian, part); err != nil {
			return nil, nil, fmt.Errorf("read labelled: %d positions: %w", n, err)
		}
		data = append(data, part...)
	}
	for i := range data {
		if err := data[i].Board.Validate(backgammon.Standard); err != nil {
			return nil, nil, fmt.Errorf("read labelled: position %d: %w", i, err)
		}
		for k, p := range data[i].Probs {
			if !(p >= 0 && p <= 1) {
				return nil, nil, fmt.Errorf("read labelled: position %d: probability %d is %v", i, k, p)
			}
		}
	}
	if string(magic) == groupedMagic {
		groups = make([]int32, n) // no larger than data, which was read
		if err := binary.Read(br, binary.LittleEndian, groups); err != nil {
			return nil, nil, fmt.Errorf("read labelled: %d groups: %w", n, err)
		}
	}
	return data, groups, nil
}
