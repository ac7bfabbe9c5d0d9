#!/bin/bash
# End-to-end check of the VM path, for CI: boots the real kernel once with a two-setting,
# one-round plan of `hackbench -T -g 1 -l 10` (the second run traced, and the stall probe of
# make-plan.sh -n before it), a host hog of run-plan.sh -H beside it, and checks that every protocol line parses, the knobs read back as
# written, the trace looks like the kernel's and the CSV carries the stalls the guest saw.
# About 15 s under TCG on a quiet host, 35 s on a busy one.  Needs `make vm` first.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/lst-vm-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
    echo "vm test-boot: FAIL: $*" >&2
    [ -f "$work/out/console.log" ] && tail -n 20 "$work/out/console.log" >&2
    exit 1
}

# make-plan.sh -n: a stall probe before every run, seq counting both, the settings' id "stalls"
# refused.
printf 'a 1 2 3\nb - - -\n' >"$work/settings"
"$here/make-plan.sh" -s 5 -r 2 -n 100 "$work/settings" hackbench -g 1 >"$work/plan-n"
[ "$(grep -c '^[0-9]* [01] stalls - - - - 0 linsched-probe-static --noise-only --noise-ms 100 --out -$' "$work/plan-n")" -eq 4 ] ||
    fail "make-plan.sh -n: expected 4 stall probes: $(tr '\n' '|' <"$work/plan-n")"
awk '/^[0-9]/ { if ($1 != n++ || ((n % 2) == 1) != ($3 == "stalls")) bad = 1 } END { exit bad || n != 8 }' "$work/plan-n" ||
    fail "make-plan.sh -n: runs and stall probes do not alternate: $(tr '\n' '|' <"$work/plan-n")"
printf 'stalls 1 2 3\n' >"$work/settings"
"$here/make-plan.sh" -n 100 "$work/settings" hackbench 2>/dev/null && fail "make-plan.sh took a setting named stalls"

# Values unlike the 2-CPU defaults, so that a knob that was not written shows.
cat >"$work/plan" <<'EOF'
LST-PLAN 1
# seq round setting latency_ns min_granularity_ns wakeup_granularity_ns migration_cost_ns trace command
0 0 defaults 12000000 1500000 2000000 500000 0 hackbench -T -g 1 -l 10
1 0 stalls - - - - 0 linsched-probe-static --noise-only --noise-ms 100 --out -
2 0 odd 7000000 900000 300000 250000 1 hackbench -T -g 1 -l 10
EOF

# run-plan.sh -H: bad loads are refused before anything boots; one hog at nice 19 runs beside
# the guest (it hardly slows this check) and is gone when run-plan.sh returns.
for bad in x 2,30 1,-21 65 ,3; do
    "$here/run-plan.sh" -H "$bad" -o "$work/out" "$work/plan" 2>/dev/null && fail "run-plan.sh took -H $bad"
done
[ ! -e "$work/out/host.txt" ] || fail "run-plan.sh -H with a bad value wrote host.txt"
hog='while :; do :; done'
pgrep -f "^sh -c $hog\$" >/dev/null && fail "a hog is running before the test"
"$here/run-plan.sh" -H 1,19 -o "$work/out" -t 120 "$work/plan" || fail "run-plan.sh exited with $?"
grep -qx 'hogs=1' "$work/out/host.txt" && grep -qx 'hog_nice=19' "$work/out/host.txt" ||
    fail "host.txt does not record the hog: $(tr '\n' ' ' <"$work/out/host.txt")"
pgrep -f "^sh -c $hog\$" >/dev/null && fail "run-plan.sh left its hog running"
lines=$work/out/lines.txt

# Every line must be one of the documented kinds, and the run lines must carry every field with
# a value of the documented form.
bad=$(grep -Ev '^LST (begin|start|run|out|trace|tracestat|forks|error|klog|end)( |$)' "$lines" | head -n 1 || true)
[ -z "$bad" ] || fail "unknown line: $bad"
grep -Eq '^LST begin proto=1 kernel=[^ ]+ nr_cpus=[0-9]+ latency_ns=[0-9]+ min_granularity_ns=[0-9]+ wakeup_granularity_ns=[0-9]+ migration_cost_ns=[0-9]+ tunable_scaling=[0-9]+ uptime_s=[0-9.]+ wakee_flips_offset=[0-9]+ forks=on preempt=on preempt_model=voluntary$' "$lines" ||
    fail "begin line malformed: $(grep '^LST begin' "$lines" || echo missing)"
