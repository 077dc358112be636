package remote_test

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

// A Go bot written with the SDK serves itself over NATS: each session the
// arena opens runs sdk.Run in this process. Here the arena's side is
// played by hand: it opens a session and sends hello.
func ExampleInProcess() {
	ns, _ := remote.StartServer(remote.ServerOptions{})
	defer ns.Shutdown()
	botConn, _ := nats.Connect(ns.ClientURL(), nats.CustomInboxPrefix(remote.InboxPrefix("mybot")))
	defer botConn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := remote.Server{NC: botConn, ID: "mybot", Sessions: 2, Start: remote.InProcess(func(in io.Reader, out io.Writer) error {
		b, _ := bots.New("random")
		return sdk.Run(in, out, b, sdk.Options{Name: "mybot", Version: "1.0"})
	})}
	go srv.Serve(ctx)

	arena, _ := nats.Connect(ns.ClientURL())
	defer arena.Close()
	session, err := (&remote.Launcher{NC: arena, ID: "mybot", Wait: 5 * time.Second}).Launch("mybot", bot.LaunchOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()
	session.Send([]byte(`{"type":"hello","protocol":1,"game":"banqi","seat":0,"seats":2,"seed":1}`), time.Now().Add(5*time.Second))
	line, _ := session.Receive(time.Now().Add(5 * time.Second))
	fmt.Println(string(line))
	// Output: {"type":"ready","name":"mybot","version":"1.0"}
}
