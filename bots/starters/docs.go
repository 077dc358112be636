package starters

import (
	"bytes"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	arena "github.com/arena-dev/arena"
)

// addDocs gives kit a copy of each doc (arena.Docs) its own Markdown
// files link to, under the same path (docs/...), and rewrites every
// relative link in those files and in the docs for the kit: a link to a
// file the kit has points to it, any other becomes its plain text, as it
// would be dead. The kit's files are at srcDir in this repository, where
// their links are written to work.
func addDocs(kit map[string][]byte, srcDir string) {
	docs := map[string][]byte{}
	var own []string
	for name := range kit {
		if strings.HasSuffix(name, ".md") && !strings.Contains(name, "/") {
			own = append(own, name)
		}
	}
	for _, name := range own {
		kit[name] = rewriteLinks(kit[name], func(target string) (string, bool) {
			repoPath, anchor := resolve(srcDir, target)
			if rest, ok := strings.CutPrefix(repoPath, srcDir+"/"); ok && kit[rest] != nil {
				return rest + anchor, true
			}
			data, err := fs.ReadFile(arena.Docs, repoPath)
			if err != nil {
				return "", false
			}
			docs[repoPath] = data // docs/... in the kit too
			return repoPath + anchor, true
		})
	}
	// Each doc is rewritten on its own: the order does not matter.
	for name, data := range docs {
		dir := path.Dir(name)
		kit[name] = rewriteLinks(data, func(target string) (string, bool) {
			repoPath, anchor := resolve(dir, target)
			if docs[repoPath] == nil {
				return "", false
			}
			rel, err := filepath.Rel(dir, repoPath)
			return filepath.ToSlash(rel) + anchor, err == nil
		})
	}
}

// resolve is the path in this repository of a relative link target in
// a file of dir, and the target's #anchor ("" for none).
func resolve(dir, target string) (repoPath, anchor string) {
	file, frag, hasFrag := strings.Cut(target, "#")
	if hasFrag {
		anchor = "#" + frag
	}
	return path.Join(dir, file), anchor
}

// mdLink is an inline Markdown link: [text](target).
var mdLink = regexp.MustCompile(`\[([^\]]*)\]\(([^()\s]*)\)`)

// rewriteLinks rewrites md's inline links outside code, relative ones by
// to: it returns a link's new target, or false for the link to become
// its text. Links to a URL (scheme://...) or to an anchor of md itself
// are kept as they are.
func rewriteLinks(md []byte, to func(target string) (string, bool)) []byte {
	code := codeSpans(md)
	var out []byte
	last := 0
	for _, m := range mdLink.FindAllSubmatchIndex(md, -1) {
		if inSpans(code, m[0]) {
			continue
		}
		text, target := md[m[2]:m[3]], string(md[m[4]:m[5]])
		if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		out = append(out, md[last:m[0]]...)
		if newTarget, ok := to(target); ok {
			out = append(append(append(append(out, '['), text...), "]("...), newTarget+")"...)
		} else {
			out = append(out, text...)
		}
		last = m[1]
	}
	return append(out, md[last:]...)
}

// codeSpans are md's code, as [start, end) byte ranges in order: fenced
// blocks (``` or ~~~) and inline code spans, where a link is text.
func codeSpans(md []byte) [][2]int {
	var spans [][2]int
	fence, fenceStart, proseStart := "", 0, 0
	for pos := 0; pos < len(md); {
		end := len(md)
		if i := bytes.IndexByte(md[pos:], '\n'); i >= 0 {
			end = pos + i + 1
		}
		line := strings.TrimLeft(string(md[pos:end]), " ")
		switch {
		case fence == "" && (strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")):
			spans = append(spans, inlineCode(md, proseStart, pos)...)
			fence, fenceStart = line[:3], pos
		case fence != "" && strings.HasPrefix(line, fence):
			spans = append(spans, [2]int{fenceStart, end})
			fence, proseStart = "", end
		}
		pos = end
	}
	if fence != "" {
		return append(spans, [2]int{fenceStart, len(md)})
	}
	return append(spans, inlineCode(md, proseStart, len(md))...)
}

// inlineCode are the inline code spans of md[from:to]: a run of n
// backticks up to the next run of exactly n.
func inlineCode(md []byte, from, to int) [][2]int {
	var spans [][2]int
	run := func(i int) int { // the length of the backtick run at i
		n := 0
		for i+n < to && md[i+n] == '`' {
			n++
		}
		return n
	}
	for i := from; i < to; {
		n := run(i)
		if n == 0 {
			i++
			continue
		}
		end := -1
		for j := i + n; j < to; {
			if m := run(j); m == n {
				end = j + m
				break
			} else if m > 0 {
				j += m
			} else {
				j++
			}
		}
		if end < 0 {
			i += n // a lone run: literal backticks
			continue
		}
		spans = append(spans, [2]int{i, end})
		i = end
	}
	return spans
}

// inSpans reports whether offset i is inside one of spans.
func inSpans(spans [][2]int, i int) bool {
	k := sort.Search(len(spans), func(k int) bool { return spans[k][1] > i })
	return k < len(spans) && spans[k][0] <= i
}
