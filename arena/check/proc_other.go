//go:build !unix

package check

// groupNotEmpty is groupMembers without /proc: here no bot runs at all
// (transport.Start refuses), so no bot's process group has members.
func groupNotEmpty(int) []string { return nil }
