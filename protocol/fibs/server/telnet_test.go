package server

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
)

func readTelnet(t *testing.T, in []byte, oneByte bool) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(in)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	out, err := io.ReadAll(&telnetInput{r: r})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTelnetInputDropsCommands(t *testing.T) {
	for in, want := range map[string]string{
		"pa\r\n":                            "pa\r\n",
		"\xff\xfd\x01pa\r\n":                "pa\r\n",          // DO ECHO before the password
		"p\xff\xf1a\r\n":                    "pa\r\n",          // NOP inside
		"\xff\xfa\x18\x01\xff\xf0who\r\n":   "who\r\n",         // a subnegotiation
		"\xff\xfa\x18\xff\xff\x01\xff\xf0x": "x",               // IAC IAC inside one
		"pa\r\x00":                          "pa\r\n",          // character mode's CR NUL
		"a\xff\xffb":                        "a\xffb",          // an escaped 255
		"h\u00e9llo \xff\xfe\x01\r\n":       "h\u00e9llo \r\n", // DONT ECHO after UTF-8
		"\x00x\r\x00\r\x00":                 "\x00x\r\n\r\n",   // a NUL not after CR stays
	} {
		for _, one := range []bool{false, true} {
			if got := string(readTelnet(t, []byte(in), one)); got != want {
				t.Errorf("%q (one byte a read: %v): %q, want %q", in, one, got, want)
			}
		}
	}
}

func FuzzTelnetInput(f *testing.F) {
	for _, s := range []string{"", "login: a\r\n", "\xff\xfd\x01pa\r\n", "\xff\xfa\x18\x01\xff\xf0", "\xff\xff", "a\r\x00b", "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		whole := readTelnet(t, in, false)
		if bytesByByte := readTelnet(t, in, true); !bytes.Equal(whole, bytesByByte) {
			t.Fatalf("%q: %q read whole, %q a byte at a time", in, whole, bytesByByte)
		}
		if len(whole) > len(in) {
			t.Fatalf("%q grew to %q", in, whole)
		}
		if !bytes.ContainsAny(in, "\xff\x00") && !bytes.Equal(whole, in) {
			t.Fatalf("%q has no telnet command but came out as %q", in, whole)
		}
	})
}
