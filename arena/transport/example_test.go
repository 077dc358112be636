package transport_test

import (
	"fmt"
	"time"

	"github.com/arena-dev/arena/arena/transport"
)

// A bot inside the test: a goroutine reads what the referee sends through
// the PipeBot and writes its answers, while the referee uses the Conn as
// it would use a process.
func ExamplePipe() {
	conn, bot := transport.Pipe(0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			line, err := bot.Receive(time.Now().Add(time.Minute))
			if err != nil {
				return // the referee closed the Conn
			}
			fmt.Fprintf(bot, "echo %s\n", line)
		}
	}()

	deadline := time.Now().Add(time.Second)
	conn.Send([]byte("hello"), deadline)
	reply, err := conn.Receive(deadline)
	fmt.Printf("%s %v\n", reply, err)

	// A bot that says nothing times out at the deadline.
	_, err = conn.Receive(time.Now().Add(10 * time.Millisecond))
	fmt.Println(err)

	conn.Close()
	<-done
	_, err = conn.Receive(deadline)
	fmt.Println(err)
	// Output:
	// echo hello <nil>
	// timed out
	// connection closed: closed by the referee
}
