#!/bin/bash
# The stages that move a checkout without building do it in the side tree
# (ci/side-tree.sh): apply and maintainers of a fixture revision leave the
# base tree's HEAD and the modification time of the file the revision
# changes as they were, while the revision's branch is made and
# get_maintainer.pl finds the file's section (cocci: t-cocci). A side tree
# that is not a work tree of its base tree, or whose worktree a killed
# "git worktree add" left locked, is made again (shown on a throwaway
# repository, not on the real cache).
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 9

base=$(git -C "$T_TREE" rev-parse mbus-base)
vimc=drivers/media/test-drivers/vimc/vimc-core.c
c1=$(fixture_commit "$base" "media: vimc: fixture: side tree ($T_NONCE)" -- \
	"$vimc" '1a/* fixture '"$T_NONCE"' */')
# The base tree where the builds would have left it: at the fixture's
# commit, so that a checkout of the base in it would rewrite vimc-core.c.
ws bash -c '. ci/lib.sh && take_lock t-side && tree_checkout "$1"' _ "$c1"
head=$(git -C "$T_TREE" rev-parse HEAD)
stamp=$(stat -c %y "$T_TREE/$vimc")

out=$(fixture_stage "$base" "$c1" true)
rc=$?
expect_eq "the fixture revision applies" "0" "$rc${out:+ $out}"
expect_eq "the revision's branch has the fixture's tree" "$(git -C "$T_TREE" rev-parse "$c1^{tree}")" \
	"$(git -C "$T_TREE" rev-parse -q --verify "test/v1^{tree}" || echo none)"
out=$(ws ci/maintainers.sh "$T_TMP/notes" 2>&1)
expect_match "maintainers of the fixture revision: get_maintainer.pl gives vimc-core.c's section" \
	"^      VIMC VIRTUAL MEDIA CONTROLLER DRIVER$" "$(cat "$T_TMP/notes" 2>/dev/null || echo "$out")"
expect_eq "the base tree's HEAD did not move" "$head" "$(git -C "$T_TREE" rev-parse HEAD)"
expect_eq "the base tree's copy of a file of the revision was not rewritten" "${stamp:-no stamp}" \
	"$(stat -c %y "$T_TREE/$vimc")"

# On a throwaway repository: the side tree is made, made again when it is
# no work tree of the repository, and when its worktree was left locked.
repo="$T_TMP/cache/linux"
mkdir -p "$repo"
git -C "$repo" init -q
echo one >"$repo/file"
git -C "$repo" add file
git -C "$repo" -c user.name=t -c user.email=t@t.invalid commit -q -m one
first=$(git -C "$repo" rev-parse HEAD)
side_of() {   # the side tree of the throwaway repository at COMMIT
	MBUS_CACHE="$T_TMP/cache" MBUS_TREE="$repo" MBUS_LOCKED='' ci/side-tree.sh "$1"
}
side=$(side_of "$first" 2>/dev/null) || side=""
expect_eq "the side tree is made beside the base tree, at the commit asked for" \
	"$repo-side $first" "${side:-none} $(git -C "${side:-/nonexistent}" rev-parse HEAD 2>/dev/null)"
if [ -n "$side" ]; then
	echo "gitdir: $T_TMP/nowhere" >"$side/.git"
	expect_match "a side tree of no repository is named and made again" \
		"linux-side is not a work tree of .*: made again" "$(side_of "$first" 2>&1)"
	expect_eq "... at the commit, a work tree of the base tree again" \
		"$first $(git -C "$repo" rev-parse --path-format=absolute --git-common-dir)" \
		"$(git -C "$side" rev-parse HEAD 2>/dev/null) $(git -C "$side" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)"
	git -C "$repo" worktree lock "$side"
	rm -rf "$side"
	side_of "$first" >/dev/null 2>&1
	expect_eq "a side tree whose worktree was left locked is made again" \
		"$first" "$(git -C "$side" rev-parse HEAD 2>&1)"
else
	for t in "a side tree of no repository is named and made again" \
		"... at the commit, a work tree of the base tree again" \
		"a side tree whose worktree was left locked is made again"; do
		notok "$t" "no side tree was made"
	done
fi
t_done
