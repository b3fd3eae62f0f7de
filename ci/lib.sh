# shellcheck shell=bash disable=SC2034
# Common definitions for the ci/ stages. Sourced, never run.
#
# The results directory, $MBUS_RESULTS, is the one data contract between
# the stages. What each stage makes there (and nothing else is read):
#   <rev>/apply.{log,verdict}                  apply.sh
#   <rev>/base.warnings                        check.sh: the base's W=1/sparse set
#   <rev>/<NNNN>/<check>.verdict, <check>.log  check.sh, one per PATCH_CHECKS
#   <rev>/<NNNN>/{build.warnings,warnings,kernel-doc.*}
#   <rev>/reference/                           check.sh: the reference build's verdict and log
#   <rev>/check.verdict                        check.sh, the revision's summary
#   <rev>/apply.tip                            apply.sh: the commit the patches gave
#   base/boot/, <rev>/boot/                    boot.sh: console.log, step-seconds,
#       <check>.verdict one per BOOT_CHECKS (judge.py), boot.verdict, compliance.*,
#       mbus.failing, splats.*, judge.{out,err}, key, guest-seconds,
#       kernel.config (the .config the kernel was built with)
#   <rev>/kunit/kunit.verdict                  kunit.sh
#   <rev>/pxa/pxa.verdict, <rev>/pxa-compare.out  pxa-compare.sh (run by test.sh)
#   <rev>/send-dry-run.log                     send.sh
#   <rev>/roundtrip/roundtrip.verdict          roundtrip.sh
#   tests/                                     ci/test.sh: each test script's KTAP log,
#                                              and the consoles of the tests' fixture guests
#   stage-times                                stage_end: seconds, verdict, name, end
#                                              (seconds since the epoch) a line
# A verdict file is one line, written and read only through verdict_write
# and verdict_get (verdict_read) below:
#   OK|WARN|FAIL <inputs> <reason>
# where <inputs> is the key of everything the verdict was made from
# (patch_inputs, boot_inputs, rev_inputs). A verdict whose inputs are not
# the current ones is never counted: verdict_read reports it STALE.
#
# The cache, $MBUS_STATE, is written only through cache_put (a temporary
# name, then mv) and read through cache_get, keyed by cache_key: the
# inputs, the producing script and the toolchain.

set -o errexit -o nounset -o pipefail

MBUS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MBUS_CACHE=${MBUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mbus-workspace}
MBUS_TREE=${MBUS_TREE:-$MBUS_CACHE/linux}
export MBUS_TREE
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
readonly MBUS_PROJECT_FROM="mbus-workspace <mbus-workspace@example.org>"
MBUS_FROM=${MBUS_FROM:-$MBUS_PROJECT_FROM}
# The series' b4 change-id: the same in every revision's cover letter (and
# at the head of every Message-ID), so that b4 and a reviewer can link the
# revisions of this series.
readonly MBUS_CHANGE_ID="20261203-media-bus-format-descriptors-4f1d9c2e7a60"

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
	local secs
	secs=$(echo "$t1 - $STAGE_T0" | bc)
	printf '<== %-40s %-4s %6.1fs%s\n' "$STAGE_NAME" "$verdict" "$secs" "${reason:+  ($reason)}"
	# The stages' times, for the benchmark: seconds, verdict, name, and
	# when it ended (stages may run side by side: ci/each-rev.sh).
	if mkdir -p "$MBUS_RESULTS" 2>/dev/null; then
		printf '%s\t%s\t%s\t%s\n' "$secs" "$verdict" "$STAGE_NAME" "$t1" >>"$MBUS_RESULTS/stage-times" 2>/dev/null || true
	fi
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

# The commit message of a format-patch file: from the end of the mail
# headers to the first "---" line.
commit_message() {
	awk 'body && /^---$/ { exit } body { print } !body && /^$/ { body = 1 }' "$1"
}

# --- the registry of checks (ci/checks)
# (Read with the shell's own read: every script starts by reading it.)
PATCH_CHECKS=() BOOT_CHECKS=()
declare -gA CHECK_SCRIPT=()
while read -r _kind _name _script _ || [ -n "${_kind:-}" ]; do
	case $_kind in
	patch)
		PATCH_CHECKS+=("$_name")
		CHECK_SCRIPT[$_name]=$_script
		;;
	boot) BOOT_CHECKS+=("$_name") ;;
	esac
