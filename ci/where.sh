#!/bin/bash
# The last words of the main job: where the postings are, how to send them.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

newest=$(revisions | while read -r r; do revision_has_patches "$r" && echo "$r"; done | tail -n 1)
[ -n "$newest" ] || exit 0
echo
echo "Postings of $newest, checked, booted and rendered: outgoing/$newest/"
ls "$MBUS_TOP/outgoing/$newest" | sed 's/^/  /'
known=$(known_failures_of "$newest" | paste -sd, -)
if [ -n "$known" ]; then
	echo "Not to be sent again: $newest has known failures ($known; ci/known-failures):"
	echo "the next revision answers them (make trailers, make new-revision FROM=$newest)."
	exit 0
fi
echo "Check them:        make send REV=$newest          (git send-email --dry-run)"
echo "Send them:         MBUS_FROM='Your Name <you@example.com>' make render send REV=$newest SEND=yes"
