package server

import "io"

// Telnet commands: fibsd turns the client's echo off while a person types
// the password at the password prompt, as FIBS does.
const (
	iac      = 255
	telnetSE = 240
	telnetSB = 250
	willEcho = "\xff\xfb\x01" // IAC WILL ECHO: the server echoes, so the client stops
	wontEcho = "\xff\xfc\x01" // IAC WONT ECHO: the client echoes again
)

// telnetInput drops telnet commands (IAC sequences) from what a
// telnet-style client sends: a telnet program answers the echo
// negotiation with them. Byte 255 never occurs in UTF-8 text, so a client
// that speaks no telnet loses nothing; IAC IAC stands for the byte 255
// itself, which the server's text cleaning then replaces.
type telnetInput struct {
	r     io.Reader
	state int  // what the next byte is: data, after IAC, an option, in a subnegotiation, after IAC in one
	cr    bool // the last data byte was a carriage return
}

const (
	inData = iota
	afterIAC
	option
	inSub
	inSubIAC
)

func (t *telnetInput) Read(p []byte) (int, error) {
	for {
		n, err := t.r.Read(p)
		out := 0
		for _, b := range p[:n] {
			switch t.state {
			case inData:
				if b == iac {
					t.state = afterIAC
					continue
				}
				if b == 0 && t.cr {
					// A telnet program in character mode (its echo
					// off) ends a line with CR NUL.
					b = '\n'
				}
				t.cr = b == '\r'
				p[out] = b
				out++
			case afterIAC:
				switch {
				case b == iac:
					p[out] = b
					out++
					t.state = inData
				case b >= 251: // WILL, WONT, DO, DONT: an option byte follows
					t.state = option
				case b == telnetSB:
					t.state = inSub
				default: // a two-byte command (NOP, GA, ...)
					t.state = inData
				}
			case option:
				t.state = inData
			case inSub:
				if b == iac {
					t.state = inSubIAC
				}
			case inSubIAC:
				if b == telnetSE {
					t.state = inData
				} else {
					t.state = inSub
				}
			}
		}
		if out > 0 || err != nil || n == 0 {
			return out, err
		}
	}
}
