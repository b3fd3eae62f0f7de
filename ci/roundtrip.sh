#!/bin/bash
# Stage "roundtrip": what a maintainer does with a posting, offline. The
# rendered mails of outgoing/REV become one mbox; b4 am -m makes it
# am-ready; git am applies it onto the base commit; the resulting tree must
# be the tree of the revision's branch from the check stage (same tree id).
# With a previous revision rendered too, b4 diff -m between the two am-ready
# mboxes is kept beside the postings (outgoing/b4-diff-vN-1-vN.txt).
#
# usage: roundtrip.sh REV
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: roundtrip.sh REV}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
n=${rev#v}
posted="$MBUS_TOP/outgoing/$rev"
compgen -G "$posted/*.patch" >/dev/null || die "roundtrip $rev: outgoing/$rev has no postings (make render REV=$rev)"
res="$MBUS_RESULTS/$rev/roundtrip"
rm -rf "$res"
mkdir -p "$res"
stage_begin "roundtrip $rev"
inputs=$(cache_key "$0" "$(input_hash "$rev")" "$(hash_files "$posted"/*.patch)")

# The same postings, the same previous revision's postings and the same
# checked tree give the same round trip: it is kept (with the b4 diff it
# wrote) and not made again.
prevposted="$MBUS_TOP/outgoing/v$((n - 1))"
want=$(git -C "$MBUS_TREE" rev-parse "$(rev_tip "$rev")^{tree}")
kept_key=$(cache_key "$0" "$inputs" "$want" "$(b4 --version 2>&1 | head -n 1)" "$(git --version)" \
	"$(if [ "$n" -gt 1 ] && compgen -G "$prevposted/*.patch" >/dev/null; then hash_files "$prevposted"/*.patch; fi)")
if cache_get roundtrip "$kept_key" "$res"; then
	read -r v r < <(verdict_read "$res/roundtrip.verdict" "$inputs")
	if [ -f "$res/b4-diff.txt" ]; then
		cmp -s "$res/b4-diff.txt" "$MBUS_TOP/outgoing/b4-diff-v$((n - 1))-v$n.txt" ||
			cp "$res/b4-diff.txt" "$MBUS_TOP/outgoing/b4-diff-v$((n - 1))-v$n.txt"
	fi
	stage_end "$v" "$r (kept)"
	verdict_passes "$v"
	exit
fi

# b4 keeps its cache and reads its configuration from the home directory:
# give it its own, so nothing of the user's (or the network) is involved.
export HOME="$res/home" XDG_CACHE_HOME="$res/home/.cache" XDG_CONFIG_HOME="$res/home/.config"
mkdir -p "$HOME"
git config --global user.name "mbus-workspace maintainer"
git config --global user.email maintainer@example.org

cat "$posted"/*.patch >"$res/posted.mbx"
if ! (cd "$MBUS_TREE" && b4 -n --offline-mode am -C -m "$res/posted.mbx" -o "$res" -n am) >"$res/b4-am.log" 2>&1; then
	verdict_write "$res/roundtrip.verdict" FAIL "$inputs" "b4 am failed: $(tail -n 1 "$res/b4-am.log")"
	stage_end FAIL "b4 am failed (see $res/b4-am.log)"
	exit 1
fi
am="$res/am.mbx"
[ -s "$am" ] || { verdict_write "$res/roundtrip.verdict" FAIL "$inputs" "b4 am made no am-ready mbox"; stage_end FAIL; exit 1; }
# b4 invents no trailers: the am-ready patches carry what the postings carry.
if grep -E '^(Reviewed|Acked|Tested)-by:' "$am" | grep -qvxF -f <(grep -hE '^(Reviewed|Acked|Tested)-by:' "$posted"/*.patch || true); then
	verdict_write "$res/roundtrip.verdict" FAIL "$inputs" "b4 am added trailers that the postings do not have"
	stage_end FAIL
	exit 1
fi

base=$(base_commit)
# git am in the side tree (ci/side-tree.sh): the base tree's checkout stays
# where the builds left it.
stree=$("$MBUS_TOP/ci/side-tree.sh" "$base") || die "roundtrip $rev: no side tree"
if ! git -C "$stree" am -q "$am" >"$res/git-am.log" 2>&1; then
	"$MBUS_TOP/ci/side-tree.sh" "$base" >/dev/null || true
	verdict_write "$res/roundtrip.verdict" FAIL "$inputs" "git am of b4's mbox failed: $(head -n 1 "$res/git-am.log")"
	stage_end FAIL "git am failed"
	exit 1
fi
got=$(git -C "$stree" rev-parse "HEAD^{tree}")
count=$(git -C "$stree" rev-list --count "$base..HEAD")
if [ "$got" != "$want" ]; then
	verdict_write "$res/roundtrip.verdict" FAIL "$inputs" "tree $got after git am, but the checked branch has $want"
	stage_end FAIL "different tree"
	exit 1
fi

if [ "$n" -gt 1 ] && compgen -G "$MBUS_TOP/outgoing/v$((n - 1))/*.patch" >/dev/null; then
	prev="$MBUS_RESULTS/v$((n - 1))/roundtrip/am.mbx"
	if [ -s "$prev" ]; then
		(cd "$MBUS_TREE" && b4 -n --offline-mode diff -C -g "$MBUS_TREE" -m "$prev" "$am" \
			-o "$MBUS_TOP/outgoing/b4-diff-v$((n - 1))-v$n.txt") >"$res/b4-diff.log" 2>&1 ||
			die "roundtrip $rev: b4 diff failed: $(tail -n 1 "$res/b4-diff.log")"
		# The ids of the commits b4 makes for the diff change with every run
		# (they carry the time): leave them out, so the kept file is stable.
		# (Either side may be missing: "-:  -------"; the numbers are
		# right-aligned to the widest.)
		sed -i -E 's/^( *[0-9-]+:  )([0-9a-f]{7,}|-+)( . +[0-9-]+:  )([0-9a-f]{7,}|-+) /\1-------\3------- /' \
			"$MBUS_TOP/outgoing/b4-diff-v$((n - 1))-v$n.txt"
		cp "$MBUS_TOP/outgoing/b4-diff-v$((n - 1))-v$n.txt" "$res/b4-diff.txt"
	fi
fi
verdict_write "$res/roundtrip.verdict" OK "$inputs" "$count patches: b4 am + git am give tree ${got:0:12}, the checked tree"
# (b4's home directory is not kept: it is b4's scratch space.)
keep=$(mktemp -d)
cp -a "$res/." "$keep/"
rm -rf "${keep:?}/home"
cache_put roundtrip "$kept_key" "$keep"
rm -rf "$keep"
stage_end OK "$count patches, tree ${got:0:12} = $MBUS_BRANCH_PREFIX$rev"
