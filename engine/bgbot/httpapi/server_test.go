package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
	"github.com/gamemill/gamemill/formats/gnubgid"
)

// factory shares the networks and databases between the tests' engines.
var factory = sync.OnceValue(func() *gtpengine.Factory { return &gtpengine.Factory{} })

func newServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	cfg.Factory = factory()
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// post sends body to path and decodes the JSON answer into out, returning
// the status code.
func post(t *testing.T, srv *httptest.Server, path, body string, out any) int {
	t.Helper()
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: content type %q", path, ct)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: decoding the answer: %v", path, err)
	}
	return resp.StatusCode
}

// protocolAnswers runs the protocol engine with args in-process on the
// commands and returns its answers, without the "= " marks; a failure
// response fails the test.
func protocolAnswers(t *testing.T, args []string, commands []string) []string {
	t.Helper()
	e, err := factory().Engine(args)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(commands, "\n") + "\n")
	if err := gtpengine.NewServer(e).Serve(context.Background(), in, &out); err != nil {
		t.Fatal(err)
	}
	var answers []string
	for i, r := range strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n") {
		if !strings.HasPrefix(r, "=") {
			t.Fatalf("%q: %q", commands[i], r)
		}
		answers = append(answers, strings.TrimSpace(strings.TrimPrefix(r, "=")))
	}
	if len(answers) != len(commands) {
		t.Fatalf("%d answers to %d commands: %q", len(answers), len(commands), out.String())
	}
	return answers
}

// position is a test position: a state and the rules line for set_game.
type position struct {
	name  string
	state *backgammon.State
}

func (p position) setGame() string {
	if p.state.Money() {
		return "set_game standard 0"
	}
	return fmt.Sprintf("set_game standard %d crawford", p.state.MatchLength)
}

func (p position) body(plies int) string {
	pos, match := gnubgid.Encode(p.state)
	return fmt.Sprintf(`{"position_id": %q, "match_id": %q, "plies": %d}`, pos, match, plies)
}

func stateOf(t *testing.T, r backgammon.Rules, b backgammon.Board, score [2]int, cube, owner int, d1, d2 int) *backgammon.State {
	t.Helper()
	s := backgammon.NewMatch(r)
	s.Score = score
	if err := s.StartGame(0, 3, 1); err != nil {
		t.Fatal(err)
	}
	s.Board, s.Dice, s.CubeValue, s.CubeOwner = b, [2]int{d1, d2}, cube, owner
	if err := s.Board.Validate(r.Variant); err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	money = backgammon.Rules{Variant: backgammon.Standard, Cube: true, Jacoby: true}
	match = backgammon.Rules{Variant: backgammon.Standard, Cube: true, Crawford: true, MatchLength: 7}
)

// boards: the start, a bar entry into a 4-point board, a bear-off with a
// contact remnant, a pure bear-off, and a middle game.
func testBoards() map[string]backgammon.Board {
	me, opp := backgammon.OnRoll, backgammon.Opponent
	start := backgammon.Standard.StartBoard()
	var bar backgammon.Board
	bar[me][backgammon.BarIndex] = 1
	bar[me][5], bar[me][7], bar[me][12], bar[me][21] = 4, 3, 5, 2
	bar[opp][0], bar[opp][1], bar[opp][3], bar[opp][4], bar[opp][5], bar[opp][12] = 2, 2, 2, 2, 4, 3
	var bearoff backgammon.Board
	bearoff[me][0], bearoff[me][1], bearoff[me][2], bearoff[me][4], bearoff[me][5] = 3, 3, 2, 2, 1
	bearoff[opp][0], bearoff[opp][2], bearoff[opp][3] = 4, 4, 3
	var contact backgammon.Board
	contact[me][0], contact[me][3], contact[me][4], contact[me][5] = 3, 3, 3, 3
	contact[opp][5], contact[opp][4], contact[opp][22] = 5, 5, 1
	var middle backgammon.Board
	middle[me][5], middle[me][6], middle[me][7], middle[me][12], middle[me][15], middle[me][20] = 4, 2, 3, 3, 2, 1
	middle[opp][5], middle[opp][4], middle[opp][7], middle[opp][12], middle[opp][14], middle[opp][23] = 3, 2, 3, 4, 1, 2
	return map[string]backgammon.Board{"start": start, "bar entry": bar, "bear-off": bearoff, "bear-off with contact": contact, "middle game": middle}
}

