package bench

import (
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// TestMeasureEngineFailures: an engine that exits without answering, or
// answers with an error, fails the measure with what went wrong, never
// passes for a fast one.
func TestMeasureEngineFailures(t *testing.T) {
	banqi, err := engine.Lookup("banqi")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: banqi, RoundTrips: 8}
	for _, tc := range []struct{ script, want string }{
		{"read l; exit 0", "did not answer"},
		{`while read l; do echo '{"id":null,"error":{"code":"internal","message":"x"}}'; done`, `"code":"internal"`},
	} {
		_, err := measureEngine(cfg, []string{"sh", "-c", tc.script})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one naming %s", tc.script, err, tc.want)
		}
	}
}