run_re='^LST run seq=[0-9]+ round=[0-9]+ setting=[A-Za-z0-9._-]+ latency_ns=[0-9]+ min_granularity_ns=[0-9]+ wakeup_granularity_ns=[0-9]+ migration_cost_ns=[0-9]+ knobs=ok rc=0 time_s=[0-9.]+ wall_ns=[0-9]+ ctxt=[0-9]+$'
[ "$(grep -Ec "$run_re" "$lines")" -eq 2 ] || fail "expected 2 well-formed successful run lines, got: $(grep '^LST run' "$lines")"
grep -q '^LST end runs=3 failed=0 errors=0$' "$lines" || fail "end line: $(grep '^LST end' "$lines" || echo missing)"

# The knobs as read back must be the ones the plan wrote.
grep -q '^LST run seq=2 round=0 setting=odd latency_ns=7000000 min_granularity_ns=900000 wakeup_granularity_ns=300000 migration_cost_ns=250000 ' "$lines" ||
    fail "knobs did not read back as written: $(grep '^LST run seq=2' "$lines")"

# The traced run: kernel text format after the prefix, both tracepoints, no overflow.
grep -Eq '^LST trace 2 +[^ ].*-[0-9]+ +\[[0-9]{3}\] [^ ]+ +[0-9]+\.[0-9]{6}: sched_switch: prev_comm=' "$lines" ||
    fail "no sched_switch line in the trace"
grep -q '^LST trace 2 .* sched_wakeup: comm=hackbench ' "$lines" || fail "no sched_wakeup of hackbench in the trace"
grep -q '^LST trace 0 ' "$lines" && fail "run 0 was not to be traced"
# The preemption check's probe: one line per wakeup onto a busy CPU, every field a number, the
# knobs those the traced run set (latency 7 ms, wakeup_granularity 0.3 ms).
grep -Eq '^LST trace 2 .* wakeup_preempt: \(check_preempt_wakeup\+0x0/0x[0-9a-f]+\) curr_vr=[0-9]+ wakee_vr=[0-9]+ min_vr=[0-9]+ nr=[0-9]+ curr_pid=[0-9]+ wakee_pid=[0-9]+ latency=7000000 gran=300000$' "$lines" ||
    fail "no wakeup_preempt line with the run's knobs in the trace"
read -r entries written < <(sed -n 's/^LST tracestat seq=2 entries=\([0-9]*\) written=\([0-9]*\)$/\1 \2/p' "$lines")
[ -n "${entries:-}" ] && [ "$entries" = "$written" ] || fail "trace buffer overflowed or tracestat missing"

# The guest recorded every fork of both runs (the offset of wakee_flips from the kernel's BTF):
# hackbench -T -g 1 created its 40 threads, the flips each inherited a count; a traced run's
# buffer holds no fork events (they go to an instance of their own).
for s in 0 2; do
    grep -Eq "^LST forks seq=$s comm=hackbench n=40 flips=[0-9]+(,[0-9]+){39}\$" "$lines" ||
        fail "run $s: no record of hackbench's 40 forks: $(grep "^LST forks seq=$s " "$lines" | cut -c1-200)"
done
grep -q '^LST trace 2 .* fork: ' "$lines" && fail "fork events in the traced run's sched trace"

# And the CSV conversion sees both runs, the stall probe's run giving the next its stalls.
[ "$("$here/lines-to-csv.sh" "$lines" | wc -l)" -eq 3 ] || fail "lines-to-csv.sh did not give 2 rows"
"$here/lines-to-csv.sh" "$lines" | head -n 1 |
    grep -q ',guest_stall_ppm,guest_stall_ns,guest_stall_cv_pct,forks,parent_flips,flips_first,flips_last,fork_flips$' ||
    fail "lines-to-csv.sh: no guest_stall and forks columns"
"$here/lines-to-csv.sh" "$lines" | grep -Eq '^0,0,defaults,.*,,,,40,[0-9]+,[0-9]+,[0-9]+,[0-9]+(;[0-9]+){39}$' ||
    fail "lines-to-csv.sh: run 0, before any stall probe, has guest stalls, or not its 40 forks"
"$here/lines-to-csv.sh" "$lines" | grep -Eq '^2,0,odd,.*,[0-9]{1,6},[0-9]+,[0-9]+,40,[0-9]+,[0-9]+,[0-9]+,[0-9]+(;[0-9]+){39}$' ||
    fail "lines-to-csv.sh: run 2 has no guest stalls: $(grep -A9 '^LST start seq=1' "$lines" | tr '\n' '|')"

