package tournament

import (
	"testing"
)

// FuzzParseFile: a tournament file of any bytes is decoded and resolved
// (ParseFile, then Resolve against an empty directory) without a panic;
// whatever resolves has every default filled in.
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		"name: cup\ngame: banqi\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot greedy}]\n",
		"name: g\ngame: boon\nseats: 4\nformat: gauntlet\ngauntlet: [a]\ngames_per_encounter: 4\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}, {name: c, command: arena bot random}, {name: d, command: arena bot random}]\n",
		"name: s\ngame: banqi\nformat: swiss\nrounds: 3\nclock: {move: 200ms, tc: 60s+1s, startup: 2s, margin: 10ms}\nfailure: {policy: random, max_strikes: 2}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}, {name: c, command: arena bot random}]\n",
		"name: e\ngame: uno\nseats: 3\nformat: table-elimination\nadvance: 1\nmax_games: 6\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}, {name: c, command: arena bot random}]\n",
		"name: x\ngame: banqi\nseeding_from: nowhere\nbots: [{name: a, command: arena bot random}]\n",
		"name: t\ngame: banqi\nclock:\n  move: fast\nbots: []\n",
		"name: t\ngame: banqi\nconcurrency: -1\nseats: 9223372036854775807\nbots: [{name: a, command: 'arena \"unterminated'}]\n",
		"&a [*a]", "name: [", "{}", "", "---\n---\n", "name: !!binary AAAA\n", "bots: {name: a}\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4<<10 {
			t.Skip("long files add nothing but time")
		}
		file, err := ParseFile("fuzz.yaml", data)
		if err != nil {
			return
		}
		c, err := file.Resolve("fuzz.yaml", dir)
		if err != nil {
			return
		}
		if c.Game == nil || c.Seats < 1 || c.Concurrency < 1 || c.MaxLine <= 0 || c.StderrCap <= 0 ||
			c.Limits.Startup <= 0 || (c.Limits.Move <= 0 && c.Limits.Base <= 0 && c.Limits.Inc <= 0) || c.Limits.Move < 0 {
			t.Fatalf("resolved config lacks a default: %+v", c)
		}
		if _, err := c.NewScheduler(); err != nil {
			t.Fatalf("resolved, yet its scheduler fails: %v", err)
		}
	})
}
