//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// errNoUser: no account has the name (or uid) given for --bot-user.
var errNoUser = errors.New("no such user")

// passwdFile is where lookupUser reads accounts when the machine has no
// getent.
const passwdFile = "/etc/passwd"

// lookupUser finds a user's uid and primary gid, by name or else by uid,
// through the system's name service as the C library sees it (getent), or
// from /etc/passwd where there is no getent. Not os/user: with cgo it
// links the C library into every program that imports this package, the
// wrapper among them, and each bot start would then run the dynamic
// loader, twice when isolated (docs/security.md, how a bot is started).
func lookupUser(name string) (uid, gid int, err error) {
	var line string
	out, err := exec.Command("getent", "passwd", name).Output()
	var exit *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound):
		f, err := os.Open(passwdFile)
		if err != nil {
			return 0, 0, fmt.Errorf("reading accounts: %w", err)
		}
		defer f.Close()
		if line, err = passwdEntry(f, name); err != nil {
			return 0, 0, err
		}
	case errors.As(err, &exit) && exit.ExitCode() == 2: // getent's "not found"
		return 0, 0, errNoUser
	case err != nil:
		return 0, 0, fmt.Errorf("getent passwd: %w", err)
	default:
		line, _, _ = strings.Cut(string(out), "\n")
	}
	return passwdIDs(line)
}

// passwdEntry is the line of a passwd file for the user name, or for the
// uid name when no user has that name.
func passwdEntry(r io.Reader, name string) (string, error) {
	var byUID string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := bytes.Split(sc.Bytes(), []byte(":"))
		if len(f) < 4 {
			continue
		}
		if string(f[0]) == name {
			return sc.Text(), nil
		}
		if byUID == "" && string(f[2]) == name {
			byUID = sc.Text()
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("reading accounts: %w", err)
	}
	if byUID == "" {
		return "", errNoUser
	}
	return byUID, nil
}

// passwdIDs reads the uid and gid of a passwd line
// (name:password:uid:gid:...).
func passwdIDs(line string) (uid, gid int, err error) {
	f := strings.Split(line, ":")
	if len(f) < 4 {
		return 0, 0, fmt.Errorf("unreadable account %q", line)
	}
	uid, err1 := strconv.Atoi(f[2])
	gid, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || uid < 0 || gid < 0 {
		return 0, 0, fmt.Errorf("unusable uid/gid %s/%s", f[2], f[3])
	}
	return uid, gid, nil
}
