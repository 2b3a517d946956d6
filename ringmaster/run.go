package ringmaster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gamemill/gamemill/competitions"
	"github.com/gamemill/gamemill/internal/atomicfile"
	"github.com/gamemill/gamemill/player"
	"github.com/gamemill/gamemill/ratings"
	"github.com/gamemill/gamemill/ringmaster/contest"
	"github.com/gamemill/gamemill/ringmaster/control"
	"github.com/gamemill/gamemill/ringmaster/judge"
	"github.com/gamemill/gamemill/ringmaster/referee"
	"github.com/gamemill/gamemill/ringmaster/store"
)

// RunOptions control one run.
type RunOptions struct {
	Parallel    int  // games at once (at least 1)
	MaxGames    int  // most games to start in this run, replays included; <0 no limit
	Quiet       bool // print only errors
	LogProtocol bool // write per-game protocol logs in CODE.protocol/
	// Display receives the live display or progress lines; Errors the
	// warnings. Nil means os.Stdout and os.Stderr.
	Display, Errors io.Writer
	// Live redraws a full-screen display (on a terminal) instead of
	// printing one line per finished game.
	Live bool
	// StopRequests, when set, delivers a graceful stop (Ctrl-X).
	StopRequests <-chan struct{}
	// MaxVoids is how many void attempts a game gets in one run before the
	// run leaves it for a later one (default 3).
	MaxVoids int
}

// LuckAdjustPlies is the depth of the analysis behind luck_adjust unless
// luck_judge names another: luck is judged at 0 ply, as gnubg does by
// default.
const LuckAdjustPlies = 0

// MaxParallel is the most games a run plays at once (--parallel).
const MaxParallel = 1024

// gamesLeft is how many of the matchups' planned games are not yet
// finished.
func gamesLeft(matchups []*control.Matchup, finished int) int {
	planned := 0
	for _, m := range matchups {
		planned += m.NumberOfGames
	}
	return max(0, planned-finished)
}

// How a run ended.
type RunStatus int

const (
	Finished    RunStatus = iota // every planned game is played
	Stopped                      // stopped on request, by max-games, or with games left void
	Interrupted                  // cancelled (Ctrl-C): running games are replayed next time
	Incomplete                   // games were left unplayed after MaxVoids void attempts each
)

func (s RunStatus) String() string {
	return [...]string{"finished", "stopped", "interrupted", "incomplete"}[s]
}

// runner is the state of one run.
type runner struct {
	rm    *Ringmaster
	opts  RunOptions
	st    *store.Store
	sched *competitions.Scheduler
	runID int64
	log   *eventLog
	// engines lists the running engines in CODE.engines, for the run after
	// a crash.
	engines *engineRegistry
	// pool hands out the engines, keeping those whose restart allows it
	// between a slot's games.
	pool *enginePool
	disp *display

	mu         sync.Mutex
	stopReason string
	started    int
	matchups   map[string]*control.Matchup
	sprts      map[string]*sprtTally // matchups with a sequential test
	// judges are the judges of the luck adjustment by worker slot, made
	// when first needed; each is used by its slot's goroutine only.
	judges []judge.Judge
	// For a competition whose matchups depend on results (a planner):
	// the results so far in the planner's terms, whether it is done, the
	// jobs being played, and the workers waiting for new games.
	planned  []contest.Result
	planDone bool
	active   int
	wake     *sync.Cond
	// tuning is the state of a competition whose games a proposer issues
	// one at a time (a tuner); nil for the others.
	tuning *tuning
	// jobs fills each job with its players' definitions as it is issued.
	jobs jobBinder
}

