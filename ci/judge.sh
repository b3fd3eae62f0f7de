#!/bin/bash
# Stage "judge": record the verdicts of one guest run. ci/judge.py reads the
# console and says, for each boot check of ci/checks, "<check> <verdict>
# <reason>"; this writes them with verdict_write, each with INPUTS, the key
# of what the run was made from. A check the judge says nothing of fails.
#
# usage: judge.sh [--quick] DIR INPUTS [BASEDIR BASE_INPUTS [BASE_COMMIT TIP]]
#   --quick: a run of the quick guest (ci/boot.sh --quick, vimc only).
#   No BASEDIR: DIR is the base, the reference; with BASE_COMMIT and TIP,
#   the suites of the .kunitconfig files TIP adds or changes must have run.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

quick=()
[ "${1:-}" != --quick ] || { quick=(--quick); shift; }
dir=${1:?usage: judge.sh [--quick] DIR INPUTS [BASEDIR BASE_INPUTS [BASE_COMMIT TIP]]}
inputs=${2:?usage: judge.sh [--quick] DIR INPUTS ...}
basedir=${3:-} base_inputs=${4:-} base_commit=${5:-} tip=${6:-}
MBUS_KUNIT_DIR="$(base_tools)/tools/testing/kunit"
export MBUS_KUNIT_DIR
judge=(python3 "$MBUS_TOP/ci/judge.py" "${quick[@]}" "$dir")
if [ -n "$basedir" ]; then
	judge+=(--base "$basedir")
	read -r v _ < <(verdict_read "$basedir/compliance.verdict" "$base_inputs")
	[ "$v" = FAIL ] || ! verdict_passes "$v" || judge+=(--base-ok)
	[ -z "$tip" ] || judge+=(--require-suites-of "$base_commit" "$tip")
fi
# (A bounded time: a console can hold KTAP that no parser should hang on.)
timeout 600 "${judge[@]}" >"$dir/judge.out" 2>"$dir/judge.err" ||
	echo "judge FAIL judge.py failed: $(tail -n 1 "$dir/judge.err")" >>"$dir/judge.out"
for chk in "${BOOT_CHECKS[@]}"; do
	line=$(grep -m1 "^$chk " "$dir/judge.out" || echo "$chk FAIL the judge gave no verdict ($(tail -n 1 "$dir/judge.err"))")
	read -r _ v r <<<"$line"
	verdict_write "$dir/$chk.verdict" "$v" "$inputs" "$r"
done
