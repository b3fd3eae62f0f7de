#!/bin/bash
# Stage "recipients": who receives each mail of a rendering, from the base
# tree's get_maintainer.pl for the files each patch touches. Writes
# MAIL.rcpt beside each mail, one "to|ADDRESS" or "cc|ADDRESS" a line:
#   To: the maintainers (M:) and the subsystem's lists;
#   Cc: the reviewers (R:) and the catch-all linux-kernel list (open list),
#       and the V4L2 core reviewers of ci/core-reviewers that apply.
# The first mail is the cover letter: it gets the union of the others.
# MAINTAINERS-notes (ci/maintainers.sh) says why, file by file.
#
# usage: recipients.sh REV COVER PATCH...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: recipients.sh REV COVER PATCH..."
rev=$1 cover=$2
shift 2
# get_maintainer.pl reads MAINTAINERS of the base, whatever is checked out.
maint=$(mktemp -d)
trap 'rm -rf "$maint"' EXIT
git -C "$MBUS_TREE" show "$(base_commit):MAINTAINERS" >"$maint/MAINTAINERS"
for p in "$@"; do
	(cd "$MBUS_TREE" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
		--roles --mpath "$maint/MAINTAINERS" "$p") |
		awk '/\(maintainer:/ { sub(/ \(.*/, ""); print "to|" $0; next }
		     /\(reviewer:/ { sub(/ \(.*/, ""); print "cc|" $0; next }
		     /\(open list\)$/ { sub(/ \(.*/, ""); print "cc|" $0; next }
		     /list:/ { sub(/ \(.*/, ""); print "to|" $0; next }' >"$p.rcpt"
	reviewers=$(core_reviewers "$rev" "$p") || exit 1
	[ -z "$reviewers" ] || sed 's/|.*//; s/^/cc|/' <<<"$reviewers" >>"$p.rcpt"
done
{
	cat "${@/%/.rcpt}" | grep '^to|' | sort -u
	cat "${@/%/.rcpt}" | grep '^cc|' | sort -u
} >"$cover.rcpt"
