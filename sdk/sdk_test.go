package sdk_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

type recorder struct {
	hellos []protocol.Hello
	ends   int
	pick   int
}

func (r *recorder) Start(h *protocol.Hello) error { r.hellos = append(r.hellos, *h); return nil }
func (r *recorder) Act(t *protocol.Turn) (int, error) {
	if r.pick < 0 {
		return 0, errors.New("no idea")
	}
	return r.pick, nil
}
func (r *recorder) End(*protocol.End) { r.ends++ }

func TestRun(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		pick    int
		wantOut []string
		wantErr string
		hellos  int
	}{
		{
			name: "two games in one process, unknown fields and types ignored",
			in: `{"type":"hello","protocol":1,"seat":1,"future_field":true}
{"type":"turn","id":3,"legal":[{},{}],"view":null,"shiny":1}
{"type":"spectate","what":"ignored"}
{"type":"end","ranks":[2,1]}
{"type":"hello","protocol":1,"seat":0}
{"type":"turn","id":1,"legal":[{}]}
{"type":"bye"}
`,
			pick:    1,
			wantOut: []string{`{"type":"ready"}`, `{"type":"action","id":3,"index":1}`, `{"type":"ready"}`, `{"type":"action","id":1,"index":1}`},
			hellos:  2,
		},
		{
			name:    "unknown major version is refused with a clear error",
			in:      `{"type":"hello","protocol":2,"seat":0}` + "\n",
			wantOut: []string{`{"type":"error","message":"unsupported protocol version 2 (this bot speaks 1)"}`},
			wantErr: "unsupported protocol version 2",
		},
		{
			name:    "a bot error falls back to a legal move and the bot plays on",
			in:      `{"type":"hello","protocol":1}` + "\n" + `{"type":"turn","id":1,"legal":[{}]}` + "\n" + `{"type":"turn","id":2,"legal":[{}]}` + "\n",
			pick:    -1,
			wantOut: []string{`{"type":"ready"}`, `{"type":"action","id":1,"index":0}`, `{"type":"action","id":2,"index":0}`},
			hellos:  1,
		},
		{
			name:    "end of input without bye is a clean stop",
			in:      `{"type":"hello","protocol":1}` + "\n",
			wantOut: []string{`{"type":"ready"}`},
			hellos:  1,
		},
		{
			name:    "a line that is not a message is ignored, as in every SDK",
			in:      "not json\n" + `{"type":"hello","protocol":1}` + "\n" + `{"type":"turn","id":1,"legal":[{},{}]}` + "\n",
			pick:    1,
			wantOut: []string{`{"type":"ready"}`, `{"type":"action","id":1,"index":1}`},
			hellos:  1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			bot := &recorder{pick: tc.pick}
			err := sdk.Run(strings.NewReader(tc.in), &out, bot, sdk.Options{Log: io.Discard})
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			got := strings.Split(strings.TrimSpace(out.String()), "\n")
			if out.Len() == 0 {
				got = nil
			}
			if strings.Join(got, "\n") != strings.Join(tc.wantOut, "\n") {
				t.Fatalf("output:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.wantOut, "\n"))
			}
			if len(bot.hellos) != tc.hellos {
				t.Fatalf("%d hellos reached the bot, want %d", len(bot.hellos), tc.hellos)
			}
		})
	}
}

func TestRunRejectsOversizeLines(t *testing.T) {
	in := `{"type":"hello","protocol":1,"pad":"` + strings.Repeat("x", 2000) + `"}` + "\n"
	err := sdk.Run(strings.NewReader(in), &bytes.Buffer{}, &recorder{}, sdk.Options{MaxLine: 1000})
	if !errors.Is(err, protocol.ErrLineTooLong) {
		t.Fatalf("got %v, want ErrLineTooLong", err)
	}
}
