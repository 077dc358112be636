package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// attacker is the name under which this test binary is attackBot.
const attacker = "eve"

func init() {
	if seed := os.Getenv("ARENA_ATTACK_SEED"); seed != "" && os.Getenv("ARENA_BOT_NAME") == attacker {
		os.Exit(attackBot(seed))
	}
}

// attackBot is a contestant who read the run's seed (ARENA_ATTACK_SEED,
// given with --bot-env as if read from the tournament file or an earlier
// run's results) and has the arena's open-source dealing code. At every
// hello it derives the deal seeds of that seed the public way
// (seed.Derive, with every label the arena deals with and the first
// 256 indices) and looks for the one whose seed.Bot is its
// hello.seed: that deal seed is the whole deal, every hidden card. With a
// secret (ARENA_ATTACK_SECRET in hex, or ARENA_ATTACK_FILE, a secret file
// it tries to read) it also tries the keyed derivation. It reports on
// stderr ("attack: found deal seed N" or "attack: no deal found") and by
// its play: knowing the deal, it answers its first turn with an illegal
// index, which the referee records as an illegal_action forfeit; else it
// plays the first legal action.
func attackBot(seedText string) int {
	runSeed, err := strconv.ParseUint(seedText, 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "attack: bad seed", seedText)
		return 1
	}
	a := &attack{derivations: []func(label string, i uint64) uint64{
		func(label string, i uint64) uint64 { return seed.Derive(runSeed, label, i) },
	}}
	var secret *deal.Secret
	if h := os.Getenv("ARENA_ATTACK_SECRET"); h != "" {
		secret = new(deal.Secret)
		if _, err := hex.Decode(secret[:], []byte(h)); err != nil {
			fmt.Fprintln(os.Stderr, "attack: bad secret", err)
			return 1
		}
	}
	if f := os.Getenv("ARENA_ATTACK_FILE"); f != "" {
		if secret, err = deal.Read(f); err != nil {
			fmt.Fprintln(os.Stderr, "attack: cannot read the secret:", err)
		}
	}
	if secret != nil {
		a.derivations = append(a.derivations, func(label string, i uint64) uint64 { return secret.Seed(runSeed, label, i) })
	}
	if err := sdk.Run(os.Stdin, os.Stdout, a, sdk.Options{Name: attacker}); err != nil {
		return 1
	}
	return 0
}

type attack struct {
	derivations  []func(label string, i uint64) uint64
	known, first bool
}

func (a *attack) Start(h *protocol.Hello) error {
	d, known := a.find(h.Seed, encounterLabels(h.GameID))
	a.known, a.first = known, true
	if known {
		fmt.Fprintf(os.Stderr, "attack: found deal seed %d\n", d)
	} else {
		fmt.Fprintln(os.Stderr, "attack: no deal found")
	}
	return nil
}

// encounterLabels are the labels a tournament deals an encounter's games
// with (share_deals: encounter): "encounter/" and the game's id in the
// schedule without its game number, which the game id sent in hello ends
// with (after the tournament's name, which the attacker need not know).
func encounterLabels(gameID string) []string {
	stem := gameID
	if i := strings.LastIndex(stem, "-g"); i >= 0 {
		stem = stem[:i]
	}
	var out []string
	for i := range len(stem) {
		if i == 0 || stem[i-1] == '-' {
			out = append(out, "encounter/"+stem[i:])
		}
	}
	return out
}

func (a *attack) find(botSeed uint64, more []string) (uint64, bool) {
	for _, derive := range a.derivations {
		for _, label := range append([]string{"game", "fresh", "deal", "sprt", "sprt-game"}, more...) {
			for i := range uint64(256) {
				d := derive(label, i)
				for b := range 16 {
					if seed.Bot(d, b) == botSeed {
						return d, true
					}
				}
			}
		}
	}
	return 0, false
}

func (a *attack) Act(t *protocol.Turn) (int, error) {
	defer func() { a.first = false }()
	if a.known && a.first {
		return len(t.Legal), nil // "I know your cards"
	}
	return 0, nil
}

func (a *attack) End(*protocol.End) {}

