package output_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
)

// TestGames: each listing of a game names what the engine says of it,
// in its format: the table of options, JSON with the schema, and the
// schema document alone.
func TestGames(t *testing.T) {
	g, err := engine.Lookup("banqi")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		print func(*bytes.Buffer) error
		check func(string) bool
	}{
		{"games", func(b *bytes.Buffer) error { return output.Games(b, []engine.Game{g}) }, func(s string) bool {
			return strings.HasPrefix(s, "banqi (2 seats): ") && strings.Contains(s, "OPTION") && strings.HasSuffix(s, "\n\n")
		}},
		{"json", func(b *bytes.Buffer) error { return output.GamesJSON(b, []engine.Game{g}) }, func(s string) bool {
			var all struct{ Games []engine.Description }
			return json.Unmarshal([]byte(s), &all) == nil && len(all.Games) == 1 && all.Games[0].Name == "banqi"
		}},
		{"schema", func(b *bytes.Buffer) error { return output.Schema(b, g) }, func(s string) bool {
			return json.Valid([]byte(s)) && strings.HasPrefix(s, "{\n  ")
		}},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		if err := tc.print(&b); err != nil || !tc.check(b.String()) {
			t.Errorf("%s: %v:\n%s", tc.name, err, b.String())
		}
	}
}
