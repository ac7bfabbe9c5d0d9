#!/bin/bash
# Writes a plan (vm/README.md, "Plan file") to stdout: every setting once per round, in a fresh
# shuffled order each round.
#
#   vm/make-plan.sh [-s SEED] [-r ROUNDS] [-T SEQ,...] [-n MS] SETTINGS_FILE COMMAND...
#
# SETTINGS_FILE: one setting per line, "id latency_ns min_granularity_ns wakeup_granularity_ns
# [migration_cost_ns]", "-" for a knob to leave alone, '#' starts a comment.  -T lists the run
# numbers (seq) to trace.  -n MS puts before every run a run of its own, setting "stalls", in
# which the probe watches every CPU of the guest for MS ms for the stalls a busy task suffers
# (linsched probe --noise-only); lines-to-csv.sh gives them to the run after it.  The shuffle
# is a Fisher-Yates driven by the Park-Miller generator in integer arithmetic, so the same seed
# gives the same plan with any awk (mawk, gawk, busybox).
set -euo pipefail

seed=1
rounds=5
traced=
stalls_ms=0
while getopts s:r:T:n:h opt; do
    case $opt in
    s) seed=$OPTARG ;;
    r) rounds=$OPTARG ;;
    T) traced=$OPTARG ;;
    n) stalls_ms=$OPTARG ;;
    *) sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "usage: make-plan.sh [-s SEED] [-r ROUNDS] [-T SEQ,...] [-n MS] SETTINGS_FILE COMMAND..." >&2
    exit 1
fi
# -n: a whole number of ms in 1..600000 (the probe's --noise-ms range), without a leading 0.
case $stalls_ms in
0) ;;
'' | *[!0-9]* | 0*) echo "make-plan: -n: '$stalls_ms' is not a whole number of ms from 1" >&2; exit 1 ;;
*) if [ ${#stalls_ms} -gt 6 ] || [ "$stalls_ms" -gt 600000 ]; then
       echo "make-plan: -n: $stalls_ms ms is more than 600000" >&2; exit 1
   fi ;;
esac
settings=$1
shift
cmd="$*"

awk -v seed="$seed" -v rounds="$rounds" -v traced="$traced" -v cmd="$cmd" -v stalls_ms="$stalls_ms" '
function rnd(n) {            # uniform integer in [0, n)
    state = (state * 48271) % 2147483647
    return state % n
}
/^[[:space:]]*(#|$)/ { next }
{
    if (NF < 4 || NF > 5 || $1 !~ /^[A-Za-z0-9._-]+$/) {
        printf "make-plan: bad settings line %d: %s\n", NR, $0 > "/dev/stderr"; bad = 1; exit 1
    }
    for (k = 2; k <= NF; k++)
        if ($k !~ /^([0-9]+|-)$/) {
            printf "make-plan: bad knob value on line %d: %s\n", NR, $k > "/dev/stderr"; bad = 1; exit 1
        }
    if ($1 == "stalls") {
        printf "make-plan: line %d: the setting id \"stalls\" is the stall probe'"'"'s\n", NR > "/dev/stderr"; bad = 1; exit 1
    }
    n++; id[n] = $1; lat[n] = $2; min[n] = $3; wake[n] = $4; mig[n] = (NF == 5 ? $5 : "-")
}
END {
    if (bad) exit 1
    if (n == 0) { print "make-plan: no settings" > "/dev/stderr"; exit 1 }
    state = (seed % 2147483646) + 1          # Park-Miller state must be in [1, 2^31 - 2]
    split(traced, t, ",")
    for (k in t) if (t[k] != "") tr[t[k] + 0] = 1
    print "LST-PLAN 1"
    printf "# seed=%d rounds=%d settings=%d\n", seed, rounds, n
    print "# seq round setting latency_ns min_granularity_ns wakeup_granularity_ns migration_cost_ns trace command"
    seq = 0
    for (r = 0; r < rounds; r++) {
        for (i = 1; i <= n; i++) order[i] = i
        for (i = n; i > 1; i--) { j = rnd(i) + 1; x = order[i]; order[i] = order[j]; order[j] = x }
        for (i = 1; i <= n; i++) {
            s = order[i]
            if (stalls_ms > 0) {
                printf "%d %d stalls - - - - 0 linsched-probe-static --noise-only --noise-ms %d --out -\n", seq, r, stalls_ms
                seq++
            }
            printf "%d %d %s %s %s %s %s %d %s\n", seq, r, id[s], lat[s], min[s], wake[s], mig[s], (seq in tr), cmd
            seq++
        }
    }
}' "$settings"
