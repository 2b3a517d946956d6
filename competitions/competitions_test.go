package competitions

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

func TestGameID(t *testing.T) {
	tests := []struct {
		id    string
		games int
		n     int
		want  string
	}{
		{"0", 1000, 0, "0_000"},
		{"0", 1000, 999, "0_999"},
		{"0", 1001, 7, "0_0007"},
		{"0", 10, 3, "0_3"},
		{"0", 11, 3, "0_03"},
		{"0", 1, 0, "0_0"},
		{"0", 0, 0, "0_0"},
		{"AvB", 4, 2, "AvB_2"},
		{"AvB", 100, 2, "AvB_02"},
		{"m_1", 20, 5, "m_1_05"},
	}
	for _, tt := range tests {
		if got := GameID(tt.id, tt.games, tt.n); got != tt.want {
			t.Errorf("GameID(%q, %d, %d) = %q, want %q", tt.id, tt.games, tt.n, got, tt.want)
		}
	}
}

func TestParseGameID(t *testing.T) {
	tests := []struct {
		id  string
		mid string
		n   int
		ok  bool
	}{
		{"0_000", "0", 0, true},
		{"0_017", "0", 17, true},
		{"AvB_3", "AvB", 3, true},
		{"m_1_05", "m_1", 5, true},
		{"x", "", 0, false},
		{"_3", "", 0, false},
		{"x_", "", 0, false},
		{"x_3a", "", 0, false},
		{"x_-3", "", 0, false},
		{"x_99999999999999999999999", "", 0, false},
	}
	for _, tt := range tests {
		mid, n, ok := ParseGameID(tt.id)
		if mid != tt.mid || n != tt.n || ok != tt.ok {
			t.Errorf("ParseGameID(%q) = %q, %d, %v; want %q, %d, %v", tt.id, mid, n, ok, tt.mid, tt.n, tt.ok)
		}
	}
	for _, games := range []int{1, 9, 10, 11, 1000} {
		for n := range games {
			mid, got, ok := ParseGameID(GameID("a_b", games, n))
			if !ok || mid != "a_b" || got != n {
				t.Fatalf("round trip of game %d of %d failed: %q %d %v", n, games, mid, got, ok)
			}
		}
	}
}

// TestDiceSeedGolden pins the documented mixing function: changing it would
// change every competition's dice.
func TestDiceSeedGolden(t *testing.T) {
	// fnv1a64 reference values (from the FNV specification's test suite).
	if got := fnv1a64(""); got != 0xcbf29ce484222325 {
		t.Errorf("fnv1a64(\"\") = %#x", got)
	}
	if got := fnv1a64("a"); got != 0xaf63dc4c8601ec8c {
		t.Errorf("fnv1a64(\"a\") = %#x", got)
	}
	// SplitMix64 reference: the first output of a generator seeded with 0.
	if got := splitMix64(0); got != 0xe220a8397b1dcdaf {
		t.Errorf("splitMix64(0) = %#x", got)
	}
	want := splitMix64(splitMix64(splitMix64(7)^fnv1a64("0")) ^ 3)
	if got := DiceSeed(7, "0", 3); got != want {
		t.Errorf("DiceSeed(7, \"0\", 3) = %#x, want %#x", got, want)
	}
	// Checked independently (Python) when the function was written.
	const golden = uint64(0x6cdd874f7db70e0d)
	if got := DiceSeed(7, "0", 3); got != golden {
		t.Logf("DiceSeed(7, \"0\", 3) = %#x", got)
		t.Errorf("DiceSeed changed: got %#x, want %#x", got, golden)
	}
}

func TestDiceSeedsDiffer(t *testing.T) {
	seen := make(map[uint64]string)
	for _, seed := range []int64{0, 1, -1} {
		for _, id := range []string{"0", "1", "AvB", "AvC"} {
			for k := range 50 {
				s := DiceSeed(seed, id, k)
				key := fmt.Sprintf("%d/%s/%d", seed, id, k)
				if prev, dup := seen[s]; dup {
					t.Fatalf("DiceSeed collision: %s and %s", prev, key)
				}
				seen[s] = key
			}
		}
	}
}

