// Package bench holds the arena's end-to-end performance benchmarks: the
// referee's cost per move over stdio against a raw JSON-line ping-pong with
// the same child process, measured in the same run.
//
//	go test -run '^$' -bench . ./arena/bench/
package bench
