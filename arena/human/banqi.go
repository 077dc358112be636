package human

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/arena-dev/arena/engine/banqi"

	"github.com/arena-dev/arena/internal/words"
)

// banqiGame draws the Banqi board with its coordinates, and reads moves
// as squares: b3 (or flip b3) flips, b3-b4 (b3 b4, b3xb4) moves or
// captures, stop ends a capture chain.
type banqiGame struct {
	turn[banqi.View, banqi.Action]
	names names
	prev  *banqi.View // at the person's previous turn
	mine  banqi.Action
}

func (g *banqiGame) show(view json.RawMessage, legal []json.RawMessage) page {
	if p, ok := g.decode(view, legal, validBoard, banqi.ParseAction); !ok {
		return p
	}
	p := pageOf(g, legal)
	if legal != nil {
		prev := g.v
		g.prev = &prev
	}
	return p
}

// validBoard says that v's board is one: 8 rows of 4 letters (square
// reads them).
func validBoard(v *banqi.View) bool {
	for _, row := range v.Board {
		if len(row) != 4 {
			return false
		}
	}
	_, err := banqi.ParseBoard(v.Board[:]...)
	return err == nil
}

// square is the piece on sq of a view's board (validBoard).
func square(v *banqi.View, sq int) banqi.Piece {
	p, _ := banqi.PieceFromLetter(v.Board[sq/4][sq%4])
	return p
}

// hand is none: Banqi's pieces are all on the board.
func (g *banqiGame) hand() []string { return nil }

// table is the board with its coordinates, the last move's squares in
// brackets, and beside it the colours, the captures and the pieces'
// letters.
func (g *banqiGame) table() []string {
	v := &g.v
	marked := map[int]bool{}
	if last, err := banqi.ParseLast(v.Last); err == nil {
		marked[last.From], marked[last.To] = true, true // -1 for none: no square
	}
	other := 1 - g.names.me
	side := []string{
		"",
		fmt.Sprintf("you: %s (seat %d)", g.colourText(g.names.me), g.names.me),
		fmt.Sprintf("%s: %s (seat %d)", g.names.of(other), g.colourText(other), other),
		fmt.Sprintf("ply %d; %s since a flip or capture", v.Ply, words.Count(v.PliesSinceProgress, "move", "moves")),
	}
	side = append(side, g.lostLines(g.names.me)...)
	side = append(side, g.lostLines(other)...)
	side = append(side,
		fmt.Sprintf("face down: %d red, %d black", len(v.FaceDown.Red), len(v.FaceDown.Black)),
		pieceKey(banqi.King, banqi.Rook),
		pieceKey(banqi.Knight, banqi.Pawn),
		"upper case red, lower black, X face down",
	)
	lines := []string{"   a  b  c  d"}
	for r, row := range v.Board {
		cells := ""
		for c := range 4 {
			l := string(row[c])
			if marked[r*4+c] {
				cells += "[" + l + "]"
			} else {
				cells += " " + l + " "
			}
		}
		lines = append(lines, fmt.Sprintf("%d %s %d", 8-r, cells, 8-r))
	}
	lines = append(lines, "   a  b  c  d")
	for i, text := range side {
		if i == len(lines) {
			lines = append(lines, "")
		}
		if text != "" {
			lines[i] = clipLine(fmt.Sprintf("%-*s%s", boardWidth, lines[i], text))
		}
	}
	return lines
}

// boardWidth is the columns of the board and its margin; the lines
// beside it start after them.
const boardWidth = 20

// pieceKey is the letters of the piece types from to to, and what they
// stand for: "K King  G Guard".
func pieceKey(from, to banqi.Type) string {
	var key []string
	for t := from; t <= to; t++ {
		key = append(key, banqi.MakePiece(banqi.Red, t).String()+" "+t.Name())
	}
	return strings.Join(key, "  ")
}

// lostLines is what seat has lost, in words: "you lost: King, 2 Pawns",
// wrapped beside the board.
func (g *banqiGame) lostLines(seat int) []string {
	head := g.names.of(seat) + " lost: "
	c := g.colourOf(seat)
	if c == banqi.NoColour {
		return []string{head + "none"}
	}
	captured := capturedOf(&g.v, c)
	var lost []string
	for t := range banqi.Pawn + 1 {
		if n := strings.Count(captured, banqi.MakePiece(c, t).String()); n > 0 {
			lost = append(lost, pieceCount(n, t))
		}
	}
	if len(lost) == 0 {
		return []string{head + "none"}
	}
	return words.Wrap(head+strings.Join(lost, ", "), screenCols-boardWidth, "  ")
}

