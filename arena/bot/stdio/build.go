package stdio

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/arena-dev/arena/arena/fileargs"
)

// Build identifies the build of a command's bot, so that a distributed
// worker plays exactly the bot the coordinator means, or refuses: a hash
// of the command line in which every word that names a file by
// arena/fileargs's rule (the program given by a path, a script, a model,
// "--model=m.bin", relative paths against Dir) stands for that file's
// content, followed by the variables the bot is given (Env). Words that
// name no file (flags, "python3" found on PATH) and directories count as
// written, so the same files at another path on another machine are the
// same build, while an edited script or a retrained model is not (a
// model spread over a directory is followed only file by file: name its
// files, or pack them in one).
func (c Command) Build() (string, error) {
	h := sha256.New()
	files, _ := fileargs.Files(c.Argv, c.Dir)
	named := make(map[int]fileargs.File, len(files))
	for _, f := range files {
		named[f.Index] = f
	}
	for i, arg := range c.Argv {
		if i == 0 {
			prog, ok := fileargs.Program(arg, c.Dir)
			if !ok {
				fmt.Fprintf(h, "arg %q\n", arg)
				continue
			}
			info, err := os.Stat(prog)
			if err == nil && !info.Mode().IsRegular() {
				err = fmt.Errorf("not a regular file")
			}
			if err != nil {
				return "", fmt.Errorf("bot %s: %s: %w", c.Name, arg, err)
			}
			if err := hashFile(h, "", prog, info.Size()); err != nil {
				return "", fmt.Errorf("bot %s: %w", c.Name, err)
			}
			continue
		}
		f, ok := named[i]
		if !ok || f.Info.IsDir() {
			// A directory counts by its name: hashing a tree would walk
			// whatever it holds (a directory the bot writes its logs in,
			// "/"), and one the bot writes would never be the same build.
			fmt.Fprintf(h, "arg %q\n", arg)
			continue
		}
		if err := hashFile(h, f.Prefix, f.Abs, f.Info.Size()); err != nil {
			return "", fmt.Errorf("bot %s: %w", c.Name, err)
		}
	}
	for _, kv := range c.Env {
		fmt.Fprintf(h, "env %q\n", kv)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// hashFile adds the file at path, of size bytes, named after prefix
// ("--model=", or "" for a path on its own), to h.
func hashFile(h hash.Hash, prefix, path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if prefix == "" {
		fmt.Fprintf(h, "file %d\n", size)
	} else {
		fmt.Fprintf(h, "file %q %d\n", prefix, size)
	}
	_, err = io.Copy(h, f)
	return err
}