// Run plays the competition until every game is played, a stop is
// requested, or ctx is cancelled. It writes CODE.report at the end.
func (r *Ringmaster) Run(ctx context.Context, opts RunOptions) (RunStatus, error) {
	if opts.Parallel < 1 {
		opts.Parallel = 1
	}
	if opts.Parallel > MaxParallel {
		return Stopped, fmt.Errorf("--parallel %d is more than the most games a run plays at once (%d)", opts.Parallel, MaxParallel)
	}
	if opts.MaxVoids <= 0 {
		opts.MaxVoids = 3
	}
	if opts.Display == nil {
		opts.Display = os.Stdout
	}
	if opts.Errors == nil {
		opts.Errors = os.Stderr
	}
	if err := r.checkJudging(); err != nil {
		return Stopped, err
	}
	st, err := r.openStore(ctx)
	if err != nil {
		return Stopped, err
	}
	lock, err := r.lock()
	if err != nil {
		st.Close()
		return Stopped, err
	}
	defer func() {
		st.Close()
		lock.Close() // after the store: see lock
	}()
	logFile, err := os.OpenFile(r.LogPath(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return Stopped, fmt.Errorf("open log: %w", err)
	}
	defer logFile.Close()
	ev := &eventLog{w: logFile, errs: opts.Errors}
	os.Remove(r.CmdPath()) // a stale stop request must not stop this run
	if n, err := stopStaleEngines(r.EnginesPath()); err != nil {
		ev.warnf("stopping engines left by an earlier run: %v", err)
	} else if n > 0 {
		ev.printf("stopped %d process(es) left running by an earlier run that died", n)
	}
	engines := &engineRegistry{path: r.EnginesPath()}
	if err := r.checkConsistency(ctx, st); err != nil {
		return Stopped, err
	}
	if err := r.notePlayerChanges(ctx, st, ev); err != nil {
		return Stopped, err
	}
	if !opts.Quiet {
		fmt.Fprintln(opts.Display, "running startup checks on all players")
	}
	if err := r.startupChecks(ctx, st, nil, engines); err != nil {
		return Stopped, fmt.Errorf("%w\n(use the 'check' command to see stderr output)", err)
	}
	finished, running, err := st.GameIDs(ctx)
	if err != nil {
		return Stopped, err
	}
	matchups, planned, err := r.startingMatchups(ctx, st)
	if err != nil {
		return Stopped, err
	}
	sched, err := competitions.NewScheduler(r.Comp.Seed, control.PlansOf(matchups), finished, running)
	if err != nil {
		return Stopped, fmt.Errorf("schedule: %w", err)
	}
	runID, err := st.StartRun(ctx)
	if err != nil {
		return Stopped, err
	}
	run := &runner{rm: r, opts: opts, st: st, sched: sched, runID: runID, log: ev, engines: engines,
		matchups: map[string]*control.Matchup{}, sprts: map[string]*sprtTally{}, judges: make([]judge.Judge, opts.Parallel),
		planned: planned, pool: newEnginePool(r)}
	defer run.pool.close()
	run.wake = sync.NewCond(&run.mu)
	if r.Comp.Planner != nil {
		_, run.planDone = r.Comp.Planner.Plan(planned)
	}
	for _, m := range matchups {
		run.matchups[m.ID] = m
		if _, err := r.Game.Referee(m, nil); err != nil {
			return Stopped, fmt.Errorf("matchup %s: %w", m.ID, err)
		}
	}
	if r.Comp.Planner == nil {
		run.planDone = true // a fixed schedule is done when every game is played
	}
	if r.Comp.Proposer != nil {
		if err := run.startTuning(ctx); err != nil {
			return Stopped, err
		}
	}
	if err := run.startSPRTs(ctx); err != nil {
		return Stopped, err
	}
	// No more workers than games left to start: a worker is a goroutine,
	// and each holds two engines while it plays.
	workers := min(opts.Parallel, max(1, gamesLeft(matchups, len(finished))))
	if r.Comp.Planner != nil || r.Comp.Proposer != nil {
		// How many games are left is not known before they are played.
		workers = opts.Parallel
	}
	if opts.MaxGames >= 0 {
		workers = min(workers, max(1, opts.MaxGames))
	}
	ev.printf("run %d started with max_games %d, %d worker(s); %d game(s) already played, %d to replay",
		runID, opts.MaxGames, workers, len(finished), len(running))
	if r.Comp.RecordGames {
		if err := os.MkdirAll(r.GamesDir(), 0o755); err != nil {
			return Stopped, fmt.Errorf("create %s: %w", r.GamesDir(), err)
		}
	}
	run.disp = newDisplay(run, opts)
	run.disp.start(ctx)

	var wg sync.WaitGroup
	for slot := 0; slot < workers && ctx.Err() == nil; slot++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run.worker(ctx, slot)
		}()
	}
	stopWatch := make(chan struct{})
	go run.watchStop(ctx, stopWatch)
	wg.Wait()
	run.pool.close()
	close(stopWatch)
	run.disp.stop()

	status := Finished
	switch {
	case ctx.Err() != nil:
		status = Interrupted
		ev.printf("run %d interrupted; games in progress will be replayed: %s", runID, strings.Join(sched.Outstanding(), " "))
	case run.stopReason != "":
		status = Stopped
		ev.printf("run %d stopped: %s", runID, run.stopReason)
	case !sched.Complete() || !run.planDone:
		status = Incomplete
		ev.printf("run %d ended with games left to play (void games)", runID)
	default:
		ev.printf("run %d finished", runID)
	}
	endCtx := context.WithoutCancel(ctx)
	if err := st.EndRun(endCtx, runID, status.String()); err != nil {
		return status, err
	}
	if r.Comp.LuckAdjust && status != Interrupted {
		// Judging is resumable: what is not judged now is judged next time.
		luck, _ := r.luckJudge()
		if _, err := r.Analyse(ctx, AnalyseOptions{Judge: luck, Parallel: opts.Parallel}); err != nil {
			ev.warnf("luck adjustment: %v", err)
		}
	}
	if err := r.writeReport(endCtx, st); err != nil {
		return status, err
	}
	if !opts.Quiet {
		fmt.Fprintln(opts.Display)
		if err := r.printFullReport(endCtx, st, opts.Display); err != nil {
			return status, err
		}
	}
	return status, nil
}

