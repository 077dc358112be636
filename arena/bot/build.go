package bot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Build identifies the build of a command's bot, so that a distributed
// worker plays exactly the bot the coordinator means, or refuses: a hash
// of the command line in which every argument that names a file (the
// program given by a path, a script, a model) stands for that file's
// content, followed by the variables the bot is given (Env). Arguments
// that name no file (flags, "python3" found on PATH) count as written,
// so the same files at another path on another machine are the same
// build, while an edited script is not.
func (c Command) Build() (string, error) {
	h := sha256.New()
	for i, arg := range c.Argv {
		path := arg
		if !filepath.IsAbs(path) && c.Dir != "" {
			path = filepath.Join(c.Dir, path)
		}
		named := strings.ContainsRune(arg, '/') || i > 0
		info, err := os.Stat(path)
		if !named || err != nil || !info.Mode().IsRegular() {
			if i == 0 && strings.ContainsRune(arg, '/') {
				return "", fmt.Errorf("bot %s: %s: %w", c.Name, arg, errOrNotFile(err))
			}
			fmt.Fprintf(h, "arg %q\n", arg)
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			return "", fmt.Errorf("bot %s: %w", c.Name, err)
		}
		fmt.Fprintf(h, "file %d\n", info.Size())
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("bot %s: %w", c.Name, err)
		}
	}
	for _, kv := range c.Env {
		fmt.Fprintf(h, "env %q\n", kv)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

func errOrNotFile(err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("not a regular file")
}
