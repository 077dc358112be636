package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/human"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"

	"github.com/arena-dev/arena/internal/words"
)

// humanName is the person's name in hello.players and the results.
const humanName = "you"

func playCommand() *cli.Command {
	return &cli.Command{
		Name:  "play",
		Usage: "take a seat yourself, against bots, in the terminal",
		Description: `You take --seat (default 0) in the first game; the --bot flags fill the
other seats in order, and seats rotate from one game to the next. Each turn
fits an 80x24 terminal: your seat's view (the Banqi board, the Uno table
and your hand, the Boon table and hand), what the others did since, what
you are asked, and your choices. Type your move in the game's notation:
Banqi b3 (flip) or b3-b4 (move, capture); Uno r7, wd4 green, draw (d),
challenge (c), accept (a); Boon take (t), pass (p), a card (b5, au14). A
number picks a listed choice (scripts may pipe numbers in). ? shows the
legend, v the view as JSON, q (or the end of input) leaves the game: a
forfeit, recorded as "left". The referee is the one of arena match, with
the bots' clocks; yours has none unless --timed.

   arena play --game banqi --bot greedy='arena bot greedy'
   arena play --game uno --seat 1 --bot a='arena bot random' --bot b='arena bot greedy'`,
		Flags: append([]cli.Flag{
			gameFlag("game to play (see arena games); required"),
			&cli.IntFlag{Name: "seat", Usage: "your seat in the first game, from 0"},
			&cli.BoolFlag{Name: "timed", Usage: "play on the bots' clock (--move-time, --tc): a choice not made in time is a timeout, as for a bot"},
			&cli.StringSliceFlag{Name: "bot", Usage: "NAME=CMD, one per other seat, in seat order"},
			optionFlag(),
			&cli.IntFlag{Name: "games", Value: 1, Usage: "games to play (each deals new cards; seats rotate from one game to the next)"},
			options.SeedFlag("match seed", "random, printed"),
			options.Flags(options.Own, "deal-secret")[0],
			&cli.StringFlag{Name: "out", Usage: "directory for results.jsonl, replays/ and logs/"},
		}, append(options.Referee(), sandboxFlags()...)...),
		Action: runPlay,
	}
}

func runPlay(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected argument %q (bots are given with --bot NAME=CMD)", c.Args().First())
	}
	if !c.IsSet("game") {
		return usagef("--game is required: e.g. arena play --game banqi --bot greedy='arena bot greedy'")
	}
	game, given, err := gameAndOptions(c)
	if err != nil {
		return err
	}
	botList, remoteIDs, err := parseBots(c.StringSlice("bot"))
	if err != nil {
		return err
	}
	if len(remoteIDs) > 0 {
		return usagef("--bot nats:BOTID: arena play seats local bots only")
	}
	if slices.ContainsFunc(botList, func(b bot.Command) bool { return b.Name == humanName }) {
		return usagef("--bot %s=...: %q is your name here", humanName, humanName)
	}
	seats := len(botList) + 1
	seat := c.Int("seat")
	if seat < 0 || seat >= seats {
		return usagef("--seat %d: want 0 to %d (%d --bot flags and you)", seat, seats-1, len(botList))
	}
	opts, err := engine.Setup(game, seats, given)
	if err != nil {
		return usageError{err}
	}
	settings, err := runSettings(c)
	if err != nil {
		return err
	}
	settings.FreshDeals = true // nothing to even out between a person and bots
	games := c.Int("games")
	if games < 1 {
		return usagef("--games %d: want at least 1", games)
	}
	seed, err := seedFlag(c)
	if err != nil {
		return err
	}
	out := c.String("out")
	secret, secretFile, err := dealSecret(c, botList)
	if err != nil {
		return err
	}
	sb, err := confineBots(c, botList, out, secretFile)
	if err != nil {
		return err
	}
	w := c.App.ErrWriter
	fmt.Fprintf(w, "arena: %s, %s, seed %d, you at seat %d; bots: %s\n", game.Info().Name, words.Count(games, "game", "games"), seed, seat, settings.Limits)
	sayConfinement(c, w, "arena: ", sb)
	specs := bot.Specs(botList)
	person := &human.Seat{
		In: os.Stdin, Out: c.App.Writer, Timed: c.Bool("timed"), DropTypeahead: isatty.IsTerminal(os.Stdin.Fd()), Results: true,
	}
	specs = slices.Insert(specs, seat, bot.Spec{Name: humanName, Launcher: person})

	ctx, release := stopContext(c.App.ErrWriter)
	defer release()
	sum, err := match.Run(ctx, match.Config{
		Settings: settings, Game: game, Options: opts, Games: games, Seed: seed, Secret: secret, OutDir: out, Version: Version,
		OnGame: func(r ledger.Record) { person.GameOver(r.GameID, gameOverText(r, games, out != "")) },
		Warn:   w,
	}, specs)
	if sum != nil && sum.Games > 1 {
		person.Say(playSummary(sum))
	}
	if u := runplan.CommandLine(err, secretFile); u != nil {
		return usageError{u}
	}
	return err
}