func TestNewJobSeats(t *testing.T) {
	plain := MatchupPlan{ID: "m", PlayerA: "a", PlayerB: "b", NumberOfGames: 4}
	alt := plain
	alt.Alternating = true
	paired := plain
	paired.Paired = true
	for n := range 4 {
		j := NewJob(1, plain, n)
		if j.PlayerA != "a" || j.Swapped || j.PairNumber != -1 || j.DiceSeed != DiceSeed(1, "m", n) {
			t.Errorf("plain game %d: %+v", n, j)
		}
		j = NewJob(1, alt, n)
		if swapped := n%2 == 1; j.Swapped != swapped || (j.PlayerA == "b") != swapped || j.DiceSeed != DiceSeed(1, "m", n) {
			t.Errorf("alternating game %d: %+v", n, j)
		}
		j = NewJob(1, paired, n)
		if swapped := n%2 == 1; j.Swapped != swapped || (j.PlayerA == "b") != swapped || j.PairNumber != n/2 || j.DiceSeed != DiceSeed(1, "m", n/2) {
			t.Errorf("paired game %d: %+v", n, j)
		}
	}
	a, b := NewJob(9, paired, 2), NewJob(9, paired, 3)
	if a.DiceSeed != b.DiceSeed || a.PlayerA != b.PlayerB || a.PlayerB != b.PlayerA {
		t.Errorf("pair halves differ: %+v %+v", a, b)
	}
	if NewJob(9, paired, 0).DiceSeed == NewJob(9, paired, 2).DiceSeed {
		t.Error("pairs 0 and 1 share a seed")
	}
}

// drain issues every job, fixing each at once, and returns the game ids in
// issue order.
func drain(t *testing.T, s *Scheduler) []string {
	t.Helper()
	var ids []string
	for {
		j, ok := s.Issue()
		if !ok {
			break
		}
		ids = append(ids, j.GameID)
		if err := s.Fix(j.GameID); err != nil {
			t.Fatal(err)
		}
		if len(ids) > 100000 {
			t.Fatal("runaway scheduler")
		}
	}
	if !s.Complete() {
		t.Error("scheduler not complete after draining")
	}
	return ids
}

