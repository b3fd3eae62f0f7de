#!/bin/bash
# Run per-revision stages (apply, check, boot) on $REV, or on every revision
# in order; one verdict line per revision and stage. Exits non-zero if any
# failed. A revision's later stages run even if an earlier one failed: each
# verdict is its own.
#
# STAGE+STAGE: two stages that share nothing (no checkout, object
# directory or result) run side by side: the first prints as it goes, the
# second's output is printed when it ends. Only the groups of SIDE_BY_SIDE
# below may: builds compiles in the base tree's checkout and object
# directories while cocci's coccicheck, one spatch process at a time, runs
# in the side tree. The second runs in a process group of its own: a run
# that is stopped (INT, TERM) or ends early stops it, with its children.
#
# usage: each-rev.sh STAGE[+STAGE]...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

SIDE_BY_SIDE=(builds+cocci)
[ $# -gt 0 ] || die "usage: each-rev.sh STAGE[+STAGE]..."
for group in "$@"; do
	IFS=+ read -r -a members <<<"$group"
	[ "${#members[@]}" -gt 0 ] || die "each-rev.sh: an empty stage"
	for stage in "${members[@]}"; do
		[ -x "$MBUS_TOP/ci/$stage.sh" ] || die "each-rev.sh: no stage ci/$stage.sh"
	done
	[ "${#members[@]}" -eq 1 ] || [[ " ${SIDE_BY_SIDE[*]} " == *" $group "* ]] ||
		die "each-rev.sh: $group: only ${SIDE_BY_SIDE[*]} may run side by side (stages that share nothing)"
done
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
"$MBUS_TOP/ci/tree.sh"
mapfile -t revs < <(revisions)
[ "${#revs[@]}" -gt 0 ] || die "no revisions: the workspace has no series-v*/ directory"
failed=0 ran=0 bg="" log=""
# A stage still running beside is stopped with its process group.
stop_bg() {
	[ -z "$bg" ] || kill -TERM -- "-$bg" 2>/dev/null || true
	[ -z "$log" ] || rm -f "$log"
}
trap stop_bg EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for rev in "${revs[@]}"; do
	if [ -z "${REV:-}" ] && ! revision_has_patches "$rev"; then
		info "$rev: not written yet (series-$rev/ has no patches); nothing to do"
		continue
	fi
	ran=$((ran + 1))
	for group in "$@"; do
		IFS=+ read -r -a members <<<"$group"
		rcs=()
		if [ "${#members[@]}" -eq 2 ]; then
			log=$(mktemp)
			setsid "$MBUS_TOP/ci/${members[1]}.sh" "$rev" >"$log" 2>&1 &
			bg=$!
		fi
		"$MBUS_TOP/ci/${members[0]}.sh" "$rev" && rcs+=(0) || rcs+=(1)
		if [ -n "$bg" ]; then
			wait "$bg" && rcs+=(0) || rcs+=(1)
			bg=""
			cat "$log" || { echo "each-rev.sh: the output of ${members[1]} $rev was lost"; rcs[1]=1; }
			rm -f "$log"
			log=""
		fi
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
