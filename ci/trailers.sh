#!/bin/bash
# Stage "trailers": the review a posting got, from a saved mbox of list
# replies to outgoing/REV (saved from a mail client, or by 'b4 mbox').
#   b4 am -t          collects the follow-up trailers (Reviewed-by, Acked-by,
#                     Tested-by, ...; those given to the cover letter go to
#                     every patch), as b4 does for a maintainer
#   ci/review.py      which reply answers which patch, the review comments
#                     (text that is neither quoted nor a trailer), and what
#                     is wrong with the input
# Results, in $MBUS_RESULTS/REV/trailers/ (nothing else is written):
#   NNNN.trailers     the trailers given to patch NNNN of REV
#   comments.tsv      patch, author, Message-ID, comment (one a line)
#   review.txt        the same as a checklist for the next revision
#   postings.hash     which postings they answer (new-revision.sh reads it)
#   trailers.verdict  OK, or WARN when messages were ignored
#
# usage: trailers.sh REV MBOX
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: trailers.sh REV MBOX} mbox=${2:?usage: trailers.sh REV MBOX (MBOX=file with make)}
[[ $rev =~ ^v[0-9]+$ ]] || die "trailers: REV=$rev: a revision is named vN"
posted="$MBUS_SERIES_DIR/outgoing/$rev"
compgen -G "$posted/$rev-0*.patch" >/dev/null || die "trailers: outgoing/$rev: no postings to read replies to"
[ -f "$mbox" ] || die "trailers: $mbox: no such file"
mbox=$(readlink -f "$mbox")
stage_begin "trailers $rev"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out="$tmp/trailers"
mkdir -p "$out"
python3 "$MBUS_TOP/ci/review.py" check "$posted" "$mbox" >"$out/warnings" 2>"$tmp/err" || {
	cat "$out/warnings"
	stage_end FAIL "$(tail -n 1 "$tmp/err")"
	die "trailers: $(sed 's/^error: //' "$tmp/err" | tail -n 1)"
}
sed 's/^/  /' "$out/warnings"

# b4 reads the postings and the replies as one thread, offline.
cat "$posted/$rev"-0*.patch "$mbox" >"$tmp/thread.mbox"
mkdir -p "$tmp/am"
if ! (cd "$tmp" && b4 --offline-mode am -C -t -v "${rev#v}" -m thread.mbox -o am) >"$tmp/b4.log" 2>&1; then
	sed 's/^/    /' "$tmp/b4.log" | tail -n 5
	stage_end FAIL "b4 am failed"
	die "trailers: b4 am of outgoing/$rev with $mbox failed"
fi
mbx=$(compgen -G "$tmp/am/*.mbx" | head -n 1)
[ -n "$mbx" ] || die "trailers: b4 am gave no series (log: $(tail -n 1 "$tmp/b4.log"))"

# trailers_of FILE: the trailers of one mail's commit message (git's own
# parser: git mailinfo, then git interpret-trailers --parse).
trailers_of() {
	local d
	d=$(mktemp -d "$tmp/mi.XXXXXX")
	git mailinfo -k "$d/msg" "$d/patch" <"$1" >/dev/null
	git interpret-trailers --parse <"$d/msg"
}
good='^[A-Z][A-Za-z-]*-by: [^<>@]+ <[^<>@[:space:]]+@[^<>@[:space:]]+\.[^<>@[:space:]]+>$'
mkdir -p "$tmp/split"
git mailsplit -o"$tmp/split" "$mbx" >/dev/null
total=0
for f in "$posted/$rev"-0*.patch; do
	name=${f##*/}
	nnnn=$(sed -E 's/^v[0-9]+-([0-9]{4})-.*/\1/' <<<"$name")
	[ "$nnnn" != 0000 ] || continue
	new="$tmp/split/$nnnn"
	[ -f "$new" ] || die "trailers: b4 am gave no patch $nnnn of outgoing/$rev"
	# b4's patch NNNN must be the posting NNNN (same diff), or the
	# trailers would go to the wrong patch.
	[ "$(patch_id "$f")" = "$(patch_id "$new")" ] ||
		die "trailers: b4 am's patch $nnnn is not $name of outgoing/$rev (another revision in $mbox?)"
	# The ones b4 added, in b4's order.
	awk 'NR == FNR { seen[$0] = 1; next } !seen[$0]++' <(trailers_of "$f") <(trailers_of "$new") |
		grep -E "$good" >"$out/$nnnn.trailers" || true
	total=$((total + $(wc -l <"$out/$nnnn.trailers")))
	while read -r t; do info "  patch $nnnn: $t"; done <"$out/$nnnn.trailers"
done

python3 "$MBUS_TOP/ci/review.py" comments "$posted" "$mbox" >"$out/comments.tsv" ||
	die "trailers: reading the comments of $mbox failed"
awk -F'\t' '{ printf "- [ ] %s: %s %s: %s\n", ($1 == 0 ? "cover letter" : "patch " $1), $2, $3, $4 }' \
	"$out/comments.tsv" >"$out/review.txt"
ncomments=$(wc -l <"$out/comments.tsv")
nwarn=$(wc -l <"$out/warnings")
postings_hash "$rev" >"$out/postings.hash"
inputs=$( { cat "$out/postings.hash"; cat "$mbox"; hash_files "$0" "$MBUS_TOP/ci/review.py"; } | hash_text)
reason="$total trailer(s), $ncomments comment(s) from $(basename "$mbox")"
if [ "$nwarn" -gt 0 ]; then
	verdict_write "$out/trailers.verdict" WARN "$inputs" "$reason; $nwarn message(s) ignored (warnings)"
else
	verdict_write "$out/trailers.verdict" OK "$inputs" "$reason"
fi
dest="$MBUS_RESULTS/$rev/trailers"
mkdir -p "$MBUS_RESULTS/$rev"
rm -rf "$dest.tmp.$$"
cp -r "$out" "$dest.tmp.$$"
rm -rf "$dest"
mv "$dest.tmp.$$" "$dest"
stage_end "$([ "$nwarn" -gt 0 ] && echo WARN || echo OK)" "$reason; in $dest"
