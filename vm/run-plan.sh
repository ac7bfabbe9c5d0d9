#!/bin/bash
# Boots the real CFS kernel once and executes one plan in it (see vm/README.md).
#
#   vm/run-plan.sh [-o OUTDIR] [-t SILENCE_S] [-c CPUS] [-m MEM_MB] [-a auto|kvm|tcg]
#                  [-H HOGS[,NICE]] PLAN
#
# -H runs HOGS busy loops on the host at nice NICE (default 0) while the guest runs: a steal
# regime one can repeat, where otherwise the host's other load decides it (vm/README.md,
# "A load of one's own").
#
# Writes into OUTDIR (default: ./vm-run):
#   lines.txt    the guest's protocol lines ("LST ..."), carriage returns removed, nothing else
#   console.log  the whole serial console, for a human
#   host.txt     key=value facts seen from the host: accel, boot_s, elapsed_s, status, ...
#   timeline.txt "<seconds since qemu start> <line>" for every begin/start/run/end line, so the
#                host-side wall time of each run is known
#   steal.txt    "seq steal_ppm stall_ns shared_pct" for every run: what the host took from the
#                vCPUs while the run's command ran (their threads' schedstat; tuner/vm/vm_steal.h),
#                and the share of that time the runnable vCPU threads sat on fewer host CPUs than
#                they are, taking turns (-1: never two runnable when sampled)
#   placement.txt "<epoch s> <runnable vCPU threads> <host CPUs they sit on>" every 0.1 s while
#                qemu runs, what shared_pct is counted from
# Exit status: 0 the guest reached "LST end"; 2 silent for SILENCE_S seconds (killed);
# 3 kernel panic; 4 qemu exited before "LST end"; 1 usage or setup error.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

out=./vm-run
silence=${LINSCHED_VM_SILENCE:-300}
cpus=2
mem=1024
accel=${LINSCHED_VM_ACCEL:-auto}
hogs=0
hog_nice=0
while getopts o:t:c:m:a:H:h opt; do
    case $opt in
    o) out=$OPTARG ;;
    t) silence=$OPTARG ;;
    c) cpus=$OPTARG ;;
    m) mem=$OPTARG ;;
    a) accel=$OPTARG ;;
    H)
        hogs=${OPTARG%%,*}
        [ "$hogs" = "$OPTARG" ] || hog_nice=${OPTARG#*,}
        case $hogs in '' | *[!0-9]*) lst_die "-H: '$OPTARG' is not HOGS[,NICE] with HOGS a whole number" ;; esac
        case $hog_nice in -[0-9] | -1[0-9] | -20 | [0-9] | 1[0-9]) ;;
        *) lst_die "-H: nice '$hog_nice' is not in -20..19" ;; esac
        [ "$hogs" -le 64 ] || lst_die "-H: $hogs hogs is more than 64"
        ;;
    *) sed -n '2,20s/^# \{0,1\}//p' "$0" >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || lst_die "usage: run-plan.sh [-o OUTDIR] [-t SILENCE_S] [-c CPUS] [-m MEM_MB] [-a auto|kvm|tcg] [-H HOGS[,NICE]] PLAN"
plan=$1
[ -r "$plan" ] || lst_die "plan not found: $plan"
head -n 1 "$plan" | grep -q '^LST-PLAN 1' || lst_die "$plan does not start with 'LST-PLAN 1'"

cache=$(lst_cache_dir)
kernel=$cache/vmlinuz
initramfs=$cache/initramfs.cpio.gz
[ -f "$kernel" ] && [ -f "$initramfs" ] || lst_die "no kernel or initramfs in $cache: run 'make vm' first"
command -v qemu-system-x86_64 >/dev/null || lst_die "qemu-system-x86_64 missing: sudo apt-get install qemu-system-x86"

mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/lst-vm.XXXXXX")
qpid=
placement_pid=
hog_pids=()
# Waits for them to go: a busy host may not have run a killed hog's exit yet when this returns.
stop_hogs() {
    if [ ${#hog_pids[@]} -gt 0 ]; then
        kill "${hog_pids[@]}" 2>/dev/null || true
        wait "${hog_pids[@]}" 2>/dev/null || true
    fi
    hog_pids=()
}
cleanup() {
    [ -n "$qpid" ] && kill "$qpid" 2>/dev/null
    [ -n "$placement_pid" ] && { kill "$placement_pid" 2>/dev/null || true; }
    stop_hogs
    rm -rf "$work"
}
trap cleanup EXIT

# The plan travels as a second cpio archive appended to the initramfs: the kernel unpacks
# concatenated archives in order, so /plan appears beside /init with no size limit (the kernel
# command line holds 2048 bytes) and no disk driver (virtio-blk is a module in Debian's kernel).
mkdir "$work/planfs"
cp "$plan" "$work/planfs/plan"
(cd "$work/planfs" && echo plan | cpio -o -H newc -R 0:0 --quiet) >"$work/plan.cpio"
# The kernel only recognises an uncompressed archive at an offset that is a multiple of 4: pad
# the gzip'd initramfs with zero bytes (which the kernel skips) up to that boundary.
pad4() {
    local size
    size=$(stat -c %s "$1")
    cat "$1"
    head -c $(((4 - size % 4) % 4)) /dev/zero
}
pad4 "$initramfs" >"$work/initrd"
cat "$work/plan.cpio" >>"$work/initrd"

# The whole machine, one place.  -nodefaults: no NIC, VGA or option ROMs to initialise (faster
# boot under TCG); the serial port is the only device and carries both the kernel's console and
# the protocol.  panic=1 reboots one second after a panic (time for the panic message to reach the
# console) and -no-reboot turns the reboot into an exit.  quiet loglevel=1 keeps every printk but
# KERN_EMERG (panics) off the console, so that none can cut into a protocol line.
qemu_args=(
    -name linsched,debug-threads=on
    -nodefaults -display none -monitor none -serial stdio -no-reboot
    -smp "$cpus" -m "$mem"
    -kernel "$kernel" -initrd "$work/initrd"
    -append "console=ttyS0 panic=1 quiet loglevel=1"
)

# KVM only if it really boots: on a nested host without vmx, /dev/kvm opens but the guest hangs
# in the firmware.  The probe boots the real kernel with an empty plan and waits for "LST end";
# its verdict is kept in the cache per host kernel and qemu version, so the hang costs once.
probe_kvm() {
    local key verdict file=$cache/accel-probe.txt
    key="$(uname -r) $(qemu-system-x86_64 --version | head -n 1)"
    if [ -f "$file" ] && [ "$(sed -n 1p "$file")" = "$key" ]; then
        verdict=$(sed -n 2p "$file")
    else
        mkdir "$work/probefs"
        echo "LST-PLAN 1" >"$work/probefs/plan"
        (cd "$work/probefs" && echo plan | cpio -o -H newc -R 0:0 --quiet) >"$work/probe.cpio"
        pad4 "$initramfs" >"$work/probe-initrd"
        cat "$work/probe.cpio" >>"$work/probe-initrd"
        if timeout "${LINSCHED_VM_KVM_PROBE_S:-30}" qemu-system-x86_64 -accel kvm -cpu host \
            -nodefaults -display none -monitor none -serial stdio -no-reboot -smp "$cpus" -m "$mem" \
            -kernel "$kernel" -initrd "$work/probe-initrd" \
            -append "console=ttyS0 panic=1 quiet loglevel=1" </dev/null 2>/dev/null |
            grep -q '^LST end'; then
            verdict=kvm
        else
            verdict=tcg
        fi
        printf '%s\n%s\n' "$key" "$verdict" >"$file"
    fi
    echo "$verdict"
}

case $accel in
auto)
    if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
        accel=$(probe_kvm)
        [ "$accel" = kvm ] || lst_note "/dev/kvm is present but a KVM guest does not boot (nested without vmx?): using TCG emulation (see $cache/accel-probe.txt)"
    else
        accel=tcg
        lst_note "no usable /dev/kvm: using TCG emulation (slow, only within-boot comparisons hold)"
    fi
    ;;
kvm | tcg) ;;
*) lst_die "-a takes auto, kvm or tcg" ;;
esac
if [ "$accel" = kvm ]; then
    qemu_args=(-accel kvm -cpu host "${qemu_args[@]}")
