#!/bin/bash
# Stage "apply": git am a revision's patches onto the base commit, on the
# branch rev/<rev> of the base tree, in its side tree (ci/side-tree.sh): the
# base tree's checkout is not moved. On failure: name the patch and the
# hunk, git am --abort, and leave the base commit and other branches as
# they were.
#
# usage: apply.sh REV
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: apply.sh REV}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
mapfile -t patches < <(revision_patches "$rev")
[ "${#patches[@]}" -gt 0 ] || exit 1
base=$(base_commit)
stage_begin "apply $rev"

inputs=$(input_hash "$rev")
# The commits are the same every time (fixed identity, dates and
# parents): each commit a git am gave is kept under the key of the
# patches up to it. A branch still at the kept tip of all of them is not
# made again; after an edit of patch i, git am starts from the kept commit
# of patches 1..i-1, if the tree still has it.
prefix_keys=() upto="" gitv=$(git --version)
for p in "${patches[@]}"; do
	upto=$(cat - "$p" <<<"$upto" | hash_text)
	cache_key_into k "$0" prefix "$base" "$upto" "$BASE_IDENT_NAME <$BASE_IDENT_EMAIL>" "$gitv"
	prefix_keys+=("$k")
done
# put_tip COMMIT: the tip, written at once (a stage beside reads it).
put_tip() {
	echo "$1" >"$MBUS_RESULTS/$rev/apply.tip.$$" &&
		mv -f "$MBUS_RESULTS/$rev/apply.tip.$$" "$MBUS_RESULTS/$rev/apply.tip"
}
start=$base n=0
for ((i = ${#patches[@]}; i > 0; i--)); do
	cache_has apply "${prefix_keys[$((i - 1))]}" || continue
	c=$(cat "$(cache_path apply "${prefix_keys[$((i - 1))]}")/tip") || continue
	git -C "$MBUS_TREE" cat-file -e "$c^{commit}" 2>/dev/null || continue
	start=$c n=$i
	break
done
if [ "$n" -eq "${#patches[@]}" ] &&
	[ "$(git -C "$MBUS_TREE" rev-parse -q --verify "$MBUS_BRANCH_PREFIX$rev" || true)" = "$start" ]; then
	mkdir -p "$MBUS_RESULTS/$rev"
	put_tip "$start"
	# (A log of an earlier apply that failed is not this one's.)
	rm -f "$MBUS_RESULTS/$rev/apply.log"
	verdict_write "$MBUS_RESULTS/$rev/apply.verdict" OK "$inputs" "$n patches on $(git -C "$MBUS_TREE" rev-parse --short=12 "$base")"
	stage_end OK "$n patches, branch $MBUS_BRANCH_PREFIX$rev at $(git -C "$MBUS_TREE" rev-parse --short=12 "$start") (kept)"
	exit 0
fi

# The branch is about to move: until this apply's own verdict, no stage
# (cocci may run beside check: ci/each-rev.sh) may take it for any
# patches' (rev_tip reads the verdict).
rm -f "$MBUS_RESULTS/$rev/apply.verdict"
# git am in the side tree (ci/side-tree.sh): the base tree's checkout, and
# so what its object directories last compiled, stays as it is. cocci
# uses the side tree too, and may run beside check (which runs this): each
# holds the side tree's lock while it uses it, this one until it ends.
exec 8>>"$MBUS_TREE-side.lock"
flock -n 8 || {
	info "  apply $rev: waiting for the side tree ($MBUS_TREE-side.lock)"
	flock 8 || die "apply $rev: the side tree's lock $MBUS_TREE-side.lock could not be taken"
}
side=$("$MBUS_TOP/ci/side-tree.sh" "$start") || die "apply $rev: no side tree"

log="$MBUS_RESULTS/$rev/apply.log"
mkdir -p "${log%/*}"
[ "$n" -eq 0 ] || info "  apply $rev: patches 1-$n kept (at $(git -C "$MBUS_TREE" rev-parse --short=12 "$start"))"
export GIT_COMMITTER_NAME="$BASE_IDENT_NAME" GIT_COMMITTER_EMAIL="$BASE_IDENT_EMAIL"
keep=$(mktemp -d)
trap 'rm -rf "$keep"' EXIT
for p in "${patches[@]:$n}"; do
	n=$((n + 1))
	# The committer date is fixed too, so that a revision's commits (and
	# so the tree and commit ids of its branch) are the same every time.
	if ! GIT_COMMITTER_DATE="@$((1700000000 + n)) +0000" \
		git -C "$side" am -q --keep-cr "$p" >"$log" 2>&1; then
		# git am prints "error: patch failed: FILE:LINE" for the hunk.
		where=$(grep -E '^error: (patch failed|.*: does not exist in index|.*: already exists)' "$log" | head -n 3 | tr '\n' ' ')
		"$MBUS_TOP/ci/side-tree.sh" "$base" >/dev/null || true
		verdict_write "$MBUS_RESULTS/$rev/apply.verdict" FAIL "$inputs" "${p##*/} does not apply"
		stage_end FAIL "series-$rev/${p##*/} does not apply: ${where:-see $log}"
		exit 1
	fi
	git -C "$side" rev-parse HEAD >"$keep/tip"
	cache_put apply "${prefix_keys[$((n - 1))]}" "$keep"
done
git -C "$side" branch -f -q "$MBUS_BRANCH_PREFIX$rev" HEAD
tip=$(git -C "$side" rev-parse HEAD)
put_tip "$tip"
verdict_write "$MBUS_RESULTS/$rev/apply.verdict" OK "$inputs" "$n patches on $(git -C "$MBUS_TREE" rev-parse --short=12 "$base")"
stage_end OK "$n patches, branch $MBUS_BRANCH_PREFIX$rev at $(git -C "$side" rev-parse --short=12 HEAD)"
