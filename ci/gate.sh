#!/bin/bash
# Stage "gate": may revision REV be rendered? Only if its cover letter is
# written (no placeholder text) and its checks and boot passed for exactly
# these patch bytes on this base, with these scripts: check.verdict must be
# current for rev_inputs REV, boot/boot.verdict for boot_inputs REV.
# Otherwise a refusal that names what has not passed, and a non-zero exit.
#
# usage: gate.sh REV
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: gate.sh REV}
cover="$MBUS_TOP/cover-letter/$rev"
res="$MBUS_RESULTS/$rev"
revision_patches "$rev" >/dev/null
[ -f "$cover" ] || die "render $rev: cover-letter/$rev missing (the cover letter of the revision)"
placeholder='EDITME|\*\*\* (SUBJECT|BLURB) HERE|XXX'
if grep -qE "$placeholder" "$cover"; then
	die "render $rev: cover-letter/$rev still has placeholder text: $(grep -nE "$placeholder" "$cover" | head -n 1)"
fi
refuse=()
[ -z "${MBUS_BUILDS:-}" ] || refuse+=("MBUS_BUILDS=$MBUS_BUILDS selects only some build configurations")
(rev_tip "$rev" >/dev/null 2>&1) || refuse+=("branch $MBUS_BRANCH_PREFIX$rev is not what the current patches give")
for stage in check boot; do
	case $stage in
	check) read -r v r < <(verdict_read "$res/check.verdict" "$(rev_inputs "$rev")") ;;
	boot) read -r v r < <(verdict_read "$res/boot/boot.verdict" "$(boot_inputs "$rev")") ;;
	esac
	case $v in
	OK | WARN) ;;
	MISSING) refuse+=("$stage has not run") ;;
	STALE) refuse+=("$stage passed for other patch bytes, scripts or base") ;;
	*) refuse+=("$stage failed: $r") ;;
	esac
done
# The receivers' comparison, for a revision that changes them.
csi2=$("$MBUS_TOP/ci/csi2-compare.sh" --applies "$rev") || die "render $rev: ci/csi2-compare.sh --applies failed"
if [ -n "$csi2" ]; then
	read -r v r < <(verdict_read "$res/csi2/csi2.verdict" "$(csi2_inputs "$rev")")
	verdict_passes "$v" || refuse+=("the csi2 comparison is $v: $r")
fi
# The per-patch checks of media-ci's kind: coccicheck, htmldocs, and the
# builds in other architectures and configurations.
for stage in builds cocci htmldocs; do
	want=$("$MBUS_TOP/ci/$stage.sh" --inputs "$rev") || die "render $rev: ci/$stage.sh --inputs failed"
	read -r v r < <(verdict_read "$res/$stage/$stage.verdict" "$want")
	verdict_passes "$v" || refuse+=("$stage is $v: $r")
done
[ "${#refuse[@]}" -eq 0 ] ||
	die "render $rev: not rendered, because $(IFS=';'; echo "${refuse[*]}") (run: make REV=$rev)"
