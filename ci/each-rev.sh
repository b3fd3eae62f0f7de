#!/bin/bash
# Run per-revision stages (apply, check, boot) on $REV, or on every revision
# in order; one verdict line per revision and stage. Exits non-zero if any
# failed. A revision's later stages run even if an earlier one failed: each
# verdict is its own.
#
# STAGE[,STAGE]...+STAGE: the stage after "+" runs beside the stages
# before it, which run one after the other; it shares nothing with them
# (no checkout, object directory or result). They print as they go; the
# output of the stage beside is printed when all have ended. Only the
# groups of SIDE_BY_SIDE below may: check, csi2-compare and builds work in
# the base tree's checkout and object directories while cocci's
# coccicheck, one spatch process at a time, runs in the side tree. check's
# apply uses the side tree only if it must apply again (a patch edited
# since): apply and cocci each hold the side tree's lock while they use
# it. cocci reads the branch apply makes, so a group with check and cocci
# must come after an "apply" group (then check's apply finds the branch
# made). The stage beside runs in a process group of its own: a run that
# is stopped (INT, TERM) or ends early stops it, with its children.
#
# @checks stands for the per-patch checks of a revision as make check,
# the main job and the test command run them, written here once: CHECKS.
#
# usage: each-rev.sh GROUP...   (GROUP: STAGE, STAGE[,STAGE]...+STAGE, or @checks)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

SIDE_BY_SIDE=("builds+cocci" "check,csi2-compare,builds+cocci")
CHECKS=(apply "check,csi2-compare,builds+cocci" htmldocs)
usage="usage: each-rev.sh GROUP...   (GROUP: STAGE, STAGE[,STAGE]...+STAGE, or @checks)"
args=()
for group in "$@"; do
	if [ "$group" = @checks ]; then args+=("${CHECKS[@]}"); else args+=("$group"); fi
done
# (After @checks is expanded: a run of no stage passes nothing.)
[ "${#args[@]}" -gt 0 ] || die "$usage"
set -- "${args[@]}"
# split_group GROUP: its stages into $stages, the one beside (if any) last.
split_group() {
	IFS=,+ read -r -a stages <<<"$1"
}
applied=""
for group in "$@"; do
	[[ $group =~ ^[a-z0-9-]+((,[a-z0-9-]+)*\+[a-z0-9-]+)?$ ]] ||
		die "each-rev.sh: '$group' is not a group (STAGE, STAGE[,STAGE]...+STAGE, or @checks)"
	split_group "$group"
	for stage in "${stages[@]}"; do
		[ -x "$MBUS_TOP/ci/$stage.sh" ] || die "each-rev.sh: no stage ci/$stage.sh"
	done
	[ "${#stages[@]}" -eq 1 ] || [[ " ${SIDE_BY_SIDE[*]} " == *" $group "* ]] ||
		die "each-rev.sh: $group: only ${SIDE_BY_SIDE[*]} may run side by side (stages that share nothing)"
	[ "$group" != apply ] || applied=1
	[[ $group != *+* || ",${group%+*}," != *,check,* || -n $applied ]] ||
		die "each-rev.sh: $group: check's apply and cocci beside it need the branch made first: run apply before it (each-rev.sh apply $group)"
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
		split_group "$group"
		rcs=() fg=("${stages[@]}") side=""
		if [[ $group == *+* ]]; then
			side=${stages[-1]}
			unset 'fg[-1]'
			log=$(mktemp)
			setsid "$MBUS_TOP/ci/$side.sh" "$rev" >"$log" 2>&1 &
			bg=$!
		fi
		for stage in "${fg[@]}"; do
			"$MBUS_TOP/ci/$stage.sh" "$rev" && rcs+=(0) || rcs+=(1)
		done
		if [ -n "$bg" ]; then
			wait "$bg" && rcs+=(0) || rcs+=(1)
			bg=""
			cat "$log" || { echo "each-rev.sh: the output of $side $rev was lost"; rcs[-1]=1; }
			rm -f "$log"
			log=""
		fi
		for j in "${!stages[@]}"; do
			if [ "${rcs[$j]}" -eq 0 ]; then
				info "REVISION $rev ${stages[$j]}: OK"
			else
				info "REVISION $rev ${stages[$j]}: FAIL"
				failed=$((failed + 1))
			fi
		done
	done
done
[ "$ran" -gt 0 ] || die "no revision has patches yet: nothing to do"
[ "$failed" -eq 0 ]