// pieceCount is "King", "2 Pawns".
func pieceCount(n int, t banqi.Type) string {
	if n == 1 {
		return t.Name()
	}
	return fmt.Sprintf("%d %ss", n, t.Name())
}

// colourText is a seat's colour, or when it is decided.
func (g *banqiGame) colourText(seat int) string {
	if c := g.v.Colours[seat]; c != nil {
		return *c
	}
	return "colour from the first flip"
}

// colourOf is seat's colour; banqi.NoColour before the first flip.
func (g *banqiGame) colourOf(seat int) banqi.Colour {
	switch c := g.v.Colours[seat]; {
	case c == nil:
		return banqi.NoColour
	case *c == "black":
		return banqi.Black
	}
	return banqi.Red
}

// myColour is the person's colour; banqi.NoColour before the first flip.
func (g *banqiGame) myColour() banqi.Colour { return g.colourOf(g.names.me) }

// capturedOf is the letters of v's captured pieces of colour c.
func capturedOf(v *banqi.View, c banqi.Colour) string {
	if c == banqi.Black {
		return v.Captured.Black
	}
	return v.Captured.Red
}

var (
	// squareLikeRE is what a person may mean as a square (a letter and a
	// number), on the board or not; squarePairRE two of them in one word
	// (b3xb4, b3b4).
	squareLikeRE = regexp.MustCompile(`^[a-z][0-9]+$`)
	squarePairRE = regexp.MustCompile(`^([a-z][0-9]+)x?([a-z][0-9]+)$`)
)

// events says what happened since the person's last turn: the result
// of their own move, then the last action (the other seat's, or theirs
// in a capture chain or at the end).
func (g *banqiGame) events() []string {
	v := &g.v
	if v.Last == "" {
		return nil
	}
	lastMine := g.prev != nil && v.Ply == g.prev.Ply+1
	var out []string
	if g.prev != nil && !lastMine {
		out = append(out, g.mineText()...)
	}
	actor := 1 - g.names.me
	if lastMine {
		actor = g.names.me
	}
	return append(out, say(g.lastText(actor))...)
}

// mineText is what the person's own last move did, when another action
// came after it.
func (g *banqiGame) mineText() []string {
	from := banqi.SquareName(int(g.mine.From))
	switch g.mine.Kind {
	case banqi.KindFlip:
		// The piece is still on the square, or the other seat moved it
		// on (it was theirs), or took it there.
		sq := int(g.mine.From)
		if last, err := banqi.ParseLast(g.v.Last); err == nil && last.To >= 0 {
			switch sq {
			case last.From:
				sq = last.To
			case last.To:
				return say("You flipped " + from + ".")
			}
		}
		text := fmt.Sprintf("You flipped %s: %s.", from, pieceName(square(&g.v, sq), true))
		return say(text + g.colourDecided(g.names.me))
	case banqi.KindMove, banqi.KindCapture:
		to := banqi.SquareName(int(g.mine.To))
		took := g.newlyCaptured(g.theirColour(g.names.me))
		if square(g.prev, int(g.mine.To)) == banqi.FaceDown { // capture_facedown: an attack
			text := fmt.Sprintf("You attacked the face-down piece on %s from %s", to, from)
			if len(took) > 0 {
				return say(fmt.Sprintf("%s and took %s.", text, pieceName(took[0], true)))
			}
			return say(text + ": it stays, revealed.")
		}
		// The piece is named from the board before the move: the other
		// seat may have taken it on its new square since.
		moved := square(g.prev, int(g.mine.From))
		return say(g.moveText(g.names.me, moved, from, to, took))
	}
	return say("You ended the capture chain.")
}

