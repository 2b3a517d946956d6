// Package httpapi serves bgbot over HTTP: JSON endpoints for a move, a
// cube decision and an evaluation of a position given by gnubg IDs or by
// a board (docs/bgbot.md, HTTP API; docs/bgbot-openapi.json). A bgbot.Bot
// is for one goroutine at a time, so the server keeps a pool of engines
// for each level and depth and lends each to one request at a time.
package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gamemill/gamemill/engine/backgammon"
	"github.com/gamemill/gamemill/engine/bgbot"
	"github.com/gamemill/gamemill/engine/bgbot/gtpengine"
)

// Defaults of Config.
const (
	DefaultMaxBody  = 4 << 10
	DefaultTimeout  = 10 * time.Second
	DefaultMaxPlies = 2
)

// Config configures a Handler.
type Config struct {
	// EngineArgs are the bgbot flags every engine starts from (as for
	// the bgbot command); a request's level and plies are added to them.
	EngineArgs []string
	// Factory shares networks and databases between the engines; nil
	// makes one.
	Factory *gtpengine.Factory
	// MaxBody bounds a request body in bytes (DefaultMaxBody when 0).
	MaxBody int64
	// Timeout bounds a request's wait and work (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxPlies is the deepest search a request may ask for, 0..bgbot.MaxPlies
	// (DefaultMaxPlies when 0; a negative value allows only 0 ply).
	MaxPlies int
	// Workers bounds the positions judged at once (GOMAXPROCS when 0).
	Workers int
}

// Route is one endpoint: its method and path.
type Route struct{ Method, Path string }

// Routes returns the server's endpoints, as docs/bgbot-openapi.json
// describes them.
func Routes() []Route {
	return []Route{{"POST", "/move"}, {"POST", "/cube"}, {"POST", "/eval"}}
}

// Handler answers the API's requests.
type Handler struct {
	cfg     Config
	factory *gtpengine.Factory
	slots   chan struct{} // one per position judged at once
	mux     *http.ServeMux

	mu    sync.Mutex
	pools map[string][]*gtpengine.Engine // idle engines by their flags
}

// New checks cfg and returns a handler. The engines are built on first
// use; call Warm to build the default one before serving.
func New(cfg Config) (*Handler, error) {
	if cfg.MaxBody == 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.MaxPlies == 0:
		cfg.MaxPlies = DefaultMaxPlies
	case cfg.MaxPlies < 0:
		cfg.MaxPlies = 0
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case cfg.MaxBody < 0:
		return nil, fmt.Errorf("http api: body limit %d bytes", cfg.MaxBody)
	case cfg.Timeout < 0:
		return nil, fmt.Errorf("http api: timeout %v", cfg.Timeout)
	case cfg.MaxPlies > bgbot.MaxPlies:
		return nil, fmt.Errorf("http api: max plies %d out of range 0..%d", cfg.MaxPlies, bgbot.MaxPlies)
	case cfg.Workers < 0:
		return nil, fmt.Errorf("http api: %d workers", cfg.Workers)
	}
	if _, err := gtpengine.ParseArgs(cfg.EngineArgs); err != nil {
		return nil, fmt.Errorf("http api: %w", err)
	}
	h := &Handler{cfg: cfg, factory: cfg.Factory, slots: make(chan struct{}, cfg.Workers), mux: http.NewServeMux(), pools: map[string][]*gtpengine.Engine{}}
	if h.factory == nil {
		h.factory = &gtpengine.Factory{}
	}
	// The mux serves exactly Routes, which the OpenAPI file is checked
	// against.
	works := map[string]work{"/move": h.move, "/cube": h.cube, "/eval": h.eval}
	for _, route := range Routes() {
		w, ok := works[route.Path]
		if !ok {
			return nil, fmt.Errorf("http api: no handler for %s %s", route.Method, route.Path)
		}
		h.mux.HandleFunc(route.Method+" "+route.Path, h.endpoint(w))
	}
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		for _, route := range Routes() {
			if route.Path == r.URL.Path {
				w.Header().Set("Allow", route.Method)
				writeError(w, http.StatusMethodNotAllowed, &FieldError{Err: fmt.Errorf("%s %s: the endpoint takes %s", r.Method, r.URL.Path, route.Method)})
				return
			}
		}
		writeError(w, http.StatusNotFound, &FieldError{Err: fmt.Errorf("no endpoint %s %s (POST /move, /cube or /eval)", r.Method, r.URL.Path)})
	})
	return h, nil
}

