// Package intake takes submissions into a running ladder. The
// contestant's side (Submit, Status) and the run's side (Process) are
// different processes that share nothing but files: Submit writes a
// submission whole into submissions/incoming/ID.tmp and renames it to
// submissions/incoming/ID, so the run never sees half a copy; Process
// takes complete submissions in ID order, copies each bot into
// bots/NAME/BUILD/, judges it by arena check's games in the sandbox and
// records the verdict in the roster log, then writes
// submissions/ID.report for the submitter.
//
// The roster log is the truth across a crash: a submission whose
// submitted event is logged but no verdict is judged again, one with a
// verdict is only tidied (its report written, its incoming copy
// removed), never judged twice.
//
// # The layout it adds
//
//	submissions/incoming/ID.tmp/        a submission being written (Submit; removed when its writer is gone)
//	submissions/incoming/ID/manifest.json   name, command, time
//	submissions/incoming/ID/bot/        the bot's files, as submitted
//	submissions/ID.report               the verdict (JSON: Report), for Status
//	bots/NAME/BUILD/                    an admitted (or judged) version's files
package intake