// lastText is the view's last action in a sentence, made by actor.
func (g *banqiGame) lastText(actor int) string {
	who := g.names.subject(actor)
	last, err := banqi.ParseLast(g.v.Last)
	switch {
	case err != nil:
		return who + " played " + g.v.Last + "."
	case last.Stop:
		return who + " ended the capture chain."
	case last.To < 0:
		return fmt.Sprintf("%s flipped %s: %s.", who, banqi.SquareName(last.From), pieceName(last.Revealed, true)) + g.colourDecided(actor)
	case last.Revealed != banqi.Empty:
		return fmt.Sprintf("%s attacked the face-down piece on %s from %s: it was %s.", who,
			banqi.SquareName(last.To), banqi.SquareName(last.From), pieceName(last.Revealed, true))
	}
	// The last action's piece is still on its square: no move came after.
	moved := square(&g.v, last.To)
	return g.moveText(actor, moved, banqi.SquareName(last.From), banqi.SquareName(last.To), g.newlyCaptured(g.theirColour(actor)))
}

// colourDecided is " You play black." when a flip of flipper's was the
// game's first, which gave the seats their colours.
func (g *banqiGame) colourDecided(flipper int) string {
	first := g.prev == nil || g.prev.Colours[0] == nil
	if flipper != g.names.me {
		first = g.v.Ply == 1
	}
	if c := g.v.Colours[g.names.me]; first && c != nil {
		return " You play " + *c + "."
	}
	return ""
}

// moveText is "g's red Rook moved b4-b3 and took your black Knight.":
// moved is the piece that moved, took those it took.
func (g *banqiGame) moveText(actor int, moved banqi.Piece, from, to string, took []banqi.Piece) string {
	text := fmt.Sprintf("%s %s moved %s-%s", g.names.whose(actor), pieceName(moved, false), from, to)
	if len(took) == 0 {
		return text + "."
	}
	var names []string
	for _, p := range took {
		names = append(names, pieceName(p, false))
	}
	victim := g.names.possessive(1 - actor)
	return fmt.Sprintf("%s and took %s %s.", text, victim, words.List(names))
}

// theirColour is the colour of actor's opponent (red while actor has
// none).
func (g *banqiGame) theirColour(actor int) banqi.Colour {
	if g.colourOf(actor) == banqi.Red {
		return banqi.Black
	}
	return banqi.Red
}

// newlyCaptured is the pieces of colour captured since the person's
// previous turn.
func (g *banqiGame) newlyCaptured(colour banqi.Colour) []banqi.Piece {
	now := capturedOf(&g.v, colour)
	if g.prev != nil {
		for _, l := range capturedOf(g.prev, colour) {
			now = strings.Replace(now, string(l), "", 1)
		}
	}
	var took []banqi.Piece
	for i := range len(now) {
		p, _ := banqi.PieceFromLetter(now[i])
		took = append(took, p)
	}
	return took
}

// pieceName is "red King" (with article: "a red King"), "a face-down
// piece", "an empty square".
func pieceName(p banqi.Piece, article bool) string {
	name := "empty square"
	switch {
	case p.Up():
		name = p.Colour().Name() + " " + p.Type().Name()
	case p == banqi.FaceDown:
		name = "face-down piece"
	}
	if article {
		return "a " + name
	}
	return name
}

// ask says what the person is to do.
func (g *banqiGame) ask() []string {
	if g.v.Chain != nil {
		return say(fmt.Sprintf("Your piece on %s may capture again: type the capture, or stop.", *g.v.Chain))
	}
	if g.myColour() == banqi.NoColour {
		return say("Your move: flip a piece. Its colour becomes yours.")
	}
	return say(fmt.Sprintf("Your move (you are %s): flip a piece, or move or capture with one of yours.", *g.v.Colours[g.names.me]))
}

// choices lists the actions, or sums them up when there are many.
func (g *banqiGame) choices() []string {
	typed, words := make([]string, len(g.legal)), make([]string, len(g.legal))
	for i, a := range g.legal {
		typed[i], words[i] = a.String(), kindWord(a.Kind)
	}
	return choiceLines(typed, words, g.summary)
}

