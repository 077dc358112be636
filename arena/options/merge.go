package options

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Given are the settings a command line gave, each by the key of the
// file field it sets ("clock.move", "limits.memory", "name"): only
// those, so that laying them over a file (Merge) keeps every field no
// flag was given for, and a flag given at its default value still wins.
type Given struct {
	keys []string
	vals map[string]any
}

// Set records v as the value given for key. v is the field's type, or
// one convertible to it (a time.Duration for a Duration, an int for a
// *int).
func (g *Given) Set(key string, v any) {
	if g.vals == nil {
		g.vals = map[string]any{}
	}
	if _, ok := g.vals[key]; !ok {
		g.keys = append(g.keys, key)
	}
	g.vals[key] = v
}

// Has says whether key was given. It is an Explicit.
func (g Given) Has(key string) bool {
	_, ok := g.vals[key]
	return ok
}

// Keys are the keys given, in the order they were.
func (g Given) Keys() []string { return slices.Clone(g.keys) }

// ErrUnknownField is a key Merge finds no field for.
var ErrUnknownField = errors.New("no such field")

// Merge lays the settings given over dst, a pointer to Settings or to a
// struct holding them inline (a tournament file): each key given
// replaces its field, the rest stay (nats-server's MergeOptions: file
// options, then flag options over them). A few fields add rather than
// replace, as a flag beside a file means: a map (a game's options) is
// merged key by key; the paths of limits.ro and limits.rw (relative to
// the working directory, as a flag gives them) are made absolute and
// added once each, limits.env entries added once; a limits.network
// given clears limits.no_network (the later, finer setting), and
// deal_secret is made absolute (a file's is relative to the file).
func Merge(dst any, g Given) error {
	root := reflect.ValueOf(dst).Elem()
	for _, key := range g.keys {
		field, ok := fieldAt(root, key)
		if !ok {
			return &FieldError{Field: key, Err: ErrUnknownField}
		}
		if err := lay(field, key, g.vals[key]); err != nil {
			return err
		}
		if key == "limits.network" {
			if nn, ok := fieldAt(root, "limits.no_network"); ok {
				nn.SetBool(false)
			}
		}
	}
	return nil
}

// lay sets field (at key) to v, by Merge's rules.
func lay(field reflect.Value, key string, v any) error {
	val := reflect.ValueOf(v)
	switch {
	case key == "deal_secret":
		abs, err := filepath.Abs(val.String())
		if err != nil {
			return &FieldError{Field: key, Err: err}
		}
		field.SetString(abs)
	case key == "limits.ro" || key == "limits.rw" || key == "limits.env":
		list := field.Interface().([]string)
		for _, s := range v.([]string) {
			if key != "limits.env" {
				if abs, err := filepath.Abs(s); err == nil {
					s = abs
				}
			}
			if s != "" && !slices.Contains(list, s) {
				list = append(list, s)
			}
		}
		field.Set(reflect.ValueOf(list))
	case field.Kind() == reflect.Map:
		if field.IsNil() {
			field.Set(reflect.MakeMap(field.Type()))
		}
		for it := val.MapRange(); it.Next(); {
			field.SetMapIndex(it.Key(), it.Value())
		}
	case field.Kind() == reflect.Pointer && val.Kind() != reflect.Pointer:
		p := reflect.New(field.Type().Elem())
		p.Elem().Set(val.Convert(field.Type().Elem()))
		field.Set(p)
	case val.Type().ConvertibleTo(field.Type()):
		field.Set(val.Convert(field.Type()))
	default:
		return &FieldError{Field: key, Err: fmt.Errorf("a %s given for a %s", val.Type(), field.Type())}
	}
	return nil
}

// fieldAt is the field of struct v at key, a path of YAML keys
// ("limits.memory"), looking into inline structs.
func fieldAt(v reflect.Value, key string) (reflect.Value, bool) {
	name, rest, nested := strings.Cut(key, ".")
	for i := range v.NumField() {
		f := v.Type().Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" {
			if in, ok := fieldAt(v.Field(i), key); ok {
				return in, true
			}
			continue
		}
		if tag != name || tag == "" || tag == "-" {
			continue
		}
		if !nested {
			return v.Field(i), true
		}
		if f.Type.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		return fieldAt(v.Field(i), rest)
	}
	return reflect.Value{}, false
}

// Keyed reads the flags of keys that were given (flag name -> file
// key): flags that set a field as given, with no rule of their own (a
// tournament's name, format, rounds...). A flag is read by its type.
func (g *Given) Keyed(c *cli.Context, keys map[string]string) {
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		key, ok := keys[name]
		if !ok || !c.IsSet(name) {
			continue
		}
		switch f.(type) {
		case *cli.StringFlag:
			g.Set(key, c.String(name))
		case *cli.IntFlag:
			g.Set(key, c.Int(name))
		case *cli.StringSliceFlag:
			g.Set(key, c.StringSlice(name))
		case *cli.BoolFlag:
			g.Set(key, c.Bool(name))
		}
	}
}