// watchStop turns Ctrl-X and CODE.cmd "stop" into a graceful stop.
func (run *runner) watchStop(ctx context.Context, done <-chan struct{}) {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-run.opts.StopRequests:
			run.requestStop("stop instruction received from terminal")
		case <-tick.C:
			data, err := os.ReadFile(run.rm.CmdPath())
			if err == nil && strings.TrimSpace(string(data)) == "stop" {
				os.Remove(run.rm.CmdPath())
				run.requestStop("stop command received")
			}
		}
	}
}

func (run *runner) requestStop(reason string) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.stopReason == "" {
		run.stopReason = reason
		run.log.printf("halting competition: %s", reason)
	}
	run.wake.Broadcast()
}

// next issues the next job, honouring stop requests and max-games.
func (run *runner) next(ctx context.Context) (competitions.Job, bool) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.stopReason != "" {
		return competitions.Job{}, false
	}
	if run.opts.MaxGames >= 0 && run.started >= run.opts.MaxGames {
		run.stopReason = "max-games reached for this run"
		run.log.printf("halting competition: %s", run.stopReason)
		return competitions.Job{}, false
	}
	for {
		job, ok := run.sched.Issue()
		if !ok && run.tuning != nil {
			job, ok = run.propose(ctx)
		}
		if ok {
			run.started++
			run.active++
			return run.bind(job), true
		}
		// A competition whose matchups depend on results waits while
		// games in progress may bring new ones.
		if run.planDone || run.active == 0 || run.stopReason != "" {
			return competitions.Job{}, false
		}
		run.wake.Wait()
		if run.stopReason != "" {
			return competitions.Job{}, false
		}
	}
}

// done records that a worker has finished with a job (played, or left
// void), and wakes the workers waiting for new games.
func (run *runner) done() {
	run.mu.Lock()
	defer run.mu.Unlock()
	run.active--
	run.wake.Broadcast()
}

func (run *runner) worker(ctx context.Context, slot int) {
	for ctx.Err() == nil {
		job, ok := run.next(ctx)
		if !ok {
			return
		}
		run.playJob(ctx, slot, job)
		run.done()
	}
}

