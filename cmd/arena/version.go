package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// versionText is what --version prints after "arena version": the
// release and the commit the binary was built from (and whether the tree
// had uncommitted changes), so that a bug report names the exact source.
// Go stamps the commit into binaries built inside a git checkout (go build
// and, since Go 1.24, go run), unless -buildvcs=false; test binaries carry
// none.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return Version + " (commit unknown: no build information)"
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		if k, found := strings.CutPrefix(s.Key, "vcs."); found {
			vcs[k] = s.Value
		}
	}
	rev := vcs["revision"]
	if rev == "" {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return fmt.Sprintf("%s (module %s)", Version, v) // built as a dependency: go install ...@version
		}
		return Version + " (commit unknown: built without version control information, e.g. -buildvcs=false or outside a git checkout)"
	}
	parts := []string{"commit " + rev}
	if t := vcs["time"]; t != "" {
		parts = append(parts, "of "+t)
	}
	switch vcs["modified"] {
	case "true":
		parts = append(parts, "with uncommitted changes")
	case "false":
		parts = append(parts, "clean tree")
	}
	return fmt.Sprintf("%s (%s)", Version, strings.Join(parts, ", "))
}