# The probe in the initramfs splits its stalls into short and long ones: the run after it gets
# all of them (noise_all_*), not the short ones alone; an older probe's noise_* still serve.
grep -q '^LST out 1 noise_all_ppm=' "$lines" || fail "the stall probe printed no noise_all_ppm"
printf '%s\n' 'LST out 0 noise_ppm=100' 'LST out 0 noise_ns=20' 'LST out 0 noise_cv_pct=90' \
    'LST out 0 long_ppm=5' 'LST out 0 noise_all_ppm=105' 'LST out 0 noise_all_ns=21' \
    'LST out 0 noise_all_cv_pct=150' \
    'LST run seq=0 round=0 setting=stalls rc=0 time_s=- wall_ns=1 ctxt=-' \
    'LST run seq=1 round=0 setting=a rc=0 knobs=ok time_s=1 wall_ns=1 ctxt=1' \
    'LST out 2 noise_ppm=100' 'LST out 2 noise_ns=20' 'LST out 2 noise_cv_pct=90' \
    'LST run seq=2 round=0 setting=stalls rc=0 time_s=- wall_ns=1 ctxt=-' \
    'LST run seq=3 round=0 setting=b rc=0 knobs=ok time_s=1 wall_ns=1 ctxt=1' >"$work/split-lines"
split_csv=$("$here/lines-to-csv.sh" "$work/split-lines")
grep -q '^1,0,a,.*,105,21,150$' <<<"$split_csv" && grep -q '^3,0,b,.*,100,20,90$' <<<"$split_csv" ||
    fail "lines-to-csv.sh: the guest stalls of a split and an older probe: $(tr '\n' '|' <<<"$split_csv")"

# The forks columns, worked out by hand: of run 0 the command that forked most (hackbench, 4
# forks, not the shell's 1): sorted 9 10 12 30, median the upper middle 12, first 12, last 30;
# run 1 has no record; run 2's 5 4 5: median 5. The whole series follows, in fork order.
printf '%s\n' 'LST forks seq=0 comm=sh n=1 flips=3' 'LST forks seq=0 comm=hackbench n=4 flips=12,9,10,30' \
    'LST run seq=0 round=0 setting=a rc=0 knobs=ok time_s=1 wall_ns=1 ctxt=1' \
    'LST run seq=1 round=0 setting=b rc=0 knobs=ok time_s=1 wall_ns=1 ctxt=1' \
    'LST forks seq=2 comm=hackbench n=3 flips=5,4,5' \
    'LST run seq=2 round=1 setting=a rc=0 knobs=ok time_s=1 wall_ns=1 ctxt=1' >"$work/fork-lines"
fork_csv=$("$here/lines-to-csv.sh" "$work/fork-lines" | cut -d, -f1,13-)
[ "$(tr '\n' ' ' <<<"$fork_csv")" = "seq,forks,parent_flips,flips_first,flips_last,fork_flips 0,4,12,12,30,12;9;10;30 1,,,,, 2,3,5,5,5,5;4;5 " ] ||
    fail "lines-to-csv.sh: the forks columns: $(tr '\n' '|' <<<"$fork_csv")"

# A steal file with the placement's column gives shared_pct, empty where it was never sampled.
printf '%s\n' '0 500000 2000000 42' '1 510000 -1 -1' >"$work/steal-4"
shared_csv=$("$here/lines-to-csv.sh" "$work/fork-lines" "$work/steal-4" | cut -d, -f1,13-15)
[ "$(tr '\n' ' ' <<<"$shared_csv")" = "seq,steal_ppm,stall_ns,shared_pct 0,500000,2000000,42 1,510000,-1, 2,,, " ] ||
    fail "lines-to-csv.sh: the shared_pct column: $(tr '\n' '|' <<<"$shared_csv")"

# The host measured the steal of both runs: a share below one million ppm, a stall length (-1
# when no preemption was counted) and the share of the run the runnable vCPU threads shared a
# host CPU (-1 when two were never runnable at a sample).
steal=$work/out/steal.txt
[ "$(grep -Ec '^[012] [0-9]{1,6} (-1|[0-9]+) (-1|[0-9]{1,3})$' "$steal")" -eq 3 ] ||
    fail "steal.txt: expected a line for each run, got: $(tr '\n' '|' <"$steal")"
[ "$("$here/lines-to-csv.sh" "$lines" "$steal" | grep -Ec ',ok,[0-9]+,(-1|[0-9]+),')" -eq 2 ] ||
    fail "lines-to-csv.sh did not join the steal columns"

echo "vm test-boot: ok ($(grep -E '^(boot_s|elapsed_s|accel)=' "$work/out/host.txt" | tr '\n' ' '))"