// playJob plays one game, replaying it under the same id after a void, up
// to MaxVoids attempts. A player blamed for a void attempt at the game (in
// this run or an earlier one) forfeits it if its engine fails that way
// again (referee.Seat.VoidedBefore).
func (run *runner) playJob(ctx context.Context, slot int, job competitions.Job) {
	run.mu.Lock()
	m := run.matchups[job.MatchupID]
	run.mu.Unlock()
	for attempt := 1; ; attempt++ {
		voidedBy, err := run.st.VoidedBy(ctx, job.GameID)
		if err != nil {
			if ctx.Err() == nil {
				run.log.warnf("game %s: %v", job.GameID, err)
			}
			return
		}
		partial, err := run.playOnce(ctx, slot, job, m, voidedBy)
		if err == nil || ctx.Err() != nil {
			return
		}
		run.log.warnf("game %s -- aborting game due to error: %v", job.GameID, err)
		text := run.voidRecords(job.GameID, attempt, partial)
		blamed := ""
		if ve := (*referee.VoidError)(nil); errors.As(err, &ve) {
			blamed = ve.Code
		}
		if voidErr := run.st.Void(context.WithoutCancel(ctx), job.GameID, run.runID, blamed, err.Error(), text); voidErr != nil {
			run.log.warnf("game %s: %v", job.GameID, voidErr)
		}
		run.disp.void(job.GameID, err)
		if attempt >= run.opts.MaxVoids {
			run.log.warnf("game %s void %d times; leaving it for a later run", job.GameID, attempt)
			return
		}
	}
}

// voidRecords writes what was played of a void game (the referee's records
// of it, by format) to CODE.void/ID-ATTEMPT.FORMAT, and returns the text
// kept in the voids table: the first record in format order.
func (run *runner) voidRecords(gameID string, attempt int, records map[string]string) string {
	formats := make([]string, 0, len(records))
	for f := range records {
		formats = append(formats, f)
	}
	if len(formats) == 0 {
		return ""
	}
	sort.Strings(formats)
	if run.rm.Comp.RecordGames {
		if err := os.MkdirAll(run.rm.VoidDir(), 0o755); err != nil {
			run.log.warnf("game %s: void record: %v", gameID, err)
		}
		for _, f := range formats {
			path := filepath.Join(run.rm.VoidDir(), fmt.Sprintf("%s-%d.%s", gameID, attempt, f))
			if err := writeFileAtomic(path, []byte(records[f])); err != nil {
				run.log.warnf("game %s: void record: %v", gameID, err)
			}
		}
	}
	return records[formats[0]]
}

// playOnce launches the players, referees the game and records it. A
// returned error means a void attempt; the records hold what was played.
// voidedBy counts the earlier void attempts at the game by player.
func (run *runner) playOnce(ctx context.Context, slot int, job competitions.Job, m *control.Matchup, voidedBy map[string]int) (map[string]string, error) {
	defs, err := run.jobPlayers(job)
	if err != nil {
		return nil, err
	}
	err = run.st.MarkRunning(ctx, store.GameStart{GameID: job.GameID, MatchupID: job.MatchupID, Number: job.Number,
		PlayerA: job.PlayerA, PlayerB: job.PlayerB, Swapped: job.Swapped, RunID: run.runID, DefA: job.DefA, DefB: job.DefB})
	if err != nil {
		return nil, err
	}
	run.log.printf("starting game %s: %s vs %s", job.GameID, job.PlayerA, job.PlayerB)
	run.disp.startGame(job)
	defer run.disp.endGame(job.GameID)

	var transcript *protocolLog
	if run.opts.LogProtocol {
		transcript, err = newProtocolLog(run.rm.ProtocolDir(), job.GameID)
		if err != nil {
			return nil, err
		}
		defer transcript.Close()
	}
	// launchOpts sets up an engine of this game, a seat's or a referee's.
	launchOpts := func(code string, def *control.Player) launchOptions {
		o := launchOptions{gameID: job.GameID, seed: job.DiceSeed, slot: slot, engines: run.engines,
			stderr: run.log.engineWriter(code, job.GameID, def.StderrLimit)}
		if transcript != nil {
			o.transcript = transcript.hook(code)
		}
		return o
	}
	codes := [2]string{job.PlayerA, job.PlayerB}
	var seats [2]referee.Seat
	var players [2]*gameEngine
	defer func() {
		for _, p := range players {
			if p != nil {
				p.Close()
			}
		}
	}()
	for i, code := range codes {
		nth := 0
		if i == 1 && codes[0] == code {
			nth = 1
		}
		p, err := run.pool.acquire(ctx, slot, nth, defs[i], launchOpts(code, defs[i]))
		if err != nil {
			return nil, fmt.Errorf("error starting player %s: %w", code, err)
		}
		players[i] = p
		seats[i] = referee.Seat{Code: code, Player: p, Config: defs[i], VoidedBefore: voidedBy[code] > 0}
	}
	ref, err := run.rm.Game.Referee(m, func(format string, args ...any) {
		run.log.printf("game %s: "+format, append([]any{job.GameID}, args...)...)
	})
	if err != nil {
		return nil, err
	}
	info := referee.GameInfo{ID: job.GameID, Event: run.rm.Comp.Code + " " + job.GameID, Seed: job.DiceSeed,
		Number: job.Number, Pair: job.PairNumber,
		Launch: func(ctx context.Context, code string) (player.Player, error) {
			def := run.player(code)
			if def == nil {
				return nil, fmt.Errorf("no player %s in the control file", code)
			}
			return run.rm.launch(ctx, def, launchOpts(code, def))
		}}
	out, err := ref.Play(ctx, info, seats)
	var cpu [2]time.Duration
	for i, p := range players {
		used, cerr := p.release(endFor(i, out, err))
		if cerr != nil && err == nil && out.Winner >= 0 {
			run.log.printf("game %s: late error closing %s: %v", job.GameID, codes[i], cerr)
		}
		cpu[i] = used
		if out.EngineCPU[i] > 0 {
			cpu[i] = out.EngineCPU[i] // the engine's own figure (gomill-cpu_time)
		}
		players[i] = nil
	}
	if err != nil {
		return out.Records, err
	}
	res := result(job, out, cpu)
	saveCtx := context.WithoutCancel(ctx)
	if err := run.st.Finish(saveCtx, res); err != nil {
		return nil, err
	}
	if run.tuning == nil {
		if err := run.sched.Fix(job.GameID); err != nil {
			run.log.warnf("game %s: %v", job.GameID, err)
		}
	}
	run.replan(res)
	var luck *[2]float64
	if run.rm.Comp.JudgesGames(m) || run.tuneJudges() {
		luck = run.judgeForLuck(ctx, slot, res)
	}
	run.tuneResult(ctx, res, luck)
	run.sprtResult(res, luck)
	if run.rm.Comp.RecordGames {
		run.writeRecordFiles(job.GameID, res.Records)
	}
	desc := describe(res)
	run.log.printf("game %s: %s", job.GameID, desc)
	run.disp.result(job.GameID, desc)
	return nil, nil
}

