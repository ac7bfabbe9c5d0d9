#!/bin/bash
# Turns the guest's lines (lines.txt of run-plan.sh) into one CSV row per run.
#
#   vm/lines-to-csv.sh LINES_FILE [STEAL_FILE] > runs.csv
#
# Columns: seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,
# migration_cost_ns,seconds,wall_s,ctxt,rc,knobs, and with STEAL_FILE (run-plan.sh's steal.txt)
# steal_ppm,stall_ns.  "seconds" is the benchmark's own "Time:" (the time from releasing the tasks
# to the last exit); wall_s is the guest's monotonic clock around the whole command (it includes
# creating the tasks).  Knob values are the ones read back.  steal_ppm is the share of the time
# the vCPUs wanted to run that the host did not run them, stall_ns the mean length of such a wait.
set -euo pipefail
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: lines-to-csv.sh LINES_FILE [STEAL_FILE]" >&2; exit 1; }
steal=${2:-/dev/null}

awk -v with_steal=$(($# == 2)) '
FILENAME == ARGV[1] { sp[$1] = $2; sn[$1] = $3; next }
BEGIN { printf "seq,round,setting,latency_ns,min_granularity_ns,wakeup_granularity_ns,migration_cost_ns,seconds,wall_s,ctxt,rc,knobs%s\n", with_steal ? ",steal_ppm,stall_ns" : "" }
$1 == "LST" && $2 == "run" {
    delete f
    for (i = 3; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
    wall = (f["wall_ns"] ~ /^[0-9]+$/) ? sprintf("%.6f", f["wall_ns"] / 1e9) : ""
    secs = (f["time_s"] == "-") ? "" : f["time_s"]
    ctxt = (f["ctxt"] == "-") ? "" : f["ctxt"]
    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s", f["seq"], f["round"], f["setting"], f["latency_ns"],
        f["min_granularity_ns"], f["wakeup_granularity_ns"], f["migration_cost_ns"], secs, wall, ctxt,
        f["rc"], f["knobs"]
    if (with_steal) printf ",%s,%s", sp[f["seq"]], sn[f["seq"]]
    printf "\n"
}' "$steal" "$1"
