//go:build linux

package devcgroup_test

import (
	"log"
	"slices"

	"github.com/arena-dev/arena/arena/sandbox/devcgroup"
)

// The sandbox confines each bot process's devices in the cgroup it made
// for it, before the bot joins: with a device program where the machine
// has them, else with the v1 devices controller.
func Example() {
	v2 := "/sys/fs/cgroup/arena-4242-1-alice"
	v1 := "/sys/fs/cgroup/devices/arena-4242-1-alice"

	if err := devcgroup.Supported(); err == nil {
		if err := devcgroup.V2(v2, devcgroup.Bots); err != nil {
			log.Fatal(err)
		}
	} else {
		log.Printf("sandbox: no device programs (%v); the v1 devices controller instead", err)
		if err := devcgroup.V1(v1, devcgroup.Bots); err != nil {
			log.Fatal(err)
		}
	}

	// A bot that may use the first GPU's render node as well.
	gpu := slices.Concat(devcgroup.Bots, []devcgroup.Rule{{Type: 'c', Major: 226, Minor: 128, Access: "rw"}})
	_ = gpu
}
