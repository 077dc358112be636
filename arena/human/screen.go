package human

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/arena-dev/arena/internal/words"
)

// The terminal a turn must fit: every line of a turn's output is at most
// screenCols columns, and the whole of it, prompt included, at most
// screenRows lines, so that at the prompt the board or hand, what
// happened since and the choices are all on screen.
const (
	screenCols = 80
	screenRows = 24
	// maxNumbered is the most choices listed one by one, numbered; more
	// are summed up in a few lines (a Banqi opening has 32 flips).
	maxNumbered = 9
)

// page is what a turn shows, top to bottom: the table (the board, the
// seats), what happened since the person's last turn (the last ones kept
// when they do not all fit), their hand, what they are asked, and their
// choices. Every line is at most screenCols wide.
type page struct {
	table   []string
	events  []string
	hand    []string
	ask     []string
	choices []string
}

// lines lays the page out in at most rows lines: the events are cut from
// the front (with a line saying how many are not shown) to make room.
// Without events (the page drawn again under the legend) the choices,
// shown just before, give way if the rest needs their room.
func (p page) lines(rows int, withEvents bool) []string {
	out := append([]string(nil), p.table...)
	room := rows - len(p.table) - len(p.hand) - len(p.ask) - len(p.choices)
	if ev := p.events; withEvents && len(ev) > 0 && room > 0 {
		if len(ev) > room {
			keep := room - 1
			out = append(out, fmt.Sprintf("(%d earlier not shown)", len(ev)-keep))
			ev = ev[len(ev)-keep:]
		}
		out = append(out, ev...)
	}
	out = append(out, p.hand...)
	out = append(out, p.ask...)
	if !withEvents && room < 0 {
		return out
	}
	return append(out, p.choices...)
}

// groups lays out head then units separated by " · ", a unit never
// broken across lines unless it is wider than a line.
func groups(head string, units []string) []string {
	var lines []string
	line := head
	for i, u := range units {
		sep := " · "
		if i == 0 {
			sep = " "
		}
		if utf8.RuneCountInString(line+sep+u) <= screenCols {
			line += sep + u
			continue
		}
		lines = append(lines, line)
		line = "  " + u
		if utf8.RuneCountInString(line) > screenCols {
			w := words.Wrap(line, screenCols, "  ")
			lines = append(lines, w[:len(w)-1]...)
			line = w[len(w)-1]
		}
	}
	return append(lines, line)
}

// handCard is a card of the person's hand as listed: the suit (or
// colour) it is grouped under, and its text there ("7 (r7)").
type handCard struct{ suit, text string }

// handLines is the person's hand of n cards, each run of cards of one
// suit a group: "Your hand (7 cards): red: 7 (r7), skip (rs) · blue: 1
// (b1)"; "none" for an empty hand.
func handLines(n int, cards []handCard) []string {
	var units []string
	for i := 0; i < len(cards); {
		var texts []string
		j := i
		for ; j < len(cards) && cards[j].suit == cards[i].suit; j++ {
			texts = append(texts, cards[j].text)
		}
		units = append(units, cards[i].suit+": "+strings.Join(texts, ", "))
		i = j
	}
	if len(units) == 0 {
		units = []string{"none"}
	}
	return groups("Your hand ("+words.Count(n, "card", "cards")+"):", units)
}

// say wraps sentences to the screen, continuation lines indented.
func say(text string) []string { return words.Wrap(text, screenCols, "  ") }

// maxChoiceLines is the most lines a list of choices takes.
const maxChoiceLines = 5

// choiceLines numbers the choices (what to type and what it does) when
// they are few and the list is short, else sums them up.
func choiceLines(typed, words []string, summary func() []string) []string {
	if len(typed) <= maxNumbered {
		if l := numbered(typed, words); len(l) <= maxChoiceLines {
			return l
		}
	}
	return summary()
}

// numbered lists the choices one per line, two columns when they fit:
// "1) b3  flip". Each choice is what to type and what it does.
func numbered(typed, words []string) []string {
	col := 0
	for _, t := range typed {
		col = max(col, utf8.RuneCountInString(t))
	}
	items := make([]string, len(typed))
	wide := 0
	for i := range typed {
		items[i] = fmt.Sprintf("%d) %-*s  %s", i+1, col, typed[i], words[i])
		wide = max(wide, utf8.RuneCountInString(items[i]))
	}
	const gap = 3
	if 2+2*wide+gap > screenCols || len(items) < 4 {
		var out []string
		for _, it := range items {
			out = append(out, clipLine("  "+it))
		}
		return out
	}
	var out []string
	half := (len(items) + 1) / 2
	for r := range half {
		line := "  " + items[r] + strings.Repeat(" ", wide-utf8.RuneCountInString(items[r])+gap)
		if r+half < len(items) {
			line += items[r+half]
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// clipLine cuts a line to the screen's width.
func clipLine(s string) string {
	if utf8.RuneCountInString(s) <= screenCols {
		return s
	}
	return string([]rune(s)[:screenCols-3]) + "..."
}

// names is who sits where, as the person reads it: "you" for their own
// seat, the bots' names for the others.
type names struct {
	players []string
	me      int
}

// of is seat's name ("you" for the person, "seat N" for a seat the hello
// did not name).
func (n names) of(seat int) string {
	if seat == n.me {
		return "you"
	}
	if seat >= 0 && seat < len(n.players) {
		return n.players[seat]
	}
	return "seat " + strconv.Itoa(seat)
}

// others are the names of the seats but the person's.
func (n names) others() []string {
	var out []string
	for s, p := range n.players {
		if s != n.me {
			out = append(out, p)
		}
	}
	return out
}

// subject is seat's name to begin a sentence: "You", or the bot's name
// as it was given.
func (n names) subject(seat int) string {
	if seat == n.me {
		return "You"
	}
	return n.of(seat)
}

// possessive is "your" or "NAME's".
func (n names) possessive(seat int) string {
	if seat == n.me {
		return "your"
	}
	return n.of(seat) + "'s"
}

// whose is seat's possessive to begin a sentence: "Your", "NAME's".
func (n names) whose(seat int) string {
	if seat == n.me {
		return "Your"
	}
	return n.possessive(seat)
}

// verb picks the verb's form for seat: "you draw", "a draws".
func (n names) verb(seat int, you, other string) string {
	if seat == n.me {
		return you
	}
	return other
}
