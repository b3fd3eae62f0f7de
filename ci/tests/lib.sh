# shellcheck shell=bash disable=SC2034
# Helpers for the workspace's own tests. Each test script declares its plan
# first (t_plan N), reports KTAP through the kernel tree's own
# tools/testing/selftests/kselftest/ktap_helpers.sh, one result an assertion
# (the reason of a failure as a diagnostic line before it), and ends with
# t_done. ci/test.sh reads the log with the tree's KTAP parser (ci/ktap.py):
# a missing or short plan, a crash or a non-zero exit fails the script.
set -o nounset -o pipefail

T_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MBUS_CACHE=${MBUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mbus-workspace}
export MBUS_CACHE
T_TREE=${MBUS_TREE:-$MBUS_CACHE/linux}
export MBUS_TREE=$T_TREE
# Where the tests keep what a person may want to look at afterwards.
T_RESULTS=${MBUS_RESULTS:-$MBUS_CACHE/results}/tests
# The base's own KTAP helpers (taken from the base commit, not from whatever
# the tree has checked out).
T_TOOLS=$(bash -c '. "$1/ci/lib.sh" && base_tools' _ "$T_TOP") || {
	echo "tests/lib.sh: the base's tools could not be had (make tree)" >&2
	exit 1
}
T_TMP=$(mktemp -d /tmp/mbus-test.XXXXXX)
# Fixtures differ from run to run, so that no earlier run's cached results
# stand in for the ones a test expects to be made.
T_NONCE="$(date +%s.%N)-$$"
trap 'rm -rf "$T_TMP"' EXIT

# shellcheck source=/dev/null
. "$T_TOOLS/tools/testing/selftests/kselftest/ktap_helpers.sh"
# t_plan N: the KTAP header and the plan, before any result.
t_plan() {
	ktap_print_header
	ktap_set_plan "$1"
}
# ok NAME / notok NAME WHY (ktap_helpers echoes unquoted: no globbing here)
ok() {
	set -f
	ktap_test_pass "$1"
	set +f
}
notok() {
	set -f
	ktap_print_msg "$1: $2"
	ktap_test_fail "$1"
	set +f
}
# t_done: the totals; the exit status says only that the script ran to the
# end (its failures are its "not ok" lines).
t_done() {
	ktap_print_totals
	exit 0
}

# expect_match NAME REGEX TEXT: TEXT must match REGEX (grep -E).
expect_match() {
	if grep -qE -- "$2" <<<"$3"; then
		ok "$1"
	else
		notok "$1" "${3:-(nothing)}"
	fi
}

# git_fails SUBCOMMAND: a PATH under which git SUBCOMMAND fails (an injected
# fault, said so on stderr) and every other git command runs as usual.
git_fails() {
	local d="$T_TMP/git-fails-$1"
	mkdir -p "$d"
	cat >"$d/git" <<SHIM
#!/bin/sh
for a; do [ "\$a" = "$1" ] && { echo "git $1: an injected fault" >&2; exit 2; }; done
exec /usr/bin/git "\$@"
SHIM
	chmod +x "$d/git"
	echo "$d:$PATH"
}

# expect_no_match NAME REGEX TEXT: TEXT must not match REGEX (grep -E).
expect_no_match() {
	if grep -qE -- "$2" <<<"$3"; then
		notok "$1" "$(grep -m1 -E -- "$2" <<<"$3")"
	else
		ok "$1"
	fi
}

# guest_init_head: the first lines of a fixture guest init, as
# ci/guest/init begins: busybox's applets, /proc, /sys, /dev, debugfs
# (kmemleak's file), /tmp, the programs' PATH, and the console
# loglevel of ci/guest/init (warnings and worse: no driver's information
# inside a step's lines).
guest_init_head() {
	cat <<'HEAD'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
export PATH=/bin:/usr/bin HOME=/tmp
echo 5 >/proc/sys/kernel/printk
echo "MBUS-GUEST fixture"
HEAD
}

