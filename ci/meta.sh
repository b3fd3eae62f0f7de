#!/bin/bash
# Check "meta": the commit metadata of one patch of a revision.
#   - a Signed-off-by of the author (the From: line);
#   - the subject is "[PATCH{ vN} m/n] media: ..." with vN the revision
#     (v1 may be omitted), m the patch's position and n the revision's size.
#
# usage: meta.sh REV M N PATCH OUTDIR
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=$1 m=$2 n=$3 patch=$4 out=$5
problems=()
# Header lines until the first blank line; folded Subject lines joined.
hdr=$(sed '/^$/q' "$patch" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n[ \t]\+/ /g')
from=$(printf '%s\n' "$hdr" | sed -n 's/^From: *//p' | head -n 1)
subject=$(printf '%s\n' "$hdr" | sed -n 's/^Subject: *//p' | head -n 1)
[ -n "$from" ] || problems+=("no From: header")
[ -n "$subject" ] || problems+=("no Subject: header")
email=$(printf '%s' "$from" | sed -n 's/.*<\([^>]*\)>.*/\1/p')
[ -n "$email" ] || email=$from
# Signed-off-by lines of the commit message (above the --- line).
sobs=$(commit_message "$patch" | sed -n 's/^Signed-off-by: *//p')
if [ -n "$from" ] && ! printf '%s\n' "$sobs" | grep -qiF "<$email>"; then
	problems+=("no Signed-off-by of the author <$email>")
fi
# A one-patch revision may leave the numbering out, as format-patch does.
num="$m/$n"
[ "$n" -ne 1 ] || num="(1/1)?"
if [ "$rev" = v1 ]; then
	want="\\[PATCH( v1)? ?$num\\]"
else
	want="\\[PATCH $rev ?$num\\]"
fi
if ! [[ $subject =~ ^$want\  ]]; then
	problems+=("subject prefix is not '[PATCH$([ "$rev" = v1 ] || echo " $rev") $m/$n]': $subject")
elif ! [[ $subject =~ ^$want\ media:\ [^\ ] ]]; then
	problems+=("subject does not start with 'media: ': $subject")
fi
{
	echo "From: $from"
	echo "Subject: $subject"
	echo "Signed-off-by: $(printf '%s' "$sobs" | tr '\n' ';')"
	printf 'problem: %s\n' "${problems[@]}"
} >"$out/meta.log"
if [ "${#problems[@]}" -eq 0 ]; then
	verdict_write "$out/meta.verdict" OK "${MBUS_INPUTS:?}" "signed off by the author, subject numbered $m/$n"
else
	verdict_write "$out/meta.verdict" FAIL "${MBUS_INPUTS:?}" "$(IFS=';'; echo "${problems[*]}")"
fi
