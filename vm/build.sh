#!/bin/bash
# Prepares the real CFS kernel and the measurement initramfs in the cache (see vm/README.md).
#
#   vm/build.sh [HOST_FILE ...]
#
# HOST_FILE ...  extra programs (e.g. a static `linsched probe`) copied into the initramfs as
#                /usr/local/bin/<name>; also taken from $VM_EXTRA (space separated).
#
# The kernel is Debian 12's own linux-image package, downloaded with apt and unpacked, never
# installed: the host may run any kernel (6.6+ has no CFS knobs).  Both products are rebuilt only
# when their inputs changed, so `make vm` is cheap to run before every test.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

cache=$(lst_cache_dir)
mkdir -p "$cache"

extras=("$@")
if [ -n "${VM_EXTRA:-}" ]; then
    # shellcheck disable=SC2206  # word splitting is the documented syntax of VM_EXTRA
    extras+=($VM_EXTRA)
fi

# --- tools: one line naming the packages, whatever is missing ----------------------------------
missing=()
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
command -v cpio >/dev/null || missing+=(cpio)
command -v hackbench >/dev/null || missing+=(rt-tests)
# The initramfs has no C library of its own: busybox must be the static build.
if ! dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'install ok installed'; then
    missing+=(busybox-static)
fi
for tool in apt-get apt-cache dpkg-deb gzip sha256sum; do
    command -v "$tool" >/dev/null || lst_die "needs $tool (a Debian or Ubuntu host with apt)"
done
if [ ${#missing[@]} -gt 0 ]; then
    lst_die "missing packages: ${missing[*]} -- install with: sudo apt-get install ${missing[*]} (or: make deps)"
fi
for f in "${extras[@]}"; do
    [ -f "$f" ] || lst_die "extra file for the initramfs not found: $f"
done

# --- kernel ------------------------------------------------------------------------------------
ini="$cache/kernel.ini"
ini_get() { sed -n "s/^$1=//p" "$ini" 2>/dev/null | head -n 1; }

# Which package: the one the metapackage points at today, unless the user pins one.
pkg=${LINSCHED_VM_KERNEL_PKG:-}
if [ -z "$pkg" ]; then
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
fi
if [ -z "$pkg" ]; then
    # Offline, or apt lists without the Debian archive: an already unpacked kernel still serves.
    if [ -f "$cache/vmlinuz" ] && [ -n "$(ini_get package)" ]; then
        pkg=$(ini_get package)
        lst_note "apt does not name a kernel package (offline?): keeping the cached $pkg"
    else
        lst_die "apt knows no linux-image-amd64: run 'sudo apt-get update' on a Debian 12 (bookworm) host, or set LINSCHED_VM_KERNEL_PKG"
    fi
fi

if [ -f "$cache/vmlinuz" ] && [ "$(ini_get package)" = "$pkg" ]; then
    kernel_state="up to date"
else
    kernel_state="downloaded"
    dl=$(mktemp -d "$cache/.download.XXXXXX")
    trap 'rm -rf "$dl"' EXIT
    lst_note "downloading $pkg (about 70 MB, unpacked into the cache, not installed)"
    # apt-get download warns when run as root into a directory _apt cannot write; harmless.
    if ! (cd "$dl" && apt-get download "$pkg") >"$dl/apt.log" 2>&1; then
        lst_die "apt-get download $pkg failed ($(grep -m1 '^E:' "$dl/apt.log" || tail -n 1 "$dl/apt.log")): run 'sudo apt-get update' or check the network"
    fi
    deb=$(ls "$dl"/*.deb)
    version=$(dpkg-deb -f "$deb" Version)
    # Only boot/ is needed: the measurement uses no module (serial, debugfs, tracefs, sockets
    # and pipes are built in), which saves unpacking 400 MB of modules.
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dl" --wildcards './boot/*'
    vmlinuz=$(ls "$dl"/boot/vmlinuz-*)
    release=${vmlinuz##*/vmlinuz-}
    mv "$vmlinuz" "$cache/vmlinuz"
    [ -f "$dl/boot/config-$release" ] && mv "$dl/boot/config-$release" "$cache/config"
    hz=$(sed -n 's/^CONFIG_HZ=//p' "$cache/config" 2>/dev/null || true)
    {
        echo "# Written by vm/build.sh: the kernel booted by vm/run-plan.sh."
        echo "[kernel]"
        echo "package=$pkg"
        echo "version=$version"
        echo "release=$release"
        echo "hz=${hz:-unknown}"
        echo "vmlinuz=$cache/vmlinuz"
        echo "sha256=$(sha256sum "$cache/vmlinuz" | cut -d' ' -f1)"
    } >"$ini.tmp"
    mv "$ini.tmp" "$ini"
    rm -rf "$dl"
    trap - EXIT
fi

# --- initramfs ---------------------------------------------------------------------------------
busybox=/bin/busybox
hackbench=$(command -v hackbench)
# Shared libraries as ldd names them, at the same absolute paths in the guest.
libs_of() {
    ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p'
}
mapfile -t libs < <( { libs_of "$hackbench"; for f in "${extras[@]}"; do libs_of "$f"; done; } | sort -u)

# The inputs' contents (and the extras' names, which become paths) decide whether to rebuild.
stamp=$(
    {
        sha256sum "$here/guest/init" "$here/build.sh" "$busybox" "$hackbench"
        for l in "${libs[@]}"; do sha256sum "$(readlink -f "$l")"; done
        for f in "${extras[@]}"; do echo "extra ${f##*/} $(sha256sum <"$f")"; done
    } | sha256sum | cut -d' ' -f1
)
if [ -f "$cache/initramfs.cpio.gz" ] && [ "$(cat "$cache/initramfs.stamp" 2>/dev/null)" = "$stamp" ]; then
    initramfs_state="up to date"
else
    initramfs_state="built"
    stage=$(mktemp -d "$cache/.stage.XXXXXX")
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,proc,sys,dev,tmp,root,etc}
    cp "$busybox" "$stage/bin/busybox"
    # One link per applet, at the path busybox itself would install it.
    "$busybox" --list-full | while read -r applet; do
        [ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
    done
    cp "$hackbench" "$stage/usr/bin/hackbench"
    for l in "${libs[@]}"; do
        mkdir -p "$stage$(dirname "$l")"
        cp -L "$l" "$stage$l"
    done
    for f in "${extras[@]}"; do
        cp "$f" "$stage/usr/local/bin/${f##*/}"
        chmod 755 "$stage/usr/local/bin/${f##*/}"
    done
    install -m 755 "$here/guest/init" "$stage/init"
    (cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
        gzip -9n >"$cache/initramfs.cpio.gz.tmp"
    mv "$cache/initramfs.cpio.gz.tmp" "$cache/initramfs.cpio.gz"
    echo "$stamp" >"$cache/initramfs.stamp"
    {
        echo "# Written by vm/build.sh: what /init can run besides busybox."
        echo "hackbench=$hackbench"
        for f in "${extras[@]}"; do echo "extra=/usr/local/bin/${f##*/} from $(readlink -f "$f")"; done
    } >"$cache/initramfs.txt"
    rm -rf "$stage"
    trap - EXIT
fi

if [ "$kernel_state" = "up to date" ] && [ "$initramfs_state" = "up to date" ]; then
    lst_note "nothing to do: $pkg $(ini_get version) and the initramfs in $cache are up to date"
else
    lst_note "kernel $pkg $(ini_get version) $kernel_state, initramfs $initramfs_state, in $cache"
fi