// summary sums the choices up: the flips, the moves, the captures.
func (g *banqiGame) summary() []string {
	var flips, moves, captures, from []string
	for _, a := range g.legal {
		switch a.Kind {
		case banqi.KindFlip:
			flips = append(flips, a.String())
		case banqi.KindMove:
			moves = append(moves, a.String())
			sq := banqi.SquareName(int(a.From))
			if len(from) == 0 || from[len(from)-1] != sq {
				from = append(from, sq)
			}
		case banqi.KindCapture:
			captures = append(captures, a.String())
		}
	}
	var out []string
	switch {
	case len(flips) > 6:
		out = append(out, say(fmt.Sprintf("Flip: any of the %d face-down squares (e.g. %s).", len(flips), flips[0]))...)
	case len(flips) > 0:
		out = append(out, say("Flip: "+strings.Join(flips, " ")+".")...)
	}
	switch {
	case len(moves) > 0 && len(moves) <= 10:
		out = append(out, say("Move: "+strings.Join(moves, " ")+".")...)
	case len(moves) > 0:
		out = append(out, say(fmt.Sprintf("Move: a piece on %s (e.g. %s).", strings.Join(from, " "), moves[0]))...)
	}
	if len(captures) > 0 {
		c := words.Wrap("Capture: "+strings.Join(captures, " ")+".", screenCols, "  ")
		if len(c) > 2 {
			c = append(c[:1], clipLine(c[1]+" ..."))
		}
		out = append(out, c...)
	}
	return out
}

func kindWord(k banqi.Kind) string {
	switch k {
	case banqi.KindFlip:
		return "flip"
	case banqi.KindMove:
		return "move"
	case banqi.KindCapture:
		return "capture"
	}
	return "end the capture chain"
}

func (g *banqiGame) chose(i int) {
	if i < len(g.legal) {
		g.mine = g.legal[i]
	}
}

func (g *banqiGame) prompt() string { return "Your move (b3 flips, b3-b4 moves; ? help, q leave): " }

// banqiWords are the words a move may carry besides its squares.
var banqiWords = map[string]bool{"flip": true, "f": true, "move": true, "m": true, "capture": true, "c": true, "take": true, "to": true, "x": true}

func (g *banqiGame) read(entry string) (int, error) {
	if err := g.numbersOnly(entry); err != nil {
		return 0, err
	}
	e := strings.ToLower(strings.TrimSpace(entry))
	if e == "stop" || e == "s" {
		return g.find(banqi.Stop(), "There is no capture chain to stop.")
	}
	cannot := bad("Cannot read %q. Type a square to flip it (b3), or two to move or capture (b3-b4); ? for help.", entry)
	var squares []int
	for _, w := range strings.FieldsFunc(e, func(r rune) bool { return strings.ContainsRune(" -,>", r) }) {
		words := []string{w}
		if m := squarePairRE.FindStringSubmatch(w); m != nil {
			words = m[1:]
		}
		for _, w := range words {
			switch {
			case banqiWords[w]:
			case squareLikeRE.MatchString(w):
				sq, err := banqi.ParseSquare(w)
				if err != nil {
					return 0, bad("%s is not a square: the board runs from a1 to d8.", w)
				}
				squares = append(squares, sq)
			default:
				return 0, cannot
			}
		}
	}
	switch len(squares) {
	case 1:
		return g.find(banqi.Flip(squares[0]), g.whyNoFlip(squares[0]))
	case 2:
		from, to := squares[0], squares[1]
		if i, err := g.find(banqi.Move(from, to), ""); err == nil {
			return i, nil
		}
		return g.find(banqi.Capture(from, to), g.whyNoMove(from, to))
	}
	return 0, cannot
}

// find is the position of a in the legal actions, or why as the error.
func (g *banqiGame) find(a banqi.Action, why string) (int, error) {
	for i, l := range g.legal {
		if l == a {
			return i, nil
		}
	}
	return 0, &badEntry{why}
}

// whyNoFlip says why sq cannot be flipped.
func (g *banqiGame) whyNoFlip(sq int) string {
	name := banqi.SquareName(sq)
	if g.v.Chain != nil {
		return fmt.Sprintf("You are capturing with the piece on %s: capture again or stop.", *g.v.Chain)
	}
	p := square(&g.v, sq)
	if p == banqi.Empty {
		return name + " is empty: flip a face-down square (X)."
	}
	if !p.Up() || p.Colour() != g.myColour() {
		return fmt.Sprintf("%s is face up (%s): flip a face-down square (X).", name, pieceName(p, true))
	}
	for _, a := range g.legal {
		if a.Kind != banqi.KindFlip && int(a.From) == sq {
			return fmt.Sprintf("%s is face up: to move your %s type e.g. %s.", name, p.Type().Name(), a)
		}
	}
	return fmt.Sprintf("%s is face up, and your %s there cannot move now: %s. Flip a face-down square (X).", name, p.Type().Name(), g.whyStuck(sq))
}

