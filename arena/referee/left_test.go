package referee_test

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/human"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// A person who leaves the game (arena play's q, or the end of their
// input) has left: recorded with its own reason, not as a crash, and a
// forfeit under every policy (a strike would only ask them again), in
// the result and in a replay that verifies.
func TestAPersonWhoLeavesForfeitsAsLeft(t *testing.T) {
	for _, tc := range []struct {
		policy       referee.Policy
		input, cause string
	}{
		{referee.Forfeit, "q\n", "(typed q)"},
		{referee.Random, "quit\n", "(typed q)"},
		{referee.StrikeIllegal, "", "(their input ended)"},
	} {
		t.Run(string(tc.policy), func(t *testing.T) {
			t.Parallel()
			token := newToken()
			t.Cleanup(func() { checkNoSurvivors(t, token) })
			person, err := (&human.Seat{In: strings.NewReader(tc.input), Out: io.Discard}).Launch("you", bot.LaunchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			g := banqi(t)
			opts, err := engine.Setup(g, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := replays.NewRecorder(replays.Header{Arena: "test", Game: "banqi", Options: opts, Seed: 42, Match: "m", GameID: t.Name(),
				Seats: []replays.SeatInfo{{Seat: 0, Bot: "you"}, {Seat: 1, Bot: "random"}}, Clock: relaxed.Protocol()})
			res, err := referee.Play(context.Background(), referee.Config{
				Game: g, Options: opts, Seed: 42, Match: "m", GameID: t.Name(), Limits: relaxed, Policy: tc.policy, MaxStrikes: 1000, Recorder: rec,
			}, []referee.Player{{Name: "you", Conn: person}, {Name: "random", Conn: startBot(t, token, "random", setup{})}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Strikes) != 0 || len(res.Forfeits) != 1 {
				t.Fatalf("strikes %+v, forfeits %+v; want one forfeit", res.Strikes, res.Forfeits)
			}
			if f := res.Forfeits[0]; f.Seat != 0 || f.Reason != protocol.ReasonLeft || !strings.HasSuffix(f.Detail, tc.cause) {
				t.Fatalf("%+v; want seat 0 %q, the detail ending %q", f, protocol.ReasonLeft, tc.cause)
			}
			if res.Outcome.Reason != "you (seat 0) forfeited: left" {
				t.Errorf("the game ended with %q", res.Outcome.Reason)
			}
			rec.Finish(replays.ResultOf(res.Outcome))
			path := filepath.Join(t.TempDir(), "game"+replays.Ext)
			if err := rec.WriteFile(path); err != nil {
				t.Fatal(err)
			}
			rp, err := replays.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := replays.Verify(rp); err != nil {
				t.Fatalf("the replay does not verify: %v", err)
			}
		})
	}
}
