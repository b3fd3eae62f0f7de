#!/bin/bash
# Job "new-revision": start revision N+1 from revision N.
#   series-vN+1/   the patches of series-vN, renamed vN+1-*, their subjects
#                  [PATCH vN+1 m/n], with the trailers that 'make trailers'
#                  collected for vN added (git interpret-trailers)
#   cover-letter/vN+1  cover-letter/vN with a "Changes in vN+1" section
#                  that lists each review comment of vN as an item to
#                  answer; it says EDITME, so that the gate refuses to
#                  render it until a person has written the changes
# It refuses to touch a revision that exists, and writes nothing unless
# every file could be made. The trailers must be current for outgoing/vN
# (results/vN/trailers/postings.hash); without them it starts the revision
# with none, and says so.
#
# usage: new-revision.sh vN
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

from=${1:?usage: new-revision.sh vN (FROM=vN with make)}
[[ $from =~ ^v[0-9]+$ ]] || die "new-revision: FROM=$from: a revision is named vN"
n=${from#v}
next="v$((n + 1))"
dst="$MBUS_SERIES_DIR/series-$next"
cover_src="$MBUS_SERIES_DIR/cover-letter/$from"
cover_dst="$MBUS_SERIES_DIR/cover-letter/$next"
mapfile -t patches < <(revision_patches "$from")
[ "${#patches[@]}" -gt 0 ] || exit 1
[ -f "$cover_src" ] || die "new-revision: cover-letter/$from missing"
[ ! -e "$dst" ] || die "new-revision: series-$next exists: refusing to overwrite a revision"
[ ! -e "$cover_dst" ] || die "new-revision: cover-letter/$next exists: refusing to overwrite a revision"
stage_begin "new-revision $next from $from"

tr="$MBUS_RESULTS/$from/trailers"
posted="$MBUS_SERIES_DIR/outgoing/$from"
have_review=
if [ -f "$tr/postings.hash" ]; then
	if [ "$(postings_hash "$from")" = "$(cat "$tr/postings.hash")" ]; then
		have_review=1
	else
		die "new-revision: results/$from/trailers were collected for other postings than outgoing/$from (run make trailers REV=$from MBOX=... again)"
	fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/series"
carried=0
for p in "${patches[@]}"; do
	name=${p##*/}
	nnnn=$(sed -nE 's/^(v[0-9]+-)?([0-9]{4})-.*/\2/p' <<<"$name")
	[ -n "$nnnn" ] || die "new-revision: series-$from/$name: not named NNNN-*.patch or vN-NNNN-*.patch"
	new="$tmp/series/$next-${name#"$from"-}"
	# The subject's revision, on the first Subject line only.
	sed -E "0,/^Subject: \\[PATCH( $from)? /s//Subject: [PATCH $next /" "$p" >"$new"
	grep -q "^Subject: \\[PATCH $next " "$new" ||
		die "new-revision: series-$from/$name: no '[PATCH $from m/n]' subject to renumber"
	if [ -n "$have_review" ] && [ -s "$tr/$nnnn.trailers" ]; then
		# The trailers were given to posting NNNN: the same diff as this patch?
		post=$(compgen -G "$posted/$from-$nnnn-*.patch" | head -n 1)
		[ -n "$post" ] && [ "$(patch_id "$post")" = "$(patch_id "$p")" ] ||
			die "new-revision: series-$from/$name is not the patch posted as outgoing/$from/$nnnn: its trailers cannot be carried"
		args=()
		while IFS= read -r t; do args+=(--trailer "$t"); done <"$tr/$nnnn.trailers"
		git interpret-trailers --in-place --if-exists addIfDifferent "${args[@]}" "$new" ||
			die "new-revision: git interpret-trailers failed on $name"
		carried=$((carried + ${#args[@]} / 2))
	fi
done

# The cover letter: the "Changes in vN+1" section before vN's.
items="$tmp/items"
if [ -n "$have_review" ] && [ -s "$tr/review.txt" ]; then
	cp "$tr/review.txt" "$items"
else
	echo "- [ ] (no review of $from was collected: make trailers REV=$from MBOX=...)" >"$items"
fi
heading="Changes in $next"
awk -v h="$heading" -v prev="Changes in $from" -v items="$items" '
	function section() {
		print h; gsub(/./, "-", h); print h; print ""
		print "EDITME: say what changed, answering each review item of the previous"
		print "revision (then delete this line and the checklist):"
		while ((getline l < items) > 0) print l
		print ""
		done = 1
	}
	!done && $0 == prev { section() }
	{ print }
	END { if (!done) { print ""; section() } }
' "$cover_src" >"$tmp/cover"

mkdir -p "$MBUS_SERIES_DIR/cover-letter"
cp -r "$tmp/series" "$dst.tmp.$$"
mv "$dst.tmp.$$" "$dst"
cp "$tmp/cover" "$cover_dst"
stage_end OK "${#patches[@]} patches, $carried trailer(s) carried, $(wc -l <"$items") review item(s)"
cat <<EOF
Next:
  1. Edit the patches in series-$next/ (or rebuild them with git format-patch -v${next#v}
     from a branch) to answer the review; a patch whose diff changes keeps
     its trailers only if they still hold: the check stage warns about them.
  2. Write "$heading" in cover-letter/$next (it says EDITME until you do).
  3. make check boot REV=$next, then make render REV=$next.
EOF
