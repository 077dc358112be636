package ladder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	_ "github.com/arena-dev/arena/arena/remote" // the doc's nats: bot
)

// docLadder is the ladder of the first ```yaml block of docs/name,
// resolved as the arena takes it.
func docLadder(t *testing.T, name string) *ladder.Config {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	if !ok {
		t.Fatalf("docs/%s has no ```yaml block", name)
	}
	text, _, _ := strings.Cut(rest, "```")
	f, err := ladder.ParseFile("docs/"+name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Resolve("docs/"+name, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDocLadderFile: the ladder file docs/ladder.md shows is one the
// arena takes, every key and value of it.
func TestDocLadderFile(t *testing.T) {
	c := docLadder(t, "ladder.md")
	if c.Seats.Min != 2 || c.Seats.Max != 4 || len(c.Bots) != 3 || c.Submissions != ladder.Defaults {
		t.Errorf("docs/ladder.md's file: seats %+v, %d bots, submissions %+v (the doc says it shows the defaults: %+v)",
			c.Seats, len(c.Bots), c.Submissions, ladder.Defaults)
	}
}

// The class ladder of docs/teaching.md is one the arena takes.
func TestDocTeachingLadderFile(t *testing.T) {
	c := docLadder(t, "teaching.md")
	if c.Seats.Min != 4 || c.Seats.Max != 4 || len(c.Bots) != 3 {
		t.Errorf("docs/teaching.md's class ladder: seats %+v, %d bots", c.Seats, len(c.Bots))
	}
}
