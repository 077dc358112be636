#!/usr/bin/env bash
# A deliberately misbehaving arena bot in bash (no other tools but sleep).
#
# Usage: chaos_bot.sh MODE [TURN]
#
# Until it misbehaves it answers every turn with index 0 (always legal).
# It misbehaves at turn TURN of each game (default 1). Modes (a subset of
# bots/chaos/chaosbot):
#
#   good          always plays the first legal action
#   crash-start   exits with status 3 before reading anything
#   exit0         exits with status 0 at turn TURN
#   no-hello      reads hello, never answers
#   garbage       answers with a line that is not JSON
#   bad-utf8      answers with a JSON line holding invalid UTF-8
#   half-line     writes half a reply, then silence
#   sleep         sleeps 2 s before answering
#   stderr-flood  writes 20 MiB to stderr while playing well
#   close-stdout  closes stdout and keeps running
#   fork-child    starts a child that sleeps 300 s (stdio on /dev/null), then exits:
#                 the child outlives the bot
#   fork-bomb     forks a tree of 200 subshells (stops when fork fails), all sleeping
#   busy-loop     spins on two CPUs and never answers
set -u
mode=${1:-good}
at=${2:-1}

case $mode in
good | crash-start | exit0 | no-hello | garbage | bad-utf8 | half-line | sleep | stderr-flood | close-stdout | fork-child | fork-bomb | busy-loop) ;;
*)
	echo "chaos_bot.sh: unknown mode $mode" >&2
	exit 2
	;;
esac
[ "$mode" = crash-start ] && exit 3

hang() { while :; do sleep 3600; done; }

# bomb N: N processes below this one, a binary tree of subshells; each
# leaf ends as a sleep. A failed fork just leaves that branch out.
bomb() {
	local n=$1
	((n <= 0)) && return
	if ((n == 1)); then
		(exec sleep 300) &
		return
	fi
	local rest=$((n - 2))
	(bomb $((rest / 2)) && exec sleep 300) &
	(bomb $((rest - rest / 2)) && exec sleep 300) &
}

flood() {
	local line="flood flood flood flood flood flood flood flood flood flood" block="" i
	for ((i = 0; i < 1024; i++)); do block+="$line"$'\n'; done # 60 KiB
	for ((i = 0; i < 340; i++)); do printf '%s' "$block" >&2 || return; done
}

turn=0
while IFS= read -r line; do
	case $line in
	'{"type":"hello"'*)
		turn=0
		[ "$mode" = no-hello ] && hang
		[ "$mode" = stderr-flood ] && { flood & }
		printf '%s\n' '{"type":"ready","name":"sh-chaos"}'
		;;
	'{"type":"turn"'*)
		turn=$((turn + 1))
		[[ $line =~ \"id\":([0-9]+) ]] || exit 1
		id=${BASH_REMATCH[1]}
		if ((turn != at)) || [ "$mode" = good ] || [ "$mode" = stderr-flood ]; then
			printf '{"type":"action","id":%s,"index":0}\n' "$id"
			continue
		fi
		case $mode in
		exit0) exit 0 ;;
		garbage) printf '%s\n' 'hello world, this is not JSON' ;;
		bad-utf8) printf '{"type":"action","id":%s,"index":0,"note":"\xff\xfe\xc3("}\n' "$id" ;;
		half-line)
			printf '{"type":"action","id":%s,"ind' "$id"
			hang
			;;
		sleep)
			sleep 2
			printf '{"type":"action","id":%s,"index":0}\n' "$id"
			;;
		close-stdout)
			exec 1>&-
			hang
			;;
		fork-child)
			(exec sleep 300 </dev/null >/dev/null 2>&1) &
			echo "chaos_bot.sh: started child $!, exiting" >&2
			exit 5
			;;
		fork-bomb)
			bomb 200
			hang
			;;
		busy-loop)
			(while :; do :; done) &
			while :; do :; done
			;;
		esac
		;;
	'{"type":"bye"'*) exit 0 ;;
	esac
done
exit 0
