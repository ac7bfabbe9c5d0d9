#!/usr/bin/env bash
# check_layers.sh - fail on an include that goes up the layers, or a cycle between modules.
#
# Each folder is one layer and may include only the folders listed for it below (its own
# included). A module is a .c/.h pair; module A depends on module B when A.c or A.h includes B.h,
# and no chain of such dependencies may come back to where it started. `make check` runs this;
# the README's "Map of the code" shows the same table.
#
# Usage: tools/check_layers.sh [ROOT]   (ROOT: the tree to check, default this repository)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# folder: the folders it may include, lowest layer first
declare -A allowed=(
	[kernel-extract]="kernel-extract"
	[linsched]="kernel-extract linsched"
	[tasks]="kernel-extract linsched tasks"
	[linsched/cli]="kernel-extract linsched tasks linsched/cli"
	[tuner/util]="tuner/util"
	[tuner/optim]="tuner/optim"
	[tuner/stats]="tuner/stats"
	[tuner/knobs]="kernel-extract tuner/knobs"
	[tuner/calib]="tuner/util tuner/stats tuner/calib"
	[tuner/fidelity]="tuner/util tuner/stats tuner/knobs tuner/fidelity"
	[tuner/vm]="tuner/util tuner/stats tuner/knobs tuner/vm"
	[tuner/eval]="kernel-extract linsched tasks linsched/cli tuner/util tuner/optim tuner/stats tuner/knobs tuner/calib tuner/fidelity tuner/vm tuner/eval"
	[tuner/report]="linsched tuner/util tuner/stats tuner/knobs tuner/calib tuner/fidelity tuner/eval tuner/report"
	[tuner/cmd]="kernel-extract linsched tasks linsched/cli tuner/util tuner/optim tuner/stats tuner/knobs tuner/calib tuner/fidelity tuner/vm tuner/eval tuner/report tuner/cmd"
)

status=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

dirs=$(for d in kernel-extract linsched tasks tuner; do [[ -d $d ]] && echo "$d"; done)
files=$(find $dirs -name '*.[ch]' | sort)
for file in $files; do
	layer=$(dirname "$file")
	if [[ -z "${allowed[$layer]+set}" ]]; then
		echo "$file: folder $layer has no layer in tools/check_layers.sh" >&2
		status=1
		continue
	fi
	module=${file%.*}
	module=${module%_internal} # a module's private header is part of it
	while IFS=: read -r line target; do
		# A header the Makefile generates under build/ (build/gen/model_id.h) is no module.
		[[ $target == build/* ]] && continue
		target_layer=$(dirname "$target")
		if [[ " ${allowed[$layer]} " != *" $target_layer "* ]]; then
			echo "$file:$line: includes $target, above its layer $layer" \
				"(which may include: ${allowed[$layer]})" >&2
			status=1
		fi
		target_module=${target%.h}
		target_module=${target_module%_internal}
		[[ $target_module != "$module" ]] && echo "$module $target_module" >>"$edges"
	done < <(grep -no '^#include "[^"]*"' "$file" | sed 's/#include "\(.*\)"/\1/')
done

# tsort names the modules of a cycle on stderr.
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
	echo "include cycle between modules:" >&2
	sed 's/^tsort: /  /' "$edges.err" >&2
	status=1
fi
rm -f "$edges.err"
[[ $status -eq 0 ]] && echo "layers: every include goes down, no cycles"
exit $status
