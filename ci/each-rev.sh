#!/bin/bash
# Run per-revision stages (apply, check, boot) on $REV, or on every revision
# in order; one verdict line per revision and stage. Exits non-zero if any
# failed. A revision's later stages run even if an earlier one failed: each
# verdict is its own.
#
# usage: each-rev.sh STAGE...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: each-rev.sh STAGE..."
for stage in "$@"; do
	[ -x "$MBUS_TOP/ci/$stage.sh" ] || die "each-rev.sh: no stage ci/$stage.sh"
done
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
"$MBUS_TOP/ci/tree.sh"
mapfile -t revs < <(revisions)
[ "${#revs[@]}" -gt 0 ] || die "no revisions: the workspace has no series-v*/ directory"
failed=0 ran=0
for rev in "${revs[@]}"; do
	if [ -z "${REV:-}" ] && ! revision_has_patches "$rev"; then
		info "$rev: not written yet (series-$rev/ has no patches); nothing to do"
		continue
	fi
	ran=$((ran + 1))
	for stage in "$@"; do
		if "$MBUS_TOP/ci/$stage.sh" "$rev"; then
			info "REVISION $rev $stage: OK"
		else
			info "REVISION $rev $stage: FAIL"
			failed=$((failed + 1))
		fi
	done
done
[ "$ran" -gt 0 ] || die "no revision has patches yet: nothing to do"
[ "$failed" -eq 0 ]