else
    # thread=multi: one host thread per vCPU, so the two vCPUs really run in parallel.
    qemu_args=(-accel "tcg,thread=multi" "${qemu_args[@]}")
fi

: >"$out/lines.txt"
: >"$out/console.log"
: >"$out/timeline.txt"
: >"$out/steal.txt"

# The vCPU threads' (named "CPU N/TCG" by debug-threads=on) time on a host CPU, time waiting for
# one, and preemptions, summed: "run wait preemptions", or nothing when none can be read.
vcpu_time() {
    local t run=0 wait=0 pre=0 n=0 a b c comm k v
    for t in /proc/"$qpid"/task/*; do
        read -r comm <"$t/comm" 2>/dev/null || continue
        case $comm in "CPU "*/*) ;; *) continue ;; esac
        read -r a b c <"$t/schedstat" 2>/dev/null || continue
        while read -r k v; do [ "$k" = nonvoluntary_ctxt_switches: ] && pre=$((pre + v)); done <"$t/status"
        run=$((run + a)) wait=$((wait + b)) n=$((n + 1))
    done
    [ "$n" -gt 0 ] && echo "$run $wait $pre"
}

# Where the host put the runnable vCPU threads, every 0.1 s while qemu runs: "<epoch s>
# <runnable vCPU threads> <host CPUs they sit on>" (each one's CPU: field 39 of its stat). A
# loaded host's balancer moves them: beside two hogs on two CPUs both runnable vCPUs may share one
# host CPU, taking turns, for none to all of a run (vm/README.md, "Where the host puts the vCPU
# threads"). Builtins only, so that the sampling costs the host next to nothing.
vcpu_placement() {
    local t comm stat n on tick
    local -a f
    exec {tick}<> <(:)
    while kill -0 "$qpid" 2>/dev/null; do
        n=0 on=" "
        for t in /proc/"$qpid"/task/*; do
            read -r comm <"$t/comm" 2>/dev/null || continue
            case $comm in "CPU "*/*) ;; *) continue ;; esac
            read -r stat <"$t/stat" 2>/dev/null || continue
            read -ra f <<<"${stat##*) }"
            [ "${f[0]}" = R ] || continue
            n=$((n + 1))
            case $on in *" ${f[36]} "*) ;; *) on="$on${f[36]} " ;; esac
        done
        read -ra f <<<"$on"
        echo "$EPOCHREALTIME $n ${#f[@]}"
        read -r -t 0.1 -u "$tick" _ || true
    done
}

# Of the samples since $1 in which two or more vCPU threads were runnable, the share in which
# they sat on fewer host CPUs than they are, in percent; -1 without such samples.
vcpu_shared_pct() {
    awk -v since="$1" 'NF == 3 && $1 >= since && $2 >= 2 { n++; if ($3 < $2) s++ }
        END { if (n) printf "%d", 100 * s / n + 0.5; else printf "-1" }' "$out/placement.txt"
}
steal_seq=
steal_at=
steal_since=
printf '%q ' qemu-system-x86_64 "${qemu_args[@]}" >"$out/qemu-cmdline.txt"
echo >>"$out/qemu-cmdline.txt"

# Read the console line by line with a silence timeout: read -t fails when nothing complete
# arrived for SILENCE_S seconds, which is how a hung guest (or a hackbench that never ends) shows.
for ((i = 0; i < hogs; i++)); do
    nice -n "$hog_nice" sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
    hog_pids+=($!)
