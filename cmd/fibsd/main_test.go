package main

import "testing"

// An address without a host listens on loopback only; one with a host,
// the wildcard addresses included, is used as given.
func TestListenAddrLoopbackUnlessHostGiven(t *testing.T) {
	for in, want := range map[string]string{
		"4321":            "127.0.0.1:4321",
		":4321":           "127.0.0.1:4321",
		"0":               "127.0.0.1:0",
		"127.0.0.1:0":     "127.0.0.1:0",
		"0.0.0.0:4321":    "0.0.0.0:4321",
		"[::]:4321":       "[::]:4321",
		"example.org:80":  "example.org:80",
		"[::1]:4321":      "[::1]:4321",
		"192.168.1.5:999": "192.168.1.5:999",
	} {
		if got := listenAddr(in); got != want {
			t.Errorf("listenAddr(%q) = %q, want %q", in, got, want)
		}
	}
}