done <"$MBUS_TOP/ci/checks"
# The script that makes a patch check's verdict.
check_script() {
	echo "${CHECK_SCRIPT[$1]:-}"
}

# --- verdicts: the one format, one writer, one reader
# verdict_write FILE VERDICT INPUTS REASON
verdict_write() {
	local file=$1 verdict=$2 inputs=$3 reason=${4:-}
	case $verdict in OK | WARN | FAIL) ;; *) die "verdict_write $file: '$verdict' is not OK, WARN or FAIL" ;; esac
	[[ $inputs =~ ^[0-9a-f]{16}$ ]] || die "verdict_write $file: inputs '$inputs' is not a key"
	printf '%s %s %s\n' "$verdict" "$inputs" "${reason//$'\n'/ }" >"$file.tmp.$$"
	mv -f "$file.tmp.$$" "$file"
}

# verdict_get FILE [INPUTS]: reads a verdict into $verdict_v and
# $verdict_r, without a subshell (the matrix and builds read hundreds). A
# missing or malformed file reads as MISSING, one made from other inputs
# than INPUTS as STALE; only OK and WARN pass (verdict_passes).
verdict_v='' verdict_r=''
verdict_get() {
	local file=$1 want=${2:-} inputs
	verdict_v=MISSING verdict_r=
	if [ ! -f "$file" ]; then
		verdict_r="no verdict (${file#"$MBUS_RESULTS"/} was not made)"
		return 0
	fi
	read -r verdict_v inputs verdict_r <"$file" || true
	case $verdict_v in
	OK | WARN | FAIL) ;;
	*)
		verdict_v=MISSING verdict_r="${file#"$MBUS_RESULTS"/} is not a verdict"
		return 0
		;;
	esac
	if [ -n "$want" ] && [ "$inputs" != "$want" ]; then
		verdict_r="made from other inputs ($inputs, now $want): $verdict_v $verdict_r"
		verdict_v=STALE
	fi
}
# verdict_read FILE [INPUTS]: prints "VERDICT REASON" (verdict_get's).
verdict_read() {
	local verdict_v verdict_r
	verdict_get "$@"
	echo "$verdict_v $verdict_r"
}
verdict_passes() {
	case $1 in OK | WARN) return 0 ;; *) return 1 ;; esac
}

# --- keys of inputs
# Hash of files (content), for cache keys.
hash_files() {
	cat "$@" | sha256sum | cut -c1-16
}
hash_text() {
	sha256sum | cut -c1-16
}
# What built a result: compiler, sparse, and QEMU, the one host tool the
# guest runs on (its userspace is Debian 13's, in the boot inputs through
# ci/guest-root.sh's versions). Computed by every script itself (never
# taken from the environment).
mbus_toolchain_id=$( {
	gcc --version 2>/dev/null | head -n 1
	sparse --version 2>&1 || true
	dpkg-query -W -f '${Package} ${Version}\n' qemu-system-x86 2>/dev/null || true
} | sha256sum | cut -c1-16)
toolchain_id() {
	echo "$mbus_toolchain_id"
}

