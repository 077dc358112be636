package main

import (
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// arena connect says what its bot does, a line each on stderr: a
// session starting and ending (and why), and each game's result as the
// bot learns it; a session closed mid-game says which game (a forfeit
// gets no result). -q silences the lines.
func TestConnectTellsSessionsAndGames(t *testing.T) {
	t.Parallel()
	crasher := script(t, "crasher.sh", `read x; echo '{"type":"ready"}'; read x; exit 3`)
	url := natsServer(t)
	shown := start(t, nil, "connect", "--nats", url, "--bot", "shown", "--sessions", "2", "--", "arena", "bot", "greedy")
	hushed := start(t, nil, "connect", "--nats", url, "--bot", "hushed", "--sessions", "2", "-q", "--", "arena", "bot", "random")
	crashing := start(t, nil, "connect", "--nats", url, "--bot", "crashing", "--", "sh", crasher)
	for _, p := range []*process{shown, hushed, crashing} {
		p.waitFor(t, regexp.MustCompile(`(serving bot \S+)`))
	}
	for _, bots := range [][]string{{"a=nats:shown", "b=nats:hushed"}, {"c=nats:crashing", "r=arena bot random"}} {
		if _, stderr, code := arena(t, "match", "--nats", url, "--game", "banqi", "--games", "2", "--bot", bots[0], "--bot", bots[1]); code != 0 {
			t.Fatalf("match %v: exit %d: %s", bots, code, stderr)
		}
	}
	for _, p := range []*process{shown, hushed, crashing} {
		p.cmd.Process.Signal(syscall.SIGTERM) // its sessions are told first, every line printed
		if code := p.wait(t); code != 0 {
			t.Fatalf("connect: exit %d: %s", code, p.stderr())
		}
	}
	for _, want := range []string{
		`arena: session 1 started \(1 running\)`,
		`arena: session 1: game \S+-g0000 as a \(seat 0\): (1st|2nd|tied 1st) of 2 \((a|b) \S+, (a|b) \S+\), \S`,
		`arena: session 2: game \S+-g0001 as a \(seat 1\): (1st|2nd|tied 1st) of 2 `,
		`arena: session 1 ended: the arena needs it no more \(bye\); the bot: stdout closed \(EOF\)`,
		`arena: stopped serving bot shown \(SIGTERM\)`,
	} {
		if !regexp.MustCompile(want).MatchString(shown.stderr()) {
			t.Errorf("arena connect said no %s:\n%s", want, shown.stderr())
		}
	}
	if strings.Contains(hushed.stderr(), "arena: session ") {
		t.Errorf("arena connect -q told of sessions:\n%s", hushed.stderr())
	}
	crashed := `arena: session 1 ended in game \S+-g0000, before its end \(the bot forfeited it, or the run stopped\): the bot ended: stdout closed \(EOF\)`
	if !regexp.MustCompile(crashed).MatchString(crashing.stderr()) {
		t.Errorf("arena connect said no %s:\n%s", crashed, crashing.stderr())
	}
}
