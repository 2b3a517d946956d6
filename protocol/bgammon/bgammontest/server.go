// Package bgammontest is a stand-in bgammon.org server for tests, built
// from the protocol's published facts: login (loginjson), JSON events,
// list, create, join, the opening roll, roll, move in slash notation,
// ok, double, take and drop, resign, leave, pings, and the flipped view
// of the second player. The rules are engine/backgammon's; every match is
// recorded with formats/record, so a test can hold a client's record
// against the server's.
//
// It differs from the real server where tests do not need it to: a move
// command must hold the whole move of the turn, every client is in JSON
// mode, and there are no accounts, ratings, spectators or variants other
// than standard backgammon. A few switches make it misbehave on purpose
// (Options): refuse a move, drop a connection, send the second player the
// raw board.
package bgammontest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	bg "github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/formats/record"
	"github.com/gamemill/gamemill/protocol/bgammon"
)

// Options shape the server.
type Options struct {
	Seed        uint64        // the dice
	PingEvery   time.Duration // ping each client this often (default 30 s)
	IdleTimeout time.Duration // drop a client silent this long (default 40 s)
	// CreatorFirst seats a match's creator as player 1; by default the
	// creator is player 2, whose view the server flips.
	CreatorFirst bool
	// RefuseMoves refuses this many legal moves of the named user with
	// failedmove, as if the server judged them illegal.
	RefuseMoves map[string]int
	// DropAfterMoves closes the named user's connection, once, after its
	// Nth move command.
	DropAfterMoves map[string]int
	// RawSecondView sends player 2 the unflipped board (PlayerNumber 2).
	RawSecondView bool
	Logf          func(format string, args ...any)
}

// Server is a running stand-in server.
type Server struct {
	opt  Options
	tcp  net.Listener
	ws   net.Listener
	http *http.Server

	mu       sync.Mutex
	rng      *rand.Rand
	games    map[int]*game
	nextID   int
	clients  map[*client]bool
	pongs    map[string]int
	drops    map[string]bool
	finished []*record.Match
	guest    int
}

type client struct {
	conn     bgammon.Conn
	name     string
	g        *game
	seat     int
	lastSeen time.Time
	moves    int
	closed   bool
}

type game struct {
	id      int
	name    string
	points  int
	seats   [2]*client
	names   [2]string // who may sit (and rejoin), once the match began
	b       *record.Builder
	opening [2]int
	pending *bg.Move // the move of the turn, played at ok
	steps   []bg.Step
	over    bool
}

// Start listens on 127.0.0.1 for TCP and WebSocket clients.
func Start(opt Options) (*Server, error) {
	if opt.PingEvery <= 0 {
		opt.PingEvery = 30 * time.Second
	}
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = 40 * time.Second
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	s := &Server{opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15)),
		games: map[int]*game{}, nextID: 1, clients: map[*client]bool{},
		pongs: map[string]int{}, drops: map[string]bool{}}
	var err error
	if s.tcp, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	if s.ws, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		s.tcp.Close()
		return nil, fmt.Errorf("listen: %w", err)
	}
	up := websocket.Upgrader{EnableCompression: true, CheckOrigin: func(*http.Request) bool { return true }}
	s.http = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		s.serve(bgammon.NewWebSocketConn(c), false)
	})}
	go s.http.Serve(s.ws)
	go func() {
		for {
			c, err := s.tcp.Accept()
			if err != nil {
				return
			}
			go s.serve(bgammon.NewConn(c), true)
		}
	}()
	return s, nil
}

// TCPAddr and WSAddr are the addresses clients dial.
func (s *Server) TCPAddr() string { return "bgammon+tcp://" + s.tcp.Addr().String() }
func (s *Server) WSAddr() string  { return "bgammon+ws://" + s.ws.Addr().String() + "/" }

// Close stops the server and drops every client.
func (s *Server) Close() {
	s.tcp.Close()
	s.http.Close()
	s.mu.Lock()
	for c := range s.clients {
		c.conn.Close()
	}
	s.mu.Unlock()
}

// Finished returns the records of the matches played to the end; player
// 0 is the match's player 1.
func (s *Server) Finished() []*record.Match {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*record.Match, len(s.finished))
	for i, m := range s.finished {
		out[i] = m.Clone()
	}
	return out
}