func mustScheduler(t *testing.T, plans []MatchupPlan, finished, inFlight []string) *Scheduler {
	t.Helper()
	s, err := NewScheduler(1, plans, finished, inFlight)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSchedulerOrder(t *testing.T) {
	plans := []MatchupPlan{
		{ID: "x", PlayerA: "a", PlayerB: "b", NumberOfGames: 3},
		{ID: "y", PlayerA: "a", PlayerB: "c", NumberOfGames: 1},
		{ID: "z", PlayerA: "b", PlayerB: "c", NumberOfGames: 0},
		{ID: "w", PlayerA: "c", PlayerB: "d", NumberOfGames: 2},
	}
	got := drain(t, mustScheduler(t, plans, nil, nil))
	want := []string{"x_0", "y_0", "w_0", "x_1", "w_1", "x_2"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestSchedulerFewestIssued(t *testing.T) {
	// Games outstanding count as issued: with x's game unfinished, y is
	// chosen next, then the tie goes back to x.
	plans := []MatchupPlan{
		{ID: "x", NumberOfGames: 5},
		{ID: "y", NumberOfGames: 5},
	}
	s := mustScheduler(t, plans, []string{"x_0", "x_1"}, nil)
	var got []string
	for range 4 {
		j, _ := s.Issue()
		got = append(got, j.GameID)
	}
	want := []string{"y_0", "y_1", "x_2", "y_2"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestSchedulerPairs(t *testing.T) {
	plans := []MatchupPlan{
		{ID: "p", PlayerA: "a", PlayerB: "b", NumberOfGames: 4, Paired: true},
		{ID: "q", PlayerA: "c", PlayerB: "d", NumberOfGames: 4, Paired: true},
	}
	s := mustScheduler(t, plans, nil, nil)
	var jobs []Job
	for {
		j, ok := s.Issue()
		if !ok {
			break
		}
		jobs = append(jobs, j)
	}
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.GameID)
	}
	want := []string{"p_0", "p_1", "q_0", "q_1", "p_2", "p_3", "q_2", "q_3"}
	if !slices.Equal(ids, want) {
		t.Fatalf("order = %v, want %v", ids, want)
	}
	for i := 0; i < len(jobs); i += 2 {
		a, b := jobs[i], jobs[i+1]
		if a.DiceSeed != b.DiceSeed || a.PairNumber != b.PairNumber || a.Swapped || !b.Swapped ||
			a.PlayerA != b.PlayerB || a.PlayerB != b.PlayerA {
			t.Errorf("pair %d: %+v / %+v", i/2, a, b)
		}
	}
}

func TestSchedulerRollback(t *testing.T) {
	plans := []MatchupPlan{{ID: "0", NumberOfGames: 10}}
	s := mustScheduler(t, plans, nil, nil)
	var issued []Job
	for range 4 {
		j, _ := s.Issue()
		issued = append(issued, j)
	}
	if err := s.Fix("0_1"); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Outstanding(), []string{"0_0", "0_2", "0_3"}; !slices.Equal(got, want) {
		t.Errorf("Outstanding = %v, want %v", got, want)
	}
	s.Rollback()
	if got := s.Outstanding(); len(got) != 0 {
		t.Errorf("Outstanding after rollback = %v", got)
	}
	var got []string
	for range 4 {
		j, _ := s.Issue()
		got = append(got, j.GameID)
	}
	want := []string{"0_0", "0_2", "0_3", "0_4"}
	if !slices.Equal(got, want) {
		t.Errorf("after rollback = %v, want %v", got, want)
	}
	j0 := NewJob(1, plans[0], 0)
	if issued[0] != j0 {
		t.Errorf("reissued job differs: %+v vs %+v", issued[0], j0)
	}
}

func TestSchedulerReturn(t *testing.T) {
	s := mustScheduler(t, []MatchupPlan{{ID: "m", NumberOfGames: 3}}, nil, nil)
	a, _ := s.Issue()
	b, _ := s.Issue()
	if err := s.Return(a.GameID); err != nil {
		t.Fatal(err)
	}
	if err := s.Return(a.GameID); err == nil {
		t.Error("second Return succeeded")
	}
	c, _ := s.Issue()
	if c != a {
		t.Errorf("after Return got %+v, want %+v", c, a)
	}
	for _, id := range []string{b.GameID, c.GameID} {
		if err := s.Fix(id); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Fix(b.GameID); err == nil {
		t.Error("fixing a fixed game succeeded")
	}
	if err := s.Fix("m_2"); err == nil {
		t.Error("fixing an unissued game succeeded")
	}
	if err := s.Fix("nope_0"); err == nil {
		t.Error("fixing an unknown matchup's game succeeded")
	}
	if err := s.Fix("garbage"); err == nil {
		t.Error("fixing a malformed id succeeded")
	}
	if got := drain(t, s); !slices.Equal(got, []string{"m_2"}) {
		t.Errorf("remaining = %v", got)
	}
}

func TestSchedulerRollbackPair(t *testing.T) {
	plans := []MatchupPlan{
		{ID: "p", NumberOfGames: 4, Paired: true},
		{ID: "q", NumberOfGames: 2},
	}
	s := mustScheduler(t, plans, nil, nil)
	j, _ := s.Issue() // p_0; p_1 is due next
	if j.GameID != "p_0" {
		t.Fatalf("first = %s", j.GameID)
	}
	s.Rollback() // forgets p_0 and the pending second half
	var got []string
	for range 4 {
		j, _ := s.Issue()
		got = append(got, j.GameID)
	}
	want := []string{"p_0", "p_1", "q_0", "q_1"}
	if !slices.Equal(got, want) {
		t.Errorf("after rollback = %v, want %v", got, want)
	}
}

func TestSchedulerResume(t *testing.T) {
	plans := []MatchupPlan{
		{ID: "0", NumberOfGames: 12},
		{ID: "1", NumberOfGames: 6, Paired: true},
		{ID: "AvB", NumberOfGames: 3, Alternating: true},
	}
	finished := []string{"0_00", "0_01", "0_03", "0_05", "1_0", "1_3", "AvB_0", "AvB_1", "AvB_2", "gone_5"}
	inFlight := []string{"0_04", "0_06", "1_2", "1_4", "1_5", "0_00"}
	s := mustScheduler(t, plans, finished, inFlight)

	// Exactly the missing games are issued.
	var all []string
	for _, p := range plans {
		for n := range p.NumberOfGames {
			all = append(all, GameID(p.ID, p.NumberOfGames, n))
		}
	}
	var missing []string
	for _, id := range all {
		if !slices.Contains(finished, id) {
			missing = append(missing, id)
		}
	}
	got := drain(t, s)
	sorted := slices.Clone(got)
	sort.Strings(sorted)
	if !slices.Equal(sorted, missing) {
		t.Errorf("issued %v, want exactly %v", sorted, missing)
	}
	// In-flight and gap games come first in their matchup, smallest first;
	// the pair 1_4/1_5 is issued together.
	var m0, m1 []string
	for _, id := range got {
		switch {
		case strings.HasPrefix(id, "0_"):
			m0 = append(m0, id)
		case strings.HasPrefix(id, "1_"):
			m1 = append(m1, id)
		}
	}
	if want := []string{"0_02", "0_04", "0_06", "0_07", "0_08", "0_09", "0_10", "0_11"}; !slices.Equal(m0, want) {
		t.Errorf("matchup 0 order = %v, want %v", m0, want)
	}
	if want := []string{"1_1", "1_2", "1_4", "1_5"}; !slices.Equal(m1, want) {
		t.Errorf("matchup 1 order = %v, want %v", m1, want)
	}
	i := slices.Index(got, "1_4")
	if i < 0 || i+1 >= len(got) || got[i+1] != "1_5" {
		t.Errorf("pair 1_4/1_5 not consecutive: %v", got)
	}
}

func TestSchedulerResumeKeepsIDs(t *testing.T) {
	// The number of games grew from 10 to 100 since the crash: in-flight
	// games are replayed under their old ids, new ones get the new padding.
	plans := []MatchupPlan{{ID: "0", NumberOfGames: 100}}
	s := mustScheduler(t, plans, []string{"0_0", "0_2"}, []string{"0_1", "0_3"})
	var got []string
	for range 3 {
		j, _ := s.Issue()
		got = append(got, j.GameID)
	}
	want := []string{"0_1", "0_3", "0_04"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// And a reduced limit drops in-flight games beyond it.
	s = mustScheduler(t, []MatchupPlan{{ID: "0", NumberOfGames: 2}}, []string{"0_0"}, []string{"0_1", "0_5"})
	if got := drain(t, s); !slices.Equal(got, []string{"0_1"}) {
		t.Errorf("reduced limit: got %v", got)
	}
}

func TestSchedulerErrors(t *testing.T) {
	tests := []struct {
		plans    []MatchupPlan
		finished []string
		inFlight []string
		want     string
	}{
		{[]MatchupPlan{{ID: ""}}, nil, nil, "empty id"},
		{[]MatchupPlan{{ID: "a"}, {ID: "a"}}, nil, nil, `duplicate id "a"`},
		{[]MatchupPlan{{ID: "a", NumberOfGames: -1}}, nil, nil, "negative"},
		{[]MatchupPlan{{ID: "a", NumberOfGames: 3, Paired: true}}, nil, nil, "even number of games, got 3"},
		{[]MatchupPlan{{ID: "a", NumberOfGames: 3}}, []string{"a-1"}, nil, `finished game: malformed game id "a-1"`},
		{[]MatchupPlan{{ID: "a", NumberOfGames: 3}}, nil, []string{"a_x"}, `game in flight: malformed game id "a_x"`},
	}
	for _, tt := range tests {
		_, err := NewScheduler(0, tt.plans, tt.finished, tt.inFlight)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewScheduler(%+v) error = %v, want %q", tt.plans, err, tt.want)
		}
	}
}

func TestSchedulerDeterministic(t *testing.T) {
	plans := []MatchupPlan{
		{ID: "a", NumberOfGames: 7, Alternating: true},
		{ID: "b", NumberOfGames: 6, Paired: true},
		{ID: "c", NumberOfGames: 5},
	}
	run := func() []Job {
		s := mustScheduler(t, plans, []string{"a_2"}, []string{"b_3", "c_1"})
		var jobs []Job
		for i := 0; ; i++ {
			j, ok := s.Issue()
			if !ok {
				break
			}
			jobs = append(jobs, j)
			if i%3 == 0 {
				_ = s.Fix(j.GameID)
			}
			if i == 6 {
				s.Rollback()
			}
		}
		return jobs
	}
	first := run()
	for range 5 {
		if again := run(); !slices.Equal(first, again) {
			t.Fatalf("runs differ:\n%v\n%v", first, again)
		}
	}
}

func TestSchedulerConcurrent(t *testing.T) {
	plans := []MatchupPlan{
		{ID: "a", NumberOfGames: 200, Alternating: true},
		{ID: "b", NumberOfGames: 300, Paired: true},
		{ID: "c", NumberOfGames: 100},
	}
	s := mustScheduler(t, plans, nil, nil)
	var (
		mu   sync.Mutex
		seen = make(map[string]int)
		wg   sync.WaitGroup
	)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				j, ok := s.Issue()
				if !ok {
					return
				}
				if (i+w)%17 == 0 {
					if err := s.Return(j.GameID); err != nil {
						t.Error(err)
					}
					continue
				}
				_ = s.Outstanding()
				if err := s.Fix(j.GameID); err != nil {
					t.Error(err)
				}
				mu.Lock()
				seen[j.GameID]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 600 {
		t.Errorf("%d games played, want 600", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("game %s played %d times", id, n)
		}
	}
	if !s.Complete() {
		t.Error("not complete")
	}
}

func TestConcludeKeepsPairsWhole(t *testing.T) {
	plans := []MatchupPlan{{ID: "m", PlayerA: "a", PlayerB: "b", NumberOfGames: 20, Paired: true}, {ID: "o", PlayerA: "a", PlayerB: "c", NumberOfGames: 2}}
	s, err := NewScheduler(1, plans, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var issued []string
	for mGames := 0; mGames < 5; {
		j, ok := s.Issue()
		if !ok {
			t.Fatal("ran out of games")
		}
		issued = append(issued, j.GameID)
		if j.MatchupID == "m" {
			mGames++
		}
	}
	// Five games of m issued: games 0-4, so game 5 (4's twin) is still due.
	s.Conclude("m")
	var after []string
	for {
		j, ok := s.Issue()
		if !ok {
			break
		}
		if j.MatchupID == "m" {
			after = append(after, j.GameID)
		}
		if err := s.Fix(j.GameID); err != nil {
			t.Fatal(err)
		}
	}
	if len(after) != 1 || after[0] != "m_05" {
		t.Errorf("after Conclude, m issued %v; want only the twin m_05", after)
	}
	for _, id := range issued {
		if err := s.Fix(id); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Complete() {
		t.Error("a concluded matchup with every issued game fixed should be complete")
	}
}

// TestUpdateAddsAndGrowsMatchups: a knockout's later rounds arrive as new
// plans and a tie-break grows a matchup; games already fixed stay fixed.
func TestUpdateAddsAndGrowsMatchups(t *testing.T) {
	s, err := NewScheduler(1, []MatchupPlan{{ID: "r1m1", PlayerA: "a", PlayerB: "b", NumberOfGames: 2, Paired: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := issueAll(t, s, true)
	if !s.Complete() || len(ids) != 2 {
		t.Fatalf("issued %v, complete %v", ids, s.Complete())
	}
	err = s.Update([]MatchupPlan{{ID: "r1m1", PlayerA: "a", PlayerB: "b", NumberOfGames: 4, Paired: true},
		{ID: "r2m1", PlayerA: "a", PlayerB: "c", NumberOfGames: 2, Paired: true}})
	if err != nil {
		t.Fatal(err)
	}
	more := issueAll(t, s, false)
	for _, id := range more {
		if mid, n, _ := ParseGameID(id); mid == "r1m1" && n < 2 {
			t.Errorf("game %s issued again", id)
		}
	}
	if len(more) != 4 {
		t.Errorf("after update issued %v, want r1m1's games 2 and 3 and r2m1's 0 and 1", more)
	}
	if err := s.Update([]MatchupPlan{{ID: "r1m1", NumberOfGames: 5, Paired: true}}); err == nil {
		t.Error("an odd number of paired games was accepted")
	}
}

// issueAll issues every game the scheduler has to give now, fixing each
// as issued when fix is set, and returns their ids in issue order.
func issueAll(t *testing.T, s *Scheduler, fix bool) []string {
	t.Helper()
	var ids []string
	for {
		j, ok := s.Issue()
		if !ok {
			return ids
		}
		ids = append(ids, j.GameID)
		if fix {
			if err := s.Fix(j.GameID); err != nil {
				t.Fatal(err)
			}
		}
	}
}
