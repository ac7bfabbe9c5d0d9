# shellcheck shell=bash
# Shared by the vm/ scripts (sourced, not run).
#
# One place decides where the kernel and initramfs live, so that build.sh, run-plan.sh and the
# future C backend agree on it.  LINSCHED_VM_CACHE wins over XDG_CACHE_HOME so that CI or a
# second checkout can keep its own copy without touching the user's cache.

lst_cache_dir() {
    if [ -n "${LINSCHED_VM_CACHE:-}" ]; then
        printf '%s\n' "$LINSCHED_VM_CACHE"
    else
        printf '%s\n' "${XDG_CACHE_HOME:-$HOME/.cache}/linsched-tuner/vm"
    fi
}

# Every script's error path ends in exactly one line the user can act on.
lst_die() {
    printf '%s\n' "vm: $*" >&2
    exit 1
}

lst_note() {
    printf '%s\n' "vm: $*" >&2
}

# Seconds since the epoch with sub-second resolution (GNU date on the host).
lst_now() {
    date +%s.%N
}
