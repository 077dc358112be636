package main

import (
	"regexp"
	"strings"
	"testing"
)

// --trace NAME prints that bot's whole transcript to stderr as it passes,
// every session and every line (hello, turns, actions, end, bye), and
// nothing of the other bot; --trace N names the N-th --bot.
func TestTracePrintsOneBotsTranscript(t *testing.T) {
	for _, which := range []string{"b", "1"} {
		t.Run(which, func(t *testing.T) {
			_, stderr, code := arena(t, "match", "--game", "banqi", "--option", "max_plies=6", "--games", "2",
				"--bot", "a=arena bot random", "--bot", "b=arena bot greedy", "--trace", which, "-q")
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			line := regexp.MustCompile(`^\[ *\d+\.\d{3}\] (\S+) #(\d+) ([<>!]) (.*)$`)
			count := map[string]int{}
			sessions := map[string]bool{}
			for _, l := range strings.Split(stderr, "\n") {
				m := line.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				if m[1] != "b" {
					t.Errorf("a line of another bot: %s", l)
				}
				sessions[m[2]] = true
				kind := m[3]
				if kind != "!" {
					kind += " " + regexp.MustCompile(`"type":"(\w+)"`).FindStringSubmatch(m[4])[1]
				}
				count[kind]++
			}
			// Two games on one deal: two processes, each with its hello,
			// ready, three turns and actions (6 plies), end and bye.
			want := map[string]int{"> hello": 2, "< ready": 2, "> turn": 6, "< action": 6, "> end": 2, "> bye": 2}
			for k, n := range want {
				if count[k] != n {
					t.Errorf("%d %q lines, want %d; stderr:\n%s", count[k], k, n, stderr)
				}
			}
			if len(sessions) != 2 {
				t.Errorf("sessions %v, want 2", sessions)
			}
		})
	}
}

func TestTraceNamesTheBotsWhenWrong(t *testing.T) {
	runUsageCases(t, []usageCase{
		{"unknown", []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--trace", "c"}, `--trace "c": no such bot (want 0 or a, 1 or b)`},
		{"out of range", []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--trace", "2"}, `--trace "2": no such bot`},
	}, nil)
}

// A --trace naming no bot is said before any other flag's mistake, and
// alone: no warning about the games before it (as before issue 37).
func TestTraceMistakeFirstAndAlone(t *testing.T) {
	bots := []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--trace", "c"}
	runUsageCases(t, []usageCase{
		{"uneven games", append(bots, "--games", "1"), `--trace "c": no such bot`},
		{"before --games", append(bots, "--games", "0"), `--trace "c": no such bot`},
		{"before a bad clock", append(bots, "--tc", "fast"), `--trace "c": no such bot`},
	}, func(t *testing.T, tc usageCase, stdout, stderr string) {
		if want := "arena: --trace \"c\": no such bot (want 0 or a, 1 or b)\n"; stderr != want {
			t.Errorf("stderr:\n%s\nwant only:\n%s", stderr, want)
		}
	})
}
