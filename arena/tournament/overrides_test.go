package tournament

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/options"
	_ "github.com/arena-dev/arena/arena/remote" // the nats: scheme, as cmd/arena links it
)

// given is the settings flags give: key, value, key, value...
func given(kv ...any) options.Given {
	var g options.Given
	for i := 0; i < len(kv); i += 2 {
		g.Set(kv[i].(string), kv[i+1])
	}
	return g
}

// Settings given by flags (options.Merge) replace what they give and keep
// the rest; options merge key by key, paths are made absolute and added
// once, a network given clears no_network.
func TestApplyOverrides(t *testing.T) {
	seed := uint64(7)
	name, seats, move, fresh := "cup2", 4, 250*time.Millisecond, true
	abs, _ := filepath.Abs("data")
	tests := []struct {
		name string
		over options.Given
		want func(f *File)
	}{
		{"nothing given keeps the file", given(), func(*File) {}},
		{"scalars", given("name", name, "seats", seats, "clock.move", move, "fresh_deals", fresh, "seed", seed), func(f *File) {
			f.Name, f.Seats, f.Clock.Move, f.FreshDeals, f.Seed = name, seats, options.Duration(move), true, &seed
		}},
		{"options merge", given("options", map[string]string{"b": "3", "c": "4"}), func(f *File) {
			f.Options = map[string]string{"a": "1", "b": "3", "c": "4"}
		}},
		{"bots replace", given("bots", []BotFile{{Name: "x", Command: "arena bot random"}}), func(f *File) {
			f.Bots = []BotFile{{Name: "x", Command: "arena bot random"}}
		}},
		{"limits", given("limits.memory", "1GiB", "limits.network", "loopback",
			"limits.ro", []string{"data", abs}, "limits.env", []string{"K=v", "K=v", ""}), func(f *File) {
			f.Limits.Memory, f.Limits.Network, f.Limits.NoNetwork = "1GiB", "loopback", false
			f.Limits.ReadOnly, f.Limits.Env = []string{abs}, []string{"K=v"}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := func() File {
				return File{Name: "cup", Game: "banqi", Seats: 2, Options: map[string]string{"a": "1", "b": "2"},
					Bots: []BotFile{{Name: "a", Command: "a"}}, Settings: options.Settings{Limits: options.Limits{Memory: "64MiB", NoNetwork: true}}}
			}
			got, want := base(), base()
			if err := options.Merge(&got, tc.over); err != nil {
				t.Fatal(err)
			}
			tc.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
	var f File
	if err := options.Merge(&f, given("limits.memroy", "1GiB")); err == nil {
		t.Error("an unknown limits field was accepted")
	}
}

// A remote bot's entry takes no dir or env (they belong to its own
// machine), and its id must be a subject token: each mistake names the
// field.
func TestRemoteBotFields(t *testing.T) {
	for _, tc := range []struct {
		bot  BotFile
		want string
	}{
		{BotFile{Name: "far", Command: "nats:far", Dir: "."}, "bots[1]: far runs elsewhere"},
		{BotFile{Name: "far", Command: "nats:far", Env: map[string]string{"K": "v"}}, "bots[1]: far runs elsewhere"},
		{BotFile{Name: "far", Command: "nats:no.dots"}, `bots[1].command: `},
	} {
		f := File{Name: "cup", Game: "banqi", Bots: []BotFile{{Name: "a", Command: "arena bot random"}, tc.bot}}
		_, err := f.Resolve("cup.yaml", ".")
		var fe *options.FieldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "cup.yaml: "+tc.want) {
			t.Errorf("%+v: %v, want a FieldError saying %q", tc.bot, err, tc.want)
		}
	}
}
