#!/usr/bin/env bash
# run.sh - run fuzz targets over their corpora (see README.md).
# Usage: fuzz/run.sh "LIBFUZZER FLAGS" TARGET...   (from the top directory, after make built
# build/fuzz/bin/TARGET and build/fuzz/corpus/TARGET). Prints each target's closing figures; exit
# status 1 at the first target that fails (a crash, a leak, a sanitizer report).
set -uo pipefail
flags=$1
shift
export ASAN_OPTIONS=detect_leaks=1
for t in "$@"; do
	echo "== fuzz $t"
	# shellcheck disable=SC2086 # the flags are words
	build/fuzz/bin/"$t" $flags -artifact_prefix="build/fuzz/crash-$t-" "build/fuzz/corpus/$t" \
		>"build/fuzz/$t.log" 2>&1
	status=$?
	grep -E '^(#[0-9]+[[:space:]]+DONE|stat::|Done [0-9]+ runs)|ERROR|SUMMARY|artifact' "build/fuzz/$t.log"
	if [[ $status -ne 0 ]]; then
		echo "fuzz: $t FAILED (build/fuzz/$t.log)"
		exit 1
	fi
done
