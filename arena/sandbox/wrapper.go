package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// init makes every binary that imports this package the sandbox wrapper
// when started as `BINARY __sandbox -- CMD...` with the spec in its
// environment: the arena itself, and test binaries standing in for it.
func init() {
	if len(os.Args) > 1 && os.Args[1] == Command {
		os.Exit(Main(os.Args[2:]))
	}
}

// Main is the wrapper: it confines itself as the spec says and execs the
// bot command in its place. It returns only on failure (exit status 127,
// the reason on stderr, which the arena logs as the bot's).
func Main(args []string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "arena sandbox: "+format+"\n", a...)
		return 127
	}
	var sp spec
	if err := json.Unmarshal([]byte(os.Getenv(envSpec)), &sp); err != nil {
		return fail("bad spec: %v", err)
	}
	if len(args) > 0 && args[0] == "--probe" {
		// Detect: can a bot's namespaces, and its view, be made here?
		if sp.Plan.Isolate {
			if err := isolate(&sp); err != nil {
				return fail("isolation: %v", err)
			}
		}
		return 0
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return fail("no command")
	}
	// Join the cgroups first, so everything after (and every process the
	// bot starts) is counted.
	pid := []byte(strconv.Itoa(os.Getpid()))
	for _, dir := range sp.Cgroups {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), pid, 0); err != nil {
			return fail("joining cgroup %s: %v", dir, err)
		}
	}
	if sp.Plan.Isolate {
		if prog, err := lookPath(args[0], sp.Env); err == nil {
			if !filepath.IsAbs(prog) && sp.Work != "" {
				prog = filepath.Join(sp.Work, prog)
			}
			sp.Program, _ = filepath.Abs(prog)
		}
		if err := isolate(&sp); err != nil {
			return fail("isolation: %v", err)
		}
	}
	l, p := sp.Limits, sp.Plan
	set := func(name string, res int, soft, hard uint64) error {
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: soft, Max: hard}); err != nil {
			return fmt.Errorf("rlimit %s: %v", name, err)
		}
		return nil
	}
	const rlimitNPROC = 6 // the same on every Linux architecture Go supports but mips/sparc
	var errs []error
	errs = append(errs, set("core", syscall.RLIMIT_CORE, 0, 0))
	if l.Memory > 0 && p.RlMem {
		errs = append(errs, set("data", syscall.RLIMIT_DATA, uint64(l.Memory), uint64(l.Memory)))
	}
	if l.Procs > 0 && p.RlProcs && !sp.BotRoot {
		errs = append(errs, set("nproc", rlimitNPROC, uint64(l.Procs), uint64(l.Procs)))
	}
	if l.Files > 0 {
		errs = append(errs, set("nofile", syscall.RLIMIT_NOFILE, uint64(l.Files), uint64(l.Files)))
	}
	if l.FileSize > 0 {
		errs = append(errs, set("fsize", syscall.RLIMIT_FSIZE, uint64(l.FileSize), uint64(l.FileSize)))
	}
	for _, err := range errs {
		if err != nil {
			return fail("%v", err)
		}
	}
	if sp.Work != "" {
		if err := os.Chdir(sp.Work); err != nil {
			return fail("working directory: %v", err)
		}
	}
	path, err := lookPath(args[0], sp.Env)
	if err != nil {
		return fail("%v", err)
	}
	if sp.UID >= 0 {
		if err := syscall.Setgroups([]int{sp.GID}); err != nil {
			return fail("setgroups: %v", err)
		}
		if err := syscall.Setgid(sp.GID); err != nil {
			return fail("setgid: %v", err)
		}
		if err := syscall.Setuid(sp.UID); err != nil {
			return fail("setuid: %v", err)
		}
		// A change of credentials clears the parent-death signal: set it
		// again, and make sure the arena did not die meanwhile.
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0); e != 0 {
			return fail("prctl: %v", e)
		}
		// (In a PID namespace of its own the parent is out of sight: 0.)
		if ppid := os.Getppid(); sp.PPid != 0 && ppid != 0 && ppid != sp.PPid {
			return fail("the arena is gone")
		}
	}
	// Capabilities are per thread: drop them on the one that execs.
	runtime.LockOSThread()
	if err := dropPrivileges(); err != nil {
		return fail("%v", err)
	}
	err = syscall.Exec(path, args, sp.Env)
	return fail("exec %s: %v", args[0], err)
}

// lookPath finds a command in the bot's PATH.
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("command %q not found in the bot's PATH", name)
}