// dealCommand is a dealing command (match, tournament or sprt) of 4 short
// games between bot (NAME=CMD) and the bundled random bot.
func dealCommand(command, bot string) []string {
	switch command {
	case "match":
		return []string{"match", "--game", "banqi", "--option", "max_plies=60", "--bot", bot, "--bot", "r=arena bot random", "--games", "4", "-q"}
	case "tournament":
		return []string{"tournament", "run", "--name", "deals", "--game", "banqi", "--option", "max_plies=60", "--bot", bot,
			"--bot", "r=arena bot random", "--games-per-encounter", "4", "--concurrency", "1", "-q"}
	}
	return []string{"sprt", "--game", "banqi", "--option", "max_plies=60", "--test", bot, "--base", "r=arena bot random",
		"--max-games", "4", "--concurrency", "1", "-q"}
}

// runDeals runs a dealing command to its end (an SPRT verdict or none is
// fine) and returns its games from results.jsonl.
func runDeals(t *testing.T, args ...string) []ledger.Record {
	t.Helper()
	_, stderr, code := arena(t, args...)
	if code != 0 && !(args[0] == "sprt" && (code == exitH0 || code == exitInconclusive)) {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	out := args[slices.Index(args, "--out")+1]
	return results(t, out)
}

func writeSecret(t *testing.T, dir string) (*deal.Secret, string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s, path := deal.New(), filepath.Join(dir, deal.FileName)
	if err := deal.Write(path, s); err != nil {
		t.Fatal(err)
	}
	return s, path
}

// TestAttackerCannotDealTheCards: a bot that knows the run's seed and the
// arena's code cannot find its deal in any dealing command. The controls
// show the attack works where the guarantee ends: given the secret, the
// same bot finds every deal and says so by forfeiting; and so it does,
// not isolated and running as the arena's user, by reading the secret
// file. Isolated, it cannot read the reused secret's file nor the output
// directory's.
func TestAttackerCannotDealTheCards(t *testing.T) {
	t.Parallel()
	secret, secretFile := writeSecret(t, filepath.Join(t.TempDir(), "kept"))
	const seed = "7"
	cases := []struct {
		name, command string
		knows         string // --bot-env for the attacker; OUT is the output directory
		isolate       string
		found         bool
	}{
		{"match, the seed", "match", "", "", false},
		{"match, the seed and the secret", "match", "ARENA_ATTACK_SECRET=" + hex.EncodeToString(secret[:]), "", true},
		{"match, isolated, the reused secret's file", "match", "ARENA_ATTACK_FILE=" + secretFile, "yes", false},
		{"match, isolated, the output directory's secret file", "match", "ARENA_ATTACK_FILE=OUT/" + deal.FileName, "yes", false},
		{"match, not isolated, the secret's file (no guarantee)", "match", "ARENA_ATTACK_FILE=" + secretFile, "no", true},
		{"tournament, the seed", "tournament", "", "", false},
		{"tournament, the seed and the secret", "tournament", "ARENA_ATTACK_SECRET=" + hex.EncodeToString(secret[:]), "", true},
		{"sprt, the seed", "sprt", "", "", false},
		{"sprt, the seed and the secret", "sprt", "ARENA_ATTACK_SECRET=" + hex.EncodeToString(secret[:]), "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "out")
			args := append(dealCommand(tc.command, attacker+"="+os.Args[0]), "--seed", seed, "--deal-secret", secretFile,
				"--out", out, "--bot-env", "ARENA_ATTACK_SEED="+seed)
			if tc.knows != "" {
				args = append(args, "--bot-env", strings.ReplaceAll(tc.knows, "OUT", out))
			}
			if tc.isolate != "" {
				args = append(args, "--bot-isolate", tc.isolate)
			}
			if tc.isolate == "yes" {
				if _, stderr, code := arena(t, "check", "--game", "banqi", "--games", "1", "--bot-isolate", "yes", "arena bot random"); code == exitUsage {
					t.Skipf("bots cannot be isolated here: %s", stderr)
				}
			}
			recs := runDeals(t, args...)
			if len(recs) == 0 {
				t.Fatal("no games")
			}
			for _, r := range recs {
				forfeited := slices.ContainsFunc(r.Forfeits, func(f ledger.SeatFailure) bool {
					return f.Bot == attacker && f.Reason == protocol.ReasonIllegalAction
				})
				if forfeited != tc.found {
					t.Errorf("game %s: the attacker knew the deal: %v, want %v (forfeits %+v)", r.GameID, forfeited, tc.found, r.Forfeits)
				}
				log, _ := os.ReadFile(filepath.Join(out, "logs", attacker, r.GameID+".stderr.log"))
				for _, line := range strings.Split(string(log), "\n") {
					if d, ok := strings.CutPrefix(line, "attack: found deal seed "); ok && (!tc.found || d != fmt.Sprint(r.Seed)) {
						t.Errorf("game %s (deal seed %d): the attacker says %q", r.GameID, r.Seed, line)
					}
				}
			}
		})
	}
}

