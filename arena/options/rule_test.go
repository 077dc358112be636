package options

import (
	"errors"
	"maps"
	"testing"
)

func TestRuleOptions(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   map[string]string
		err    string
	}{
		{nil, map[string]string{}, ""},
		{[]string{"a=1", "b=x=y", "a=2"}, map[string]string{"a": "2", "b": "x=y"}, ""},
		{[]string{"a"}, nil, `--option "a": want key=value`},
		{[]string{"=1"}, nil, `--option "=1": want key=value`},
	} {
		got, err := RuleOptions(tc.values)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || !errors.Is(err, ErrRuleOption) {
				t.Errorf("RuleOptions(%q): %v, want %s", tc.values, err, tc.err)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tc.want) {
			t.Errorf("RuleOptions(%q) = %v, %v", tc.values, got, err)
		}
	}
}