// whyNoMove says why from-to is not legal, and what the piece may do.
func (g *banqiGame) whyNoMove(from, to int) string {
	move := banqi.SquareName(from) + "-" + banqi.SquareName(to)
	if c := g.v.Chain; c != nil && *c != banqi.SquareName(from) {
		return fmt.Sprintf("%s is not a move now: you are capturing with the piece on %s: capture again or stop.", move, *c)
	}
	p := square(&g.v, from)
	if !p.Up() || p.Colour() != g.myColour() {
		return fmt.Sprintf("%s is not a move: there is no face-up piece of yours on %s.", move, banqi.SquareName(from))
	}
	var can []string
	for _, a := range g.legal {
		if a.Kind != banqi.KindFlip && int(a.From) == from {
			can = append(can, a.String())
		}
	}
	if len(can) == 0 {
		return fmt.Sprintf("%s is not a move: your %s on %s cannot move now: %s.", move, p.Type().Name(), banqi.SquareName(from), g.whyStuck(from))
	}
	return fmt.Sprintf("%s is not a move: your %s on %s can play %s.", move, p.Type().Name(), banqi.SquareName(from), words.List(can))
}

// whyStuck says why the person's piece on sq has no move: what the
// squares next to it hold (none is empty, and no enemy there can be
// taken, or it would have one).
func (g *banqiGame) whyStuck(sq int) string {
	var down, own, enemy []string
	var ownPiece, enemyPiece banqi.Piece
	for _, n := range neighbours(sq) {
		p := square(&g.v, n)
		switch {
		case p == banqi.FaceDown:
			down = append(down, banqi.SquareName(n))
		case !p.Up():
		case p.Colour() == g.myColour():
			own, ownPiece = append(own, banqi.SquareName(n)), p
		default:
			enemy, enemyPiece = append(enemy, banqi.SquareName(n)), p
		}
	}
	var why []string
	switch len(down) {
	case 0:
	case 1:
		why = append(why, down[0]+" is face down")
	default:
		why = append(why, words.List(down)+" are face down")
	}
	switch len(own) {
	case 0:
	case 1:
		why = append(why, fmt.Sprintf("%s holds your %s", own[0], ownPiece.Type().Name()))
	default:
		why = append(why, words.List(own)+" hold pieces of yours")
	}
	other := g.names.possessive(1 - g.names.me)
	switch len(enemy) {
	case 0:
	case 1:
		why = append(why, fmt.Sprintf("%s holds %s %s, which it cannot take", enemy[0], other, enemyPiece.Type().Name()))
	default:
		why = append(why, fmt.Sprintf("%s hold %s pieces, which it cannot take", words.List(enemy), other))
	}
	text := words.List(why)
	if square(&g.v, sq).Type() == banqi.Cannon && g.v.Ranks != "hk" {
		text += " (a Cannon takes only by jumping over one piece)"
	}
	if text == "" {
		return "it has no move"
	}
	return text
}

// neighbours are the squares next to sq in the order a sentence names
// them: up, down, left, right (banqi.Adjacent's is up, left, right,
// down).
func neighbours(sq int) []int {
	adj := banqi.Adjacent(sq)
	var out []int
	for _, n := range [4]int8{adj[0], adj[3], adj[1], adj[2]} {
		if n >= 0 {
			out = append(out, int(n))
		}
	}
	return out
}

// legend explains the letters, the captures and what to type.
func (g *banqiGame) legend() []string {
	order := "K>G>M>R>N>C>P; a Cannon takes any rank by jumping over one piece."
	if g.v.Ranks == "hk" {
		order = "K>R>N>C>G>M>P."
	}
	out := say("Captures: an adjacent enemy of equal or lower rank (but a King not a Pawn, and a Pawn takes the King), " + order)
	out = append(out, say("Type b3 (or flip b3) to flip, b3-b4 (or b3 b4) to move or capture, stop to end a capture chain. [ ] marks the last move, - an empty square.")...)
	return append(out, commandsLine)
}
