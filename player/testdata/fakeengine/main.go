// Command fakeengine is a scriptable GTP engine for the player package's
// tests. Flags make it misbehave in the ways real engines do.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	var (
		crashAfter   = flag.Int("crash-after", -1, "exit with status 3 instead of answering command N+1")
		hangOn       = flag.String("hang-on", "", "never answer this command")
		garbage      = flag.Bool("garbage", false, "answer every command with binary garbage")
		hugeLine     = flag.Bool("huge-line", false, "answer every command with a 2 MiB line")
		slowStart    = flag.Duration("slow-start", 0, "sleep this long before reading commands")
		ignoreQuit   = flag.Bool("ignore-quit", false, "answer quit but keep running, even after end of input")
		spawnChild   = flag.Bool("spawn-child", false, "start a sleeping grandchild sharing our output")
		childPidFile = flag.String("child-pid-file", "", "write the grandchild's pid here")
		childSetsid  = flag.Bool("child-setsid", false, "with --spawn-child: the grandchild leaves our process group with setsid and shares no output")
		sleepForever = flag.Bool("sleep-forever", false, "just sleep (grandchild mode)")
		stderrText   = flag.String("stderr", "", "write this line to standard error at start")
	)
	flag.Parse()
	if *sleepForever {
		time.Sleep(time.Hour)
		return
	}
	if *stderrText != "" {
		fmt.Fprintln(os.Stderr, *stderrText)
	}
	if *spawnChild {
		child := exec.Command(os.Args[0], "--sleep-forever")
		if *childSetsid {
			child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		} else {
			child.Stdout = os.Stdout
			child.Stderr = os.Stderr
		}
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "spawn child:", err)
			os.Exit(2)
		}
		if *childPidFile != "" {
			if err := os.WriteFile(*childPidFile, []byte(strconv.Itoa(child.Process.Pid)), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "pid file:", err)
				os.Exit(2)
			}
		}
	}
	time.Sleep(*slowStart)

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	answered := 0
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 {
			continue
		}
		id := ""
		if _, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
			id, fields = fields[0], fields[1:]
		}
		if len(fields) == 0 {
			continue
		}
		cmd, args := fields[0], fields[1:]
		if *crashAfter >= 0 && answered >= *crashAfter {
			os.Exit(3)
		}
		if cmd == *hangOn {
			time.Sleep(time.Hour) // never answer, never exit
		}
		answered++
		switch {
		case *garbage:
			out.WriteString("\x00\x01\x02\xff\xfe garbage \x00\n\n")
		case *hugeLine:
			out.WriteString("= " + strings.Repeat("x", 2<<20) + "\n\n")
		default:
			text, ok := answer(cmd, args)
			ind := "="
			if !ok {
				ind = "?"
			}
			if text != "" {
				text = " " + text
			}
			fmt.Fprintf(out, "%s%s%s\n\n", ind, id, text)
		}
		out.Flush()
		if cmd == "quit" && !*ignoreQuit {
			return
		}
	}
	if *ignoreQuit {
		time.Sleep(time.Hour)
	}
}

func answer(cmd string, args []string) (string, bool) {
	switch cmd {
	case "protocol_version":
		return "2", true
	case "name":
		return "fakeengine", true
	case "version":
		return "1.0", true
	case "quit":
		return "", true
	case "echo":
		return strings.Join(args, " "), true
	case "env":
		if len(args) != 1 {
			return "env takes one name", false
		}
		return os.Getenv(args[0]), true
	case "pwd":
		wd, err := os.Getwd()
		if err != nil {
			return err.Error(), false
		}
		return wd, true
	case "warn":
		fmt.Fprintln(os.Stderr, strings.Join(args, " "))
		return "", true
	case "burn":
		// Busy-loop until this process has used the given CPU time.
		d, err := time.ParseDuration(strings.Join(args, ""))
		if err != nil {
			return err.Error(), false
		}
		x := 0
		for start := cpuTime(); cpuTime()-start < d; {
			for i := range 100000 {
				x += i
			}
		}
		return strconv.Itoa(x % 10), true
	case "sleep":
		d, err := time.ParseDuration(strings.Join(args, ""))
		if err != nil {
			return err.Error(), false
		}
		time.Sleep(d)
		return "", true
	}
	return "unknown command", false
}

// cpuTime returns the user plus system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
