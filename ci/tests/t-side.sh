#!/bin/bash
# The stages that move a checkout without building (apply, cocci) do it in
# the side tree (ci/side-tree.sh): the base tree's HEAD and the modification
# time of a file the fixture revision changes are as before, while the
# revision's branch is made and its coccicheck runs. A side tree that does
# not belong to the base tree is made again.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 7

base=$(git -C "$T_TREE" rev-parse mbus-base)
vimc=drivers/media/test-drivers/vimc/vimc-core.c
c1=$(fixture_commit "$base" "media: vimc: fixture: side tree ($T_NONCE)" -- \
	"$vimc" '1a/* fixture '"$T_NONCE"' */')
# The base tree where the builds would have left it: at the fixture's
# commit, so that a checkout of the base in it would rewrite vimc-core.c.
git -C "$T_TREE" checkout -q -f --detach "$c1"
head=$(git -C "$T_TREE" rev-parse HEAD)
stamp=$(stat -c %y "$T_TREE/$vimc")

out=$(fixture_stage "$base" "$c1" ci/cocci.sh)
expect_match "apply and cocci of the fixture revision pass" "<== cocci v1 +OK" "${out:-}"
expect_eq "the revision's branch has the fixture's tree" "$(git -C "$T_TREE" rev-parse "$c1^{tree}")" \
	"$(git -C "$T_TREE" rev-parse -q --verify "test/v1^{tree}" || echo none)"
expect_eq "the base tree's HEAD did not move" "$head" "$(git -C "$T_TREE" rev-parse HEAD)"
expect_eq "the base tree's copy of a file of the revision was not rewritten" "$stamp" \
	"$(stat -c %y "$T_TREE/$vimc")"

# A side tree of another repository (as after the base tree is made again).
side=$(ci/side-tree.sh "$base" 2>/dev/null) || side=""
expect_eq "the side tree is a work tree of the base tree, at the base" \
	"$MBUS_CACHE/linux-side $base" "$side $(git -C "${side:-/nonexistent}" rev-parse HEAD 2>/dev/null)"
echo "gitdir: $T_TMP/nowhere" >"$side/.git"
out=$(ci/side-tree.sh "$base" 2>&1)
expect_match "a side tree of no repository is named and made again" \
	"linux-side is not a work tree of .*: made again" "$out"
expect_eq "... at the base, a work tree of the base tree again" \
	"$base $(git -C "$T_TREE" rev-parse --path-format=absolute --git-common-dir)" \
	"$(git -C "$side" rev-parse HEAD 2>/dev/null) $(git -C "$side" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)"
t_done
