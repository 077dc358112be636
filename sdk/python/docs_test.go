package python

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pythonBlocks are the ```python blocks of a markdown file, each with the
// line before it.
func pythonBlocks(t *testing.T, path string) (blocks, before []string) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```python" {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		prev := ""
		if i > 0 {
			prev = lines[i-1]
		}
		blocks = append(blocks, strings.Join(lines[i+1:j], "\n")+"\n")
		before = append(before, prev)
		i = j
	}
	return blocks, before
}

// countLines is a Python program's lines, and those of code: not blank,
// not a comment, not in the module docstring.
func countLines(src string) (all, code int) {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	inDoc, docDone := false, false
	for _, l := range lines {
		s := strings.TrimSpace(l)
		all++
		switch {
		case inDoc:
			if strings.Contains(s, `"""`) {
				inDoc, docDone = false, true
			}
			continue
		case !docDone && strings.HasPrefix(s, `"""`):
			docDone = true
			if strings.Count(s, `"""`) == 1 {
				inDoc = true
			}
			continue
		case s == "" || strings.HasPrefix(s, "#"):
			continue
		}
		code++
	}
	return all, code
}

// TestDocBots: the closing note of docs/sdk-python.md states the lines of
// the minimal bots of protocol.md section 7 and of the SDK truly, and every
// complete bot in docs/sdk-python.md passes arena check.
func TestDocBots(t *testing.T) {
	root := moduleRoot(t)
	doc := filepath.Join(root, "docs", "sdk-python.md")
	blocks, before := pythonBlocks(t, doc)
	var minimal string
	for i, b := range blocks {
		if before[i] == "<!-- minimal-bot -->" {
			minimal = b
		}
	}
	if minimal == "" {
		t.Fatal("docs/sdk-python.md has no block marked <!-- minimal-bot -->")
	}
	text, _ := os.ReadFile(doc)
	proto, _ := pythonBlocks(t, filepath.Join(root, "docs", "protocol.md"))
	var hand string
	for _, b := range proto {
		if strings.Contains(b, `"type": "ready"`) && strings.Contains(b, "sys.stdin") {
			hand = b
			break
		}
	}
	if hand == "" {
		t.Fatal("protocol.md has no hand-written Python bot")
	}
	ha, hc := countLines(hand)
	ma, mc := countLines(minimal)
	want := fmt.Sprintf("Before: %d lines (%d of code). After: %d lines (%d of code).", ha, hc, ma, mc)
	if !strings.Contains(string(text), want) {
		t.Errorf("docs/sdk-python.md should say %q", want)
	}

	bin := arena(t)
	gameOf := regexp.MustCompile(`from arenabot import (\w+)`)
	checked := 0
	for i, b := range blocks {
		if !strings.Contains(b, "arenabot.run(") || before[i] == ismctsMark {
			continue
		}
		game := "banqi" // a random bot's games are shortest there
		if m := gameOf.FindStringSubmatch(b); m != nil {
			game = m[1]
		}
		kit := kitDir(t, map[string]string{"bot.py": b})
		t.Run(fmt.Sprintf("block%d-%s", i, game), func(t *testing.T) {
			run(t, bin, "check", "--game", game, "--seed", "3", "python3 "+filepath.Join(kit, "bot.py"))
		})
		checked++
	}
	if checked < 3 {
		t.Errorf("only %d complete bots found in docs/sdk-python.md", checked)
	}
}
