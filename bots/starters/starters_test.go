package starters

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	arena "github.com/arena-dev/arena"
	"github.com/arena-dev/arena/internal/testkit"
)

// TestLanguageTakesTheNamesPeopleType: every kit's language is found by
// the names people type for it, in any case; anything else is ErrNoKit,
// with the list.
func TestLanguageTakesTheNamesPeopleType(t *testing.T) {
	for _, l := range Languages() {
		if len(languageNames[l]) == 0 || languageNames[l][0] != l {
			t.Errorf("kit language %s has no names, or not its own first: %v", l, languageNames[l])
		}
	}
	cases := map[string]string{
		"python": "python", "py": "python", "Python3": "python", "PY": "python",
		"js": "js", "JS": "js", "javascript": "js", "JavaScript": "js", "node": "js", "NodeJS": "js",
		"go": "go", "Go": "go", "golang": "go", "GoLang": "go",
		"cobol": "", "": "", "pyth": "", "java": "",
	}
	for name, want := range cases {
		got, err := Language(name)
		if want == "" {
			if !errors.Is(err, ErrNoKit) || !strings.Contains(err.Error(), "python (or py, python3)") || !strings.Contains(err.Error(), "js (or javascript, node, nodejs)") {
				t.Errorf("Language(%q) = %q, %v; want ErrNoKit with the list", name, got, err)
			}
			continue
		}
		if got != want || err != nil {
			t.Errorf("Language(%q) = %q, %v; want %q", name, got, err, want)
		}
		if _, err := Kit(name, "uno"); err != nil {
			t.Errorf("Kit(%q, uno): %v", name, err)
		}
	}
}

// TestKitLinksWork: every relative link of every Markdown file of every
// kit, as written, points to a file of the kit (a link that would be dead
// there is plain text), and every doc a README links is in the kit; the
// READMEs' links work where they are in this repository too.
func TestKitLinksWork(t *testing.T) {
	root := testkit.ModuleRoot(t)
	for _, lang := range Languages() {
		for _, game := range Games(lang) {
			t.Run(lang+"/"+game, func(t *testing.T) {
				dir := t.TempDir()
				names, err := Write(dir, lang, game)
				if err != nil {
					t.Fatal(err)
				}
				readmeDocs := 0
				for _, name := range names {
					if !strings.HasSuffix(name, ".md") {
						continue
					}
					md, err := os.ReadFile(filepath.Join(dir, name))
					if err != nil {
						t.Fatal(err)
					}
					for _, file := range checkLinks(t, name, md, filepath.Join(dir, path.Dir(name))) {
						if name == "README.md" && strings.HasPrefix(file, "docs/") {
							readmeDocs++
						}
					}
				}
				if readmeDocs < 2 {
					t.Errorf("the README links %d docs, want the SDK's and the game's at least", readmeDocs)
				}
				src := path.Join(templateDir, lang, game)
				readme, err := files.ReadFile(path.Join(lang, game, "README.md"))
				if err != nil {
					t.Fatal(err)
				}
				checkLinks(t, src+"/README.md in this repository", readme, filepath.Join(root, src))
			})
		}
	}
}

// checkLinks fails t for each relative link of md, a file of dir, to no
// file; it returns the files md links to.
func checkLinks(t *testing.T, name string, md []byte, dir string) []string {
	t.Helper()
	var linked []string
	for _, target := range relativeLinks(md) {
		file, _, _ := strings.Cut(target, "#")
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
			t.Errorf("%s links %s: %v", name, target, err)
		}
		linked = append(linked, file)
	}
	return linked
}

// relativeLinks are md's relative link targets outside code: those
// rewriteLinks would rewrite.
func relativeLinks(md []byte) []string {
	var out []string
	rewriteLinks(md, func(target string) (string, bool) {
		out = append(out, target)
		return target, true
	})
	return out
}

func TestRewriteLinks(t *testing.T) {
	md := "See [a](a.md#x), [gone](gone.md), [web](https://example.org/x) and [top](#top).\n" +
		"`[code](gone.md)` and ``[x](gone.md) ` still``\n" +
		"```sh\n[fenced](gone.md)\n```\n" +
		"A [link\nover lines](a.md).\n"
	got := string(rewriteLinks([]byte(md), func(target string) (string, bool) {
		if strings.HasPrefix(target, "a.md") {
			return "docs/" + target, true
		}
		return "", false
	}))
	want := "See [a](docs/a.md#x), gone, [web](https://example.org/x) and [top](#top).\n" +
		"`[code](gone.md)` and ``[x](gone.md) ` still``\n" +
		"```sh\n[fenced](gone.md)\n```\n" +
		"A [link\nover lines](docs/a.md).\n"
	if got != want {
		t.Errorf("rewriteLinks:\n%s\nwant:\n%s", got, want)
	}
}

