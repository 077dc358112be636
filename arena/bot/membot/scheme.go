package membot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arena-dev/arena/arena/bot"
)

// SchemeName is the scheme of in-memory bots: "mem:POLICY" (Policies).
const SchemeName = "mem"

// Policies are the policies a "mem:" command names.
var Policies = map[string]Policy{"first": First, "random": Random}

func init() { bot.Register(SchemeName, scheme{}) }

// Target is an in-memory bot: the name of its policy.
type Target struct{ Policy string }

// Scheme is "mem".
func (Target) Scheme() string { return SchemeName }

// String is the command as written: "mem:random".
func (t Target) String() string { return SchemeName + ":" + t.Policy }

// scheme parses "mem:POLICY" and binds it: in-memory bots need nothing
// of a run.
type scheme struct{}

func (scheme) Parse(policy, _ string) (bot.Target, error) {
	if _, ok := Policies[policy]; !ok {
		names := make([]string, 0, len(Policies))
		for n := range Policies {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("mem:%s: no such policy (known: %s)", policy, strings.Join(names, ", "))
	}
	return Target{Policy: policy}, nil
}

func (scheme) Bind(t bot.Target, _ string) (bot.Launcher, error) {
	return &Launcher{Policy: Policies[t.(Target).Policy]}, nil
}
