//go:build linux

package sandbox

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestSummaryIsShort: the line a run starts with says first whether bots
// are isolated (and if not, why), then what is missing, in under 200
// characters even on a machine that has nothing: no namespaces, no
// cgroups, no seccomp, every limit set (a run adds "arena: " and a pointer
// to the details, 28 more: just under 200 on such a machine, 70 to 150 on
// usual ones); the details name every gap with its reason.
func TestSummaryIsShort(t *testing.T) {
	bare := &Capabilities{}
	bare.isoOnce.Do(func() {}) // probed: nothing is possible here
	bare.feat.SeccompErr = "seccomp: invalid argument"
	limits := Limits{Memory: 1 << 30, Procs: 256, Files: 1024, FileSize: 64 << 20, Disk: 256 << 20, CPUs: 2, CPUTime: 30 * time.Second}
	for _, tc := range []struct {
		name    string
		s       *Sandbox
		starts  string
		details []string
	}{
		{"a machine with nothing", &Sandbox{Limits: limits, Options: Options{ReadWrite: []string{"/srv/shared"}, User: "nobody"}, Caps: bare,
			system: system{uid: 65534, plan: plan{Network: NetworkHost}, isoWhy: "in a user namespace: unshare: operation not permitted", netWhy: "needs root or isolation in a user namespace"}},
			"sandbox: bots NOT isolated (needs root or user namespaces); missing: network, device cgroup, syscall filter; not enforced: cpus, disk, escape-proof kill",
			[]string{"isolation (in a user namespace: unshare: operation not permitted)", "cpus (no writable cpu cgroup)", "syscall filter (seccomp filters are not available: seccomp: invalid argument)"}},
		{"isolation turned off", &Sandbox{Limits: DefaultLimits, Options: Options{Isolate: IsolateNo}, Caps: &Capabilities{SysAdmin: true, V2Kill: true, V2: "/sys/fs/cgroup/x"},
			system: system{uid: -1, plan: plan{Network: NetworkLoopback, Seccomp: true, V2: "/sys/fs/cgroup/x", V2Mem: true, V2Pids: true, V2Dev: true}, isoWhy: "--bot-isolate no"}},
			"sandbox: bots NOT isolated (--bot-isolate no); not enforced: disk",
			[]string{"isolation (--bot-isolate no)", "disk (bots are not isolated)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.Caps.isoOnce.Do(func() {})
			sum := tc.s.Summary()
			if len(sum) > 171 || !strings.HasPrefix(sum, tc.starts) {
				t.Errorf("Summary() = %q (%d characters), want at most 171 starting %q", sum, len(sum), tc.starts)
			}
			details := strings.Join(tc.s.Details(), "\n")
			for _, w := range tc.details {
				if !strings.Contains(details, w) {
					t.Errorf("Details lack %q:\n%s", w, details)
				}
			}
			if d := tc.s.Describe(); d != "sandbox: "+strings.Join(tc.s.Details(), "; ") {
				t.Errorf("Describe() = %q, not the details on one line", d)
			}
		})
	}
}

// docsQuote fails the test unless docs/security.md shows summary as a
// run prints it.
func docsQuote(t *testing.T, summary string) {
	t.Helper()
	doc, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	if line := "arena: " + summary + " (details: --verbose)\n"; !strings.Contains(string(doc), line) {
		t.Errorf("docs/security.md does not show the line a run prints: %q", line)
	}
}

// TestDocsQuoteThisMachinesSummary: where this machine gives bots every
// protection and limit (as root on the CI machine), the lines it prints,
// isolated and with isolation turned off, are the ones docs/security.md
// and the README show.
func TestDocsQuoteThisMachinesSummary(t *testing.T) {
	sb, err := New(DefaultLimits, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := sb.Summary()
	if !strings.Contains(sum, ", all protections and limits") {
		t.Skipf("this machine lacks something: %s", sum)
	}
	docsQuote(t, sum)
	// And with isolation turned off, on the same machine.
	off, err := New(DefaultLimits, Options{Isolate: IsolateNo})
	if err != nil {
		t.Fatal(err)
	}
	docsQuote(t, off.Summary())
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "arena: "+sum+" (details: --verbose)") {
		t.Errorf("README.md does not show %q", sum)
	}
}
