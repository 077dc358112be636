package intake

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/arena-dev/arena/arena/ladder"
)

// prune removes the files of bot's versions older than its newest
// submissions.max_versions (after an admission): each is logged pruned,
// then its directory removed, unless a version that keeps its files
// shares it (the same files admitted again). Never pruned: the active
// version, a bundled one, and the one the newest replaced, whose last
// games may still be running (it goes at the next admission). A
// directory a crash left after its pruned event is removed now.
func prune(l *ladder.Ladder, name string) error {
	b := l.Roster.State().Bot(name)
	if b == nil {
		return nil
	}
	newest := len(b.Versions)
	keep := max(l.Config.Submissions.MaxVersions, 1)
	for _, v := range b.Versions {
		if v.Pruned || v.Bundled || v.N == b.Active || v.N > newest-keep || v.N >= newest-1 {
			continue
		}
		e := ladder.Event{Kind: ladder.Pruned, Time: now(), Bot: name, Version: v.N, Dir: v.Dir}
		if err := l.Roster.Append(e); err != nil {
			return err
		}
	}
	b = l.Roster.State().Bot(name)
	for _, v := range b.Versions {
		if !v.Pruned || !filesOf(name, v.Dir) || slices.ContainsFunc(b.Versions, func(o ladder.Version) bool { return !o.Pruned && o.Dir == v.Dir }) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(l.Dir, v.Dir)); err != nil {
			return fmt.Errorf("intake: pruning %s: %w", ladder.VersionName(name, v.N), err)
		}
	}
	return nil
}

// filesOf says whether dir (relative to the ladder) is a directory the
// intake made for bot: bots/NAME/BUILD.
func filesOf(bot, dir string) bool {
	return !filepath.IsAbs(dir) && filepath.Dir(dir) == filepath.Join(ladder.BotsDir, bot)
}
