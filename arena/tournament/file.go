package tournament

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/sandbox"
)

// File is a tournament file as written by people (YAML). Every field can
// also be given as a flag; flags override the file. docs/tournaments.md
// documents each field.
type File struct {
	Name              string            `yaml:"name" json:"name"`
	Game              string            `yaml:"game" json:"game"`
	Options           map[string]string `yaml:"options,omitempty" json:"options,omitempty"`
	Seats             int               `yaml:"seats,omitempty" json:"seats,omitempty"`
	Format            string            `yaml:"format" json:"format"`
	Rounds            int               `yaml:"rounds,omitempty" json:"rounds,omitempty"`
	GamesPerEncounter int               `yaml:"games_per_encounter,omitempty" json:"games_per_encounter,omitempty"`
	Gauntlet          []string          `yaml:"gauntlet,omitempty" json:"gauntlet,omitempty"`
	Seeding           []string          `yaml:"seeding,omitempty" json:"seeding,omitempty"`
	SeedingFrom       string            `yaml:"seeding_from,omitempty" json:"seeding_from,omitempty"`
	Advance           int               `yaml:"advance,omitempty" json:"advance,omitempty"`
	MaxGames          int               `yaml:"max_games,omitempty" json:"max_games,omitempty"`
	// Until is a round-robin's stop rule ("separated:K@C", arena/
	// stoprule): it plays cycles until the standings decide the top K,
	// rounds at most. Not sealed: a resume may change it.
	Until string `yaml:"until,omitempty" json:"until,omitempty"`
	// Settings are the run's clocks, failure policy, seed, deal secret,
	// processes and sandbox limits, shared with the flags of every
	// command that runs games (options.Settings: their keys, inline).
	options.Settings `yaml:",inline"`
	Bots             []BotFile `yaml:"bots" json:"bots"`
	// Withdrawn are the bots the organiser took out of the tournament
	// once it had begun (removed from its file, or --withdraw), and
	// Suspended those the arena took out for failing to start, with why
	// (failure.max_startup_failures). They stay in the schedule, and
	// forfeit their remaining games without being started. Saved in
	// tournament.json, not in a tournament file, and not sealed: a resume
	// keeps them (Plan.Settle) until --readmit.
	Withdrawn []string          `yaml:"-" json:"withdrawn,omitempty"`
	Suspended map[string]string `yaml:"-" json:"suspended,omitempty"`
	// Checksum seals the saved copy (tournament.json): a sha256 of every
	// field but concurrency and spare_processes, checked when the directory is read, so that
	// an edited seed or bot list cannot resume as if it had been there
	// from the start.
	Checksum string `yaml:"-" json:"checksum,omitempty"`
}

// BotFile is one bot.
type BotFile struct {
	Name    string            `yaml:"name" json:"name"`
	Command string            `yaml:"command" json:"command"`
	Dir     string            `yaml:"dir,omitempty" json:"dir,omitempty"`
	Env     map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
}

// MaxFileSize bounds a tournament file (and the saved tournament.json),
// in bytes: a file for a thousand bots is about 100 KiB, and the bound
// keeps a stray or hostile file from costing memory in the YAML decoder
// (which takes several times a file's size).
const MaxFileSize = 1 << 20

// Errors of tournament files, for errors.Is.
var (
	// ErrTooLarge: a file over MaxFileSize.
	ErrTooLarge = errors.New("file too large")
	// ErrUnknownKey: a key the place it is at does not have (a typo).
	ErrUnknownKey = errors.New("unknown key")
	// ErrWrongType: a value of the wrong kind (text for a number, a
	// single value for a list...).
	// The same error as options.ErrWrongType, which a duration says.
	ErrWrongType = options.ErrWrongType
	// ErrEmptyFile: nothing in the file.
	ErrEmptyFile = errors.New("the file is empty")
)

// FileError is a mistake in a tournament file: the file, the line (0 if
// not known), the key ("bots[2].command"; "" for the file as a whole).
type FileError struct {
	File string
	Line int
	Key  string
	Err  error
}

func (e *FileError) Error() string {
	s := e.File + ": "
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	if e.Key != "" {
		s += e.Key + ": "
	}
	return s + e.Err.Error()
}

func (e *FileError) Unwrap() error { return e.Err }

// LoadFile reads and strictly decodes a tournament file: unknown or
// misspelt keys and wrong types are *FileErrors naming the file, line and
// key; a file over MaxFileSize is refused unread (ErrTooLarge).
func LoadFile(path string) (*File, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, data)
}

// readBounded reads a file of at most MaxFileSize bytes, without reading
// more of a larger one.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, tooLarge(path)
	}
	return data, nil
}

