package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options are resolved rule options: every option of the game, by name,
// as its canonical string value.
type Options map[string]string

// OptionSpec documents one rule option.
type OptionSpec struct {
	Name    string
	Default string
	// Choices lists the allowed values; empty means Kind decides.
	Choices []string
	// Kind is "enum", "bool" or "int".
	Kind string
	// Min and Max bound an int option.
	Min, Max int
	Doc      string
	// Sets makes this option a preset: choosing value v gives the other
	// options the defaults in Sets[v] (options given explicitly still win).
	// Bots always see the resolved, concrete values.
	Sets map[string]map[string]string
}

// Bool reads a resolved bool option.
func (o Options) Bool(name string) bool { return o[name] == "true" }

// Int reads a resolved int option.
func (o Options) Int(name string) int {
	n, _ := strconv.Atoi(o[name])
	return n
}

// Resolve checks user-given options against specs and fills in defaults.
// Errors name the option and what was expected.
func Resolve(game string, specs []OptionSpec, given map[string]string) (Options, error) {
	out := Options{}
	for _, s := range specs {
		out[s.Name] = s.Default
	}
	// Presets first, so that explicit options override what they set.
	for _, s := range specs {
		if s.Sets == nil {
			continue
		}
		v := s.Default
		if g, ok := given[s.Name]; ok {
			v = g // checked below with the other options
		}
		for k, val := range s.Sets[v] {
			out[k] = val
		}
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := given[k]
		i := slices.IndexFunc(specs, func(s OptionSpec) bool { return s.Name == k })
		if i < 0 {
			names := make([]string, len(specs))
			for j, s := range specs {
				names[j] = s.Name
			}
			return nil, fmt.Errorf("game %s has no option %q (options: %s)", game, k, strings.Join(names, ", "))
		}
		canon, err := specs[i].check(v)
		if err != nil {
			return nil, fmt.Errorf("game %s option %s=%q: %w", game, k, v, err)
		}
		out[k] = canon
	}
	return out, nil
}

func (s OptionSpec) check(v string) (string, error) {
	switch s.Kind {
	case "bool":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return "", fmt.Errorf("want true or false")
		}
		return strconv.FormatBool(b), nil
	case "int":
		n, err := strconv.Atoi(v)
		if err != nil {
			return "", fmt.Errorf("want an integer")
		}
		if n < s.Min || n > s.Max {
			return "", fmt.Errorf("want an integer from %d to %d", s.Min, s.Max)
		}
		return strconv.Itoa(n), nil
	default:
		if !slices.Contains(s.Choices, v) {
			return "", fmt.Errorf("want one of %s", strings.Join(s.Choices, "|"))
		}
		return v, nil
	}
}
