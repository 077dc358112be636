package transport_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/arena/transport"
)

// A bot started without a sandbox (a caller of the package that gives
// none) inherits no descriptor of the arena's beyond stdin, stdout and
// stderr: not even one the arena has without close-on-exec, as it has
// those its own parent left open (a shell's 7<>notes.txt).
func TestUnconfinedBotInheritsNoDescriptor(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd, err := unix.Dup(int(f.Fd())) // no close-on-exec, as an inherited one
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	p, err := transport.Start(transport.ProcessConfig{Argv: []string{"sh", "-c",
		fmt.Sprintf("if [ -e /proc/$$/fd/%d ]; then echo inherited; else echo clean; fi", fd)}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if line, err := p.Receive(time.Now().Add(10 * time.Second)); err != nil || string(line) != "clean" {
		t.Errorf("the bot said %q (%v): it has descriptor %d", line, err, fd)
	}
}