// TestDealSecretReproducesRuns: for match, tournament run and sprt, two
// runs with one --seed into new directories deal different cards; a
// rerun given the first run's secret with --deal-secret deals every game
// again with the same result; the stored secret is mode 0600.
func TestDealSecretReproducesRuns(t *testing.T) {
	t.Parallel()
	for _, command := range []string{"match", "tournament", "sprt"} {
		t.Run(command, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			run := func(name string, extra ...string) []ledger.Record {
				return runDeals(t, append(append(dealCommand(command, "a=arena bot random"), "--seed", "7", "--out", filepath.Join(dir, name)), extra...)...)
			}
			first, second := run("first"), run("second")
			for i := range min(len(first), len(second)) {
				if first[i].Seed == second[i].Seed {
					t.Errorf("game %d: the same --seed without --deal-secret dealt seed %d again", i, first[i].Seed)
				}
			}
			path := filepath.Join(dir, "first", deal.FileName)
			if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("%s: %v, mode %v; want 0600", path, err, st.Mode())
			}
			again := run("again", "--deal-secret", path)
			if len(again) != len(first) {
				t.Fatalf("rerun: %d games, the first run %d", len(again), len(first))
			}
			for i, r := range again {
				if w := first[i]; r.Seed != w.Seed || !slices.Equal(r.Ranks, w.Ranks) || r.Plies != w.Plies || r.Reason != w.Reason {
					t.Errorf("rerun game %d: seed %d ranks %v %d plies, first run: seed %d ranks %v %d plies", i, r.Seed, r.Ranks, r.Plies, w.Seed, w.Ranks, w.Plies)
				}
			}
		})
	}
}

// TestDealSecretUsageErrors: a --deal-secret that is missing, malformed,
// readable by others, in a directory a bot needs, or another than the one
// the output directory holds is a usage error (exit 2) naming the file,
// and nothing is played.
func TestDealSecretUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, good := writeSecret(t, filepath.Join(dir, "good"))
	malformed := filepath.Join(dir, "malformed")
	os.WriteFile(malformed, []byte("12345\n"), 0o600)
	exposed := filepath.Join(dir, "exposed")
	os.WriteFile(exposed, []byte(strings.Repeat("ab", deal.Size)+"\n"), 0o644)
	os.Chmod(exposed, 0o644)
	botDir := filepath.Join(dir, "bots")
	_, nextToBot := writeSecret(t, botDir)
	bot := filepath.Join(botDir, "bot")
	os.WriteFile(bot, []byte("#!/bin/sh\n"), 0o755)
	taken := filepath.Join(dir, "taken")
	writeSecret(t, taken) // the output directory holds another secret
	cases := []struct {
		name, file, out, bot, want string
	}{
		{"missing", filepath.Join(dir, "none"), "", "", "no such file"},
		{"malformed", malformed, "", "", "not a deal secret"},
		{"readable by others", exposed, "", "", "chmod 600"},
		{"next to a bot", nextToBot, "", "b=" + bot, "lies in " + botDir},
		{"not the output directory's", good, taken, "", "another deal secret"},
	}
	for _, command := range []string{"match", "tournament", "sprt"} {
		for _, tc := range cases {
			t.Run(command+", "+tc.name, func(t *testing.T) {
				t.Parallel()
				out := tc.out
				if out == "" {
					out = filepath.Join(t.TempDir(), "out")
				}
				bot := tc.bot
				if bot == "" {
					bot = "b=arena bot random"
				}
				args := append(dealCommand(command, bot), "--seed", "7", "--deal-secret", tc.file, "--out", out)
				_, stderr, code := arena(t, args...)
				if code != exitUsage || !strings.Contains(stderr, tc.file) || !strings.Contains(stderr, tc.want) {
					t.Fatalf("exit %d, stderr %q; want exit 2 naming %s and saying %q", code, stderr, tc.file, tc.want)
				}
				if _, err := os.Stat(filepath.Join(out, "results.jsonl")); err == nil {
					if b, _ := os.ReadFile(filepath.Join(out, "results.jsonl")); len(b) > 0 {
						t.Errorf("games were played: %s", b)
					}
				}
			})
		}
	}
}
