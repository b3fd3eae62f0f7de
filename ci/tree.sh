#!/bin/bash
# Stage "tree": extract Debian's linux-source-6.12 into the cache and make it a
# git repository whose base commit is the same on every machine for the same
# package version. Reused while the package version is unchanged.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
stage_begin "tree"

[ -f "$KERNEL_TARBALL" ] ||
	die "kernel tarball $KERNEL_TARBALL: missing (install $KERNEL_PKG: make deps)"
version=$(dpkg-query -W -f='${Version}' "$KERNEL_PKG" 2>/dev/null) ||
	die "$KERNEL_PKG: package not installed (make deps)"
# The date of the package's own changelog entry makes the commit date.
changelog=/usr/share/doc/$KERNEL_PKG/changelog.Debian.gz
date=$(zcat "$changelog" 2>/dev/null | sed -n '0,/^ -- /s/^ -- .*>  //p')
[ -n "$date" ] || die "$changelog: cannot read the package date"
stamp="$KERNEL_PKG $version $(stat -c %s "$KERNEL_TARBALL")"

if [ -f "$MBUS_TREE/.git/mbus-base-stamp" ] &&
	[ "$(cat "$MBUS_TREE/.git/mbus-base-stamp")" = "$stamp" ] &&
	git -C "$MBUS_TREE" rev-parse -q --verify refs/tags/mbus-base >/dev/null; then
	# A tree made before HEAD was kept detached may have had its branch
	# "base" moved by git am: put it back at the base commit.
	if [ "$(git -C "$MBUS_TREE" rev-parse -q --verify refs/heads/base)" != \
		"$(git -C "$MBUS_TREE" rev-parse mbus-base)" ]; then
		git -C "$MBUS_TREE" symbolic-ref -q HEAD >/dev/null &&
			git -C "$MBUS_TREE" checkout -q --detach
		git -C "$MBUS_TREE" branch -f base mbus-base
	fi
	stage_end OK "reused: $stamp, base $(git -C "$MBUS_TREE" rev-parse --short=12 mbus-base)"
	exit 0
fi

if [ -e "$MBUS_TREE" ]; then
	info "tree: $MBUS_TREE was made from '$(cat "$MBUS_TREE/.git/mbus-base-stamp" 2>/dev/null || echo unknown)'; rebuilding for '$stamp'"
fi
ensure_cache
tmp="$MBUS_TREE.new.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
info "tree: extracting $KERNEL_TARBALL"
tar -xJf "$KERNEL_TARBALL" -C "$tmp" --strip-components=1 ||
	die "kernel tarball $KERNEL_TARBALL: extraction failed"

info "tree: committing the base (git add of ~90k files)"
(
	cd "$tmp" || exit 1
	git init -q -b base
	git config core.autocrlf false
	git config core.fileMode true
	git config gc.auto 0
	git config am.threeWay false
	# Debian's .gitignore ignores everything at the top level: add by force.
	git add -A -f .
	export GIT_AUTHOR_NAME="$BASE_IDENT_NAME" GIT_AUTHOR_EMAIL="$BASE_IDENT_EMAIL"
	export GIT_COMMITTER_NAME="$BASE_IDENT_NAME" GIT_COMMITTER_EMAIL="$BASE_IDENT_EMAIL"
	export GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date"
	git commit -q --no-verify --no-gpg-sign -m "Debian $KERNEL_PKG $version" \
		-m "Imported from $KERNEL_TARBALL of package $KERNEL_PKG version $version."
	git tag mbus-base
	# Detached, so that no git am of a revision moves the branch "base".
	git checkout -q --detach
	echo "$stamp" >.git/mbus-base-stamp
)
rm -rf "$MBUS_TREE"
mv "$tmp" "$MBUS_TREE"
trap - EXIT
# The object directories and cached results belong to the old base.
rm -rf "$MBUS_BUILD" "$MBUS_CACHE/config-base" "$MBUS_STATE"
stage_end OK "made: $stamp, base $(git -C "$MBUS_TREE" rev-parse --short=12 mbus-base)"
