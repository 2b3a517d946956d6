package player

import "io"

// Pipes hands the engine's standard input and output to a caller that
// speaks another protocol than GTP to the program (an adapter such as
// player/agent), keeping the rest of Process: the process group, cgroup
// and parent-death signal, Record, CPUTime and Close. From then on Do
// fails and Close sends no quit; Close still closes the input, waits the
// grace period and kills whatever is left.
func (p *Process) Pipes() (stdin io.WriteCloser, stdout io.Reader) {
	p.ctrl.Close()
	return p.stdin, p.stdout
}
