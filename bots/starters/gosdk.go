package starters

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"

	arena "github.com/arena-dev/arena"
)

// goSDKDir is where a Go kit holds its copy of the SDK's module.
const goSDKDir = "arena-sdk"

// addGoSDK makes kit a module of its own: a go.mod that requires this
// module and replaces it with the copy of the SDK's packages the kit
// carries (arena.GoSDK), so the bot builds where it is written, offline,
// whether or not the arena that wrote it still has its source.
func addGoSDK(kit map[string][]byte) error {
	gomod, err := fs.ReadFile(arena.GoSDK, "go.mod")
	if err != nil {
		return err
	}
	module, goVersion := goModField(gomod, "module"), goModField(gomod, "go")
	if module == "" || goVersion == "" {
		return fmt.Errorf("the embedded go.mod names no module or no go version:\n%s", gomod)
	}
	kit["go.mod"] = fmt.Appendf(nil, `module bot

go %[1]s

require %[2]s v0.0.0

// %[3]s is the arena's Go SDK, copied into this kit by arena new: the bot
// builds with no network and no clone of the arena's repository.
replace %[2]s => ./%[3]s
`, goVersion, module, goSDKDir)
	kit[goSDKDir+"/go.mod"] = fmt.Appendf(nil, "module %s\n\ngo %s\n", module, goVersion)
	kit[goSDKDir+"/README.md"] = fmt.Appendf(nil, `# The arena's Go SDK, for this kit

A copy of the SDK's packages (%[1]s/sdk, sdk/banqi, sdk/uno, sdk/boon,
sdk/sdktest) and of the packages of the arena they import, without their
tests: nothing else but the standard library. arena new wrote it; the
kit's go.mod points %[1]s here with a replace directive, so the bot
builds offline, without a clone of the arena's repository. Leave it as it
is: for a newer SDK, write a new kit with a newer arena and move your
code into it. The SDK's reference is docs/sdk-go.md in this kit.
`, module)
	return fs.WalkDir(arena.GoSDK, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == "go.mod" || strings.HasSuffix(name, "_test.go") {
			return err
		}
		data, err := fs.ReadFile(arena.GoSDK, name)
		kit[goSDKDir+"/"+name] = data
		return err
	})
}

// goModField is the value of go.mod's one-line directive named key
// ("module", "go"), "" if there is none.
func goModField(gomod []byte, key string) string {
	for line := range bytes.Lines(gomod) {
		if value, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte(key+" ")); ok {
			return string(bytes.TrimSpace(value))
		}
	}
	return ""
}
