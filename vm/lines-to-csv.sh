#!/bin/bash
# Turns the guest's lines (lines.txt of run-plan.sh) into one CSV row per run.
#
#   vm/lines-to-csv.sh LINES_FILE [STEAL_FILE] > runs.csv
#
# Columns: seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,
# migration_cost_ns,seconds,wall_s,ctxt,rc,knobs, and with STEAL_FILE (run-plan.sh's steal.txt)
# steal_ppm,stall_ns, and shared_pct when the steal file has it (run-plan.sh's since it samples
# where the host puts the vCPU threads: the share of the run, in percent, in which the runnable
# vCPU threads sat on fewer host CPUs than they are; empty for a run never sampled so).
# "seconds" is the benchmark's own "Time:" (the time from releasing the tasks to the last exit);
# wall_s is the guest's monotonic clock around the whole command (it includes creating the tasks).
# Knob values are the ones read back.  steal_ppm is the share of the time the vCPUs wanted to run
# that the host did not run them, stall_ns the mean length of such a wait.
# A plan made with make-plan.sh -n has a "stalls" run before every run: it gets no row of its
# own, and gives the run after it guest_stall_ppm,guest_stall_ns,guest_stall_cv_pct (the stalls
# the guest saw on its busy CPUs just before the run: their share of the time, mean and
# coefficient of variation; all of them: the probe's [spread] noise_all_*, or with a probe older
# than the split into short and long stalls its [noise] noise_*), columns that only such a plan's
# CSV has. A boot whose guest recorded the forks (LST forks lines: vm/README.md) gives every run
# forks,parent_flips,flips_first,flips_last,fork_flips: of the command that forked most (the
# workload's parent), how many forks, the median wakee_flips its children inherited (the upper
# middle one), the first and last child's (a threads run's parent gains flips while it creates
# them), and every child's in the order of the forks, separated by ";"; empty for a run without
# the record.
set -euo pipefail
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: lines-to-csv.sh LINES_FILE [STEAL_FILE]" >&2; exit 1; }
steal=${2:-/dev/null}
with_guest=0
if grep -q '^LST run .* setting=stalls ' "$1"; then with_guest=1; fi
with_forks=0
if grep -q '^LST forks ' "$1"; then with_forks=1; fi
with_shared=0
if [ $# -eq 2 ] && awk 'NF >= 4 { found = 1; exit } END { exit !found }' "$2"; then with_shared=1; fi

awk -v with_steal=$(($# == 2)) -v with_guest=$with_guest -v with_forks=$with_forks -v with_shared=$with_shared '
FILENAME == ARGV[1] { sp[$1] = $2; sn[$1] = $3; sh[$1] = (NF >= 4 && $4 >= 0) ? $4 : ""; next }
BEGIN { printf "seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,migration_cost_ns,seconds,wall_s,ctxt,rc,knobs%s%s%s%s\n", with_steal ? ",steal_ppm,stall_ns" : "", with_shared ? ",shared_pct" : "", with_guest ? ",guest_stall_ppm,guest_stall_ns,guest_stall_cv_pct" : "", with_forks ? ",forks,parent_flips,flips_first,flips_last,fork_flips" : "" }
# The forks of a run: keep the list of the command that forked most (the first such on a tie).
$1 == "LST" && $2 == "forks" {
    q = n = l = ""
    for (i = 3; i <= NF; i++) {
        if ($i ~ /^seq=/) q = substr($i, 5)
        else if ($i ~ /^n=[0-9]+$/) n = substr($i, 3) + 0
        else if ($i ~ /^flips=[0-9,]+$/) l = substr($i, 7)
    }
    if (q != "" && n > 0 && l != "" && !(q in fork_n && fork_n[q] >= n)) { fork_n[q] = n; fork_l[q] = l }
    next
}
# The stall probe prints [noise] and [spread] keys: keep them for its run line. noise_all_* are
# all its stalls; a probe that splits them has its short ones alone in noise_*.
$1 == "LST" && $2 == "out" && $4 ~ /^noise_(all_)?(ppm|ns|cv_pct)=[0-9]+$/ {
    k = $4; sub(/=.*/, "", k); v = $4; sub(/^[^=]*=/, "", v); probe[$3, k] = v; next
}
$1 == "LST" && $2 == "run" {
    delete f
    for (i = 3; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
    if (f["setting"] == "stalls") {
        q = f["seq"]
        # A probe that failed, or saw no stall (noise_ppm=0 alone), leaves the next run without.
        a = ((q, "noise_all_ppm") in probe) ? "noise_all_" : "noise_"
        ok = f["rc"] == "0" && ((q, a "ns") in probe)
        gp = ok ? probe[q, a "ppm"] : ""; gn = ok ? probe[q, a "ns"] : ""; gc = ok ? probe[q, a "cv_pct"] : ""
        next
    }
    wall = (f["wall_ns"] ~ /^[0-9]+$/) ? sprintf("%.6f", f["wall_ns"] / 1e9) : ""
    secs = (f["time_s"] == "-") ? "" : f["time_s"]
    ctxt = (f["ctxt"] == "-") ? "" : f["ctxt"]
    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s", f["seq"], f["round"], f["setting"], f["latency_ns"],
        f["min_granularity_ns"], f["wakeup_granularity_ns"], f["migration_cost_ns"], secs, wall, ctxt,
        f["rc"], f["knobs"]
    if (with_steal) printf ",%s,%s", sp[f["seq"]], sn[f["seq"]]
    if (with_shared) printf ",%s", sh[f["seq"]]
    if (with_guest) { printf ",%s,%s,%s", gp, gn, gc; gp = gn = gc = "" }
    if (with_forks) {
        q = f["seq"]
        if (q in fork_n) {
            k = split(fork_l[q], fv, ",")
            for (i = 1; i <= k; i++) fw[i] = fv[i] + 0
            # Insertion sort: a run forks a few hundred at most.
            for (i = 2; i <= k; i++) { x = fw[i]; for (j = i - 1; j >= 1 && fw[j] > x; j--) fw[j + 1] = fw[j]; fw[j + 1] = x }
            l = fork_l[q]; gsub(/,/, ";", l)
            printf ",%d,%d,%d,%d,%s", k, fw[int(k / 2) + 1], fv[1], fv[k], l
            delete fork_n[q]
        } else printf ",,,,,"
    }
    printf "\n"
}' "$steal" "$1"
