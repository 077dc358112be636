package web_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
)

// Serve a ladder directory's leaderboard: here a new ladder of two
// in-memory bots, fetched as a browser would.
func ExampleNew() {
	tmp, _ := os.MkdirTemp("", "ladder")
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "ladder.yaml")
	os.WriteFile(file, []byte("name: cup\ngame: uno\nbots:\n  - name: alice\n    command: mem:random\n  - name: bob\n    command: mem:first\n"), 0o644)
	dir := filepath.Join(tmp, "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		fmt.Println(err)
		return
	}

	s, err := web.New(dir, web.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	// A running ladder (in this process) tells it of each game:
	// ladder.RunOptions{OnGame: func(ladder.Progress) { s.Changed() }}.
	// http.ListenAndServe("127.0.0.1:8080", s) serves it.

	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	page := rec.Body.String()
	fmt.Println(rec.Code, strings.Contains(page, "alice.v1"), strings.Contains(page, "bob.v1"))
	// Output: 200 true true
}
