// Package schema builds the JSON Schema documents (draft 2020-12) in which
// the engines publish their wire JSON: the resolved hello.options, the
// views (turn.view, end.view, the spectator view of replays) and the
// actions (turn.legal, action.action). An engine writes its schema in Go
// with these builders, from its own tables (card names, piece letters,
// option specs), so that the document follows the engine; the engines'
// tests validate real games against it.
//
// Every object built by Object is closed (additionalProperties false) and
// requires each property not marked optional, so that a schema says
// exactly what the engine sends.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/engine"
)

// Draft is the JSON Schema dialect of every document.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// The definitions every game's document has, as JSON pointers from the
// document's root (compile them as ID + pointer).
const (
	// Options is the object hello.options: every option, resolved.
	Options = "#/$defs/options"
	// View is a seat's view (turn.view and end.view).
	View = "#/$defs/view"
	// SpectatorView is the public view (seat -1) that replays record.
	SpectatorView = "#/$defs/spectator_view"
	// Action is one action object (each entry of turn.legal, action.action).
	Action = "#/$defs/action"
)

// Node is a JSON object whose keys keep the order they were added in, so
// that a schema reads in the order its author wrote it.
type Node struct {
	keys []string
	vals map[string]any
}

// New is a node with the given key/value pairs (key, value, key, value...).
func New(kv ...any) *Node {
	n := &Node{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Set(kv[i].(string), kv[i+1])
	}
	return n
}

// Set adds or replaces key (a new key goes last) and returns n.
func (n *Node) Set(key string, v any) *Node {
	if _, ok := n.vals[key]; !ok {
		n.keys = append(n.keys, key)
	}
	n.vals[key] = v
	return n
}

// Get is the value of key, nil if absent.
func (n *Node) Get(key string) any { return n.vals[key] }

// Describe sets the description (nothing when d is empty) and returns n.
func (n *Node) Describe(d string) *Node {
	if d != "" {
		n.Set("description", d)
	}
	return n
}

// MarshalJSON writes the keys in order.
func (n *Node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range n.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := encode(k)
		b.Write(kj)
		b.WriteByte(':')
		vj, err := encode(n.vals[k])
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", k, err)
		}
		b.Write(vj)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Prop is one property of an object.
type Prop struct {
	Name     string
	Schema   *Node
	Optional bool
}

// P is a property that is always present.
func P(name string, s *Node) Prop { return Prop{Name: name, Schema: s} }

// Opt is a property that may be absent.
func Opt(name string, s *Node) Prop { return Prop{Name: name, Schema: s, Optional: true} }

// Object is a closed object: exactly these properties, each required
// unless optional, no other.
func Object(desc string, props ...Prop) *Node {
	n := New("type", "object").Describe(desc)
	ps := New()
	req := []string{}
	for _, p := range props {
		ps.Set(p.Name, p.Schema)
		if !p.Optional {
			req = append(req, p.Name)
		}
	}
	n.Set("properties", ps)
	n.Set("required", req)
	n.Set("additionalProperties", false)
	return n
}

// String is any string.
func String(desc string) *Node { return New("type", "string").Describe(desc) }

// Pattern is a string matching the regular expression re (anchor it).
func Pattern(desc, re string) *Node { return New("type", "string", "pattern", re).Describe(desc) }

// Enum is one of the given strings.
func Enum(desc string, vals ...string) *Node {
	return New("type", "string", "enum", vals).Describe(desc)
}

// Const is exactly v.
func Const(v any) *Node { return New("const", v) }

// Int is an integer from min to max (no bound where math.MinInt or
// math.MaxInt).
func Int(desc string, min, max int) *Node {
	n := New("type", "integer").Describe(desc)
	if min != math.MinInt {
		n.Set("minimum", min)
	}
	if max != math.MaxInt {
		n.Set("maximum", max)
	}
	return n
}

// IntEnum is one of the given integers.
func IntEnum(desc string, vals ...int) *Node {
	return New("type", "integer", "enum", vals).Describe(desc)
}

// Bool is true or false.
func Bool(desc string) *Node { return New("type", "boolean").Describe(desc) }

// True is the constant true (a flag that is absent when false).
func True(desc string) *Node { return New("const", true).Describe(desc) }

// Array is an array of items with a length from min to max (max < 0: no
// bound).
func Array(desc string, items *Node, min, max int) *Node {
	n := New("type", "array").Describe(desc)
	n.Set("items", items)
	if min > 0 {
		n.Set("minItems", min)
	}
	if max >= 0 {
		n.Set("maxItems", max)
	}
	return n
}

// Null is null.
func Null(desc string) *Node { return New("type", "null").Describe(desc) }

// OrNull is s or null.
func OrNull(desc string, s *Node) *Node {
	return New("anyOf", []*Node{s, Null("")}).Describe(desc)
}

// Ref refers to a definition of the same document: Ref("square") is
// {"$ref":"#/$defs/square"}.
func Ref(def string) *Node { return New("$ref", "#/$defs/"+def) }

