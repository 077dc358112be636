package version

import (
	"runtime/debug"
	"testing"
)

// Version is a release, as cmd/arena's.
const Version = "0.1.0"

// TestVersionNamesTheCommit: the version names the commit and whether the
// tree had uncommitted changes, from the build information Go stamps.
func TestVersionNamesTheCommit(t *testing.T) {
	t.Parallel()
	rev := "42f8330c3e9d6a5f0e1b2c3d4e5f60718293a4b5"
	vcs := func(kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/arena-dev/arena", Version: "(devel)"}}
		for i := 0; i+1 < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	cases := []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-12-01T11:27:54Z", "vcs.modified", "true"), true,
			Version + " (commit " + rev + ", of 2026-12-01T11:27:54Z, with uncommitted changes)"},
		{vcs("vcs.revision", rev, "vcs.modified", "false"), true, Version + " (commit " + rev + ", clean tree)"},
		{vcs("-buildvcs", "false"), true, Version + " (commit unknown: built without version control information, e.g. -buildvcs=false or outside a git checkout)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, true, Version + " (module v0.1.0)"},
		{nil, false, Version + " (commit unknown: no build information)"},
	}
	for _, tc := range cases {
		if got := Text(Version, tc.info, tc.ok); got != tc.want {
			t.Errorf("Text = %q, want %q", got, tc.want)
		}
	}
}
