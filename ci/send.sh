#!/bin/bash
# Stage "send": validate the postings of a revision with git send-email
# --dry-run (no network), and send them for real only when the person asks
# for it explicitly (SEND=yes) and has configured their own mail identity
# (sendemail.from or user.email in their git configuration, matching the
# From of the postings, rendered with MBUS_FROM set to it). The tests never
# send.
#
# usage: send.sh REV
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: send.sh REV}
posted="$MBUS_TOP/outgoing/$rev"
mapfile -t mails < <(ls "$posted"/*.patch 2>/dev/null)
[ "${#mails[@]}" -gt 0 ] || die "send $rev: outgoing/$rev has no postings (make render REV=$rev)"
stage_begin "send $rev (dry run)"
log="$MBUS_RESULTS/$rev/send-dry-run.log"
mkdir -p "${log%/*}"
# A dry run needs no SMTP server: --smtp-server=/bin/true is never called.
if ! git send-email --dry-run --confirm=never --quiet --no-validate \
	--suppress-cc=all --smtp-server=/bin/true \
	"${mails[@]}" </dev/null >"$log" 2>&1; then
	stage_end FAIL "git send-email --dry-run refused the postings (see $log)"
	exit 1
fi
sent=$(grep -c '^Dry-Sent' "$log" || true)
[ "$sent" -eq "${#mails[@]}" ] || { stage_end FAIL "dry run sent $sent of ${#mails[@]}"; exit 1; }
stage_end OK "$sent mails accepted by git send-email --dry-run"

if [ "${SEND:-}" != yes ]; then
	info "Not sent. To send outgoing/$rev for real: make send REV=$rev SEND=yes"
	info "(with your own identity: MBUS_FROM='Your Name <you@example.com>' make render send REV=$rev SEND=yes)"
	exit 0
fi
if [ -n "$(known_failures_of "$rev")" ]; then
	die "send $rev: $rev has known failures (ci/known-failures: $(known_failures_of "$rev" | paste -sd, -)): a posted revision that fails is answered by a new one, never sent again"
fi
from=$(sed -n 's/^From: //p' "${mails[1]:-${mails[0]}}" | head -n 1)
me=$(git config sendemail.from || git config user.email || true)
[ -n "$me" ] || die "send $rev: no mail identity configured (git config sendemail.from / user.email)"
case $from in
*"<$me>"* | "$me") ;;
*) die "send $rev: the postings are From '$from', but your mail identity is '$me': render them with MBUS_FROM set to yours" ;;
esac
[ "$from" != "$MBUS_PROJECT_FROM" ] ||
	die "send $rev: the postings carry the project identity; render them with MBUS_FROM set to yours"
git send-email --confirm=always "${mails[@]}"