func movePositions(t *testing.T) []position {
	var out []position
	dice := [][2]int{{3, 1}, {6, 4}, {5, 5}, {2, 1}, {6, 6}}
	i := 0
	boards := testBoards()
	names := make([]string, 0, len(boards))
	for n := range boards {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		d := dice[i%len(dice)]
		i++
		out = append(out,
			position{n + ", money", stateOf(t, money, boards[n], [2]int{}, 1, -1, d[0], d[1])},
			position{n + ", 7-point match at 4-2", stateOf(t, match, boards[n], [2]int{4, 2}, 2, 0, d[0], d[1])})
	}
	return out
}

// TestMoveMatchesGenmove asks /move and the protocol's genmove for the
// same positions at the same depth.
func TestMoveMatchesGenmove(t *testing.T) {
	srv := newServer(t, Config{MaxPlies: 1})
	for _, plies := range []int{0, 1} {
		if plies > 0 && testing.Short() {
			continue
		}
		for _, p := range movePositions(t) {
			pos, matchID := gnubgid.Encode(p.state)
			want := protocolAnswers(t, []string{"--plies", fmt.Sprint(plies)}, []string{p.setGame(), "set_position " + pos + " " + matchID, "genmove"})[2]
			var got MoveResponse
			if code := post(t, srv, "/move", p.body(plies), &got); code != http.StatusOK {
				t.Fatalf("%s: status %d", p.name, code)
			}
			if got.Move != want {
				t.Errorf("%s, %d ply: /move %q, genmove %q", p.name, plies, got.Move, want)
			}
		}
	}
}

// TestMoveByBoard asks for the opening 31 and a bar entry by board.
func TestMoveByBoard(t *testing.T) {
	srv := newServer(t, Config{})
	for _, c := range []struct{ body, want string }{
		{`{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "dice": [3,1]}`, "8/5 6/5"},
		// One checker on the bar, and only the 3-point open in the
		// opponent's home board: 64 cannot enter, 63 must.
		{`{"board": [0,0,0,0,0,0,5,0,3,0,0,0,0,4,0,0,0,0,0,-4,-2,-2,0,-2,-2,1], "dice": [6,4]}`, "none"},
	} {
		var got MoveResponse
		if code := post(t, srv, "/move", c.body, &got); code != http.StatusOK {
			t.Fatalf("%s: status %d", c.body, code)
		}
		if got.Move != c.want {
			t.Errorf("%s: move %q, want %q", c.body, got.Move, c.want)
		}
	}
}

// TestCubeMatchesProtocol asks /cube and the protocol's gencube (before
// the roll) and gentake (once doubled) for the same positions.
func TestCubeMatchesProtocol(t *testing.T) {
	srv := newServer(t, Config{})
	doubles, compared := 0, 0
	for _, p := range movePositions(t) {
		p.state.Dice = [2]int{}
		if !p.state.CanDouble() {
			continue
		}
		pos, matchID := gnubgid.Encode(p.state)
		offered := *p.state
		if err := offered.Double(); err != nil {
			t.Fatal(err)
		}
		opos, omatch := gnubgid.Encode(&offered)
		want := protocolAnswers(t, nil, []string{p.setGame(), "set_position " + pos + " " + matchID, "gencube", "set_position " + opos + " " + omatch, "gentake"})
		var got CubeResponse
		if code := post(t, srv, "/cube", p.body(0), &got); code != http.StatusOK {
			t.Fatalf("%s: status %d", p.name, code)
		}
		if got.Double == nil {
			t.Fatalf("%s: no double field", p.name)
		}
		if gotDouble := map[bool]string{true: "double", false: "no_double"}[*got.Double]; gotDouble != want[2] {
			t.Errorf("%s: /cube double %v, gencube %q", p.name, *got.Double, want[2])
		}
		if *got.Double {
			doubles++
		}
		compared++
		if got.Take != want[4] {
			t.Errorf("%s: /cube take %q, gentake %q", p.name, got.Take, want[4])
		}
		var taken CubeResponse
		if code := post(t, srv, "/cube", position{p.name, &offered}.body(0), &taken); code != http.StatusOK {
			t.Fatalf("%s doubled: status %d", p.name, code)
		}
		if taken.Double != nil || taken.Take != want[4] {
			t.Errorf("%s doubled: double %v, take %q, gentake %q", p.name, taken.Double, taken.Take, want[4])
		}
		if taken.NoDouble != got.NoDouble || taken.DoubleTake != got.DoubleTake {
			t.Errorf("%s: equities before the double %+v, after %+v", p.name, got, taken)
		}
	}
	if doubles == 0 {
		t.Error("no position was a double: the test compares only no_double")
	}
	if compared < 10 {
		t.Errorf("%d positions compared, want 10", compared)
	}
}

