package human_test

import (
	"errors"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	_ "github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/human"
)

func TestSeating(t *testing.T) {
	parse := func(flags ...string) []bot.Spec {
		specs, err := bot.ParseFlags("bot", flags)
		if err != nil {
			t.Fatal(err)
		}
		return specs
	}
	two := parse("a=arena bot random", "b=arena bot greedy")
	for _, tc := range []struct {
		name  string
		bots  []bot.Spec
		seat  int
		seats int    // when it seats them
		field string // else the field at fault
		err   string // and the error
	}{
		{"one bot, seat 0", two[:1], 0, 2, "", ""},
		{"two bots, seat 2", two, 2, 3, "", ""},
		{"a remote bot", parse("a=arena bot random", "r=nats:r1"), 0, 0, "bot", "bot nats:BOTID: arena play seats local bots only"},
		{"a bot named you", parse("you=arena bot random"), 0, 0, "bot", `bot you=...: "you" is your name here`},
		{"seat past the table", two, 3, 0, "seat", "seat 3: want 0 to 2 (2 --bot flags and you)"},
		{"negative seat", two[:1], -1, 0, "seat", "seat -1: want 0 to 1 (1 --bot flags and you)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seats, err := human.Seating(tc.bots, tc.seat)
			var fe *human.FieldError
			switch {
			case tc.err == "" && (err != nil || seats != tc.seats):
				t.Fatalf("Seating = %d, %v; want %d seats", seats, err, tc.seats)
			case tc.err != "" && (!errors.As(err, &fe) || fe.Field != tc.field || err.Error() != tc.err):
				t.Fatalf("Seating = %d, %v; want a FieldError of %s: %s", seats, err, tc.field, tc.err)
			}
		})
	}
}

func TestSeated(t *testing.T) {
	bots := []bot.Spec{{Name: "a"}, {Name: "b"}}
	for seat, want := range [][]string{{"you", "a", "b"}, {"a", "you", "b"}, {"a", "b", "you"}} {
		got := human.Seated(bots, seat, &human.Seat{})
		for i, s := range got {
			if s.Name != want[i] {
				t.Fatalf("Seated(seat %d) = %v, want names %v", seat, got, want)
			}
		}
		if bots[0].Name != "a" || bots[1].Name != "b" {
			t.Fatalf("Seated changed its input: %v", bots)
		}
	}
}
