package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportCommand: arena report and arena tournament report write the
// report of each kind of results directory, and only it.
func TestReportCommand(t *testing.T) {
	t.Parallel()
	matchDir := filepath.Join(t.TempDir(), "m")
	if _, stderr, code := arena(t, "match", "--game", "banqi", "--option", "max_plies=60", "--bot", "g=arena bot greedy",
		"--bot", "r=arena bot random", "--games", "2", "--out", matchDir, "-q"); code != 0 {
		t.Fatalf("match: %s", stderr)
	}
	cup := t.TempDir()
	if _, stderr, code := arena(t, tournamentArgs(cup)...); code != 0 {
		t.Fatalf("tournament: %s", stderr)
	}
	site := t.TempDir()
	tests := []struct {
		name string
		args []string
		dir  string // the results directory
		file string
		kind string
	}{
		{"match", []string{"report", matchDir}, matchDir, filepath.Join(matchDir, "report.html"), "match report of 2 games"},
		{"tournament", []string{"tournament", "report", cup, "-o", filepath.Join(site, "cup.html")}, cup, filepath.Join(site, "cup.html"), "tournament report of 20 games"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := arena(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if want := tc.file + ": " + tc.kind; strings.TrimSpace(stdout) != want {
				t.Fatalf("stdout %q, want %q", stdout, want)
			}
			page, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), `id="standings"`) || !strings.Contains(string(page), `href="`) {
				t.Fatalf("%s is not a report with links", tc.file)
			}
			// Every game links to its viewer page, written beside the report.
			ids := ledgerGameIDs(t, filepath.Join(tc.dir, "results.jsonl"))
			for _, id := range ids {
				link := "viewer/" + id + ".html"
				if !strings.Contains(string(page), `href="`+link+`"`) {
					t.Errorf("the report does not link %s", link)
				}
				viewerPage, err := os.ReadFile(filepath.Join(filepath.Dir(tc.file), link))
				if err != nil {
					t.Fatalf("game %s has no viewer page: %v", id, err)
				}
				if !strings.Contains(string(viewerPage), id) {
					t.Errorf("%s is not the viewer page of game %s", link, id)
				}
			}
		})
	}
}

// ledgerGameIDs are the game ids of a results file's lines, in order.
func ledgerGameIDs(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			GameID string `json:"game_id"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.GameID == "" {
			t.Fatalf("%s: line %q: %v", path, line, err)
		}
		ids = append(ids, e.GameID)
	}
	if len(ids) == 0 {
		t.Fatalf("%s has no games", path)
	}
	return ids
}

func TestReportUsage(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	runUsageCases(t, []usageCase{
		{"no DIR", []string{"report"}, "one results DIR"},
		{"two DIRs", []string{"report", empty, empty}, "got 2 arguments"},
		{"missing DIR", []string{"report", filepath.Join(empty, "nope")}, filepath.Join(empty, "nope")},
		{"not results", []string{"tournament", "report", empty}, empty + ": not an arena results directory"},
		{"--out nowhere", []string{"report", empty, "-o", filepath.Join(empty, "no", "r.html")}, "no directory " + filepath.Join(empty, "no")},
	}, nil)
}
