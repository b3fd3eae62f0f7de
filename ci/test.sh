#!/bin/bash
# The README's test command: a lint of the workspace's scripts, the checks
# and the boot of every revision (each patch/check counted), the pxa_camera
# comparison, then the workspace's own tests (ci/tests/t-*.sh). Ends with "N passed, N failed"; exits non-zero
# on any failure.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"
set +o errexit

pass=0 fail=0
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

t0=$(date +%s)
# The base tree first: the tests make their fixtures against it.
"$MBUS_TOP/ci/tree.sh" || { echo "not ok - base tree"; echo "0 passed, 1 failed"; exit 1; }

stage_begin "tests: shellcheck"
mapfile -t scripts < <(cd "$MBUS_TOP" && ls ci/*.sh ci/tests/*.sh .ci/run)
if sc=$(cd "$MBUS_TOP" && shellcheck -x -S warning -f gcc "${scripts[@]}" 2>&1); then
	count <<<"ok - shellcheck: ${#scripts[@]} scripts clean"
	stage_end OK
else
	count <<<"not ok - shellcheck: $(echo "$sc" | head -n 1)"
	printf '%s\n' "$sc" | head -n 20
	stage_end FAIL
fi

# The series itself: every check of every patch of every revision, and the
# boot of every revision against the base.
stage_begin "tests: revisions"
"$MBUS_TOP/ci/each-rev.sh" check boot
for chk in guest console kunit mbus; do
	v="$MBUS_RESULTS/base/boot/$chk.verdict"
	if [ ! -f "$v" ]; then
		count <<<"not ok - base boot $chk: no verdict"
		continue
	fi
	read -r verdict reason <"$v"
	if [ "$verdict" = FAIL ]; then count <<<"not ok - base boot $chk: $verdict $reason"; else count <<<"ok - base boot $chk: $verdict $reason"; fi
done
for res in "$MBUS_RESULTS"/v*/; do
	rev=${res%/}
	rev=${rev##*/}
	[ -d "$MBUS_SERIES_DIR/series-$rev" ] || continue
	revision_has_patches "$rev" || continue
	if [ ! -f "$res/check.verdict" ]; then
		count <<<"not ok - $rev: no check verdict (the check stage did not finish; see above)"
		continue
	fi
	for chk in guest console kunit mbus compliance; do
		if [ ! -f "$res/boot/$chk.verdict" ]; then
			count <<<"not ok - $rev boot $chk: no verdict (the boot stage did not finish)"
		fi
	done
	for v in "$res"/[0-9][0-9][0-9][0-9]/*.verdict "$res"/boot/{guest,console,kunit,mbus,compliance}.verdict; do
		[ -f "$v" ] || continue
		read -r verdict reason <"$v"
		p=${v%/*}
		chk=${v##*/}
		case ${p##*/} in
		boot) line="$rev boot ${chk%.verdict}: $verdict $reason" ;;
		*) line="$rev patch ${p##*/} ${chk%.verdict}: $verdict $reason" ;;
		esac
		if [ "$verdict" = FAIL ]; then count <<<"not ok - $line"; else count <<<"ok - $line"; fi
	done
done
if [ "$fail" -eq 0 ]; then stage_end OK; else stage_end FAIL; fi

# pxa_camera's conversion, in every revision that makes it.
for rev in $(revisions); do
	revision_has_patches "$rev" || continue
	grep -q '^+++ b/drivers/media/platform/intel/pxa_camera.c' "$MBUS_SERIES_DIR/series-$rev"/*.patch || continue
	if out=$("$MBUS_TOP/ci/pxa-compare.sh" "$rev" 2>&1); then
		count <<<"ok - $rev pxa: $(cut -d' ' -f2- "$MBUS_RESULTS/$rev/pxa/pxa.verdict")"
	else
		count <<<"not ok - $rev pxa: $(echo "$out" | tail -n 1)"
	fi
done

# The workspace's own tests (after the revisions: some use their kernels).
for t in "$MBUS_TOP"/ci/tests/t-*.sh; do
	name=${t##*/}
	stage_begin "tests: ${name%.sh}"
	before=$fail
	count < <(bash "$t" 2>&1)
	if [ "$fail" -eq "$before" ]; then stage_end OK; else stage_end FAIL; fi
done

echo "tests took $(($(date +%s) - t0)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