// TestGoSDKIsItsOwnClosure: the Go SDK a kit carries (arena.GoSDK) is
// exactly the packages the SDK's packages import from this module, on
// every system, and nothing they import is outside the standard library:
// a kit builds offline.
func TestGoSDKIsItsOwnClosure(t *testing.T) {
	goTool := testkit.Tool(t, "go")
	embedded := map[string]bool{} // the directories with Go files
	err := fs.WalkDir(arena.GoSDK, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(name, ".go") {
			embedded[path.Dir(name)] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	roots := []string{"./sdk"} // the SDK's packages: sdk and those under it
	for dir := range embedded {
		if strings.HasPrefix(dir, "sdk/") {
			roots = append(roots, "./"+dir)
		}
	}
	gomod, err := arena.GoSDK.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := goModField(gomod, "module")
	needed := map[string]bool{} // on any of the systems
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command(goTool, append([]string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}"}, roots...)...)
		cmd.Dir = testkit.ModuleRoot(t)
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list (GOOS=%s): %v", goos, err)
		}
		for _, p := range strings.Fields(string(out)) {
			dir, ok := strings.CutPrefix(p, module+"/")
			if !ok {
				t.Errorf("GOOS=%s: the SDK needs %s, outside this module and the standard library", goos, p)
				continue
			}
			needed[dir] = true
			if !embedded[dir] {
				t.Errorf("GOOS=%s: the SDK needs %s: add %s/*.go to arena.GoSDK's go:embed", goos, p, dir)
			}
		}
	}
	for dir := range embedded {
		if !needed[dir] {
			t.Errorf("arena.GoSDK holds %s, which the SDK does not import: remove it", dir)
		}
	}
}

// TestNamedForItsDirectory: the kit's README and bot name the directory
// the kit was written into, as given, in their commands; the SDK and the
// docs are left as they are; a directory a shell would need quoted
// leaves the templates' name.
func TestNamedForItsDirectory(t *testing.T) {
	kit, err := Kit("python", "uno")
	if err != nil {
		t.Fatal(err)
	}
	goKit, err := Kit("go", "uno")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, check, goCheck string
	}{
		{"unobot", "'python3 unobot/bot.py'", "./unobot/bot"},
		{"bots/v2", "'python3 bots/v2/bot.py'", "./bots/v2/bot"},
		{"./v3/", "'python3 v3/bot.py'", "./v3/bot"},
		{"../v4", "'python3 ../v4/bot.py'", "../v4/bot"},
		{"/home/me/v5", "'python3 /home/me/v5/bot.py'", "/home/me/v5/bot"},
		{"my bot", "'python3 mybot/bot.py'", "./mybot/bot"},
		{".", "'python3 mybot/bot.py'", "./mybot/bot"},
	} {
		named, goNamed := Named(kit, tc.dir), Named(goKit, tc.dir)
		if check := "arena check --game uno " + tc.check; !strings.Contains(string(named["README.md"]), check) {
			t.Errorf("%s: the README lacks %q:\n%s", tc.dir, check, named["README.md"])
		}
		if check := "arena check --game uno " + tc.goCheck + "\n"; !strings.Contains(string(goNamed["README.md"]), check) {
			t.Errorf("%s: the Go README lacks %q:\n%s", tc.dir, check, goNamed["README.md"])
		}
		for name, data := range named {
			if (strings.HasPrefix(name, "docs/") || name == "arenabot.py") && !bytes.Equal(data, kit[name]) {
				t.Errorf("%s: %s was changed", tc.dir, name)
			}
		}
	}
}

// TestTopLevel: a kit's files as ls shows its directory, a subdirectory
// once with the count of the files it holds.
func TestTopLevel(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"bot.py", "README.md"}, "bot.py, README.md"},
		{[]string{"bot.py", "docs/a.md", "arena/x.py", "docs/b/c.md", "README.md"}, "bot.py, docs/ (2 files), arena/ (1 files), README.md"},
	}
	for _, tc := range tests {
		if got := strings.Join(TopLevel(tc.names), ", "); got != tc.want {
			t.Errorf("TopLevel(%v) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