// Warm builds an engine at the default level and depth, so that the first
// request does not pay for loading the networks.
func (h *Handler) Warm() error {
	args, err := (&Request{}).engineArgs(h.cfg.MaxPlies)
	if err != nil {
		return err
	}
	e, err := h.engine(args)
	if err != nil {
		return err
	}
	h.release(args, e)
	return nil
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// work is one endpoint's judgement of a state with an engine's bot.
type work func(bot *bgbot.Bot, s *backgammon.State) (any, error)

// endpoint wraps w with the request's bounds: the body size, the time of
// the wait for a worker and of the work, and the decoding.
func (h *Handler) endpoint(w work) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), h.cfg.Timeout)
		defer cancel()
		req, err := DecodeRequest(http.MaxBytesReader(rw, r.Body, h.cfg.MaxBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeError(rw, http.StatusRequestEntityTooLarge, &FieldError{Err: fmt.Errorf("request body over %d bytes", tooBig.Limit)})
				return
			}
			writeError(rw, http.StatusBadRequest, err)
			return
		}
		s, err := req.State()
		if err != nil {
			writeError(rw, http.StatusBadRequest, err)
			return
		}
		args, err := req.engineArgs(h.cfg.MaxPlies)
		if err != nil {
			writeError(rw, http.StatusBadRequest, err)
			return
		}
		out, err := h.judge(ctx, append(append([]string(nil), h.cfg.EngineArgs...), args...), s, w)
		var fe *FieldError
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			writeError(rw, http.StatusServiceUnavailable, &FieldError{Err: fmt.Errorf("no answer within the server's time bound of %v", h.cfg.Timeout)})
		case errors.Is(err, context.Canceled):
			// The client went away: nobody reads an answer.
		case errors.As(err, &fe):
			writeError(rw, http.StatusBadRequest, err)
		case errors.As(err, new(*engineError)):
			writeError(rw, http.StatusInternalServerError, &FieldError{Err: err})
		case err != nil:
			writeError(rw, http.StatusUnprocessableEntity, &FieldError{Err: err})
		default:
			writeJSON(rw, http.StatusOK, out)
		}
	}
}

// judge runs w on an engine made from args, within ctx. A bot cannot be
// stopped mid-search, so past the deadline the work finishes on its own,
// holding its worker slot, and only the answer is given up.
func (h *Handler) judge(ctx context.Context, args []string, s *backgammon.State, w work) (any, error) {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		<-h.slots
		return nil, err
	}
	type result struct {
		out any
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-h.slots }()
		e, err := h.engine(args)
		if err != nil {
			done <- result{err: &engineError{err}}
			return
		}
		defer h.release(args, e)
		out, err := w(e.Bot(), s)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// engineError is a failure to build an engine: the server's fault, not
// the request's.
type engineError struct{ err error }

func (e *engineError) Error() string { return fmt.Sprintf("building the engine: %v", e.err) }
func (e *engineError) Unwrap() error { return e.err }

// engine lends an idle engine made from args, or makes one.
func (h *Handler) engine(args []string) (*gtpengine.Engine, error) {
	key := strings.Join(args, "\x00")
	h.mu.Lock()
	if idle := h.pools[key]; len(idle) > 0 {
		e := idle[len(idle)-1]
		h.pools[key] = idle[:len(idle)-1]
		h.mu.Unlock()
		return e, nil
	}
	h.mu.Unlock()
	return h.factory.Engine(args)
}

// release returns an engine to its pool, which never holds more than one
// engine a worker.
func (h *Handler) release(args []string, e *gtpengine.Engine) {
	key := strings.Join(args, "\x00")
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.pools[key]) < cap(h.slots) {
		h.pools[key] = append(h.pools[key], e)
	}
}

// ErrorBody is the JSON of every error answer.
type ErrorBody struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

func writeError(w http.ResponseWriter, code int, err error) {
	body := ErrorBody{Error: err.Error()}
	var fe *FieldError
	if errors.As(err, &fe) {
		body.Field = fe.Field
	}
	writeJSON(w, code, body)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the client may be gone; nothing to tell it
}

// ListenAddr is addr with the loopback host where it names none, so that
// ":8080" serves this machine only; "0.0.0.0:8080" or "[::]:8080" listen
// on every interface.
func ListenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
