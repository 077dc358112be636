package bytesize_test

import (
	"fmt"

	"github.com/arena-dev/arena/internal/bytesize"
)

// A size is read as people write it and written back the same way;
// "unlimited" is 0, no limit.
func ExampleParse() {
	for _, s := range []string{"64MiB", "1GiB", "unlimited"} {
		n, err := bytesize.Parse(s)
		fmt.Println(n, bytesize.Format(n), err)
	}
	// Output:
	// 67108864 64MiB <nil>
	// 1073741824 1GiB <nil>
	// 0 unlimited <nil>
}