// Pongs counts the pong commands the named user sent.
func (s *Server) Pongs(user string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pongs[strings.ToLower(user)]
}

// Dropped reports whether the named user's connection was dropped by
// DropAfterMoves.
func (s *Server) Dropped(user string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drops[strings.ToLower(user)]
}

func (s *Server) serve(conn bgammon.Conn, tcp bool) {
	c := &client{conn: conn, lastSeen: time.Now()}
	s.mu.Lock()
	s.clients[c] = true
	s.mu.Unlock()
	if tcp {
		_ = conn.WriteLine("hello Welcome to the stand-in bgammon server. Please log in with loginjson.")
	}
	done := make(chan struct{})
	go s.pinger(c, done)
	defer func() {
		close(done)
		conn.Close()
		s.mu.Lock()
		s.gone(c)
		delete(s.clients, c)
		s.mu.Unlock()
	}()
	// Lines that arrived together are handled together, before any
	// other client's: a test can have two commands take effect at once.
	buffered, _ := conn.(interface{ LineBuffered() bool })
	for {
		line, err := conn.ReadLine()
		if err != nil {
			return
		}
		s.mu.Lock()
		for {
			c.lastSeen = time.Now()
			s.command(c, strings.TrimSpace(line))
			if c.closed || buffered == nil || !buffered.LineBuffered() {
				break
			}
			if line, err = conn.ReadLine(); err != nil {
				break
			}
		}
		closed := c.closed
		s.mu.Unlock()
		if closed || err != nil {
			return
		}
	}
}

func (s *Server) pinger(c *client, done chan struct{}) {
	t := time.NewTicker(s.opt.PingEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			s.mu.Lock()
			idle := now.Sub(c.lastSeen)
			if idle > s.opt.IdleTimeout {
				s.opt.Logf("dropping %q: silent for %v", c.name, idle)
				c.conn.Close()
			} else if c.name != "" {
				s.send(c, map[string]any{"Type": "ping", "Message": strconv.FormatInt(now.Unix(), 10)})
			}
			s.mu.Unlock()
		}
	}
}

// send writes one JSON event; a failed write closes the connection,
// whose reader then cleans up.
func (s *Server) send(c *client, ev any) {
	b, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	if err := c.conn.WriteLine(string(b)); err != nil {
		c.conn.Close()
	}
}

func (s *Server) notice(c *client, msg string) {
	s.send(c, map[string]any{"Type": "notice", "Message": msg})
}

func (s *Server) failed(c *client, typ, reason string) {
	s.send(c, map[string]any{"Type": typ, "Reason": reason})
}

func (s *Server) command(c *client, line string) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return
	}
	cmd, args := strings.ToLower(words[0]), words[1:]
	if c.name == "" {
		switch cmd {
		case "loginjson", "lj", "login":
			s.login(c, cmd, args)
		default:
			s.notice(c, "Please log in with loginjson.")
		}
		return
	}
	switch cmd {
	case "pong":
		s.pongs[c.name]++
	case "json", "say", "set":
	case "list", "ls":
		s.list(c)
	case "create", "c":
		s.create(c, args)
	case "join", "j":
		s.join(c, args)
	case "leave", "l":
		s.leave(c)
	case "board", "b":
		if c.g != nil {
			s.board(c.g, c)
		}
	case "disconnect":
		c.closed = true
	case "roll", "r", "move", "m", "mv", "ok", "k", "double", "d", "resign", "reset":
		s.play(c, cmd, args)
	default:
		s.notice(c, "Unknown command: "+cmd)
	}
}

func (s *Server) login(c *client, cmd string, args []string) {
	if cmd != "login" && len(args) > 0 {
		args = args[1:] // the client's name
	}
	name := ""
	if len(args) > 0 {
		name = strings.ToLower(args[0])
	}
	if name == "" {
		s.guest++
		name = fmt.Sprintf("guest_%d", s.guest)
	}
	for o := range s.clients {
		if o != c && o.name == name {
			// As the real server does, until the old connection is gone.
			s.notice(c, "Connection terminated: That username is already in use.")
			c.closed = true
			return
		}
	}
	c.name = name
	s.send(c, map[string]any{"Type": "welcome", "PlayerName": name, "Clients": len(s.clients), "Games": len(s.games)})
	s.list(c)
	for _, g := range s.games {
		if g.over {
			continue
		}
		for seat := range 2 {
			if g.names[seat] == name && g.seats[seat] == nil {
				s.seat(g, c, seat)
				s.notice(c, "Rejoined match: "+g.name)
				return
			}
		}
	}
}

