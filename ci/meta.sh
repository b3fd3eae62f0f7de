#!/bin/bash
# Check "meta": the commit metadata of one patch of a revision.
#   - a Signed-off-by of the author (the From: line);
#   - the subject is "[PATCH{ vN} m/n] media: ..." with vN the revision
#     (v1 may be omitted), m the patch's position and n the revision's size;
#   - review trailers (Reviewed-by, Acked-by, Tested-by) carried from the
#     previous revision still hold only if the diff did not change: if the
#     patch of the same subject in v(N-1) has another patch-id (git patch-id
#     --stable), or there is none, it WARNs, naming them.
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
# The numbering as git format-patch writes it: m padded with zeros to the
# width of n (01/10); a one-patch revision may leave it out.
printf -v num '%0*d/%d' "${#n}" "$((10#$m))" "$n"
[ "$n" -ne 1 ] || num="(1/1)?"
if [ "$rev" = v1 ]; then
	want="\\[PATCH( v1)? ?$num\\]"
else
	want="\\[PATCH $rev ?$num\\]"
fi
if ! [[ $subject =~ ^$want\  ]]; then
	problems+=("subject prefix is not '[PATCH$([ "$rev" = v1 ] || echo " $rev") $num]': $subject")
elif ! [[ $subject =~ ^$want\ media:\ [^\ ] ]]; then
	problems+=("subject does not start with 'media: ': $subject")
fi
# Carried review trailers.
carried=$(commit_message "$patch" | grep -E '^(Reviewed|Acked|Tested)-by: ' || true)
warn=
n_rev=${rev#v}
if [ -n "$carried" ] && [ "$n_rev" -gt 1 ]; then
	prev="$MBUS_SERIES_DIR/series-v$((n_rev - 1))"
	bare=${subject#\[*\] }
	match=
	for q in "$prev"/*.patch; do
		[ -f "$q" ] || continue
		qs=$(sed '/^$/q' "$q" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n[ \t]\+/ /g' | sed -n 's/^Subject: *//p' | head -n 1)
		[ "${qs#\[*\] }" = "$bare" ] && { match=$q; break; }
	done
	names=$(printf '%s' "$carried" | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	if [ -z "$match" ]; then
		warn="no patch of v$((n_rev - 1)) has this subject, yet it carries: $names"
	elif [ "$(patch_id "$patch")" != "$(patch_id "$match")" ]; then
		warn="the diff changed since v$((n_rev - 1)) (${match##*/}): its carried trailers may no longer hold: $names"
	fi
fi
{
	echo "From: $from"
	echo "Subject: $subject"
	echo "Signed-off-by: $(printf '%s' "$sobs" | tr '\n' ';')"
	printf 'problem: %s\n' "${problems[@]}"
	[ -z "$warn" ] || echo "warning: $warn"
} >"$out/meta.log"
if [ "${#problems[@]}" -eq 0 ] && [ -n "$warn" ]; then
	verdict_write "$out/meta.verdict" WARN "${MBUS_INPUTS:?}" "signed off by the author, subject numbered $m/$n; $warn"
elif [ "${#problems[@]}" -eq 0 ]; then
	verdict_write "$out/meta.verdict" OK "${MBUS_INPUTS:?}" "signed off by the author, subject numbered $m/$n"
else
	verdict_write "$out/meta.verdict" FAIL "${MBUS_INPUTS:?}" "$(IFS=';'; echo "${problems[*]}")"
fi
