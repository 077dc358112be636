package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCIWorkflowCommandRuns: the arena command of docs/ci.md's GitHub
// Actions workflow runs as written, its flags and values accepted, with
// the bundled random bot for both builds, this binary for the arena, a
// few games instead of its thousands and the shell's own arithmetic for
// its concurrency; it ends with one of the verdicts the workflow's case
// knows (0, 3, 4), and writes the JUnit and Markdown reports it names.
func TestCIWorkflowCommandRuns(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	_, workflow, _ := strings.Cut(string(doc), "`.github/workflows/strength.yml`:")
	m := regexp.MustCompile(`(?s)"\$RUNNER_TEMP/arena-bin/arena" sprt .*?--summary-md "\$GITHUB_STEP_SUMMARY"`).FindString(workflow)
	if m == "" {
		t.Fatal("docs/ci.md's workflow has no arena sprt command")
	}
	dir := t.TempDir()
	cmdline := strings.NewReplacer(
		`"$RUNNER_TEMP/arena-bin/arena"`, os.Args[0],
		`"$RUNNER_TEMP/bot-old"`, "'arena bot random'",
		`"$RUNNER_TEMP/bot-new"`, "'arena bot random'",
		`"$GITHUB_STEP_SUMMARY"`, filepath.Join(dir, "summary.md"),
		"\\\n", " ",
	).Replace(m)
	cmdline = regexp.MustCompile(`--max-games \d+`).ReplaceAllString(cmdline, "--max-games 4")
	cmd := exec.Command("sh", "-c", cmdline+" -q")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	code := exitCode(t, err)
	if code != 0 && code != 3 && code != exitInconclusive {
		t.Fatalf("%s\nexit %d:\n%s", cmdline, code, out)
	}
	for _, f := range []string{"sprt-junit.xml", "summary.md", "sprt-out/sprt.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the workflow's command wrote no %s: %v", f, err)
		}
	}
}
