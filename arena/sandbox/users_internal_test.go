//go:build linux

package sandbox

import (
	"errors"
	"strings"
	"testing"
)

func TestPasswdEntry(t *testing.T) {
	const passwd = "root:x:0:0:root:/root:/bin/bash\n" +
		"# a comment\n" +
		"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n" +
		"1000:x:1001:1002::/home/odd:/bin/sh\n" +
		"ann:x:1000:100::/home/ann:/bin/sh\n" +
		"bad:x:uid:gid::/:/bin/sh\n"
	for _, tc := range []struct {
		name     string
		uid, gid int
		err      error // errNoUser, or any error when want is -1
	}{
		{"root", 0, 0, nil},
		{"nobody", 65534, 65534, nil},
		{"ann", 1000, 100, nil},
		{"1000", 1001, 1002, nil}, // a name first, then a uid
		{"65534", 65534, 65534, nil},
		{"missing", 0, 0, errNoUser},
		{"4242", 0, 0, errNoUser},
		{"bad", -1, -1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, err := passwdEntry(strings.NewReader(passwd), tc.name)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %q, %v; want %v", line, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			uid, gid, err := passwdIDs(line)
			if tc.uid < 0 {
				if err == nil {
					t.Fatalf("%q: got %d:%d, want an error", line, uid, gid)
				}
				return
			}
			if err != nil || uid != tc.uid || gid != tc.gid {
				t.Fatalf("%q: got %d:%d %v, want %d:%d", line, uid, gid, err, tc.uid, tc.gid)
			}
		})
	}
}

// TestLookupUser: the machine's own accounts, through getent.
func TestLookupUser(t *testing.T) {
	if uid, gid, err := lookupUser("root"); err != nil || uid != 0 || gid != 0 {
		t.Fatalf("root: %d:%d %v", uid, gid, err)
	}
	if _, _, err := lookupUser("no-such-user-here"); !errors.Is(err, errNoUser) {
		t.Fatalf("an unknown user: %v, want errNoUser", err)
	}
}
