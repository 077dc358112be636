package intake

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
)

// runBuild runs the manifest's build command in dir (the copy being
// installed), in the sandbox, with the ladder's build time and memory
// (submissions.build_time, build_memory); it may write in dir only.
// A build that fails, or outlasts its time, is the submitter's: an
// *unusableError saying how it ended and what it wrote to stderr.
func runBuild(l *ladder.Ladder, dir, command string) error {
	argv, err := stdio.ParseCommand(command, dir)
	if err != nil {
		return &unusableError{fmt.Errorf("build command: %w", err)}
	}
	lim := l.Config.BotLimits
	lim.Memory, lim.CPUTime = l.Config.Submissions.BuildMemory, 0 // bounded by the wall clock below
	opts := l.Config.BotOptions
	opts.Hide = append(opts.Hide[:len(opts.Hide):len(opts.Hide)], ladder.Hidden(l.Dir)...)
	opts.ReadWrite = append(opts.ReadWrite[:len(opts.ReadWrite):len(opts.ReadWrite)], dir)
	opts.Programs = []sandbox.Program{{Argv: argv, Dir: dir}}
	if err := openTree(dir); err != nil {
		return err
	}
	sb, err := sandbox.New(lim, opts)
	if err != nil {
		return fmt.Errorf("intake: build sandbox: %w", err)
	}
	p, err := sb.Start("build", transport.ProcessConfig{Argv: argv, Dir: dir})
	if err != nil {
		return &unusableError{fmt.Errorf("build command %s: %w", command, err)}
	}
	defer p.Close()
	p.CloseInput()
	limit := l.Config.Submissions.BuildTime
	if waitDraining(p, time.Now().Add(limit)) {
		return &unusableError{fmt.Errorf("build command %s: still running after %v (submissions.build_time)%s", command, limit, tail(p))}
	}
	if st := p.ExitStatus(); !st.Success() {
		return &unusableError{fmt.Errorf("build command %s: %v%s", command, st, tail(p))}
	}
	p.Close()
	return recopy(dir)
}

// builtSuffix names the copy recopy makes beside the built tree.
const builtSuffix = ".built"

// openTree lets the build, which runs as a user of its own, write in
// dir: every directory and file of it writable by all, until recopy.
func openTree(dir string) error {
	return chmodTree(dir, 0o777, func(m fs.FileMode) fs.FileMode { return m | 0o666 })
}

// recopy replaces the built tree dir by a copy of it (CopyTree): what
// the build made is held to the bounds and kinds of files a submission
// is, and owned by the arena again, with no file writable by others.
func recopy(dir string) error {
	fresh := dir + builtSuffix
	os.RemoveAll(fresh)
	if err := CopyTree(fresh, dir, Bounds); err != nil {
		os.RemoveAll(fresh)
		return &unusableError{fmt.Errorf("what the build made: %w", err)}
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	if err := os.Rename(fresh, dir); err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return nil
}

// waitDraining waits until p exits or deadline passes (true), while a
// goroutine reads and drops what it writes to stdout, so that a chatty
// build does not block on a full pipe. The reader ends at the deadline,
// or when the caller closes p.
func waitDraining(p *transport.Process, deadline time.Time) (late bool) {
	go func() {
		for {
			_, err := p.Receive(deadline)
			if err != nil && (!errors.Is(err, transport.ErrTimeout) || !time.Now().Before(deadline)) {
				return
			}
		}
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-p.Exited():
		return false
	case <-timer.C:
		return true
	}
}

// tail is the build's last stderr, for its refusal.
func tail(p *transport.Process) string {
	if s := p.StderrTail(); s != "" {
		return "; its stderr ended with:\n" + s
	}
	return ""
}