// gameOverText is how a game of arena play ended, for the person: who
// finished where and why, then each forfeit (but the person's leaving,
// said as they left) and strikes, in sentences the seat wraps to the
// screen (not the match's progress line: one long line of codes).
func gameOverText(r ledger.Record, total int, kept bool) []string {
	head := "=== Game over: "
	if total > 1 {
		head = fmt.Sprintf("=== Game %d of %d over: ", r.Index+1, total)
	}
	text := head + resultWords(r) + "."
	// A game the forfeits cut short (one seat left, or none) ended for
	// them: the forfeits say why, and its reason would again.
	if len(r.Bots)-len(r.Forfeits) >= 2 {
		text += " " + sentence(engine.NameSeats(r.Reason, r.Bots))
	}
	out := []string{text}
	for _, f := range r.Forfeits {
		if f.Bot == humanName && f.Reason == protocol.ReasonLeft {
			continue
		}
		text := strings.TrimSuffix(forfeitText(f, kept), ".") + "."
		if f.Bot == humanName {
			text = sentence(text) // "You forfeited", a bot's name as given
		}
		out = append(out, text)
	}
	if s := strikesText(r.Strikes); s != "" {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

// resultWords is who won: "you won", "a draw", or the places with more
// than two players ("b 1st, you 2nd, a 3rd").
func resultWords(r ledger.Record) string {
	if len(r.Ranks) != 2 {
		return placesText(r.Bots, r.Ranks)
	}
	switch {
	case r.Ranks[0] == r.Ranks[1]:
		return "a draw"
	case r.Ranks[0] < r.Ranks[1]:
		return r.Bots[0] + " won"
	}
	return r.Bots[1] + " won"
}

// sentence is s with a capital first letter and a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return words.Capital(strings.TrimSuffix(s, ".")) + "."
}

// playSummary is the match's outcome for the person, after its games:
// a sentence each player, and the Elo difference with two players.
func playSummary(sum *match.Summary) []string {
	out := []string{fmt.Sprintf("=== After %s:", words.Count(sum.Games, "game", "games"))}
	for _, b := range sum.Bots {
		line := fmt.Sprintf("%s: %s, %s and %s", b.Name, words.Count(b.Wins, "win", "wins"), words.Count(b.Draws, "draw", "draws"), words.Count(b.Losses, "loss", "losses"))
		if b.Forfeits > 0 {
			line += fmt.Sprintf(" (%s)", words.Count(b.Forfeits, "forfeit", "forfeits"))
		}
		if len(sum.Bots) > 2 {
			line += fmt.Sprintf("; mean place %.2f", b.MeanRank)
		}
		out = append(out, line+".")
	}
	if e, ok := sum.EloEstimate(); ok {
		out = append(out, eloLine(sum.Bots[0].Name, sum.Bots[1].Name, e), losLine(sum.Bots[0].Name, sum.Bots[1].Name, e))
	}
	if sum.Out != "" {
		out = append(out, "Results: "+filepath.Join(sum.Out, "results.jsonl"))
	}
	return out
}