// TestEvalMatchesEvaluate compares /eval's cubeless figures with the
// protocol's evaluate.
func TestEvalMatchesEvaluate(t *testing.T) {
	srv := newServer(t, Config{})
	for _, p := range movePositions(t) {
		pos, matchID := gnubgid.Encode(p.state)
		want := protocolAnswers(t, nil, []string{p.setGame(), "set_position " + pos + " " + matchID, "evaluate"})[2]
		var got EvalResponse
		if code := post(t, srv, "/eval", p.body(0), &got); code != http.StatusOK {
			t.Fatalf("%s: status %d", p.name, code)
		}
		c := got.Cubeless
		var w [6]float64
		if _, err := fmt.Sscan(want, &w[0], &w[1], &w[2], &w[3], &w[4], &w[5]); err != nil {
			t.Fatalf("evaluate %q: %v", want, err)
		}
		for i, v := range []float64{c.Win, c.WinGammon, c.WinBackgammon, c.LoseGammon, c.LoseBackgammon, c.Equity} {
			if d := v - w[i]; d > 1e-4 || d < -1e-4 {
				t.Errorf("%s: /eval %v, evaluate %q", p.name, c, want)
				break
			}
		}
		if p.state.Money() && got.Cubeful == nil {
			t.Errorf("%s: no cubeful figures with the cube centred", p.name)
		}
	}
}

// TestBodyOverBound sends a body over the size bound.
func TestBodyOverBound(t *testing.T) {
	srv := newServer(t, Config{MaxBody: 100})
	body := `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "level": "` + strings.Repeat("x", 100) + `"}`
	var e ErrorBody
	if code := post(t, srv, "/move", body, &e); code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d (%+v), want 413", code, e)
	}
	if !strings.Contains(e.Error, "100 bytes") {
		t.Errorf("error %q does not name the bound", e.Error)
	}
}

// TestTimeBound has a time bound no request can meet.
func TestTimeBound(t *testing.T) {
	srv := newServer(t, Config{Timeout: time.Nanosecond})
	var e ErrorBody
	if code := post(t, srv, "/eval", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}`, &e); code != http.StatusServiceUnavailable {
		t.Errorf("status %d (%+v), want 503", code, e)
	}
	if !strings.Contains(e.Error, "time bound") {
		t.Errorf("error %q", e.Error)
	}
}

// TestWaitForWorkerTimesOut holds the only worker, so a request times
// out in the wait.
func TestWaitForWorkerTimesOut(t *testing.T) {
	cfg := Config{Workers: 1, Timeout: 50 * time.Millisecond, Factory: factory()}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.slots <- struct{}{}
	srv := httptest.NewServer(h)
	defer srv.Close()
	var e ErrorBody
	if code := post(t, srv, "/eval", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}`, &e); code != http.StatusServiceUnavailable {
		t.Errorf("status %d (%+v), want 503", code, e)
	}
	<-h.slots
}

