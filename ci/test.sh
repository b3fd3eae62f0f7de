#!/bin/bash
# The README's test command: a lint of the workspace's scripts, the checks
# and the boot of every revision ($REV: of that one), each verdict of each
# patch and check counted, the pxa_camera comparison, then the workspace's
# own tests (ci/tests/t-*.sh). Ends with "N passed, N failed"; exits
# non-zero on any failure.
#
# It fails closed:
#  - a verdict counts only if it was made from the current inputs
#    (verdict_read with patch_inputs/rev_inputs/boot_inputs): a stale or
#    missing one is a failure, never a pass;
#  - every test script reports KTAP with a plan; its log is read by the
#    tree's own KTAP parser (ci/ktap.py), and a script that declares no
#    plan, falls short of it, crashes or exits non-zero is a failure;
#  - a stage that exits non-zero is a failure, whatever it printed.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"
set +o errexit

pass=0 fail=0
# count: echo each line; "ok - " passes, "not ok - " fails.
count() {
	local line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case $line in
		"ok - "*) pass=$((pass + 1)) ;;
		"not ok - "*) fail=$((fail + 1)) ;;
		esac
	done
}
logs="$MBUS_RESULTS/tests"

t0=$(date +%s)
# The base tree first: the tests make their fixtures against it.
"$MBUS_TOP/ci/tree.sh" || { echo "not ok - base tree"; echo "0 passed, 1 failed"; exit 1; }
mapfile -t revs < <(revisions) || exit 1
[ "${#revs[@]}" -gt 0 ] || die "no revisions"

stage_begin "tests: shellcheck"
mapfile -t scripts < <(cd "$MBUS_TOP" && ls ci/*.sh ci/tests/*.sh .ci/run)
before=$fail
if sc=$(cd "$MBUS_TOP" && shellcheck -x -S warning -f gcc "${scripts[@]}" 2>&1); then
	count <<<"ok - shellcheck: ${#scripts[@]} scripts clean"
else
	count <<<"not ok - shellcheck: $(echo "$sc" | head -n 1)"
	printf '%s\n' "$sc" | head -n 20
fi
# The scripts the stages run by their path must be executable as
# committed: a clean clone has the index's modes, not this tree's.
mapfile -t pyrun < <(cd "$MBUS_TOP" && grep -l '^#!' ci/*.py)
noexec=$(cd "$MBUS_TOP" && git ls-files -s -- 'ci/*.sh' .ci/run "${pyrun[@]}" |
	awk '$1 != "100755" { print $4 }' | tr '\n' ' ')
if [ -z "$noexec" ]; then
	count <<<"ok - modes: every ci/*.sh, ci/tests/*.sh, ci/*.py with a #! line and .ci/run is committed executable"
else
	count <<<"not ok - modes: committed without the executable bit: $noexec"
fi
if py=$(cd "$MBUS_TOP" && python3 -m py_compile ci/*.py 2>&1); then
	count <<<"ok - python: ci/*.py compile"
else
	count <<<"not ok - python: $(echo "$py" | tail -n 1)"
fi
if [ "$fail" -eq "$before" ]; then stage_end OK; else stage_end FAIL; fi

# The series itself: every check of every patch of every revision, and the
# boot of every revision against the base. The checks are each-rev.sh's
# @checks, as the main job and make check run them (cocci beside check,
# csi2-compare and builds, under the side tree's lock); then each verdict,
# read against the current inputs.
stage_begin "tests: revisions"
before=$fail
"$MBUS_TOP/ci/each-rev.sh" @checks boot
rc=$?
if [ "$rc" -eq 0 ]; then
	count <<<"ok - revisions: ci/each-rev.sh @checks boot exited 0"
else
	count <<<"not ok - revisions: ci/each-rev.sh @checks boot exited $rc"
fi
out=$("$MBUS_TOP/ci/verdicts.sh" 2>&1)
rc=$?
count < <(grep -E '^(not )?ok - ' <<<"$out")
if [ "$rc" -ne 0 ] && ! grep -q '^not ok - ' <<<"$out"; then
	count <<<"not ok - verdicts: ci/verdicts.sh exited $rc: $(tail -n 1 <<<"$out")"
fi
if [ "$fail" -eq "$before" ]; then stage_end OK; else stage_end FAIL; fi

# per_revision NAME SCRIPT VERDICT INPUTS: run a per-revision stage and
# count its verdict, read against INPUTS (the stage applies to a revision
# only where INPUTS is not empty).
per_revision() {
	local name=$1 script=$2 vfile=$3 want=$4 rc=0 v r
	"$MBUS_TOP/ci/$script" "$rev" >"$MBUS_RESULTS/$rev/${script%.sh}.out" 2>&1 || rc=$?
	read -r v r < <(verdict_read "$MBUS_RESULTS/$rev/$vfile" "$want")
	if [ "$rc" -eq 0 ] && verdict_passes "$v"; then
		count <<<"ok - $rev $name: $v $r"
	else
		count <<<"not ok - $rev $name: $v $r (ci/$script exited $rc)"
	fi
}
# pxa_camera's conversion and the CSI-2 receivers' conversions, in every
# revision that makes them; the per-patch builds, coccicheck and htmldocs
# of every revision (each run again: kept above, it reads its results
# against the current inputs, and its exit status counts); then the
# matrix of every per-patch verdict.
for rev in "${revs[@]}"; do
	revision_has_patches "$rev" || continue
	if grep -q '^+++ b/drivers/media/platform/intel/pxa_camera.c' "$MBUS_SERIES_DIR/series-$rev"/*.patch; then
		per_revision pxa pxa-compare.sh pxa/pxa.verdict "$(pxa_inputs "$rev")"
	fi
	if ! applies=$("$MBUS_TOP/ci/csi2-compare.sh" --applies "$rev"); then
		count <<<"not ok - $rev csi2: ci/csi2-compare.sh --applies failed"
	elif [ -n "$applies" ]; then
		per_revision csi2 csi2-compare.sh csi2/csi2.verdict "$(csi2_inputs "$rev")"
	fi
	for stage in builds cocci htmldocs; do
		if ! want=$("$MBUS_TOP/ci/$stage.sh" --inputs "$rev"); then
			count <<<"not ok - $rev $stage: ci/$stage.sh --inputs failed"
		else
			per_revision "$stage" "$stage.sh" "$stage/$stage.verdict" "$want"
		fi
	done
done

out=$("$MBUS_TOP/ci/matrix.sh" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
	count <<<"ok - matrix: $(grep '^<== matrix' <<<"$out" | sed -E 's/.*\((.*)\)$/\1/')"
else
	count <<<"not ok - matrix: ci/matrix.sh exited $rc: $(grep -A3 '^not passing' <<<"$out" | tail -n 3 | tr '\n' ' ')"
fi

# The workspace's own tests (after the revisions: some use their kernels).
for t in "$MBUS_TOP"/ci/tests/t-*.sh; do
	name=${t##*/}
	name=${name%.sh}
	stage_begin "tests: $name"
	before=$fail
	n0=$((pass + fail))
	count < <("$MBUS_TOP/ci/ktap-run.sh" "$name" "$logs/$name.log" bash "$t" 2>&1)
	[ $((pass + fail)) -gt "$n0" ] || count <<<"not ok - $name: no result at all (see $logs/$name.log)"
	if [ "$fail" -eq "$before" ]; then stage_end OK; else stage_end FAIL; fi
done

echo "tests took $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
