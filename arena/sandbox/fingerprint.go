package sandbox

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"runtime"
	"sort"
	"sync"

	"github.com/arena-dev/arena/internal/fds"
)

// WrapperName is the sandbox wrapper as a program of its own
// (cmd/arena-sandbox). Beside the arena executable and built from the
// same code, it is what bot processes start through: a 4 MB program
// starts in a fraction of the time the whole arena takes (docs/security.md,
// "Starting bot processes"). Without it the arena re-executes itself.
const WrapperName = "arena-sandbox"

// sources is the code a wrapper's behaviour comes from: this package and
// its device rules, without their tests (a pattern cannot leave out
// *_test.go, so the files are named; TestFingerprintCoversEverySource
// fails when one is missing), and internal/fds (fds.Sources). Its hash is
// how an arena knows that a wrapper beside it confines bots exactly as
// its own copy of the code would.
//
//go:embed box_linux.go boxdir_other.go boxdir_unix.go capabilities.go describe_linux.go detect_linux.go fingerprint.go isolate_linux.go
//go:embed plan_linux.go protections.go reexec.go root_linux.go sandbox.go sandbox_linux.go sandbox_other.go
//go:embed seccomp_linux.go seccomp_linux_amd64.go seccomp_linux_arm64.go seccomp_linux_otherarch.go shield_linux.go
//go:embed stage2_linux.go start.go uids_linux.go usage_linux.go users_linux.go wrapper_linux.go
//go:embed devcgroup/bpf_linux.go devcgroup/devcgroup_linux.go
var sources embed.FS

// Fingerprint identifies the sandbox code this program was built from
// (the package's sources and the Go release): two programs with the same
// fingerprint confine a bot alike.
var Fingerprint = sync.OnceValue(func() string {
	h := sha256.New()
	h.Write([]byte(runtime.Version()))
	for _, src := range []struct {
		prefix string
		files  fs.FS
	}{{"", sources}, {"internal/fds/", fds.Sources}} {
		for _, n := range sourceNames(src.files) {
			data, _ := fs.ReadFile(src.files, n)
			h.Write([]byte{0})
			h.Write([]byte(src.prefix + n))
			h.Write([]byte{0})
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
})

// sourceNames lists the files of an embedded tree, in order.
func sourceNames(files fs.FS) []string {
	var names []string
	_ = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, path)
		}
		return err
	})
	sort.Strings(names)
	return names
}