done
start=$EPOCHREALTIME
exec 3< <(exec qemu-system-x86_64 "${qemu_args[@]}" </dev/null 2>"$work/qemu.err")
qpid=$!
vcpu_placement >"$out/placement.txt" &
placement_pid=$!
status=incomplete
boot_s=-
panic=0
elapsed() { echo "$EPOCHREALTIME $start" | awk '{ printf "%.3f", $1 - $2 }'; }
while :; do
    if IFS= read -r -t "$silence" line <&3; then
        :
    else
        rc=$?
        if [ "$rc" -gt 128 ]; then
            status=timeout
            break
        fi
        # End of file: qemu exited.  A last line without a newline is still kept.
        [ -z "$line" ] && break
    fi
    line=${line%$'\r'}
    printf '%s\n' "$line" >>"$out/console.log"
    # The guest prints nothing while a run's command runs: the first protocol line after
    # "LST start" ends it.
    case $line in
    LST\ *)
        if [ -n "$steal_seq" ]; then
            now=$(vcpu_time)
            [ -n "$now" ] && [ -n "$steal_at" ] &&
                echo "$steal_seq $steal_at $now $(vcpu_shared_pct "$steal_since")" | awk '{ r = $5 - $2; w = $6 - $3; s = $7 - $4
                    if (r >= 0 && w >= 0 && r + w > 0) printf "%s %d %d %d\n", $1, w * 1e6 / (r + w) + 0.5, (s > 0 ? w / s + 0.5 : -1), $8 }' >>"$out/steal.txt"
            steal_seq=
        fi
        case $line in
        LST\ start\ seq=*)
            steal_seq=${line#LST start seq=}
            steal_seq=${steal_seq%% *}
            steal_at=$(vcpu_time)
            steal_since=$EPOCHREALTIME
            ;;
        esac
        ;;
    esac
    case $line in
    LST\ *)
        printf '%s\n' "$line" >>"$out/lines.txt"
        case $line in
        LST\ begin*)
            boot_s=$(elapsed)
            printf '%s %s\n' "$boot_s" "$line" >>"$out/timeline.txt"
            ;;
        LST\ start* | LST\ run* | LST\ error*)
            printf '%s %s\n' "$(elapsed)" "$line" >>"$out/timeline.txt"
            ;;
        LST\ end*)
            printf '%s %s\n' "$(elapsed)" "$line" >>"$out/timeline.txt"
            status=ok
            ;;
        esac
        ;;
    # With loglevel=1 a kernel message on the console means an emergency: a panic or a crash.
    *"Kernel panic"* | \[\ *[0-9]*.[0-9]*\]\ *) panic=1 ;;
    esac
done
[ "$status" = incomplete ] && [ "$panic" = 1 ] && status=panic
if [ "$status" = timeout ]; then
    kill "$qpid" 2>/dev/null || true
fi
wait "$qpid" 2>/dev/null || true
qpid=
# The sampler stops by itself once qemu is gone.
wait "$placement_pid" 2>/dev/null || true
placement_pid=
exec 3<&-
stop_hogs

{
    echo "status=$status"
    echo "accel=$accel"
    echo "cpus=$cpus"
    echo "mem_mb=$mem"
    echo "hogs=$hogs"
    echo "hog_nice=$hog_nice"
    echo "boot_s=$boot_s"
    echo "elapsed_s=$(elapsed)"
    echo "runs=$(grep -c '^LST run ' "$out/lines.txt" || true)"
    echo "planned=$(grep -cv '^\(#\|$\|LST-PLAN\)' "$plan" || true)"
    sed -n 's/^\[kernel\]$//; s/^\(package\|version\|release\)=/kernel_&/p' "$cache/kernel.ini"
} >"$out/host.txt"

case $status in
ok) exit 0 ;;
timeout)
    lst_note "guest silent for ${silence}s: killed.  Last console lines ($out/console.log):"
    tail -n 15 "$out/console.log" >&2
    exit 2
    ;;
panic)
    lst_note "kernel panic or crash.  Last console lines ($out/console.log):"
    tail -n 30 "$out/console.log" >&2
    exit 3
    ;;
*)
    lst_note "qemu exited before 'LST end'.  Last console lines ($out/console.log):"
    tail -n 15 "$out/console.log" >&2
    [ -s "$work/qemu.err" ] && sed 's/^/qemu: /' "$work/qemu.err" >&2
    exit 4
    ;;
esac
