// Package bench measures the arena on the machine it runs on. Measure is
// arena bench: the pipe round trip to a bot, the referee's cost per move
// next to it, and the concurrency at which a move clock stays fair. Its
// tests hold the end-to-end performance benchmarks: the referee's cost per
// move over stdio against a raw JSON-line ping-pong with the same child
// process, measured in the same run.
//
//	go test -run '^$' -bench . ./arena/bench/
package bench