// result turns a referee outcome (by seat) into a stored result (by the
// matchup's players A and B as seated in this game).
func result(job competitions.Job, out referee.Outcome, cpu [2]time.Duration) store.GameResult {
	codes := [2]string{job.PlayerA, job.PlayerB}
	res := store.GameResult{GameID: job.GameID, MatchupID: job.MatchupID, Number: job.Number,
		PlayerA: job.PlayerA, PlayerB: job.PlayerB, Swapped: job.Swapped, Result: out.Result, Ending: out.Ending,
		Detail: out.Detail, Moves: out.Moves, Stats: out.Stats, Records: out.Records}
	seatCode := func(seat int) string {
		if seat < 0 {
			return ""
		}
		return codes[seat]
	}
	res.Winner, res.ForfeitBy, res.FirstMover = seatCode(out.Winner), seatCode(out.ForfeitBy), seatCode(out.FirstMover)
	res.A = store.Side{Points: out.Points[0], CPU: cpu[0], Decisions: out.Decisions[0]}
	res.B = store.Side{Points: out.Points[1], CPU: cpu[1], Decisions: out.Decisions[1]}
	return res
}

// writeRecordFiles writes CODE.games/ID.FORMAT for each record. The
// database holds the same text (and 'ringmaster report' rewrites missing
// files from it), so a failure here loses nothing.
func (run *runner) writeRecordFiles(gameID string, records map[string]string) {
	for format, text := range records {
		path := filepath.Join(run.rm.GamesDir(), gameID+"."+format)
		if err := writeFileAtomic(path, []byte(text)); err != nil {
			run.log.warnf("game %s: %v", gameID, err)
		}
	}
}

// writeFileAtomic writes data whole or not at all, so that a reader or a
// crash never sees half a file.
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// describe is the one-line result shown in the display and the log.
func describe(r store.GameResult) string {
	switch {
	case r.Winner == "":
		return fmt.Sprintf("%s vs %s: no result (%s)", r.PlayerA, r.PlayerB, r.Detail)
	case r.Detail != "":
		return r.Detail
	}
	return r.Winner + " won"
}

