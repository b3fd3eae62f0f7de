#!/bin/bash
# Run per-revision stages (apply, check, boot) on $REV, or on every revision
# in order; one verdict line per revision and stage. Exits non-zero if any
# failed. A revision's later stages run even if an earlier one failed: each
# verdict is its own.
#
# STAGE+STAGE...: stages that share nothing (no checkout, object
# directory or result) run side by side: the first prints as it goes, the
# others' output is printed when they end. (builds+cocci: builds compiles
# in the base tree's object directories while coccicheck, one spatch
# process at a time, runs in the side tree.)
#
# usage: each-rev.sh STAGE[+STAGE...]...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: each-rev.sh STAGE[+STAGE...]..."
for group in "$@"; do
	IFS=+ read -r -a members <<<"$group"
	[ "${#members[@]}" -gt 0 ] || die "each-rev.sh: an empty stage"
	for stage in "${members[@]}"; do
		[ -x "$MBUS_TOP/ci/$stage.sh" ] || die "each-rev.sh: no stage ci/$stage.sh"
	done
done
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
"$MBUS_TOP/ci/tree.sh"
mapfile -t revs < <(revisions)
[ "${#revs[@]}" -gt 0 ] || die "no revisions: the workspace has no series-v*/ directory"
failed=0 ran=0 logs=()
trap 'rm -f "${logs[@]}"' EXIT
for rev in "${revs[@]}"; do
	if [ -z "${REV:-}" ] && ! revision_has_patches "$rev"; then
		info "$rev: not written yet (series-$rev/ has no patches); nothing to do"
		continue
	fi
	ran=$((ran + 1))
	for group in "$@"; do
		IFS=+ read -r -a members <<<"$group"
		pids=() logs=()
		for stage in "${members[@]:1}"; do
			logs+=("$(mktemp)")
			"$MBUS_TOP/ci/$stage.sh" "$rev" >"${logs[-1]}" 2>&1 &
			pids+=($!)
		done
		rcs=()
		"$MBUS_TOP/ci/${members[0]}.sh" "$rev" && rcs+=(0) || rcs+=(1)
		for j in "${!pids[@]}"; do
			wait "${pids[$j]}" && rcs+=(0) || rcs+=(1)
			cat "${logs[$j]}"
			rm -f "${logs[$j]}"
		done
		for j in "${!members[@]}"; do
			if [ "${rcs[$j]}" -eq 0 ]; then
				info "REVISION $rev ${members[$j]}: OK"
			else
				info "REVISION $rev ${members[$j]}: FAIL"
				failed=$((failed + 1))
			fi
		done
	done
done
[ "$ran" -gt 0 ] || die "no revision has patches yet: nothing to do"
[ "$failed" -eq 0 ]
