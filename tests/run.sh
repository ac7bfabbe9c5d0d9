#!/usr/bin/env bash
# Runs cmocka test programs and adds up their results: the last line is "N passed, M failed".
# Usage: tests/run.sh PROGRAM...   (run from the top of the repository)
# Any sanitizer report aborts its program, which then counts as a failed program.
set -u
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
passed=0 failed=0 broken=0
for t in "$@"; do
    echo "== $t"
    out=$("./$t" 2>&1)
    status=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' | tail -1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' | tail -1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    if [ "$status" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
        echo "!! $t exited with status $status without a cmocka failure (crash or sanitizer report)"
        broken=$((broken + 1))
    fi
done
failed=$((failed + broken))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
