// Package chaos holds the chaos suite (chaos_test.go): real tournaments in
// which purpose-built misbehaving bots (bots/chaos) play well-behaved ones.
// It checks that every misbehaviour is recorded with its reason, that the
// other seats' games are unharmed, that no bot process survives, that the
// referee's memory stays bounded and that every game is in the ledger.
// See docs/chaos.md.
package chaos
