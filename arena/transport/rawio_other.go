//go:build !unix

package transport

import "os"

// writeNow never writes here (Start refuses to run bots on this system):
// Send then takes its waiting path.
func (p *Process) writeNow() (int, error) { return 0, errWouldBlock }

func (p *Process) writeOnceFunc(fd uintptr) {}

// Read reads through the os package (never reached: Start refuses).
func (r *stdoutReader) Read(b []byte) (int, error) { return r.f.Read(b) }

func (r *stdoutReader) readOnceFunc(fd uintptr) {}

func (r *stdoutReader) readWaitFunc(fd uintptr) bool { return true }

// drainFile reads r until its end, handing each read to write.
func drainFile(r *os.File, write func([]byte)) { drainBuffered(r, write) }

// drainPending does nothing here: the drain alone reads stderr.
func (p *Process) drainPending() {}