// TestBadRequests checks that malformed requests get 400 naming the
// field.
func TestBadRequests(t *testing.T) {
	srv := newServer(t, Config{MaxPlies: 1})
	for _, c := range []struct{ path, body, field string }{
		{"/move", `{"position_id": "4HPwATDgc/AB!A", "match_id": "cAkAAAAAAAAA"}`, "position_id"},
		{"/move", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAk"}`, "match_id"},
		{"/move", `{"position_id": "4HPwATDgc/ABMA"}`, "match_id"},
		{"/move", `{"match_id": "cAkAAAAAAAAA"}`, "position_id"},
		{"/move", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "dice": [3, 1]}`, "dice"},
		{"/move", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}`, "dice"},
		{"/cube", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "dice": [3, 1]}`, "dice"},
		{"/eval", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "plies": 2}`, "plies"},
		{"/eval", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "level": "grandmaster"}`, "level"},
		{"/eval", `{"board": [1, 2, 3]}`, "board"},
		{"/eval", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,3,0]}`, "board"},
		{"/eval", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "cube_value": 3}`, "cube_value"},
		{"/eval", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "cube_value": 2}`, "cube_owner"},
		{"/eval", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "dice": [7, 1]}`, "dice"},
		{"/eval", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "score": [1, 2]}`, "score"},
		{"/eval", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "cube_owner": "me"}`, "cube_owner"},
		{"/eval", `{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], "match_length": 5, "score": [1, 2], "crawford": true}`, "crawford"},
		{"/eval", `{"board": "start"}`, "board"},
		{"/eval", `{"plies": "two"}`, "plies"},
		{"/eval", `{"position": "4HPwATDgc/ABMA"}`, ""},
		{"/eval", `{} {}`, ""},
		{"/eval", `not json`, ""},
	} {
		var e ErrorBody
		if code := post(t, srv, c.path, c.body, &e); code != http.StatusBadRequest {
			t.Errorf("%s %s: status %d (%+v), want 400", c.path, c.body, code, e)
			continue
		}
		if e.Field != c.field || e.Error == "" {
			t.Errorf("%s %s: field %q (%s), want %q", c.path, c.body, e.Field, e.Error, c.field)
		}
	}
	var e ErrorBody
	if code := post(t, srv, "/nowhere", `{}`, &e); code != http.StatusNotFound {
		t.Errorf("/nowhere: status %d", code)
	}
	resp, err := http.Get(srv.URL + "/move")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET /move: status %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestOpenAPISchemas checks that the OpenAPI file's schemas have the
// fields of the Go types the server reads and writes.
func TestOpenAPISchemas(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "bgbot-openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"Request": Request{}, "Move": MoveResponse{}, "Cube": CubeResponse{}, "Eval": EvalResponse{},
		"Cubeless": Cubeless{}, "Cubeful": Cubeful{}, "Error": ErrorBody{}} {
		var fields []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			fields = append(fields, tag)
		}
		var documented []string
		for p := range doc.Components.Schemas[name].Properties {
			documented = append(documented, p)
		}
		slices.Sort(fields)
		slices.Sort(documented)
		if !slices.Equal(fields, documented) {
			t.Errorf("schema %s documents %q; the Go type has %q", name, documented, fields)
		}
	}
}

// TestOpenAPIMatchesRoutes checks that docs/bgbot-openapi.json describes
// exactly the server's routes, and that each answers.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "bgbot-openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("docs/bgbot-openapi.json: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("openapi %q, want 3.x", doc.OpenAPI)
	}
	var documented, served []string
	for path, ops := range doc.Paths {
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	srv := newServer(t, Config{})
	for _, r := range Routes() {
		served = append(served, r.Method+" "+r.Path)
		req, err := http.NewRequest(r.Method, srv.URL+r.Path, strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest { // {} names no position
			t.Errorf("%s %s: status %d, want 400", r.Method, r.Path, resp.StatusCode)
		}
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Errorf("OpenAPI file documents %q; the server serves %q", documented, served)
	}
}

func TestListenAddr(t *testing.T) {
	for in, want := range map[string]string{":8080": "127.0.0.1:8080", "0.0.0.0:80": "0.0.0.0:80", "[::]:1": "[::]:1", "localhost:9": "localhost:9"} {
		got, err := ListenAddr(in)
		if err != nil || got != want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ListenAddr("8080"); err == nil {
		t.Error("ListenAddr(\"8080\"): no error")
	}
}

// TestConcurrentRequests sends the move positions at once, several times
// each, and checks every answer equals the one given alone (run with
// -race: the engines are lent to one request at a time).
func TestConcurrentRequests(t *testing.T) {
	srv := newServer(t, Config{Workers: 3})
	positions := movePositions(t)
	want := make([]string, len(positions))
	for i, p := range positions {
		var m MoveResponse
		if code := post(t, srv, "/move", p.body(0), &m); code != http.StatusOK {
			t.Fatalf("%s: status %d", p.name, code)
		}
		want[i] = m.Move
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(positions))
	for range 4 {
		for i, p := range positions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := http.Post(srv.URL+"/move", "application/json", strings.NewReader(p.body(0)))
				if err != nil {
					errs <- err.Error()
					return
				}
				defer resp.Body.Close()
				var m MoveResponse
				if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || m.Move != want[i] {
					errs <- fmt.Sprintf("%s: move %q (%v), alone %q", p.name, m.Move, err, want[i])
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestEngineFailure names a weights file that does not exist: the request
// is not at fault, so the answer is 500.
func TestEngineFailure(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.bgnet")
	srv := newServer(t, Config{EngineArgs: []string{"--weights", missing}})
	var e ErrorBody
	if code := post(t, srv, "/eval", `{"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"}`, &e); code != http.StatusInternalServerError {
		t.Errorf("status %d (%+v), want 500", code, e)
	}
	if !strings.Contains(e.Error, "missing.bgnet") {
		t.Errorf("error %q does not name the file", e.Error)
	}
}
