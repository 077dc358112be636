// Package version says which arena a binary is: its release and the
// commit it was built from, as Go stamped it.
package version

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Text is what --version prints after "arena version": release (the
// arena's version) and the commit the binary was built from (and whether
// the tree had uncommitted changes), so that a bug report names the
// exact source.
// Go stamps the commit into binaries built inside a git checkout (go build
// and, since Go 1.24, go run), unless -buildvcs=false; test binaries carry
// none.
func Text(release string, info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return release + " (commit unknown: no build information)"
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
			return fmt.Sprintf("%s (module %s)", release, v) // built as a dependency: go install ...@version
		}
		return release + " (commit unknown: built without version control information, e.g. -buildvcs=false or outside a git checkout)"
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
	return fmt.Sprintf("%s (%s)", release, strings.Join(parts, ", "))
}
