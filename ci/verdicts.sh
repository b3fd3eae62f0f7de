#!/bin/bash
# Stage "verdicts": every verdict of the revisions ($REV: of that one), read
# against the inputs they must have been made from now, one line each:
# "ok - NAME: VERDICT reason" or "not ok - NAME: VERDICT reason". A verdict
# that is missing, or was made from other inputs (STALE), is "not ok": only
# what was checked on these bytes, with these scripts, counts.
#   base boot <check>          boot_inputs base
#   <rev> patch NNNN <check>   patch_inputs <rev> N, for each PATCH_CHECKS
#   <rev> check                rev_inputs <rev>
#   <rev> boot <check>         boot_inputs <rev>, for each BOOT_CHECKS
# A failure that ci/known-failures lists for a posted revision is
# "ok - NAME: XFAIL ..." (with why); a listed one that does not fail so is
# "not ok - NAME: XPASS ...". Exits non-zero if any is not ok.
#
# usage: verdicts.sh
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

bad=0
say() {   # NAME "VERDICT REASON" [REV CHECK]
	local verdict reason why
	read -r verdict reason <<<"$2"
	if [ -n "${3:-}" ] && known_failures_of "$3" | grep -qxF "$4"; then
		if [ "$verdict" = FAIL ] && why=$(known_failure "$3" "$4" "$reason"); then
			echo "ok - $1: XFAIL known failure of a posted revision ($why): $verdict $reason"
		elif [ "$verdict" = MISSING ] || [ "$verdict" = STALE ]; then
			echo "not ok - $1: $verdict $reason"
			bad=$((bad + 1))
		else
			echo "not ok - $1: XPASS: ci/known-failures lists it, but it is $verdict $reason (remove the entry, or say why it fails otherwise)"
			bad=$((bad + 1))
		fi
	elif verdict_passes "$verdict"; then
		echo "ok - $1: $verdict $reason"
	else
		echo "not ok - $1: $verdict $reason"
		bad=$((bad + 1))
	fi
}
mapfile -t revs < <(revisions)
[ "${#revs[@]}" -gt 0 ] || die "no revisions"
for chk in "${BOOT_CHECKS[@]}"; do
	say "base boot $chk" "$(verdict_read "$MBUS_RESULTS/base/boot/$chk.verdict" "$(boot_inputs base)")"
done
for rev in "${revs[@]}"; do
	revision_has_patches "$rev" || continue
	n=$(compgen -G "$MBUS_SERIES_DIR/series-$rev/*.patch" | wc -l)
	for i in $(seq 1 "$n"); do
		want=$(patch_inputs "$rev" "$i")
		nnnn=$(printf %04d "$i")
		for chk in "${PATCH_CHECKS[@]}"; do
			say "$rev patch $nnnn $chk" "$(verdict_read "$MBUS_RESULTS/$rev/$nnnn/$chk.verdict" "$want")"
		done
	done
	say "$rev check" "$(verdict_read "$MBUS_RESULTS/$rev/check.verdict" "$(rev_inputs "$rev")")"
	want=$(boot_inputs "$rev")
	for chk in "${BOOT_CHECKS[@]}"; do
		say "$rev boot $chk" "$(verdict_read "$MBUS_RESULTS/$rev/boot/$chk.verdict" "$want")" "$rev" "boot $chk"
	done
done
[ "$bad" -eq 0 ]
