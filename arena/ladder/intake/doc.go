// Package intake takes submissions into a running ladder. The
// contestant's side (Submit, SubmitManifest, Withdraw, Status) and the
// run's side (Process) are different processes, often of different
// users, that share nothing but files: Submit writes a submission whole
// into submissions/incoming/ID.tmp (flocked while it writes), makes it
// private to its writer and the ladder's group, and renames it to
// submissions/incoming/ID, so the run never sees half a copy; Process
// takes complete submissions in ID order (IDs start with the time),
// logs submitted, runs the optional build in the sandbox (the ladder's
// build time and memory), copies the bot into bots/NAME/BUILD/ (BUILD:
// arena/bot/stdio's build hash of the command), judges it by arena
// check's games in the sandbox on the ladder's game and options, at its
// fewest seats and, for a seat range, at its most, and logs admitted (a
// new version NAME.vN, which retires the one before; versions older
// than the newest submissions.max_versions then lose their files,
// logged pruned) or refused with the check's report; then it writes
// submissions/ID.report for the submitter and removes the incoming
// copy. A request to withdraw a bot (Withdraw) goes the same way and is
// logged withdrawn.
//
// # Who may submit
//
// The user who made a submission's directory (its owner: who ran
// Submit) is recorded in its events; a bot's name belongs to the first
// user who submitted under it, and a submission or withdrawal of it by
// another is refused ("bot NAME belongs to another user"), unless it
// is the organiser's (root, or the user the ladder runs as). Process
// reads a submission only through its directory, opened once (not a
// link, the one it looked at), each file opened without following a
// link and required to be its submitter's: a contestant cannot have the
// run copy another's files, or the ladder's, into their bot.
// docs/security.md says what the modes Init sets (ladder.Modes) and
// those of a submission keep from whom, and what they do not.
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
