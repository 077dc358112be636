package web_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/arena-dev/arena/arena/human/web"
)

// A person's seat served on loopback: the seat is the Launcher to put at
// the table (human.Seated) and the output.Person to tell the results;
// the URL, with its random key, is what to give the person.
func Example() {
	seat := web.NewSeat()
	srv := web.NewServer(seat)
	ln, err := web.Listen(web.DefaultAddr, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := srv.Serve(ctx, ln)
	url := srv.URL(ln)
	fmt.Println(strings.HasPrefix(url, "http://127.0.0.1:"), strings.HasSuffix(url, srv.Path()))
	cancel()
	<-done
	// Output: true true
}
