package engineserver

import (
	"reflect"
	"sync"

	"github.com/arena-dev/arena/engine"
)

// clone is an independent copy of st. The engine contract has no Clone
// (the referee never needs one), but every engine's State has a method
// Clone returning its own concrete type, which an interface cannot name
// for all games at once: it is found by reflection, once per type.
func clone(st engine.State) (engine.State, error) {
	f, err := clonerOf(reflect.TypeOf(st))
	if err != nil {
		return nil, err
	}
	return f(st), nil
}

// cloners caches clonerOf by state type.
var cloners sync.Map // reflect.Type -> func(engine.State) engine.State

// clonerOf is the clone function of states of type t.
func clonerOf(t reflect.Type) (func(engine.State) engine.State, error) {
	if f, ok := cloners.Load(t); ok {
		return f.(func(engine.State) engine.State), nil
	}
	m, ok := t.MethodByName("Clone")
	stateType := reflect.TypeFor[engine.State]()
	if !ok || m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || !m.Type.Out(0).Implements(stateType) {
		return nil, fail(Internal, "the %v engine's states have no Clone method returning a state: clone and playout need one", t)
	}
	f := func(st engine.State) engine.State {
		return m.Func.Call([]reflect.Value{reflect.ValueOf(st)})[0].Interface().(engine.State)
	}
	cloners.Store(t, f)
	return f, nil
}
