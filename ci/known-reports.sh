#!/bin/bash
# Known reports of posted revisions: a per-patch check of media-ci's kind
# (a configuration of ci/builds, cocci, htmldocs) that a revision already
# sent to the list fails, found after it was posted (those checks came
# later) and answered by a later revision. The entries are in
# ci/known-reports, in ci/known-failures' format (read by the same
# known_entries of ci/lib.sh):
#   REVISION CHECK NNNN REGEX | why
# where REGEX (grep -E) must match the failure's reason.
#
# Run by the stages after they wrote their per-patch verdicts: for each
# entry of REV whose CHECK is one of CHECKS, the verdict DIR/NNNN/CHECK.verdict
# of a posted revision that FAILs with a matching reason becomes WARN,
# "XFAIL known report of a posted revision (why): <the reason>" (it passes,
# and says so); an entry that matches no such failure (XPASS: it passes,
# or fails otherwise, or the revision is not posted) is printed and makes
# the exit status 1; an error in ci/known-reports exits 2. A failure no
# entry lists stays FAIL.
#
# usage: known-reports.sh REV DIR CHECK...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: known-reports.sh REV DIR CHECK...}
dir=${2:?usage: known-reports.sh REV DIR CHECK...}
shift 2
export MBUS_KNOWN_FAILURES="${MBUS_KNOWN_REPORTS:-$MBUS_TOP/ci/known-reports}"
# Errors (an entry without "| why", a check nobody makes, a patch number
# that is not NNNN, a bad pattern) exit 2: the stage fails on them.
entries=$(known_entries "$rev") || exit 2
declare -A mine=() any=([cocci]=1 [htmldocs]=1)
for c in "$@"; do mine[$c]=1; done
while read -r c; do any[$c]=1; done < <(awk '!/^#/ && NF { print $1 }' "$MBUS_TOP/ci/builds")
bad=0
while IFS=$'\t' read -r what re why at; do
	[ -n "$what" ] || continue
	read -r chk nnnn <<<"$what"
	if [ -z "${any[$chk]:-}" ] || ! [[ $nnnn =~ ^[0-9]{4}$ ]]; then
		echo "$at: '$chk $nnnn' is not CHECK NNNN of a check (cocci, htmldocs or a configuration of ci/builds)" >&2
		exit 2
	fi
	[ -n "${mine[$chk]:-}" ] || continue
	f="$dir/$nnnn/$chk.verdict"
	v=MISSING inputs="" reason=""
	[ ! -f "$f" ] || read -r v inputs reason <"$f" || true
	rc=1
	if [ "$v" = FAIL ] && [ -n "$re" ] && [ -n "${why// /}" ] && posted "$rev"; then
		rc=0
		grep -qE -- "$re" <<<"$reason" 2>/dev/null || rc=$?
		[ "$rc" -ne 2 ] || { echo "$at: not an extended regular expression: $re" >&2; exit 2; }
	fi
	if [ "$rc" -eq 0 ]; then
		verdict_write "$f" WARN "$inputs" "XFAIL known report of a posted revision ($why): $reason"
	else
		echo "XPASS: $at lists $rev $chk $nnnn, which is $v ${reason:-}$(posted "$rev" || echo " ($rev is not posted)"): remove the entry, or say why it fails otherwise"
		bad=1
	fi
done <<<"$entries"
exit "$bad"