// RefDesc is Ref with a description of this use.
func RefDesc(def, desc string) *Node { return Ref(def).Describe(desc) }

// Def is a named definition of a document.
type Def struct {
	Name   string
	Schema *Node
}

// Document is a game's schema document. Its definitions must include
// options, view, spectator_view and action (see the constants); the root
// schema validates an object bundling any of them, so that the document
// validates something on its own: {"options": hello.options, "view": a
// seat's view, "spectator_view": ..., "legal": turn.legal, "action": one
// action}.
func Document(game, title, desc string, defs ...Def) *Node {
	d := New(
		"$schema", Draft,
		"$id", ID(game),
		"title", title,
		"description", desc,
		"type", "object",
		"properties", New(
			"options", RefDesc("options", "hello.options"),
			"view", RefDesc("view", "turn.view or end.view: what your seat may know"),
			"spectator_view", RefDesc("spectator_view", "the public view (seat -1), recorded in replays; never sent to bots"),
			"legal", Array("turn.legal: every action the seat may take, never empty", Ref("action"), 1, -1),
			"action", RefDesc("action", "one action: an entry of turn.legal, or action.action"),
		),
		"additionalProperties", false,
	)
	ds := New()
	for _, def := range defs {
		ds.Set(def.Name, def.Schema)
	}
	return d.Set("$defs", ds)
}

// ID is the $id of a game's document.
func ID(game string) string {
	return "https://github.com/arena-dev/arena/schemas/" + game + ".json"
}

// encode is json.Marshal without HTML escaping (descriptions say "G>A",
// not "G\u003eA"), and without the trailing newline.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Marshal is the document as compact JSON; it panics on a document that
// does not encode (a programming error of the engine's schema code).
func Marshal(doc *Node) []byte {
	b, err := encode(doc)
	if err != nil {
		panic(err)
	}
	return b
}

// OptionsObject is the schema of hello.options for these option specs:
// every option present, as a string, with its allowed values (an enum, or
// a pattern for the integers), its default and its doc.
func OptionsObject(desc string, specs []engine.OptionSpec) *Node {
	props := make([]Prop, 0, len(specs))
	for _, o := range specs {
		var s *Node
		switch o.Kind {
		case "bool":
			s = Enum(o.Doc, "true", "false")
		case "int":
			s = Pattern(fmt.Sprintf("%s (an integer from %d to %d, as a string)", o.Doc, o.Min, o.Max), IntPattern(o.Min, o.Max))
		default:
			s = Enum(o.Doc, o.Choices...)
		}
		s.Set("default", o.Default)
		if o.Sets != nil {
			var lines []string
			for _, c := range o.Choices {
				if sets := o.Sets[c]; sets != nil {
					var kv []string
					for _, p := range specs {
						if v, ok := sets[p.Name]; ok {
							kv = append(kv, p.Name+"="+v)
						}
					}
					lines = append(lines, c+" sets "+strings.Join(kv, " "))
				}
			}
			s.Set("description", o.Doc+". Preset: "+strings.Join(lines, "; ")+" (options given explicitly win)")
		}
		props = append(props, P(o.Name, s))
	}
	return Object(desc, props...)
}

// IntPattern is a regular expression for the canonical decimal integers
// from min to max (no sign, no leading zero). It is exact for min 0 or 1
// and any max; for a larger min it admits the integers from 1 (0 only
// with min 0) up to max and the engine's option check refuses the rest.
func IntPattern(min, max int) string {
	var alts []string
	if min <= 0 {
		alts = append(alts, "0")
	}
	alts = append(alts, upTo(strconv.Itoa(max))...)
	return "^(" + strings.Join(alts, "|") + ")$"
}

// upTo is regular expressions together matching the integers from 1 to
// the decimal number m (m >= 1), without leading zeros.
func upTo(m string) []string {
	if m == "0" {
		return nil
	}
	var alts []string
	k := len(m)
	// Fewer digits than m: any.
	for d := 1; d < k; d++ {
		alts = append(alts, "[1-9]"+digits(d-1))
	}
	// k digits, at most m: a prefix of m, then a smaller digit, then any.
	for i := 0; i < k; i++ {
		lo := byte('0')
		if i == 0 {
			lo = '1'
		}
		if m[i] > lo {
			alts = append(alts, m[:i]+digitRange(lo, m[i]-1)+digits(k-i-1))
		}
	}
	return append(alts, m)
}

func digitRange(lo, hi byte) string {
	if lo == hi {
		return string(lo)
	}
	return "[" + string(lo) + "-" + string(hi) + "]"
}

func digits(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "[0-9]"
	}
	return "[0-9]{" + strconv.Itoa(n) + "}"
}

// Union is a tagged union: objects told apart by a constant property
// (type, kind), so that at most one variant matches. It is an anyOf
// rather than a oneOf, which means the same here, so that a validator
// may stop at the first variant that matches: put the frequent first.
func Union(desc string, variants ...*Node) *Node { return New("anyOf", variants).Describe(desc) }
