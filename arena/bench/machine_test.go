package bench

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// idleHalts names only the virtual machines whose idle CPUs halt at once.
func TestIdleHalts(t *testing.T) {
	for _, tc := range []struct {
		name         string
		driver, poll string // "" leaves the file out
		want         bool
	}{
		{"haltpoll polling off", "haltpoll\n", "0\n", true},
		{"haltpoll polling 200us", "haltpoll\n", "200000\n", false},
		{"a bare machine's driver", "intel_idle\n", "", false},
		{"acpi_idle with a stray haltpoll module", "acpi_idle\n", "0\n", false},
		{"no cpuidle", "", "", false},
		{"haltpoll without its parameters", "haltpoll\n", "", false},
		{"a limit that is not a number", "haltpoll\n", "off\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(rel, content string) {
				if content == "" {
					return
				}
				path := filepath.Join(root, rel)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("devices/system/cpu/cpuidle/current_driver", tc.driver)
			write("module/haltpoll/parameters/guest_halt_poll_ns", tc.poll)
			if got := idleHalts(root); got != tc.want {
				t.Errorf("idleHalts = %v, want %v", got, tc.want)
			}
		})
	}
}

// A measure's steal time is read from this machine's /proc/stat.
func TestStealMeterReadsThisMachine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("steal time is Linux's /proc/stat")
	}
	m := startStealMeter().machine()
	if !m.StolenKnown || m.Stolen < 0 || m.StolenShare < 0 {
		t.Fatalf("machine = %+v, want the steal time read", m)
	}
}