func (s *Server) list(c *client) {
	games := []map[string]any{}
	for _, g := range s.games {
		if g.over {
			continue
		}
		n := 0
		for _, p := range g.seats {
			if p != nil {
				n++
			}
		}
		games = append(games, map[string]any{"ID": g.id, "Password": false, "Points": g.points, "Players": n, "Rating": 0, "Name": g.name})
	}
	s.send(c, map[string]any{"Type": "list", "Games": games})
}

func (s *Server) create(c *client, args []string) {
	if c.g != nil {
		s.failed(c, "failedcreate", "Please leave the match you are in before creating another.")
		return
	}
	if len(args) < 3 || strings.ToLower(args[0]) != "public" {
		s.failed(c, "failedcreate", "Usage: create public <points> <variant> [name] (the stand-in creates public matches only).")
		return
	}
	points, err := strconv.Atoi(args[1])
	if err != nil || points < 1 || points > 127 || args[2] != "0" {
		s.failed(c, "failedcreate", "Give the points (1-127) and variant 0.")
		return
	}
	name := strings.Join(args[3:], " ")
	if name == "" {
		name = c.name + "'s match"
	}
	g := &game{id: s.nextID, name: name, points: points}
	s.nextID++
	s.games[g.id] = g
	s.notice(c, "Created match: "+name)
	seat := 1
	if s.opt.CreatorFirst {
		seat = 0
	}
	s.seat(g, c, seat)
}

func (s *Server) join(c *client, args []string) {
	if c.g != nil {
		s.failed(c, "failedjoin", "Please leave the match you are in before joining another.")
		return
	}
	if len(args) == 0 {
		s.failed(c, "failedjoin", "Match not found.")
		return
	}
	id, _ := strconv.Atoi(args[0])
	g := s.games[id]
	if g == nil || g.over {
		s.failed(c, "failedjoin", "Match not found.")
		return
	}
	for seat := range 2 {
		if g.seats[seat] == nil && (g.names[seat] == "" || g.names[seat] == c.name) {
			s.seat(g, c, seat)
			return
		}
	}
	s.failed(c, "failedjoin", "Match is full.")
}

// seat puts c in seat of g and tells both players, each followed by a
// board.
func (s *Server) seat(g *game, c *client, seat int) {
	g.seats[seat], c.g, c.seat = c, g, seat
	if other := g.seats[1-seat]; other != nil {
		g.names = [2]string{nameOf(g.seats[0]), nameOf(g.seats[1])}
		if g.b == nil {
			g.b = record.NewBuilder(g.names, record.DefaultRules(g.points))
		}
		s.send(c, map[string]any{"Type": "joined", "Player": c.name, "GameID": g.id, "PlayerNumber": 1})
		s.board(g, c)
		s.send(other, map[string]any{"Type": "joined", "Player": c.name, "GameID": g.id, "PlayerNumber": 2})
		s.board(g, other)
		return
	}
	s.send(c, map[string]any{"Type": "joined", "Player": c.name, "GameID": g.id, "PlayerNumber": 1})
	s.board(g, c)
}

func nameOf(c *client) string {
	if c == nil {
		return ""
	}
	return c.name
}

// gone takes a closed connection out of its match, which waits for it.
func (s *Server) gone(c *client) {
	g := c.g
	if g == nil {
		return
	}
	g.seats[c.seat] = nil
	c.g = nil
	if g.b != nil && g.b.State().GameState == bg.GameNone && g.opening == [2]int{} {
		// Nothing rolled yet: the seat is free for anyone.
		g.b, g.names = nil, [2]string{}
	}
	if other := g.seats[1-c.seat]; other != nil {
		s.send(other, map[string]any{"Type": "left", "Player": c.name})
	}
	if g.seats[0] == nil && g.seats[1] == nil && (g.over || g.b == nil) {
		delete(s.games, g.id)
	}
}

func (s *Server) leave(c *client) {
	if c.g == nil {
		s.failed(c, "failedleave", "You are not currently in a match.")
		return
	}
	s.send(c, map[string]any{"Type": "left", "Player": c.name})
	g := c.g
	s.gone(c)
	if !g.over {
		g.names[c.seat] = "" // a player who leaves does not come back
	}
}

