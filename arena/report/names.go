package report

import (
	"html/template"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxWord is the longest word (a run between the spaces a line may
// break at) of a name or game id that the page keeps whole, breaking
// lines only between words; a longer word (one the ledger allows but no
// layout plans for) may break anywhere rather than widen the page. The
// rule is keepWords', for every name the page shows as text.
const MaxWord = 40

// breakSpace says a browser may break a line at r: white space, but not
// the no-break spaces, which join the words beside them into one.
func breakSpace(r rune) bool {
	return unicode.IsSpace(r) && r != '\u00a0' && r != '\u2007' && r != '\u202f'
}

// plainWord says a browser never breaks a line inside w: ASCII letters,
// digits, '_' and '.' only. Any other character may give it a place to
// break (after a hyphen, a slash, between two ideographs...).
func plainWord(w string) bool {
	return !strings.ContainsFunc(w, func(r rune) bool {
		return !(r < utf8.RuneSelf && (r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)))
	})
}

// keepWords is s (a bot's name, a game id) as the page shows it: escaped,
// each word of at most MaxWord characters kept on one line (a word a
// browser could break is in a span of class word, which does not wrap),
// each longer one in a span of class long, which may break anywhere. A
// long word so breaks on its own, without letting the words beside it
// break too.
func keepWords(s string) template.HTML {
	var b strings.Builder
	for s != "" {
		end := strings.IndexFunc(s, breakSpace)
		if end == 0 {
			_, size := utf8.DecodeRuneInString(s)
			b.WriteString(template.HTMLEscapeString(s[:size]))
			s = s[size:]
			continue
		}
		if end < 0 {
			end = len(s)
		}
		w := template.HTMLEscapeString(s[:end])
		switch {
		case utf8.RuneCountInString(s[:end]) > MaxWord:
			b.WriteString(`<span class="long">` + w + `</span>`)
		case !plainWord(s[:end]):
			b.WriteString(`<span class="word">` + w + `</span>`)
		default:
			b.WriteString(w)
		}
		s = s[end:]
	}
	return template.HTML(b.String())
}

// oneLine says s (a game id) is one word of at most MaxWord characters:
// the page keeps it on one line (else it may break anywhere, as a long
// word of a name does).
func oneLine(s string) bool {
	return !strings.ContainsFunc(s, breakSpace) && utf8.RuneCountInString(s) <= MaxWord
}
