package main

import (
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/deal"
)

// dealSecret reads --deal-secret, if given: the secret and its file's
// absolute path. Bots that need something in that file's directory are
// refused, since isolated bots do not see it (hideSecret).
func dealSecret(c *cli.Context, bots []bot.Spec) (*deal.Secret, string, error) {
	path := c.String("deal-secret")
	if path == "" {
		return nil, "", nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", usagef("--deal-secret %s: %v", path, err)
	}
	s, err := deal.Read(abs)
	if err != nil {
		return nil, "", usagef("--deal-secret: %w", err)
	}
	if err := stdio.CheckOutside(bots, filepath.Dir(abs)); err != nil {
		return nil, "", usagef("--deal-secret %s: %w", path, err)
	}
	return s, abs, nil
}

// hideSecret adds the directory of a reused secret file to what isolated
// bots may not see (an earlier run's output directory, most likely: its
// results tell the deals a reproduced run deals again), unless it is the
// output directory, which is hidden anyway.
func hideSecret(hide []string, secretFile, out string) []string {
	if secretFile == "" {
		return hide
	}
	dir := filepath.Dir(secretFile)
	if abs, err := filepath.Abs(out); err == nil && out != "" && abs == dir {
		return hide
	}
	return append(hide[:len(hide):len(hide)], dir)
}

// secretNote says where a run's deal secret is, for its first line.
func secretNote(secretFile, out string) string {
	switch {
	case secretFile != "":
		return "deal secret " + secretFile
	case out != "":
		return "deal secret " + filepath.Join(out, deal.FileName)
	}
	return "a fresh deal secret, kept in memory only"
}
