// Package intake takes submissions into a running ladder. The
// contestant's side (Submit, SubmitManifest, Status) and the run's side
// (Process) are different processes that share nothing but files:
// Submit writes a submission whole into submissions/incoming/ID.tmp
// (flocked while it writes) and renames it to submissions/incoming/ID,
// so the run never sees half a copy; Process takes complete submissions
// in ID order (IDs start with the time), logs submitted, runs the
// optional build in the sandbox (the ladder's build time and memory),
// copies the bot into bots/NAME/BUILD/ (BUILD: arena/bot/stdio's build
// hash of the command), judges it by arena check's games in the
// sandbox on the ladder's game, options and fewest seats, and logs
// admitted (a new version NAME.vN, which retires the one before) or
// refused with the check's report; then it writes submissions/ID.report
// for the submitter and removes the incoming copy.
//
// The roster log is the truth across a crash: a submission whose
// submitted event is logged but no verdict is judged again, one with a
// verdict is only tidied (its report written, its incoming copy
// removed), never judged twice.
//
// # The layout it adds
//
//	submissions/incoming/ID.tmp/           a submission being written (removed once its writer is gone)
//	submissions/incoming/ID/manifest.json  name, command, build, time (Manifest)
//	submissions/incoming/ID/bot/           the bot's files, as submitted
//	submissions/ID.report                  the verdict (JSON: Report), for Status
//	bots/NAME/BUILD/                       a version's files (BUILD-ID: the same hash over other files)
package intake
