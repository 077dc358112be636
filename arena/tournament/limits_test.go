package tournament

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/sandbox"
)

func TestLimitsSection(t *testing.T) {
	f, err := ParseFile("cup.yaml", []byte(`name: cup
game: banqi
limits:
  memory: 512MiB
  procs: 64
  files: unlimited
  cpu_time: 20s
  cpus: 0.5
  disk: 64MiB
  isolate: auto
  env: [A=1, B]
bots:
  - {name: a, command: arena bot random, env: {X: "1"}}
  - {name: b, command: arena bot greedy}
`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Resolve("cup.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	want := sandbox.Limits{Memory: 512 << 20, Procs: 64, Files: 0, FileSize: sandbox.DefaultLimits.FileSize, CPUTime: 20 * time.Second,
		CPUs: 0.5, Disk: 64 << 20}
	if c.BotLimits != want {
		t.Fatalf("limits %+v, want %+v", c.BotLimits, want)
	}
	sb, err := c.Confine("cup.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range c.Bots {
		if l, ok := b.Launcher.(stdio.Command); !ok || l.Sandbox != sb {
			t.Fatalf("bot %s not confined", b.Name)
		}
	}
	// The bot's env field and limits.env, on the scrubbed environment.
	env := sb.Env(c.Bots[0].Name, c.Bots[0].Target.(stdio.Command).Env)
	if !slices.Contains(env, "X=1") || !slices.Contains(env, "A=1") || slices.Contains(env, "HOME="+os.Getenv("HOME")) {
		t.Errorf("bot env: %s", env)
	}
}

func TestLimitsDefaultsAndErrors(t *testing.T) {
	c := File{}.Limits
	l, err := c.Resolve()
	if err != nil || l != sandbox.DefaultLimits {
		t.Fatalf("defaults: %+v %v", l, err)
	}
	for field, lf := range map[string]options.Limits{
		"memory":    {Memory: "lots"},
		"procs":     {Procs: "-1"},
		"cpu_time":  {CPUTime: "forever"},
		"file_size": {FileSize: "1QB"},
		"env":       {Env: []string{"=x"}},
		"cpus":      {CPUs: "-2"},
		"disk":      {Disk: "big"},
		"isolate":   {Isolate: "maybe"},
	} {
		if _, err := lf.Resolve(); err == nil || !strings.HasPrefix(err.Error(), field+":") {
			t.Errorf("%s: got %v", field, err)
		}
	}
	if _, err := ParseFile("x.yaml", []byte("name: x\nlimits: {memroy: 1GiB}\n")); err == nil || !strings.Contains(err.Error(), "memroy") {
		t.Errorf("misspelt limits field: %v", err)
	}
}
