#!/bin/bash
# Stage "render": a revision as mails that git send-email and b4 accept, in
# outgoing/vN/. One job a script:
#   ci/gate.sh        may it be rendered (checks and boot passed for these
#                     bytes; the cover letter has no placeholder)?
#   this script       git format-patch --cover-letter with the cover letter
#                     of cover-letter/vN (first paragraph the subject, the
#                     rest the body, through the branch description; its
#                     marker lines filled in by ci/evidence.sh),
#                     --thread, --base, and for vN>1 --range-diff against
#                     v(N-1); the sender's identity in From/Signed-off-by
#   ci/recipients.sh  To/Cc per mail from get_maintainer.pl
#   ci/headers.sh     To/Cc, stable Message-IDs and Date, unfolded Subject
# The From/Signed-off-by identity is $MBUS_FROM (ci/lib.sh: the project's,
# MBUS_PROJECT_FROM, unless a person who sends sets theirs); every patch
# must then carry it.
#
# usage: render.sh REV [OUTDIR]     (default: outgoing/REV)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: render.sh REV [OUTDIR]}
out=${2:-$MBUS_TOP/outgoing/$rev}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
n=${rev#v}
cover="$MBUS_TOP/cover-letter/$rev"
mapfile -t patches < <(revision_patches "$rev")
[ "${#patches[@]}" -gt 0 ] || exit 1
stage_begin "render $rev"

"$MBUS_TOP/ci/gate.sh" "$rev" || { stage_end FAIL "refused"; exit 1; }

# --- the identity: every patch's From must match one of its Signed-off-by
from=$MBUS_FROM
project_from=$MBUS_PROJECT_FROM
tree="$MBUS_TREE"
base=$(base_commit)
tip=$(rev_tip "$rev")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; git -C "$tree" branch -D -q "post/$rev" 2>/dev/null || true' EXIT
git -C "$tree" branch -f -q "post/$rev" "$tip"
# The cover letter's marker lines (%%EVIDENCE%%, %%LINES%%) become what
# ci/evidence.sh reads from the results: no number of a posting is typed.
cp "$cover" "$tmp/description"
for part in evidence lines; do
	marker="%%${part^^}%%"
	grep -qxF "$marker" "$tmp/description" || continue
	"$MBUS_TOP/ci/evidence.sh" "$rev" "$part" >"$tmp/$part" ||
		die "render $rev: the $part of cover-letter/$rev could not be made from the results"
	awk -v m="$marker" -v f="$tmp/$part" '$0 == m { while ((getline l < f) > 0) print l; next } { print }' \
		"$tmp/description" >"$tmp/description.new"
	mv "$tmp/description.new" "$tmp/description"
done
# Everything the postings are made from; the postings it gave are kept,
# and outgoing/REV is not made again while they are what it holds.
scripts=("$MBUS_TOP"/ci/{recipients,headers,evidence,lib}.sh "$MBUS_TOP/ci/core-reviewers")
key=$(cache_key "$0" "$(input_hash "$rev")" "$(hash_text <"$tmp/description")" "$from" \
	"$(hash_files "${scripts[@]}")" "$(git --version)" "$tip" \
	"$(git -C "$tree" rev-parse "$base:MAINTAINERS" "$base:scripts/get_maintainer.pl")" \
	"$(if [ "$n" -gt 1 ]; then rev_tip "v$((n - 1))"; fi)")
if cache_get render "$key" "$tmp/kept"; then
	if ! diff -rq "$tmp/kept" "$out" >/dev/null 2>&1; then
		rm -rf "$out"
		mkdir -p "$out"
		cp "$tmp/kept"/*.patch "$out/"
	fi
	stage_end OK "$(find "$out" -name '*.patch' | wc -l) mails in ${out#"$MBUS_TOP"/} (kept)"
	exit 0
fi
git -C "$tree" config "branch.post/$rev.description" "$(cat "$tmp/description")"
args=(--cover-letter --cover-from-description=subject --thread=shallow
	--base="$base" --from="$from" --no-signature -o "$tmp")
[ "$n" -eq 1 ] || args+=(-v "$n")
if [ "$n" -gt 1 ]; then
	prev=$(rev_tip "v$((n - 1))")
	args+=(--range-diff="$base..$prev" --creation-factor=60)
fi
email=${from##*<}
email=${email%%>*}
GIT_COMMITTER_NAME="${from% <*}" GIT_COMMITTER_EMAIL=$email \
	git -C "$tree" format-patch -q "${args[@]}" "$base..post/$rev" >/dev/null

# A person's identity replaces the project's in From and Signed-off-by: the
# person becomes the author, so format-patch's in-body From: line of the
# project identity goes too.
if [ "$from" != "$project_from" ]; then
	for m in "$tmp"/*.patch; do
		awk -v pf="From: $project_from" '
			body == 1 && $0 == pf { body = 2; next }
			body == 2 && /^$/ { body = 3; next }
			body == 1 || body == 2 { body = 3 }
			!body && /^$/ { body = 1 }
			{ print }' "$m" >"$m.new"
		mv "$m.new" "$m"
	done
	sed -i "s|^Signed-off-by: $project_from\$|Signed-off-by: $from|" "$tmp"/*.patch
fi

# --- recipients and headers, per mail
mapfile -t mails < <(ls "$tmp"/*.patch)
"$MBUS_TOP/ci/recipients.sh" "$rev" "${mails[@]}"
"$MBUS_TOP/ci/headers.sh" "$tmp" "$rev" "${email#*@}"

# Every patch: a Signed-off-by of its From.
for m in "${mails[@]:1}"; do
	f=$(sed -n 's/^From: //p' "$m" | head -n 1)
	grep -qxF "Signed-off-by: $f" "$m" ||
		die "render $rev: ${m##*/}: From '$f' has no Signed-off-by: refusing the posting"
done

rm -rf "$out"
mkdir -p "$out"
cp "$tmp"/*.patch "$out/"
mkdir -p "$tmp/keep"
cp "$tmp"/*.patch "$tmp/keep/"
cache_put render "$key" "$tmp/keep"
stage_end OK "${#mails[@]} mails in ${out#"$MBUS_TOP"/}"