// state is the match's rules state; nil before both players sat down.
func (g *game) state() *bg.State {
	if g.b == nil {
		return nil
	}
	return g.b.State()
}

// mayDouble is the server's rule on top of engine/backgammon's: no cube
// in a 1-point match, none above 64.
func (g *game) mayDouble(st *bg.State) bool {
	return g.points > 1 && st.CubeValue < 64 && st.CanDouble()
}

// view is the board event for seat, in that player's orientation. final
// shows a game just ended with the score before it, as the board sent
// between the last move and the win event does.
func (s *Server) view(g *game, seat int, final bool) bgammon.GameState {
	st := g.state()
	v := bgammon.GameState{Points: g.points, PlayerNumber: 1, DoubleValue: 1}
	me := bgammon.Player{Number: 1, Name: nameOf(g.seats[seat])}
	opp := bgammon.Player{Number: 2, Name: nameOf(g.seats[1-seat])}
	start := bg.Standard.StartBoard()
	if st == nil {
		v.Board = bgammon.BoardView(start[bg.OnRoll], start[bg.Opponent])
		v.Player1, v.Player2 = me, opp
		return v
	}
	me.Points, opp.Points = st.Score[seat], st.Score[1-seat]
	playing := st.GameState == bg.GamePlaying
	ended := !playing && st.GameState != bg.GameNone && (final || g.over)
	if ended && final {
		if st.Winner == seat {
			me.Points -= st.Points
		} else {
			opp.Points -= st.Points
		}
	}
	v.Player1, v.Player2 = me, opp
	switch {
	case playing || ended:
		board := st.BoardFor(seat)
		if g.pending != nil {
			board = st.Board.Apply(*g.pending)
			if st.Move != seat {
				board = board.Swap()
			}
		}
		v.Board = bgammon.BoardView(board[bg.OnRoll], board[bg.Opponent])
	default:
		v.Board = bgammon.BoardView(start[bg.OnRoll], start[bg.Opponent])
	}
	switch {
	case playing:
		v.Turn = 2
		if st.Move == seat {
			v.Turn = 1
		}
		v.Roll1, v.Roll2 = st.Dice[0], st.Dice[1]
		v.DoubleValue = st.CubeValue
		if st.CubeOwner >= 0 {
			v.DoublePlayer = 2
			if st.CubeOwner == seat {
				v.DoublePlayer = 1
			}
		}
		v.DoubleOffered = st.Doubled
	case ended:
		v.Winner = 2
		if st.Winner == seat {
			v.Winner = 1
		}
		v.DoubleValue = st.CubeValue
	default:
		v.Roll1, v.Roll2 = g.opening[seat], g.opening[1-seat]
	}
	switch {
	case st.CrawfordGame && (playing || ended):
		v.Crawford = bgammon.CrawfordActive
	case st.PostCrawford || st.CrawfordGame:
		v.Crawford = bgammon.CrawfordExpired
	case !playing && g.points > 1 && (st.Score[0] == g.points-1 || st.Score[1] == g.points-1):
		v.Crawford = bgammon.CrawfordActive // the next game is the Crawford game
	}
	for _, stp := range g.steps {
		from, to := int(stp.From), int(stp.To)
		if from == bg.BarIndex+1 {
			from = bgammon.SpaceBar
		}
		if st.Move != seat {
			from, to = bgammon.FlipSpace(from), bgammon.FlipSpace(to)
		}
		v.Moves = append(v.Moves, []int{from, to})
	}
	return v
}

// board sends c its view of g.
func (s *Server) board(g *game, c *client) { s.boardFinal(g, c, false) }

func (s *Server) boardFinal(g *game, c *client, final bool) {
	v := s.view(g, c.seat, final)
	if c.seat == 1 && s.opt.RawSecondView {
		v = v.Flipped()
	}
	s.send(c, struct {
		Type string
		bgammon.GameState
	}{"board", v})
}

// boards sends both players their views.
func (s *Server) boards(g *game, final bool) {
	for _, c := range g.seats {
		if c != nil {
			s.boardFinal(g, c, final)
		}
	}
}

func (s *Server) both(g *game, ev any) {
	for _, c := range g.seats {
		if c != nil {
			s.send(c, ev)
		}
	}
}
