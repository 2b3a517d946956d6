// Package bgammon speaks the line protocol of bgammon.org's server, for
// a bot that plays there.
//
// A connection is newline-framed text over TCP or one text frame per
// line over WebSocket (Dial). The client logs in with loginjson, so that
// every event after the login is a JSON object (ParseEvent turns it into
// a typed value), answers the server's pings and writes something at
// least every KeepAlive, so that the server's 40-second deadline never
// drops it (Client).
//
// The server sends each player its own view: its checkers positive and
// moving from point 24 down to 1, its bar at 26 and its borne-off
// checkers at 0, the opponent's negative with the bar at 27 and the
// borne-off checkers at 25. The second player's view is flipped so that
// it sees itself as player 1; GameState.Canonical puts a view that is
// not (PlayerNumber 2) into that orientation, so the rest of the code
// knows one orientation only.
//
// Driver plays matches for an engine: it creates or joins matches by
// policy, asks the engine every decision from the board (the board is
// the truth; rolls and moves are notes), checks every move against
// engine/backgammon before sending it, records each match as a .mat file
// and reconnects with backoff after a lost connection, resuming the
// match the server kept.
package bgammon
