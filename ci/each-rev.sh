#!/bin/bash
# Run one per-revision stage (apply, check) on $REV, or on every revision in
# order; one verdict line per revision. Exits non-zero if any failed.
#
# usage: each-rev.sh STAGE
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

stage=${1:?usage: each-rev.sh STAGE}
[ -x "$MBUS_TOP/ci/$stage.sh" ] || die "each-rev.sh: no stage ci/$stage.sh"
take_lock "$stage"
"$MBUS_TOP/ci/tree.sh"
mapfile -t revs < <(revisions)
[ "${#revs[@]}" -gt 0 ] || die "no revisions: the workspace has no series-v*/ directory"
failed=0 ran=0
for rev in "${revs[@]}"; do
	if [ -z "${REV:-}" ] && ! revision_has_patches "$rev"; then
		info "$rev: not written yet (series-$rev/ has no patches); nothing to $stage"
		continue
	fi
	ran=$((ran + 1))
	if "$MBUS_TOP/ci/$stage.sh" "$rev"; then
		info "REVISION $rev $stage: OK"
	else
		info "REVISION $rev $stage: FAIL"
		failed=$((failed + 1))
	fi
done
[ "$ran" -gt 0 ] || die "no revision has patches yet: nothing to $stage"
[ "$failed" -eq 0 ]
