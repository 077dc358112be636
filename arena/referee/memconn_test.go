package referee_test

// In-memory bots (arena/bot/membot): each seat's bot is a goroutine on a
// transport.Pipe, so a whole game costs only the referee's and the
// engine's work, and a bot's behaviour is a few lines of Go.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// memBot answers one turn with a line (no newline), or nil for no answer.
type memBot = membot.Policy

var randomMove = membot.Random

func garbage(*protocol.Turn, *rand.Rand) []byte { return []byte("hello world") }

func silent(*protocol.Turn, *rand.Rand) []byte { return nil }

// startMemBot runs bot in memory and returns the referee's end; it ends
// when the Conn is closed: by the referee after a failure, or by the
// test's cleanup.
func startMemBot(t *testing.T, bot memBot) transport.Conn {
	s := membot.Start(bot, nil, 0)
	t.Cleanup(func() {
		s.Close()
		<-s.Done()
	})
	return s
}

// playMem plays one game of name between in-memory bots, records it, and
// checks the replay re-simulates through the engine (replays.Verify: every
// move legal for the seat to move, the plies and the outcome the engine's).
func playMem(t *testing.T, name string, options map[string]string, seed uint64, limits clock.Limits, bots []memBot) (*referee.Result, *replays.Replay) {
	t.Helper()
	conns := make([]transport.Conn, len(bots))
	for i, bot := range bots {
		conns[i] = startMemBot(t, bot)
	}
	return playConns(t, name, options, seed, limits, conns)
}

// playConns is playMem on bots already connected, one per seat.
func playConns(t *testing.T, name string, options map[string]string, seed uint64, limits clock.Limits, conns []transport.Conn) (*referee.Result, *replays.Replay) {
	t.Helper()
	g, opts := testkit.Setup(t, name, len(conns), options)
	players := make([]referee.Player, len(conns))
	seats := make([]replays.SeatInfo, len(conns))
	for i, conn := range conns {
		players[i] = referee.Player{Name: fmt.Sprint("mem", i), Conn: conn}
		seats[i] = replays.SeatInfo{Seat: i, Bot: players[i].Name}
	}
	rec := replays.NewRecorder(replays.Header{Arena: "test", Game: name, Options: opts, Seed: seed, Match: "m", GameID: "g",
		Seats: seats, Clock: limits.Protocol(), Started: time.Now().UTC()})
	cfg := referee.Config{Game: g, Options: opts, Seed: seed, Match: "m", GameID: "g", Limits: limits, Recorder: rec}
	res, err := referee.Play(context.Background(), cfg, players)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	rec.Finish(replays.ResultOf(res.Outcome))
	data, err := rec.Compressed()
	if err != nil {
		t.Fatal(err)
	}
	rp, err := replays.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := replays.Verify(rp); err != nil {
		t.Fatalf("the game does not re-simulate: %v", err)
	}
	return res, rp
}

// moves is what a replay's moves say, think times left out.
func moves(rp *replays.Replay) []replays.Move {
	var out []replays.Move
	for _, e := range rp.Events {
		if e.Move != nil {
			m := *e.Move
			m.ThinkUs = 0
			out = append(out, m)
		}
	}
	return out
}

// Complete games of every kind between random in-memory bots: the game
// ends with a valid outcome, re-simulates, and the same seed plays the
// same game again.
func TestMemGames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game    string
		seats   int
		options map[string]string
	}{
		{"banqi", 2, nil},
		// One hand, no drawing by choice: random bots free to draw play
		// thousands of plies a hand, seconds under the race detector.
		{"uno", 2, map[string]string{"target": "0", "voluntary_draw": "false"}},
		{"uno", 4, map[string]string{"target": "0", "voluntary_draw": "false", "jump_in": "true", "stack_draws": "true"}},
		{"boon", 3, nil},
		{"boon", 5, nil},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.game, tc.seats), func(t *testing.T) {
			t.Parallel()
			bots := make([]memBot, tc.seats)
			for i := range bots {
				bots[i] = randomMove
			}
			start := time.Now()
			res, rp := playMem(t, tc.game, tc.options, 7, relaxed, bots)
			elapsed := time.Since(start)
			if len(res.Forfeits)+len(res.Strikes) > 0 || slices.Contains(res.Failed, true) {
				t.Fatalf("random bots failed: forfeits %+v, strikes %+v, failed %v", res.Forfeits, res.Strikes, res.Failed)
			}
			ranks := res.Outcome.Ranks
			valid := len(ranks) == tc.seats && len(res.Outcome.Scores) == tc.seats && slices.Contains(ranks, 1) && res.Outcome.Reason != ""
			for _, r := range ranks {
				valid = valid && r >= 1 && r <= tc.seats
			}
			if !valid {
				t.Errorf("outcome %+v is not one of a finished %d-seat game", res.Outcome, tc.seats)
			}
			think := 0
			for _, th := range res.Think {
				think += len(th)
			}
			if res.Plies == 0 || think != res.Plies || len(moves(rp)) != res.Plies {
				t.Errorf("%d plies, %d think times, %d recorded moves", res.Plies, think, len(moves(rp)))
			}
			again, rp2 := playMem(t, tc.game, tc.options, 7, relaxed, bots)
			if again.Plies != res.Plies || !reflect.DeepEqual(again.Outcome, res.Outcome) || !reflect.DeepEqual(moves(rp2), moves(rp)) {
				t.Errorf("the same seed played differently: %d plies %+v, then %d plies %+v", res.Plies, res.Outcome, again.Plies, again.Outcome)
			}
			t.Logf("%d plies in %v: %s, ranks %v", res.Plies, elapsed, res.Outcome.Reason, ranks)
		})
	}
}

// A failing in-memory bot is classified as a process would be, in
// milliseconds even for a timeout.
func TestMemFailures(t *testing.T) {
	t.Parallel()
	short := clock.Limits{Startup: 10 * time.Second, Move: 20 * time.Millisecond, Margin: 10 * time.Millisecond}
	for _, tc := range []struct {
		name   string
		bot    memBot
		limits clock.Limits
		reason protocol.Reason
		detail string
	}{
		{"garbage", garbage, relaxed, protocol.ReasonBadMessage, `not a JSON object (invalid character 'h' looking for beginning of value): "hello world"`},
		{"silent", silent, short, protocol.ReasonTimeout, "no reply within 20ms (+10ms margin)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			res, _ := playMem(t, "banqi", nil, 7, tc.limits, []memBot{randomMove, tc.bot})
			if len(res.Forfeits) != 1 {
				t.Fatalf("forfeits %+v, want one by seat 1", res.Forfeits)
			}
			// Seat 1's first turn is ply 1.
			if f := res.Forfeits[0]; f.Seat != 1 || f.Ply != 1 || f.Reason != tc.reason || f.Detail != tc.detail {
				t.Errorf("forfeit %+v, want seat 1 at ply 1 for %s: %s", f, tc.reason, tc.detail)
			}
			if !reflect.DeepEqual(res.Outcome.Ranks, []int{1, 2}) || !reflect.DeepEqual(res.Failed, []bool{false, true}) {
				t.Errorf("ranks %v, failed %v: want seat 0 to win and seat 1 failed", res.Outcome.Ranks, res.Failed)
			}
			t.Logf("%s in %v", tc.reason, time.Since(start))
		})
	}
}