# The scripts and data a stage's verdicts depend on. A script that asks
# for it once a patch (ci/check.sh, ci/matrix.sh) sets
# mbus_check_scripts_hash=$(check_scripts_hash) first; never taken from
# the environment.
mbus_check_scripts_hash=''
check_scripts_hash() {
	local s check_files=()
	if [ -n "$mbus_check_scripts_hash" ]; then
		echo "$mbus_check_scripts_hash"
		return
	fi
	for s in "${PATCH_CHECKS[@]}"; do check_files+=("$MBUS_TOP/${CHECK_SCRIPT[$s]}"); done
	hash_files "$MBUS_TOP"/ci/{lib,check,config}.sh "$MBUS_TOP"/ci/{checks,upstream-commits,kernel.config} "${check_files[@]}"
}
boot_scripts_hash() {
	hash_files "$MBUS_TOP"/ci/{lib,boot,kernel,config,guest-root,initramfs,qemu,judge}.sh \
		"$MBUS_TOP"/ci/{judge,ktap}.py "$MBUS_TOP"/ci/guest/* \
		"$MBUS_TOP"/ci/{checks,kernel.config,debug.config,known-splats,known-failures}
}

# The inputs of a revision: its patch bytes and the base.
input_hash() {
	{
		base_commit
		cat "$MBUS_SERIES_DIR/series-$1"/*.patch
	} | hash_text
}
# patch_inputs REV I: the inputs of the checks of patch I of REV: the base,
# the toolchain, the checks' scripts, and patches 1..I (their position in
# a revision of N patches included: meta checks it).
patch_inputs() {
	local rev=$1 i=$2 patch_files n
	mapfile -t patch_files < <(printf '%s\n' "$MBUS_SERIES_DIR/series-$rev"/*.patch)
	n=${#patch_files[@]}
	{
		base_commit
		toolchain_id
		check_scripts_hash
		echo "$rev $i/$n"
		cat "${patch_files[@]:0:$i}"
		# meta compares carried trailers with the previous revision.
		[ "${rev#v}" -le 1 ] || cat "$MBUS_SERIES_DIR/series-v$((${rev#v} - 1))"/*.patch 2>/dev/null || true
	} | hash_text
}
# rev_inputs REV: the inputs of a revision's check summary (all its patches).
rev_inputs() {
	local n
	n=$(compgen -G "$MBUS_SERIES_DIR/series-$1/*.patch" | wc -l)
	patch_inputs "$1" "$n"
}
# boot_inputs NAME: the inputs of the boot of the base (NAME=base) or of a
# revision: the base, the boot scripts, the guest's files and tools, and
# for a revision its patches and the base's boot inputs.
boot_inputs() {
	{
		base_commit
		toolchain_id
		boot_scripts_hash
		# What the person may set that changes what the guest does.
		echo "append=${MBUS_GUEST_APPEND:-} timeout=${MBUS_GUEST_TIMEOUT:-} kvm=${MBUS_KVM:-auto} mem=${MBUS_GUEST_MEM:-}"
		# The guest's userspace: the exact Debian 13 versions it holds.
		cat "$("$MBUS_TOP/ci/guest-root.sh" --peek 2>/dev/null)/versions" 2>/dev/null || echo "no guest root"
		echo "$1"
		[ "$1" = base ] || {
			boot_inputs base
			input_hash "$1"
			# A known failure counts only while the revision is posted.
			if posted "$1"; then echo posted; fi
		}
	} | hash_text
}

# pxa_inputs REV: the inputs of the pxa_camera comparison of a revision.
pxa_inputs() {
	cache_key "$MBUS_TOP/ci/pxa-compare.sh" "$(input_hash "$1")"
}

# csi2_inputs REV: the inputs of the CSI-2 receivers' comparison.
csi2_inputs() {
	cache_key "$MBUS_TOP/ci/csi2-compare.sh" "$(input_hash "$1")"
}

# core_reviewers REV PATCH: one "ADDRESS|REASON" line for each entry of
# ci/core-reviewers that applies to PATCH, a patch of revision REV (the
# entry's revision or a later one, a touched file matching its FILES).
# A malformed entry or regular expression dies, naming its line.
core_reviewers() {
	local rev=${1#v} patch=$2 files n=0 line from addr re reason rest rc
	files=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$patch")
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in '#'* | '') continue ;; esac
		# The fields are separated by " | " (FILES may hold "|" itself).
		from=${line%% | *} rest=${line#* | }
		addr=${rest%% | *} rest=${rest#* | }
		re=${rest%% | *} reason=${rest#* | }
		[ "$reason" != "$rest" ] || reason=
		from=$(trim "$from") addr=$(trim "$addr") re=$(trim "$re") reason=$(trim "$reason")
		[[ $from =~ ^v[0-9]+$ && $addr =~ ^[^\<\>]+\ \<[^@\ ]+@[^\ ]+\>$ && -n $re && -n $reason ]] ||
			die "ci/core-reviewers:$n: not 'vN | Name <address> | FILES | REASON': $line"
		rc=0
		grep -qE -- "$re" </dev/null || rc=$?
		[ "$rc" -le 1 ] ||
			die "ci/core-reviewers:$n: FILES is not an extended regular expression: $re"
		[ "$rev" -ge "${from#v}" ] || continue
		! grep -qE -- "$re" <<<"$files" || echo "$addr|$reason"
	done <"${MBUS_CORE_REVIEWERS:-$MBUS_TOP/ci/core-reviewers}"
}

# trim TEXT: TEXT without its leading and trailing blanks.
trim() {
	local s=$1
	s=${s#"${s%%[![:space:]]*}"}
	printf '%s' "${s%"${s##*[![:space:]]}"}"
}

# patch_id FILE: git's stable patch-id of a patch's diff (the same for a
# patch whatever its message, trailers or revision number).
patch_id() {
	git patch-id --stable <"$1" | cut -d' ' -f1
}
# postings_hash REV: the content of outgoing/REV's mails.
postings_hash() {
	cat "$MBUS_SERIES_DIR/outgoing/$1/$1"-0*.patch 2>/dev/null | hash_text
}
# posted REV: outgoing/REV is committed (the revision was sent).
posted() {
	git -C "$MBUS_SERIES_DIR" ls-files --error-unmatch -- "outgoing/$1" >/dev/null 2>&1
}
# known_entries REV: the entries of ci/known-failures (MBUS_KNOWN_FAILURES)
# for REV, one a line: "CHECK<TAB>REGEX<TAB>WHY<TAB>LINE". An entry without
# a pattern or a reason is still listed (it covers nothing: XPASS); a line
# without "| why" stops the run, naming it.
known_entries() {
	local file=${MBUS_KNOWN_FAILURES:-$MBUS_TOP/ci/known-failures} n=0 line r c1 c2 re why
	[ -f "$file" ] || return 0
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in '#'* | '') continue ;; esac
		why=${line#*|}
		[ "$why" != "$line" ] || die "$file:$n: no '| why' in the entry"
		read -r r c1 c2 re <<<"${line%%|*}"
		[ "$r" = "$1" ] || continue
		re=${re%"${re##*[![:space:]]}"}
		why=${why# }
		printf '%s %s\t%s\t%s\t%s\n' "$c1" "$c2" "$re" "$why" "$file:$n"
	done <"$file"
}
# known_failures_of REV: the "boot CHECK" of every entry of REV, a line each.
known_failures_of() {
	known_entries "$1" | cut -f1
}
# known_failure REV "boot CHECK" REASON: if an entry lists this failure of
# a posted revision, print why and return 0; otherwise return 1. An entry
# with no pattern or no reason covers nothing (an empty pattern would match
# any failure of the check); a bad pattern stops the run, naming the line.
known_failure() {
	local chk re why at rc
	posted "$1" || return 1
	while IFS=$'\t' read -r chk re why at; do
		[ "$chk" = "$2" ] && [ -n "$re" ] && [ -n "${why// /}" ] || continue
		rc=0
		grep -qE -- "$re" <<<"$3" 2>/dev/null || rc=$?
		[ "$rc" -ne 2 ] || die "$at: not an extended regular expression: $re"
		if [ "$rc" -eq 0 ]; then
			echo "$why"
			return 0
		fi
	done < <(known_entries "$1")
	return 1
}

# rev_tip REV: the commit of branch rev/REV, if it is what the current
# patches of REV give (apply.verdict current, apply.tip the branch); dies
# otherwise, naming what to run.
rev_tip() {
	local tip v
	tip=$(git -C "$MBUS_TREE" rev-parse --verify -q "$MBUS_BRANCH_PREFIX$1") ||
		die "$1: no branch $MBUS_BRANCH_PREFIX$1 (run make apply REV=$1)"
	read -r v _ < <(verdict_read "$MBUS_RESULTS/$1/apply.verdict" "$(input_hash "$1")")
	[ "$v" = OK ] && [ "$(cat "$MBUS_RESULTS/$1/apply.tip" 2>/dev/null)" = "$tip" ] ||
		die "$1: branch $MBUS_BRANCH_PREFIX$1 is not what the current patches give (run make apply REV=$1)"
	echo "$tip"
}

# --- the cache: one helper for every stage that keeps results
# The content hash of each script of ci/, by its path: made once when a
# script starts (one sha256sum for all), so that cache_key need not hash
# its producer again for each of the hundreds of keys a stage makes. A
# producer not in it (another file) is hashed when asked for.
declare -gA mbus_script_hash=()
while read -r _h _f; do
	mbus_script_hash[$_f]=${_h:0:16}
done < <(sha256sum "$MBUS_TOP"/ci/*.sh "$MBUS_TOP"/ci/*.py 2>/dev/null)
# cache_key_into VAR PRODUCER PART...: into VAR, a key from the inputs
# (PARTs), the producing script's content and the toolchain; one process.
cache_key_into() {
	local -n _ck_var=$1
	local _ck_path=$2 _ck_h _ck_parts
	[[ $_ck_path == /* ]] || _ck_path=$PWD/$_ck_path
	_ck_h=${mbus_script_hash[$_ck_path]:-}
	[ -n "$_ck_h" ] || _ck_h=$(hash_files "$2")
	printf -v _ck_parts '%s\n' "${@:3}"
	# (The same bytes as hash_files, toolchain_id and the PARTs, one a
	# line, piped to hash_text: the here-string adds the last newline.)
	_ck_h=$(sha256sum <<<"$_ck_h"$'\n'"$mbus_toolchain_id"$'\n'"${_ck_parts%$'\n'}")
	_ck_var=${_ck_h:0:16}
}
# cache_key PRODUCER PART...: cache_key_into's key, printed.
cache_key() {
	local key
	cache_key_into key "$@"
	echo "$key"
}
# cache_has NAME KEY / cache_path NAME KEY
cache_path() {
	echo "$MBUS_STATE/$1-$2"
}
# (Both spelled out below rather than through cache_path: a stage asks
# hundreds of times, and each $(...) is a process.)
cache_has() {
	[ -f "$MBUS_STATE/$1-$2/.done" ]
}
# cache_get NAME KEY DESTDIR: copy a kept result into DESTDIR.
cache_get() {
	cache_has "$1" "$2" || return 1
	[ -d "$3" ] || mkdir -p "$3"
	cp -a "$MBUS_STATE/$1-$2/." "$3/" || return 1
	rm -f "$3/.done"
}
# cache_put NAME KEY SRCDIR: keep SRCDIR's files. Written under a temporary
# name and moved into place, so that a run killed midway leaves nothing a
# later run could take for a result. Every step is checked here, not left
# to errexit: callers run it in a condition or in $(...), where errexit is
# off, and a copy that failed must not be kept as done.
cache_put() {
	local dest tmp
	dest=$(cache_path "$1" "$2")
	tmp="$MBUS_STATE/.tmp-$1-$2.$$"
	if ! { mkdir -p "$MBUS_STATE" && rm -rf "$tmp" && mkdir -p "$tmp" &&
		cp -a "$3/." "$tmp/" && touch "$tmp/.done" && rm -rf "$dest" && mv "$tmp" "$dest"; }; then
		rm -rf "$tmp"
		echo "error: cache_put $1: $3 could not be kept as $dest" >&2
		return 1
	fi
}
# changed_files ARRAY COMMIT [PATHSPEC...]: the files COMMIT changes
# against its parent (git diff --name-only), into ARRAY. Dies if git
# cannot tell: an empty list would pass as a patch that changes nothing
# (a process substitution would lose git's exit status).
changed_files() {
	local -n _cf_files=$1
	local _cf_list
	_cf_list=$(git -C "$MBUS_TREE" diff --name-only "$2~1" "$2" -- "${@:3}") ||
		die "${0##*/}: git diff of $2 failed in $MBUS_TREE"
	_cf_files=()
	[ -z "$_cf_list" ] || mapfile -t _cf_files <<<"$_cf_list"
}

