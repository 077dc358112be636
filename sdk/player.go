package sdk

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// Player is a bot written as functions: Move (or Choose) for every turn,
// and optional OnStart and OnEnd hooks. V is the type the turn's view is
// decoded into and A the type of each legal action: a game's typed view
// and action (sdk/banqi, sdk/uno, sdk/boon), any struct of your own with
// json tags, or json.RawMessage to decode nothing. A Player is a Bot:
// give it to Main, Run or sdktest.
type Player[V, A any] struct {
	// Move chooses an action: its index in legal. An error, a panic or an
	// index out of range is logged and a random legal action is played
	// instead; the bot plays on.
	Move func(view *V, legal []A, c *Context) (int, error)
	// Choose, used when Move is nil, chooses an action by value: it must
	// equal one of legal (reflect.DeepEqual), as legal[i] does.
	Choose func(view *V, legal []A, c *Context) (A, error)
	// OnStart, if set, is called on every hello, before ready: reset
	// per-game state here. An error refuses the game (the referee records
	// it) and ends the process.
	OnStart func(c *Context) error
	// OnEnd, if set, is called when a game is over, with the result.
	OnEnd func(e *protocol.End, c *Context)

	own *Context // the context of a Player driven through Bot's methods
}

// NewPlayer is a Player that chooses with move (V and A are inferred
// from its signature):
//
//	sdk.Main(sdk.NewPlayer(func(v *banqi.View, legal []banqi.Action, c *sdk.Context) (int, error) {
//		return c.Rand.IntN(len(legal)), nil
//	}))
func NewPlayer[V, A any](move func(view *V, legal []A, c *Context) (int, error)) *Player[V, A] {
	return &Player[V, A]{Move: move}
}

func (p *Player[V, A]) startWith(c *Context) error {
	if p.OnStart != nil {
		return p.OnStart(c)
	}
	return nil
}

func (p *Player[V, A]) actWith(c *Context) (int, error) {
	view, legal, err := Decode[V, A](c.Turn)
	if err != nil {
		return 0, err
	}
	switch {
	case p.Move != nil:
		i, err := p.Move(view, legal, c)
		if err == nil && (i < 0 || i >= len(legal)) {
			err = fmt.Errorf("index %d out of range 0..%d", i, len(legal)-1)
		}
		return i, err
	case p.Choose != nil:
		a, err := p.Choose(view, legal, c)
		if err != nil {
			return 0, err
		}
		for i := range legal {
			if reflect.DeepEqual(legal[i], a) {
				return i, nil
			}
		}
		return 0, fmt.Errorf("chose %+v, which is not one of the %d legal actions", a, len(legal))
	}
	return 0, fmt.Errorf("sdk.Player has neither Move nor Choose")
}

func (p *Player[V, A]) endWith(c *Context, e *protocol.End) {
	if p.OnEnd != nil {
		p.OnEnd(e, c)
	}
}

// Start implements Bot, for a Player driven without Run or a Session
// (which give it their Context instead).
func (p *Player[V, A]) Start(h *protocol.Hello) error {
	p.context().newGame(h)
	return p.startWith(p.own)
}

// Act implements Bot (see Start); the move's time starts now.
func (p *Player[V, A]) Act(t *protocol.Turn) (int, error) {
	c := p.context()
	c.Turn, c.Received = t, time.Now()
	return p.actWith(c)
}

// End implements Bot (see Start).
func (p *Player[V, A]) End(e *protocol.End) {
	c := p.context()
	c.Turn = nil
	p.endWith(c, e)
}

func (p *Player[V, A]) context() *Context {
	if p.own == nil {
		p.own = &Context{log: os.Stderr}
		p.own.newGame(&protocol.Hello{})
	}
	return p.own
}

// Decode decodes a turn's view into a V and its legal actions into As,
// with encoding/json, as a Player does before calling Move: the typed
// decoding for a bot written against Bot. json.RawMessage (for V or A)
// is taken as it is, without decoding.
func Decode[V, A any](t *protocol.Turn) (*V, []A, error) {
	var view *V
	if raw, ok := any(&t.View).(*V); ok {
		view = raw
	} else {
		view = new(V)
		if err := json.Unmarshal(t.View, view); err != nil {
			return nil, nil, fmt.Errorf("decoding the view: %w", err)
		}
	}
	if legal, ok := any(t.Legal).([]A); ok {
		return view, legal, nil
	}
	legal := make([]A, len(t.Legal))
	for i, raw := range t.Legal {
		if err := json.Unmarshal(raw, &legal[i]); err != nil {
			return nil, nil, fmt.Errorf("decoding legal[%d] %s: %w", i, raw, err)
		}
	}
	return view, legal, nil
}

// DecodeView decodes a view (a turn's, or the final one in End) into a V.
func DecodeView[V any](raw json.RawMessage) (*V, error) {
	v := new(V)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("decoding the view: %w", err)
	}
	return v, nil
}
