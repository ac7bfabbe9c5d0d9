#!/usr/bin/env bash
# signal_trial.sh - the live knobs always come back: a tuner on a fake knob root is sent 1 to 3
# signals of one terminating kind at random moments, N times per kind; then SIGKILL followed by
# `tuner knobs --restore`. Every run must end with the original values (1000000) and no state file.
#
# Usage: tools/signal_trial.sh [N] [TUNER]   (N runs per signal kind, default 20; TUNER default
# bin/tuner). Prints one line per failure and a summary; exit status 1 if any run failed.
set -uo pipefail
n=${1:-20}
tuner=$(realpath "${2:-bin/tuner}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_STATE_HOME=$work/state
RANDOM=42
runs=0 failed=0

fresh_root() {
	rm -rf "$work/R"
	mkdir -p "$work/R/proc/sys/kernel"
	for f in latency min_granularity wakeup_granularity; do
		echo 1000000 >"$work/R/proc/sys/kernel/sched_${f}_ns"
	done
}

check() { # $1: what
	runs=$((runs + 1))
	local values
	values=$(cat "$work"/R/proc/sys/kernel/* | tr '\n' ' ')
	if [[ $values != "1000000 1000000 1000000 " ]] || compgen -G "$XDG_STATE_HOME/linsched-tuner/*.state" >/dev/null; then
		echo "FAILED: $1: knobs $values"
		failed=$((failed + 1))
	fi
}

start() { # a live search whose benchmark takes 0.2 s a run
	setsid "$tuner" golden --objective cmd --cmd "sh -c 'sleep 0.2; echo Time: 0.01'" \
		--knob-root "$work/R" --groups 2 --loops 1 --threads >/dev/null 2>&1 &
	pid=$!
}

# Every kind the tuner catches (tuner/eval/live_knobs.c), the real-time ones by their two ends.
for sig in INT TERM HUP QUIT PIPE ALRM USR1 USR2 XCPU XFSZ VTALRM PROF IO PWR STKFLT RTMIN RTMAX; do
	for ((i = 0; i < n; i++)); do
		fresh_root
		start
		sleep "0.$((RANDOM % 9 + 1))"
		k=$((RANDOM % 3 + 1))
		for ((j = 0; j < k; j++)); do
			kill -s "$sig" "$pid" 2>/dev/null
			sleep "0.0$((RANDOM % 9))"
		done
		wait "$pid" 2>/dev/null
		check "SIG$sig x$k"
	done
done
for ((i = 0; i < n; i++)); do
	fresh_root
	start
	sleep "0.$((RANDOM % 9 + 1))"
	kill -s KILL "$pid"
	wait "$pid" 2>/dev/null
	sleep 0.3 # the orphaned benchmark ends by itself; it touches no knob
	"$tuner" knobs --restore --knob-root "$work/R" >/dev/null
	check "SIGKILL then tuner knobs --restore"
done
echo "signal trial: $runs runs, $failed failed"
[[ $failed -eq 0 ]]