# base_tools: a directory with the base's own tools/testing/kunit and
# kselftest's ktap_helpers.sh, taken from the base commit (not from whatever
# is checked out), kept in the cache once per base. Prints its path.
base_tools() {
	local key tmp
	key=$(base_commit | cut -c1-16)
	if ! cache_has base-tools "$key"; then
		tmp=$(mktemp -d)
		git -C "$MBUS_TREE" archive "$(base_commit)" tools/testing/kunit \
			tools/testing/selftests/kselftest/ktap_helpers.sh | tar -x -C "$tmp"
		cache_put base-tools "$key" "$tmp"
		rm -rf "$tmp"
	fi
	cache_path base-tools "$key"
}

# tree_checkout COMMIT: every stage checks out the commit it works on itself
# (never relying on what another stage left checked out); -f, because a run
# killed midway may have left the tree half switched.
tree_checkout() {
	local want
	want=$(git -C "$MBUS_TREE" rev-parse --verify -q "$1^{commit}") ||
		die "base tree $MBUS_TREE: no commit $1"
	# HEAD is always detached: git am must never move a branch (the
	# tree's own branch "base" stays at the base commit).
	[ "$(git -C "$MBUS_TREE" rev-parse HEAD)" = "$want" ] &&
		! git -C "$MBUS_TREE" symbolic-ref -q HEAD >/dev/null &&
		git -C "$MBUS_TREE" diff --quiet HEAD && return 0
	git -C "$MBUS_TREE" checkout -q -f --detach "$want"
}
