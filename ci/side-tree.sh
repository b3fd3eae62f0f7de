#!/bin/bash
# The side tree: a second work tree of the base tree ($MBUS_TREE-side, a
# git worktree sharing its commits and branches), where the stages that
# move a checkout but build nothing do their work: git am of a revision
# (apply, roundtrip), coccicheck with the base's scripts (cocci),
# get_maintainer.pl with the base's MAINTAINERS (maintainers) and the
# documentation's books (htmldocs, ci/htmldocs-book.sh).
#
# Why: kbuild rebuilds by modification time. Every checkout that goes
# from a revision to the base and back rewrites the files of the series,
# and then every object directory (the check build, ten build
# configurations, the boot kernels) recompiles whatever includes them,
# although their content is what it compiled before. In the base tree the
# checkout now only moves between the commits that are built.
#
# Checks COMMIT out there (detached, forced, no git am left in progress)
# and prints the side tree's path. A side tree that is missing, or that
# belongs to another repository (the base tree was made again), is made
# again (a worktree left locked by a killed "git worktree add" too).
#
# usage: side-tree.sh COMMIT
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
side=$MBUS_TREE-side
commit=$(git -C "$MBUS_TREE" rev-parse --verify -q "${1:?usage: side-tree.sh COMMIT}^{commit}") ||
	die "side-tree: no commit $1 in $MBUS_TREE"
common=$(git -C "$MBUS_TREE" rev-parse --path-format=absolute --git-common-dir) ||
	die "side-tree: $MBUS_TREE is not a git repository (make tree)"
if [ "$(git -C "$side" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$common" ]; then
	if [ -e "$side" ]; then
		info "side-tree: $side is not a work tree of $MBUS_TREE: made again" >&2
	else
		info "side-tree: making $side (a checkout of the base tree, once)" >&2
	fi
	rm -rf "$side"
	git -C "$MBUS_TREE" worktree unlock "$side" >/dev/null 2>&1 || true
	git -C "$MBUS_TREE" worktree prune
	git -C "$MBUS_TREE" worktree add -q -f --detach "$side" "$commit" >&2 ||
		die "side-tree: git worktree add $side failed"
fi
git -C "$side" am --abort >/dev/null 2>&1 || true
git -C "$side" checkout -q -f --detach "$commit" ||
	die "side-tree: cannot check $commit out in $side"
echo "$side"
