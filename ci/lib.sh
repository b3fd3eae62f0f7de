# shellcheck shell=bash disable=SC2034
# Common definitions for the ci/ stages. Sourced, never run.
#
# The data contract between stages is the results directory of a revision:
#   $MBUS_RESULTS/<rev>/<NNNN>/<check>.log      full output of one check
#   $MBUS_RESULTS/<rev>/<NNNN>/<check>.verdict  one line: "OK|WARN|FAIL reason"
#   $MBUS_RESULTS/<rev>/<stage>.verdict         the same, per revision stage
# and the per-revision branch "rev/<rev>" in the base tree, made by apply.sh.

set -o errexit -o nounset -o pipefail

MBUS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MBUS_CACHE=${MBUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mbus-workspace}
MBUS_TREE=${MBUS_TREE:-$MBUS_CACHE/linux}
MBUS_BUILD=${MBUS_BUILD:-$MBUS_CACHE/build}
MBUS_BOOT_BUILD=${MBUS_BOOT_BUILD:-$MBUS_CACHE/build-boot}
MBUS_RESULTS=${MBUS_RESULTS:-$MBUS_CACHE/results}
MBUS_STATE=${MBUS_STATE:-$MBUS_CACHE/state}
# Where the series-v*/ directories are (the workspace's own tests point this
# at fixtures), and the prefix of the per-revision branches in the tree.
MBUS_SERIES_DIR=${MBUS_SERIES_DIR:-$MBUS_TOP}
MBUS_BRANCH_PREFIX=${MBUS_BRANCH_PREFIX:-rev/}
KERNEL_PKG=${KERNEL_PKG:-linux-source-6.12}
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/$KERNEL_PKG.tar.xz}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$MBUS_CACHE/ccache}

# The project identity: author and Signed-off-by of the series, From of the
# postings. Set here and only here; a person who sends overrides it with
# MBUS_FROM="Name <address>".
MBUS_FROM=${MBUS_FROM:-mbus-workspace <mbus-workspace@example.org>}

# The fixed identity of the base commit: the same package version gives the
# same commit id on every machine.
BASE_IDENT_NAME="mbus-workspace base"
BASE_IDENT_EMAIL="base@mbus-workspace.invalid"

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

info() {
	printf '%s\n' "$*"
}

# stage_begin NAME / stage_end VERDICT [REASON]: every stage prints its name,
# its verdict and its elapsed seconds.
stage_begin() {
	STAGE_NAME=$1
	STAGE_T0=$(date +%s.%N)
	printf '==> %s\n' "$STAGE_NAME"
}

stage_end() {
	local verdict=$1 reason=${2:-}
	local t1
	t1=$(date +%s.%N)
	printf '<== %-40s %-4s %6.1fs%s\n' "$STAGE_NAME" "$verdict" \
		"$(echo "$t1 - $STAGE_T0" | bc)" "${reason:+  ($reason)}"
}

# The revisions to act on: $REV if set (must exist), else every series-v*/
# directory in version order.
revisions() {
	if [ -n "${REV:-}" ]; then
		[[ $REV =~ ^v[0-9]+$ ]] ||
			die "REV=$REV: a revision is named vN (for example REV=v1)"
		[ -d "$MBUS_SERIES_DIR/series-$REV" ] ||
			die "REV=$REV: no such revision (series-$REV/ does not exist)"
		echo "$REV"
		return
	fi
	local d
	for d in "$MBUS_SERIES_DIR"/series-v*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		echo "${d##*/series-}"
	done | sort -V
}

# The patch files of a revision, validated: all non-hidden files must be
# git format-patch output, and there must be at least one.
revision_patches() {
	local rev=$1 dir="$MBUS_SERIES_DIR/series-$1" f n=0
	[ -d "$dir" ] || die "series-$rev/: no such revision"
	for f in "$dir"/*; do
		[ -e "$f" ] || continue
		case ${f##*/} in
		*.patch) ;;
		*) die "series-$rev/${f##*/}: not a patch (a revision holds only git format-patch files named *.patch)" ;;
		esac
		head -n 1 "$f" | grep -qE '^From [0-9a-f]{40} ' ||
			die "series-$rev/${f##*/}: not git format-patch output (the first line is not 'From <sha1> ...')"
		grep -q '^diff --git ' "$f" ||
			die "series-$rev/${f##*/}: no diff in it (a cover letter belongs in cover-letter/)"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "series-$rev/: empty revision (no *.patch files)"
	printf '%s\n' "$dir"/*.patch
}

# Does the revision have patches yet? (for the all-revisions mode)
revision_has_patches() {
	compgen -G "$MBUS_SERIES_DIR/series-$1/*.patch" >/dev/null
}

ensure_cache() {
	mkdir -p "$MBUS_CACHE" 2>/dev/null ||
		die "cache directory $MBUS_CACHE: cannot create it (set MBUS_CACHE to a writable directory)"
	local probe="$MBUS_CACHE/.write-probe.$$"
	: >"$probe" 2>/dev/null ||
		die "cache directory $MBUS_CACHE: not writable (set MBUS_CACHE to a writable directory)"
	rm -f "$probe"
}

# take_lock: one run at a time per cache. The holder is recorded so that a
# second run can name it.
take_lock() {
	ensure_cache
	local lock="$MBUS_CACHE/lock"
	exec 9>>"$lock"
	if ! flock -n 9; then
		die "another run holds $lock: $(cat "$lock.holder" 2>/dev/null || echo unknown)"
	fi
	echo "pid $$ ($(date -u +%FT%TZ)): ${MBUS_LOCK_WHAT:-$0 $*}" >"$lock.holder"
	export MBUS_LOCKED=1
}

# Base commit id of the tree, as recorded by tree.sh.
base_commit() {
	git -C "$MBUS_TREE" rev-parse --verify -q refs/tags/mbus-base ||
		die "base tree $MBUS_TREE: not set up (run 'make tree')"
}

write_verdict() {
	local file=$1 verdict=$2 reason=${3:-}
	printf '%s %s\n' "$verdict" "$reason" >"$file"
}

# Hash of files (content), for cache keys.
hash_files() {
	cat "$@" | sha256sum | cut -c1-16
}

# The commit message of a format-patch file: from the end of the mail
# headers to the first "---" line.
commit_message() {
	awk 'body && /^---$/ { exit } body { print } !body && /^$/ { body = 1 }' "$1"
}

# The inputs of a revision's results: its patch bytes and the base. check.sh
# and boot.sh record it; render.sh renders only what passed for the same.
input_hash() {
	{
		base_commit
		cat "$MBUS_SERIES_DIR/series-$1"/*.patch
	} | sha256sum | cut -c1-16
}
