package tournament

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxBotChanges bounds the changes botsDiff names one by one.
const maxBotChanges = 5

// sameBot says whether a and b are the same bot as the tournament's
// checksum sees them (tournament.json leaves an empty env out: "env: {}"
// is no env).
func sameBot(a, b BotFile) bool {
	return a.Name == b.Name && a.Command == b.Command && a.Dir == b.Dir && maps.Equal(a.Env, b.Env)
}

// sameBots says whether two bot lists are the same, in the same order.
func sameBots(a, b []BotFile) bool { return slices.EqualFunc(a, b, sameBot) }

// hasBot says whether bots has one named name.
func hasBot(bots []BotFile, name string) bool {
	return slices.ContainsFunc(bots, func(b BotFile) bool { return b.Name == name })
}

// botsDiff says in a few words how the bot list now differs from the one
// there (a tournament's saved list): "bot sleeper removed; bot x's
// command changed ("./x" there, "./x2" now); bot y added", or that only
// their order changed; "" if the lists are the same.
func botsDiff(there, now []BotFile) string {
	if sameBots(there, now) {
		return ""
	}
	nowByName := map[string]BotFile{}
	for _, b := range now {
		nowByName[b.Name] = b
	}
	var parts []string
	for _, b := range there {
		n, ok := nowByName[b.Name]
		switch {
		case !ok:
			parts = append(parts, fmt.Sprintf("bot %s removed", b.Name))
			continue
		case n.Command != b.Command:
			parts = append(parts, fmt.Sprintf("bot %s's command changed (%q there, %q now)", b.Name, b.Command, n.Command))
		}
		if n.Dir != b.Dir {
			parts = append(parts, fmt.Sprintf("bot %s's dir changed (%q there, %q now)", b.Name, b.Dir, n.Dir))
		}
		if !maps.Equal(n.Env, b.Env) {
			parts = append(parts, fmt.Sprintf("bot %s's env changed", b.Name)) // values may be secrets
		}
	}
	for _, b := range now {
		if !hasBot(there, b.Name) {
			parts = append(parts, fmt.Sprintf("bot %s added", b.Name))
		}
	}
	switch {
	case len(parts) == 0:
		return "the bots' order changed (the schedule follows it)"
	case len(parts) > maxBotChanges:
		return fmt.Sprintf("%s; and %d more changes to the bots", strings.Join(parts[:maxBotChanges], "; "), len(parts)-maxBotChanges)
	}
	return strings.Join(parts, "; ")
}

// inheritRoster takes over what the tournament saved in the output
// directory says of who plays: its bots withdrawn and suspended, and,
// when f's bot list is the saved one with some bots removed (the
// organiser took them out of the file), the saved list, those bots
// withdrawn: they keep their place in the schedule and forfeit their
// remaining games. It returns the bots removed. Any other change to the
// list is left for saveConfig to refuse (botsDiff says what changed),
// and then nothing is taken over.
func (f *File) inheritRoster(saved *File, notes *[]string) (removed []string) {
	if !sameBots(f.Bots, saved.Bots) {
		var kept []BotFile
		for _, b := range saved.Bots {
			if hasBot(f.Bots, b.Name) {
				kept = append(kept, b)
			} else {
				removed = append(removed, b.Name)
			}
		}
		if len(removed) == 0 || !sameBots(kept, f.Bots) {
			return nil
		}
		f.Bots = slices.Clone(saved.Bots)
	}
	for _, name := range saved.Withdrawn {
		if !slices.Contains(f.Withdrawn, name) {
			f.Withdrawn = append(f.Withdrawn, name)
		}
	}
	for _, name := range removed {
		if !slices.Contains(f.Withdrawn, name) {
			f.Withdrawn = append(f.Withdrawn, name)
			*notes = append(*notes, fmt.Sprintf("bot %s removed from the tournament's bots: withdrawn, its remaining games are forfeits", name))
		}
	}
	for name, why := range saved.Suspended {
		if _, ok := f.Suspended[name]; !ok {
			if f.Suspended == nil {
				f.Suspended = map[string]string{}
			}
			f.Suspended[name] = why
		}
	}
	return removed
}

// changeRoster withdraws the bots withdraw names, and lets those readmit
// names play again (withdrawn or suspended ones): --withdraw and
// --readmit. removed are the bots no longer in the tournament's file,
// which only putting them back readmits.
func (f *File) changeRoster(withdraw, readmit, removed []string, notes *[]string) error {
	isBot := func(flag, name string) error {
		if hasBot(f.Bots, name) {
			return nil
		}
		names := make([]string, len(f.Bots))
		for i, b := range f.Bots {
			names[i] = b.Name
		}
		return fmt.Errorf("%s %s: not one of the bots (%s)", flag, name, strings.Join(names, ", "))
	}
	for _, name := range withdraw {
		if err := isBot("--withdraw", name); err != nil {
			return err
		}
		if !slices.Contains(f.Withdrawn, name) {
			f.Withdrawn = append(f.Withdrawn, name)
			*notes = append(*notes, fmt.Sprintf("bot %s withdrawn: its remaining games are forfeits", name))
		}
	}
	for _, name := range readmit {
		if err := isBot("--readmit", name); err != nil {
			return err
		}
		if slices.Contains(removed, name) {
			return fmt.Errorf("--readmit %s: %s is not among the tournament's bots any more: put it back to readmit it", name, name)
		}
		_, suspended := f.Suspended[name]
		if !suspended && !slices.Contains(f.Withdrawn, name) {
			return fmt.Errorf("--readmit %s: %s is neither withdrawn nor suspended", name, name)
		}
		f.Withdrawn = slices.DeleteFunc(f.Withdrawn, func(n string) bool { return n == name })
		delete(f.Suspended, name)
		*notes = append(*notes, fmt.Sprintf("bot %s readmitted: it plays its remaining games", name))
	}
	if len(f.Withdrawn) == 0 {
		f.Withdrawn = nil
	}
	if len(f.Suspended) == 0 {
		f.Suspended = nil
	}
	return nil
}
