#!/bin/bash
# Bad input gets a clear error naming the file and the cause, a non-zero
# exit, and no damage to the cached base tree or the committed files.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 22

base=$(git -C "$T_TREE" rev-parse mbus-base)
real_branches=$(git -C "$T_TREE" for-each-ref --format='%(refname) %(objectname)' refs/heads/rev)
committed=$(git -C "$T_TOP" status --porcelain -- series-v1 series-v2 cover-letter outgoing | sha256sum)

expect_fail "REV naming no revision is refused" "REV=v9: no such revision" \
	make -s check REV=v9
expect_fail "REV of a wrong form is refused" "REV=banana: a revision is named vN" \
	make -s check REV=banana

mkdir -p "$T_TMP/series/series-v1"
expect_fail "an empty revision is refused" "series-v1/: empty revision" \
	ws env REV=v1 ci/each-rev.sh check
expect_fail "with every revision empty, nothing is checked and that is an error" \
	"no revision has patches yet" ws ci/each-rev.sh check

# A real patch plus a stray file.
c1=$(fixture_commit "$base" "media: vimc: fixture: comment" -- \
	drivers/media/test-drivers/vimc/vimc-core.c '1a/* fixture */')
fixture_series "$T_TMP/series" v1 "$base" "$c1"
echo "notes" >"$T_TMP/series/series-v1/NOTES.txt"
expect_fail "a file that is not a patch is named" "series-v1/NOTES.txt: not a patch" \
	ws ci/each-rev.sh check
rm "$T_TMP/series/series-v1/NOTES.txt"
printf 'From: someone\nSubject: hello\n\nnot a patch\n' >"$T_TMP/series/series-v1/0002-fake.patch"
expect_fail "a *.patch that is not format-patch output is named" \
	"series-v1/0002-fake.patch: not git format-patch output" ws ci/each-rev.sh apply
rm "$T_TMP/series/series-v1/0002-fake.patch"

# A patch that does not apply: its context is not in the base.
bogus=$(fixture_commit "$base" "media: vimc: fixture: base" -- \
	drivers/media/test-drivers/vimc/vimc-core.c 's/Virtual Media Controller Driver/Imaginary Driver/')
c2=$(fixture_commit "$bogus" "media: vimc: fixture: does not apply" -- \
	drivers/media/test-drivers/vimc/vimc-core.c 's/Imaginary Driver/Imaginary Driver (changed)/')
git -C "$T_TREE" format-patch -q --start-number 2 -o "$T_TMP/series/series-v1" "$bogus..$c2" >/dev/null
git -C "$T_TREE" branch -f test/v1 "$base"
expect_fail "a patch that does not apply is named with its hunk" \
	"0002-media-vimc-fixture-does-not-apply.patch does not apply: error: patch failed: drivers/media/test-drivers/vimc/vimc-core.c" \
	ws ci/each-rev.sh apply
expect_eq "after a failed apply no git am is in progress, in any work tree" "no" \
	"$(compgen -G "$T_TREE/.git/rebase-apply" >/dev/null || compgen -G "$T_TREE/.git/worktrees/*/rebase-apply" >/dev/null && echo yes || echo no)"
expect_eq "after a failed apply the base commit is unchanged" "$base" \
	"$(git -C "$T_TREE" rev-parse mbus-base)"
expect_eq "after a failed apply the revision's old branch is unchanged" "$base" \
	"$(git -C "$T_TREE" rev-parse test/v1)"
expect_eq "after a failed apply the real revisions' branches are unchanged" "$real_branches" \
	"$(git -C "$T_TREE" for-each-ref --format='%(refname) %(objectname)' refs/heads/rev)"
# The tree's branch "base" is the base commit, after every revision's git am
# (HEAD is kept detached: no git am moves a branch).
expect_eq "the tree's branch base is still the base commit, HEAD detached in both work trees" \
	"$base detached detached" \
	"$(git -C "$T_TREE" rev-parse base) $(git -C "$T_TREE" symbolic-ref -q HEAD || echo detached) $(
		git -C "$T_TREE-side" symbolic-ref -q HEAD || echo detached)"
expect_eq "after a failed apply the work tree is clean and the side tree back at the base" "$base" \
	"$(git -C "$T_TREE" status --porcelain --untracked-files=no | head -n 3
	git -C "$T_TREE-side" rev-parse HEAD 2>&1)"

expect_fail "a missing kernel tarball is named" \
	"kernel tarball /nonexistent/linux-source-6.12.tar.xz: missing" \
	env KERNEL_TARBALL=/nonexistent/linux-source-6.12.tar.xz ci/tree.sh
expect_eq "a missing tarball leaves the cached base tree as it was" "$base" \
	"$(git -C "$T_TREE" rev-parse mbus-base)"

expect_fail "a cache that cannot be created is named" \
	"cache directory /dev/null/cache: cannot create it" \
	env MBUS_CACHE=/dev/null/cache ci/tree.sh
mkdir -p "$T_TMP/ro"
if unshare -m true 2>/dev/null; then
	expect_fail "a read-only cache directory is named" \
		"cache directory $T_TMP/ro/cache: (not writable|cannot create)" \
		unshare -m bash -c "mount --bind -o ro '$T_TMP/ro' '$T_TMP/ro' && MBUS_CACHE='$T_TMP/ro/cache' ci/tree.sh"
else
	notok "a read-only cache directory is named" "unshare -m is not available to make a read-only mount"
fi

# The package registry out of reach, and no guest userspace kept: the
# stage stops, naming what it could not fetch (and never falls back to the
# host's v4l-utils).
expect_fail "an unreachable package registry is named, with the packages" \
	"could not fetch Debian trixie \(amd64\) packages v4l-utils .* from http://127.0.0.1:9/debian" \
	env MBUS_STATE="$T_TMP/no-state" MBUS_DEBIAN_MIRROR=http://127.0.0.1:9/debian ci/guest-root.sh

# Two runs at once: a holder takes the real lock, the second run names it.
(MBUS_LOCK_WHAT="fixture holder $$" bash -c '. ci/lib.sh; take_lock; exec sleep 20') &
holder=$!
for _ in $(seq 50); do
	grep -q "fixture holder $$" "$MBUS_CACHE/lock.holder" 2>/dev/null && break
	sleep 0.1
done
expect_fail "a second run at the same time names the holder" \
	"another run holds .*lock: pid [0-9]+ .*fixture holder $$" make -s apply REV=v1
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

expect_eq "bad input left the committed files untouched" "$committed" \
	"$(git -C "$T_TOP" status --porcelain -- series-v1 series-v2 cover-letter outgoing | sha256sum)"
git -C "$T_TREE" branch -D -q test/v1 2>/dev/null
# A result that cannot be copied into the cache is not kept as done:
# cache_put fails, whatever errexit (callers run it in conditions).
got=$(MBUS_STATE="$T_TMP/state" bash -c '. ci/lib.sh; cache_put t-fixture k0 "$1" && echo kept; cache_has t-fixture k0 && echo done; :' _ "$T_TMP/no-such-dir" 2>&1)
expect_match "a copy into the cache that fails is refused, named" \
	"^error: cache_put t-fixture: $T_TMP/no-such-dir could not be kept" "$got"
expect_no_match "... and nothing is kept as done" "^(kept|done)$" "$got"
t_done