// checkJudging refuses a run whose luck adjustment the game cannot give:
// luck_adjust for a game without analysis, or a luck-adjusted sequential
// test where a game's luck-adjusted result is not a score.
func (r *Ringmaster) checkJudging() error {
	jg, ok := r.Game.(judge.Game)
	if r.Comp.LuckAdjust && !ok {
		return fmt.Errorf("%s: luck_adjust: %w for %s", r.Comp.Path, ErrNoAnalysis, r.Game.Name())
	}
	for _, m := range r.Comp.Matchups {
		if m.SPRT == nil || !m.SPRT.LuckAdjusted {
			continue
		}
		where := r.Comp.Where(m, "sprt")
		if !ok {
			return fmt.Errorf("%s.luck_adjusted: %w for %s", where, ErrNoAnalysis, r.Game.Name())
		}
		if !jg.WinScaled(m.Settings) {
			return fmt.Errorf("%s.luck_adjusted: matchup %s: under its settings a game's luck-adjusted result is not a win-or-loss score "+
				"(backgammon: matches are, money games are not; set match_length)", where, m.ID)
		}
	}
	return nil
}

// judgeForLuck judges a finished game with the slot's luck judge
// (luck_judge, by default the game's at LuckAdjustPlies), stores the
// analysis and returns its luck-adjusted points by seat. Where judging
// fails it logs why and returns nil: the game is judged again by the next
// run's start or by 'ringmaster analyse'.
func (run *runner) judgeForLuck(ctx context.Context, slot int, res store.GameResult) *[2]float64 {
	j := run.judges[slot]
	spec, _ := run.rm.luckJudge()
	if j == nil {
		var err error
		if j, err = run.rm.Game.(judge.Game).NewJudge(spec); err != nil {
			run.log.warnf("game %s: luck adjustment: %v", res.GameID, err)
			return nil
		}
		run.judges[slot] = j
	}
	start := time.Now()
	a, err := judgeGame(ctx, run.st, j, res)
	if err != nil {
		if ctx.Err() == nil {
			run.log.warnf("game %s: luck adjustment: %v", res.GameID, err)
		}
		return nil
	}
	if err := storeAnalysis(ctx, run.st, &a, spec, j.Name(), start); err != nil {
		run.log.warnf("game %s: luck adjustment: %v", res.GameID, err)
	}
	luck, ok := a.Figures[judge.LuckAdjusted]
	if !ok {
		return nil
	}
	return &luck
}

// startSPRTs rebuilds each sequential test from the stored results and
// concludes the matchups already decided.
func (run *runner) startSPRTs(ctx context.Context) error {
	for _, m := range run.rm.Comp.Matchups {
		if t := newSPRTTally(m); t != nil {
			run.sprts[m.ID] = t
		}
	}
	if len(run.sprts) == 0 {
		return nil
	}
	results, err := run.st.Results(ctx)
	if err != nil {
		return err
	}
	analyses, err := run.st.Analyses(ctx, run.rm.luckKey())
	if err != nil {
		return err
	}
	for _, res := range results {
		t := run.sprts[res.MatchupID]
		if t == nil {
			continue
		}
		var luck *[2]float64
		if a := analyses[res.GameID]; a != nil {
			if v, ok := a.Figures[judge.LuckAdjusted]; ok {
				luck = &v
			}
		} else if t.luck && res.Winner != "" {
			// Finished but not judged (the last run stopped in between).
			if luck = run.judgeForLuck(ctx, 0, res); luck != nil {
				run.log.printf("game %s: judged for the luck-adjusted SPRT", res.GameID)
			}
		}
		t.add(res, luck)
	}
	for id, t := range run.sprts {
		if _, d := t.state(); d != ratings.Continue {
			run.sched.Conclude(id)
		}
	}
	return nil
}

// sprtResult feeds a result (with its luck-adjusted points by seat, or
// nil) to its matchup's test and stops the matchup once the test decides.
func (run *runner) sprtResult(res store.GameResult, luck *[2]float64) {
	run.mu.Lock()
	defer run.mu.Unlock()
	t := run.sprts[res.MatchupID]
	if t == nil {
		return
	}
	t.add(res, luck)
	if _, d := t.state(); d != ratings.Continue {
		run.sched.Conclude(res.MatchupID)
		run.log.printf("matchup %s: %s; no more games for it", res.MatchupID, t.describe())
	}
}
