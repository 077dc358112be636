package banqi_test

import (
	"encoding/json"
	"testing"

	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/banqi"
)

// Real turns of real games, under every option that changes the view or
// the actions, decode into View and Action: every square reads the
// board's letter, every action encodes back to the referee's bytes, and
// CanTake agrees with the captures the engine allows.
func TestRealTurns(t *testing.T) {
	for _, opts := range []map[string]string{
		nil,
		{"ranks": "hk"},
		{"chain_capture": "true"},
		{"capture_facedown": "true", "ranks": "hk"},
	} {
		captures := 0
		for _, line := range testkit.Turns(t, "banqi", 2, opts, 0, 3000) {
			var turn protocol.Turn
			if err := json.Unmarshal(line, &turn); err != nil {
				t.Fatal(err)
			}
			v, legal, err := sdk.Decode[banqi.View, banqi.Action](&turn)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			for sq := range banqi.Square(banqi.Squares) {
				if got, want := v.At(sq), v.Board[int(sq)/4][int(sq)%4]; byte(got) != want {
					t.Fatalf("At(%s) = %c, board has %c", sq, got, want)
				}
				if v.PieceAt(sq.String()) != v.At(sq) {
					t.Fatalf("PieceAt(%q) != At(%s)", sq.String(), sq)
				}
			}
			if v.You == nil || v.You.Seat != v.ToMove {
				t.Fatalf("you %+v, to move %d", v.You, v.ToMove)
			}
			takes := map[[2]banqi.Square]bool{}
			for i, a := range legal {
				b, err := json.Marshal(a)
				if err != nil || string(b) != string(turn.Legal[i]) {
					t.Fatalf("legal[%d] %s encodes back as %s (%v)", i, turn.Legal[i], b, err)
				}
				if a.Type == banqi.Capture && v.At(a.To).Up() {
					att, tgt := v.At(a.From), v.At(a.To)
					if att.Colour() != v.Me() || tgt.Colour() != v.Me().Other() || !banqi.CanTake(v.Ranks, att.Kind(), tgt.Kind()) {
						t.Fatalf("legal capture %s: %c takes %c, but CanTake says no (%s)", a, att, tgt, v.Ranks)
					}
					takes[[2]banqi.Square{a.From, a.To}] = true
					captures++
				}
			}
			if v.Chain != nil || v.Me() == banqi.NoColour {
				continue
			}
			// Every adjacent capture CanTake allows is legal.
			for _, from := range v.Pieces(v.Me()) {
				att := v.At(from).Kind()
				if att == banqi.Cannon && v.Ranks == "taiwan" {
					continue
				}
				for _, to := range from.Neighbours() {
					if p := v.At(to); p.Up() && p.Colour() != v.Me() && banqi.CanTake(v.Ranks, att, p.Kind()) && !takes[[2]banqi.Square{from, to}] {
						t.Fatalf("%s: %s-%s takes by rank but is not legal", line, from, to)
					}
				}
			}
		}
		if captures < 100 {
			t.Fatalf("options %v: only %d captures seen", opts, captures)
		}
	}
}

func TestSquaresAndPieces(t *testing.T) {
	for sq := range banqi.Square(banqi.Squares) {
		back, err := banqi.ParseSquare(sq.String())
		if err != nil || back != sq || banqi.SquareAt(sq.File(), sq.Rank()) != sq {
			t.Fatalf("%d: %s, %d, %v", sq, sq, back, err)
		}
	}
	if banqi.Sq("a8") != 0 || banqi.Sq("d1") != 31 || banqi.Sq("b3").Distance(banqi.Sq("d4")) != 3 {
		t.Fatal("square numbering")
	}
	if n := banqi.Sq("a8").Neighbours(); len(n) != 2 {
		t.Fatalf("a8 neighbours %v", n)
	}
	for _, bad := range []string{"", "e1", "a9", "a0", "A1", "a10"} {
		if _, err := banqi.ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q) took it", bad)
		}
	}
	names := ""
	for k := banqi.King; k <= banqi.Pawn; k++ {
		red, black := banqi.MakePiece(banqi.Red, k), banqi.MakePiece(banqi.Black, k)
		if red.Kind() != k || black.Kind() != k || red.Colour() != banqi.Red || black.Colour() != banqi.Black {
			t.Fatalf("%s: %c %c", k, red, black)
		}
		names += k.String() + string(k.Letter()) + " "
	}
	if names != "KingK GuardG MinisterM RookR KnightN CannonC PawnP " {
		t.Fatalf("names %q", names)
	}
	for _, p := range []banqi.Piece{banqi.Empty, banqi.FaceDown} {
		if p.Up() || p.Kind() != banqi.NoKind || p.Colour() != banqi.NoColour {
			t.Fatalf("%c is a piece", p)
		}
	}
	// The documented exceptions (docs/games/banqi.md).
	for _, ranks := range []string{"taiwan", "hk"} {
		if banqi.CanTake(ranks, banqi.King, banqi.Pawn) || !banqi.CanTake(ranks, banqi.Pawn, banqi.King) || banqi.CanTake(ranks, banqi.Pawn, banqi.Guard) {
			t.Fatalf("%s: King/Pawn exception", ranks)
		}
	}
	if !banqi.CanTake("taiwan", banqi.Cannon, banqi.King) || banqi.CanTake("hk", banqi.Cannon, banqi.Rook) || !banqi.CanTake("hk", banqi.Rook, banqi.Guard) {
		t.Fatal("ranks orders")
	}
}