func tooLarge(name string) error {
	return &FileError{File: name, Err: fmt.Errorf("%w: more than %s, the most a tournament file may hold", ErrTooLarge, sandbox.FormatSize(MaxFileSize))}
}

// ParseFile decodes tournament file data; name is used in errors (see
// Decode).
func ParseFile(name string, data []byte) (*File, error) {
	if len(data) > MaxFileSize {
		return nil, tooLarge(name)
	}
	var f File
	if err := Decode(name, data, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

// Decode strictly decodes the YAML data of a file (name, for errors)
// into v, a pointer to a struct with yaml tags: the one checker of the
// arena's YAML files (tournament files, ladder files). Every key is
// checked against the fields of its place before anything is decoded,
// so a typo or a wrong type is a *FileError naming the line, the key and
// (for a typo) the keys valid there. The caller bounds data's size.
func Decode(name string, data []byte, v any) error {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &FileError{File: name, Err: ErrEmptyFile}
		}
		return &FileError{File: name, Err: errors.New(strings.TrimPrefix(strings.ReplaceAll(err.Error(), "\n ", ""), "yaml: "))}
	}
	if err := checkNode(&doc, reflect.TypeOf(v), ""); err != nil {
		err.File = name
		return err
	}
	// The strict decoder once more, for what the check does not follow
	// (aliases); it finds nothing the check found already.
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return &FileError{File: name, Err: errors.New(strings.TrimPrefix(strings.ReplaceAll(err.Error(), "\n ", ""), "yaml: "))}
	}
	return nil
}

var durationType = reflect.TypeFor[options.Duration]()

// checkNode checks that n can be decoded into a t: mappings have only
// the keys of t's yaml tags, lists are lists, scalars decode. key is n's
// place ("bots[0].env"), for messages.
func checkNode(n *yaml.Node, t reflect.Type, key string) *FileError {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return checkNode(n.Content[0], t, key)
	case yaml.AliasNode:
		return nil // the strict decoder checks what an alias stands for
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil // an empty value keeps the default
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	wrong := func(want string) *FileError {
		return &FileError{Line: n.Line, Key: key, Err: options.WrongType(fmt.Sprintf("want %s, got %s", want, nodeText(n)))}
	}
	if t == durationType {
		var d options.Duration
		if err := n.Decode(&d); err != nil {
			return &FileError{Line: n.Line, Key: key, Err: err}
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return wrong("keys and values (" + strings.Join(yamlKeys(t), ", ") + ")")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			field, ok := yamlField(t, k.Value)
			if !ok {
				where := "here"
				if key != "" {
					where = "in " + key
				}
				return &FileError{Line: k.Line, Key: join(key, k.Value), Err: fmt.Errorf("%w (the keys %s: %s)", ErrUnknownKey, where, strings.Join(yamlKeys(t), ", "))}
			}
			if err := checkNode(v, field.Type, join(key, k.Value)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return wrong("keys and values")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := checkNode(n.Content[i+1], t.Elem(), join(key, n.Content[i].Value)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return wrong("a list ([a, b] or one \"- item\" a line)")
		}
		for i, c := range n.Content {
			if err := checkNode(c, t.Elem(), fmt.Sprintf("%s[%d]", key, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return wrong(kindText(t))
	}
	if err := n.Decode(reflect.New(t).Interface()); err != nil {
		return wrong(kindText(t))
	}
	return nil
}

func join(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

// yamlKeys lists the keys of a struct, in file order; an inline
// struct's keys stand where it does.
func yamlKeys(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case opts == "inline":
			out = append(out, yamlKeys(f.Type)...)
		case name != "" && name != "-":
			out = append(out, name)
		}
	}
	return out
}

func yamlField(t reflect.Type, key string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" {
			if in, ok := yamlField(f.Type, key); ok {
				return in, true
			}
		} else if name == key && name != "-" {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// kindText says what a scalar of type t looks like, for people.
func kindText(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "text"
}

// nodeText shows what a node is, for messages.
func nodeText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "keys and values"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

// botFlags are the bots of a repeated --flag NAME=CMD, each split as
// every bot flag is (bot.SplitFlag), to replace the file's bots: their
// names and commands are checked with the file's (Resolve). A value
// without '=' is a *bot.FlagError.
func botFlags(flag string, values []string) ([]BotFile, error) {
	bots := []BotFile{}
	for _, v := range values {
		name, cmdline, ok := bot.SplitFlag(v)
		if !ok {
			return nil, &bot.FlagError{Flag: flag, Value: v, Err: bot.ErrFlag}
		}
		bots = append(bots, BotFile{Name: name, Command: cmdline})
	}
	return bots, nil
}
