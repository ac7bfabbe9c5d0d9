#!/usr/bin/env bash
# check_layers_test.sh - check_layers.sh must pass a clean tree and a generated header under build/,
# and refuse an upward include, a cycle and a folder that has no layer. Run by `make check`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
failures=0

# expect PASS|FAIL DESCRIPTION: run the check on $root and compare.
expect() {
	if "$here/check_layers.sh" "$root" >/dev/null 2>"$root.err"; then got=PASS; else got=FAIL; fi
	if [[ $got != "$1" ]]; then
		echo "check_layers_test: $2: expected $1, got $got" >&2
		cat "$root.err" >&2
		failures=$((failures + 1))
	fi
	rm -f "$root.err"
}

mkdir -p "$root/tuner/optim" "$root/tuner/eval" "$root/tuner/knobs"
echo '#include "tuner/knobs/knobs.h"' >"$root/tuner/eval/evaluator.h"
echo '/* nothing */' >"$root/tuner/knobs/knobs.h"
echo '#include "tuner/optim/pso.h"' >"$root/tuner/optim/optimizer.h"
echo '/* nothing */' >"$root/tuner/optim/pso.h"
expect PASS "a tree whose includes go down"

echo '#include "tuner/eval/evaluator.h"' >"$root/tuner/optim/pso.c"
expect FAIL "optim including eval"
rm "$root/tuner/optim/pso.c"

echo '#include "tuner/optim/optimizer.h"' >"$root/tuner/optim/pso.h"
expect FAIL "a cycle between two optim modules"
echo '/* nothing */' >"$root/tuner/optim/pso.h"

echo '#include "build/gen/model_id.h"' >"$root/tuner/optim/pso.c"
expect PASS "a header the Makefile generates under build/"
rm "$root/tuner/optim/pso.c"

mkdir -p "$root/tuner/misc" && echo '/* nothing */' >"$root/tuner/misc/x.h"
expect FAIL "a folder with no layer"
rm -r "$root/tuner/misc"

expect PASS "the clean tree again"
[[ $failures -eq 0 ]] && echo "check_layers_test: 6 cases passed"
exit $((failures > 0))
