package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
)

// BotBucket is the object store holding the files of the bots a
// coordinator shares (Options.ShareFiles): each bot's directory as one
// archive, named by its digest (JobBot.Files), which a worker that
// lacks the bot fetches and checks.
const BotBucket = "arena_bots"

// ErrFiles is a bot's files that a worker cannot take: not what the job
// names (another digest, another build), or not a directory it can
// unpack.
var ErrFiles = errors.New("the bot's files")

// share is what a coordinator that shares files publishes of bot spec:
// its command (argv, env) and the digest of its directory, stored in
// the bot bucket if it is not there yet. A bot that is no stdio command
// with a directory is shared by its build alone (a worker must have it).
func share(ctx context.Context, obs jetstream.ObjectStore, spec bot.Spec, jb *JobBot) error {
	cmd, ok := spec.Target.(stdio.Command)
	if !ok || cmd.Dir == "" {
		return nil
	}
	data, err := pack(cmd.Dir)
	if err != nil {
		return fmt.Errorf("bot %s: %w: %w", spec.Name, ErrFiles, err)
	}
	jb.Argv, jb.Env, jb.Files = cmd.Argv, cmd.Env, digest(data)
	if _, err := obs.GetInfo(ctx, jb.Files); err == nil {
		return nil // the same files, shared before
	}
	if _, err := obs.PutBytes(ctx, jb.Files, data); err != nil {
		return fmt.Errorf("bot %s: storing its files: %w", spec.Name, err)
	}
	return nil
}

// digest names an archive by its content.
func digest(data []byte) string {
	h := sha256.Sum256(data)
	return "sha256-" + hex.EncodeToString(h[:])
}

// pack makes an archive of dir that depends on its content alone: its
// directories and regular files (with their executable bit), in
// lexical order, with no times or owners. Anything else (a symbolic
// link, a device) is refused: what it points to is not the bot's.
func pack(dir string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		name := filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: 0o755})
		case !info.Mode().IsRegular():
			return fmt.Errorf("%s: not a regular file or directory", name)
		}
		mode := int64(0o644)
		if info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: info.Size()}); err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.CopyN(tw, f, info.Size())
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unpack extracts an archive of pack into dir, which it creates; a name
// that would leave dir, or an entry pack does not make, is refused.
func unpack(data []byte, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if !fs.ValidPath(name) || name == "." || strings.Contains(h.Name, "\\") {
			return fmt.Errorf("%q: a name outside the bot's directory", h.Name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(dst, 0o755)
		case tar.TypeReg:
			err = writeFile(dst, tr, os.FileMode(h.Mode)&0o755)
		default:
			err = fmt.Errorf("%s: not a regular file or directory", name)
		}
		if err != nil {
			return err
		}
	}
}

func writeFile(dst string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fetch is the bot want of a job, from the files the coordinator shared:
// fetched into dir/DIGEST once (the archive's digest checked), then
// checked to be the job's build. A worker never plays another build.
func fetch(ctx context.Context, obs jetstream.ObjectStore, dir string, want JobBot) (bot.Spec, error) {
	into := filepath.Join(dir, want.Files)
	if _, err := os.Stat(into); err != nil {
		data, err := obs.GetBytes(ctx, want.Files)
		if err != nil {
			return bot.Spec{}, fmt.Errorf("bot %s: fetching %w %s: %w", want.Name, ErrFiles, want.Files, err)
		}
		if got := digest(data); got != want.Files {
			return bot.Spec{}, fmt.Errorf("bot %s: %w fetched are %s, not %s", want.Name, ErrFiles, got, want.Files)
		}
		tmp := into + ".tmp-" + nuid.Next()
		if err := unpack(data, tmp); err != nil {
			os.RemoveAll(tmp)
			return bot.Spec{}, fmt.Errorf("bot %s: %w: %w", want.Name, ErrFiles, err)
		}
		if err := os.Rename(tmp, into); err != nil {
			os.RemoveAll(tmp)
			if _, serr := os.Stat(into); serr != nil { // not another slot's, done meanwhile
				return bot.Spec{}, fmt.Errorf("bot %s: %w: %w", want.Name, ErrFiles, err)
			}
		}
	}
	spec := stdio.Command{Name: want.Name, Argv: want.Argv, Env: want.Env, Dir: into}.Spec()
	spec.Launcher = nil // bound by the worker (Worker.Bind)
	build, err := Build(spec)
	if err != nil {
		return bot.Spec{}, err
	}
	if build != want.Build {
		return bot.Spec{}, fmt.Errorf("bot %s: %w: they make build %s, the run's is %s", want.Name, ErrFiles, build, want.Build)
	}
	return spec, nil
}
