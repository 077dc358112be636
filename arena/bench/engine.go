package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"
)

// EngineBatch is how many operations one line of the engine measure's
// batched half holds: a search's batch of a node's work.
const EngineBatch = 32

// EngineFigures are the rules engine server's costs (`arena engine`,
// docs/engine.md) over its pipe: one operation a line, and one
// operation of a batch of EngineBatch.
type EngineFigures struct {
	PerLine      time.Duration
	PerBatchedOp time.Duration
}

// measureEngine times `argv` (an arena engine) answering view
// operations on a state of cfg's game: lines of one, then batches.
func measureEngine(cfg Config, argv []string) (EngineFigures, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return EngineFigures{}, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return EngineFigures{}, err
	}
	if err := cmd.Start(); err != nil {
		return EngineFigures{}, fmt.Errorf("the engine %v: %w", argv, err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	out := bufio.NewReaderSize(outPipe, 1<<16)
	ask := func(line []byte) error {
		if _, err := in.Write(line); err != nil {
			return fmt.Errorf("the engine: %w", err)
		}
		reply, err := out.ReadBytes('\n')
		if err != nil { // io.EOF: the engine exited without answering
			return fmt.Errorf("the engine %v did not answer: %w", argv, err)
		}
		if bytes.Contains(reply, []byte(`"error"`)) {
			return fmt.Errorf("the engine answered: %s", bytes.TrimSpace(reply))
		}
		return nil
	}
	opts, err := json.Marshal(map[string]string(cfg.Options))
	if err != nil {
		return EngineFigures{}, err
	}
	info := cfg.Game.Info()
	if err := ask(fmt.Appendf(nil, `{"op":"create","game":%q,"seats":%d,"seed":1,"options":%s}`+"\n", info.Name, info.MinSeats, opts)); err != nil {
		return EngineFigures{}, err
	}
	one := []byte(`{"op":"view","state":1,"seat":0}` + "\n")
	batch := []byte("[")
	for i := range EngineBatch {
		if i > 0 {
			batch = append(batch, ',')
		}
		batch = append(batch, `{"op":"view","state":1,"seat":0}`...)
	}
	batch = append(batch, "]\n"...)
	var f EngineFigures
	n := max(cfg.RoundTrips/4, 1)
	start := time.Now()
	for range n {
		if err := ask(one); err != nil {
			return f, err
		}
	}
	f.PerLine = time.Since(start) / time.Duration(n)
	start = time.Now()
	for range n {
		if err := ask(batch); err != nil {
			return f, err
		}
	}
	f.PerBatchedOp = time.Since(start) / time.Duration(n*EngineBatch)
	return f, nil
}