# expect_fail NAME PATTERN CMD...: CMD must exit non-zero and print PATTERN.
expect_fail() {
	local name=$1 pattern=$2 out rc=0
	shift 2
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" -eq 0 ]; then
		notok "$name" "exited 0; output: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
	elif ! grep -qE -- "$pattern" <<<"$out"; then
		notok "$name" "exit $rc but no /$pattern/ in: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
	else
		ok "$name"
	fi
}

# expect_eq NAME WANT GOT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else notok "$1" "want '$2', got '$3'"; fi
}

# A fixture commit made with git plumbing, without touching the work tree:
#   fixture_commit PARENT SUBJECT [--no-signoff] -- PATH SEDSCRIPT [PATH SED]...
# PATH's new content is PARENT's content filtered through sed SEDSCRIPT
# (a PATH that does not exist in PARENT starts empty), or, for a SEDSCRIPT
# "=TEXT", TEXT itself.
fixture_commit() {
	local parent=$1 subject=$2 signoff=yes idx path script blob tree
	shift 2
	if [ "$1" = --no-signoff ]; then signoff=no; shift; fi
	[ "$1" = -- ] && shift
	idx="$T_TMP/index.$$"
	GIT_INDEX_FILE=$idx git -C "$T_TREE" read-tree "$parent"
	while [ $# -gt 0 ]; do
		path=$1 script=$2
		shift 2
		if [[ $script == =* ]]; then
			blob=$(printf '%s\n' "${script#=}" | git -C "$T_TREE" hash-object -w --stdin)
		else
			blob=$({ git -C "$T_TREE" show "$parent:$path" 2>/dev/null || true; } |
				sed -e "$script" | git -C "$T_TREE" hash-object -w --stdin)
		fi
		GIT_INDEX_FILE=$idx git -C "$T_TREE" update-index --add \
			--cacheinfo "100644,$blob,$path"
	done
	tree=$(GIT_INDEX_FILE=$idx git -C "$T_TREE" write-tree)
	rm -f "$idx"
	local msg="$subject

Fixture made by the workspace's tests (run $T_NONCE)."
	[ "$signoff" = no ] || msg="$msg

Signed-off-by: mbus-workspace tests <tests@mbus-workspace.invalid>"
	GIT_AUTHOR_NAME="mbus-workspace tests" GIT_AUTHOR_EMAIL=tests@mbus-workspace.invalid \
	GIT_COMMITTER_NAME="mbus-workspace tests" GIT_COMMITTER_EMAIL=tests@mbus-workspace.invalid \
	GIT_AUTHOR_DATE="@1700000000 +0000" GIT_COMMITTER_DATE="@1700000000 +0000" \
		git -C "$T_TREE" commit-tree "$tree" -p "$parent" -m "$msg"
}

# fixture_series DIR REV FROM TO: git format-patch FROM..TO into DIR/series-REV
fixture_series() {
	local dir=$1 rev=$2 from=$3 to=$4 v=()
	[ "$rev" = v1 ] || v=(-v "${rev#v}")
	mkdir -p "$dir/series-$rev"
	git -C "$T_TREE" format-patch -q "${v[@]}" --subject-prefix=PATCH \
		-o "$dir/series-$rev" "$from..$to" >/dev/null
}

# fixture_stage FROM TO STAGE...: a fresh fixture revision v1 of FROM..TO,
# applied (git am), then the command STAGE... with v1 as its last argument,
# both against the fixtures (ws); prints the command's output and returns
# its status (125 and "apply failed: ..." if the patches do not apply).
fixture_stage() {
	local from=$1 to=$2
	shift 2
	rm -rf "$T_TMP/series" "$T_TMP/results"
	fixture_series "$T_TMP/series" v1 "$from" "$to"
	ws ci/apply.sh v1 >"$T_TMP/apply.log" 2>&1 ||
		{ echo "apply failed: $(tail -n 2 "$T_TMP/apply.log")"; return 125; }
	ws "$@" v1 2>&1
}

# Run a workspace stage against fixtures: results, branches and series apart
# from the real ones; the base tree, object directory and caches shared.
ws() {
	MBUS_SERIES_DIR="$T_TMP/series" MBUS_RESULTS="$T_TMP/results" \
		MBUS_BRANCH_PREFIX=test/ "$@"
}
