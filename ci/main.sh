#!/bin/bash
# The main job (make): every revision ($REV: that one) applied, checked,
# booted, rendered and sent round b4; the matrix of every per-patch verdict;
# MAINTAINERS-notes; where the postings are.
#
# Each stage keeps its own results by its own inputs. On top of that, a run
# that passed is remembered under a key of everything the job reads (see
# job_parts; what it writes, as the run left it). When the next run finds
# every part unchanged, it prints what that run found (each revision's
# stage verdicts, the matrix, where the postings are) and redoes nothing.
# Any difference (the workspace's files, their modes or what git has
# committed of them, the postings, a fixture series, the base tree and
# the revision branches, the tools, the environment, the guest's userspace,
# any file of the results) and every stage runs as before, keeping what its
# own key allows; the parts that differ are named. A run that failed, or
# whose inputs changed while it ran, is not remembered.
#
# usage: main.sh          (MBUS_GUEST_REFRESH, or MBUS_MAIN_RERUN=1: never
#                          take the remembered run)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

MBUS_LOCK_WHAT="make (main job${REV:+, REV=$REV})"
[ "${MBUS_LOCKED:-}" ] || take_lock

# files_in DIR PATHSPEC...: what git has of the files of DIR: the index
# (mode, blob, path: what is committed, which says what was posted) and,
# for every file in DIR (tracked, untracked, ignored), mode, size and
# content. A file that cannot be read is listed with the error (and every
# other file still is); git failing fails.
files_in() {
	local dir=$1 files=()
	shift
	git -C "$dir" ls-files -s -- "$@" || return
	mapfile -d '' files < <(git -C "$dir" ls-files -z -co -- "$@" ':(exclude,glob)**/__pycache__/**')
	[ "${#files[@]}" -gt 0 ] || return 0
	printf '%s\0' "${files[@]}" | (cd "$dir" && xargs -0 stat -c '%a %s %n' -- 2>&1) || true
	printf '%s\0' "${files[@]}" | (cd "$dir" && xargs -0 sha256sum -- 2>&1) || true
}
# The variables of the environment no stage of the main job reads: the
# shell's, the terminal's, make's, the other targets' (SEND, MBOX, FROM,
# BENCH_DIR), and the two that only ask for a full run. Any other one
# (a session's own, too) is part of the key: at worst a full run.
volatile='^(PWD|OLDPWD|SHLVL|_|MAKEFLAGS|MFLAGS|MAKELEVEL|MAKEOVERRIDES|MAKE_TERMOUT|MAKE_TERMERR|MBUS_MAIN_RERUN|MBUS_GUEST_REFRESH|SEND|MBOX|FROM|BENCH_DIR|TERM|COLUMNS|LINES|SSH_[A-Z_]*|DISPLAY|WINDOWID|STY|TMUX|TMUX_PANE|LS_COLORS|XDG_SESSION_ID|XDG_RUNTIME_DIR|INVOCATION_ID|JOURNAL_STREAM|MAIL|LOGNAME|HISTFILE)='
# The base tree as tree.sh made it: its stamp and base refs.
part_base() {
	[ -d "$MBUS_TREE/.git" ] || { echo "no tree"; return 0; }
	cat "$MBUS_TREE/.git/mbus-base-stamp" 2>&1 || true
	# errexit does not reach into a command substitution: the last
	# command's status is the function's.
	git -C "$MBUS_TREE" for-each-ref --format='%(refname) %(objectname)' refs/tags/mbus-base refs/heads/base
}
part_branches() {
	[ -d "$MBUS_TREE/.git" ] || { echo "no tree"; return 0; }
	git -C "$MBUS_TREE" for-each-ref --format='%(refname) %(objectname)' "refs/heads/$MBUS_BRANCH_PREFIX"
}
part_tools() {
	local d path=()
	dpkg-query -W -f '${Package} ${Version}\n' || return
	stat -L -c '%n %s %Y' "$KERNEL_TARBALL" 2>&1 || true
	# What is not Debian's: any program in a PATH directory (pip's,
	# /usr/local's), and the package directories of the two Python
	# interpreters the stages run (by modification time: a package
	# installed or removed; not an edit inside one).
	IFS=: read -ra path <<<"$PATH"
	find -H "${path[@]}" -maxdepth 1 -printf '%p %s %T@\n' 2>/dev/null | sort || true
	for d in python3 /usr/bin/python3; do
		"$d" -c 'import os, sys
for p in sys.path:
    if os.path.isdir(p):
        print(p, os.stat(p).st_mtime_ns)' 2>&1 || true
	done
}
# The environment, and the content of every file a variable names
# (MBUS_KNOWN_FAILURES=FILE, MBUS_GUEST_INIT=FILE, ...).
part_settings() {
	local vars=() v files=()
	mapfile -d '' vars < <(env -0 | sort -z)
	for v in "${vars[@]}"; do
		[[ $v =~ $volatile ]] && continue
		printf '%s\n' "$v"
		v=${v#*=}
		[[ $v == /* && -f $v ]] && files+=("$v")
	done
	[ "${#files[@]}" -eq 0 ] || sha256sum -- "${files[@]}" 2>&1 || true
	echo "nproc=$(nproc) kvm=$([ -w /dev/kvm ] && echo yes || echo no)"
}
part_guest() {
	cat "$("$MBUS_TOP/ci/guest-root.sh" --peek 2>/dev/null)/versions" 2>/dev/null || echo "no guest root"
}
part_results() {
	find -H "$MBUS_RESULTS" \( -path "$MBUS_RESULTS/tests" -o -path "$MBUS_RESULTS/quick" \) -prune -o -type f ! -path "$MBUS_RESULTS/stage-times" \
		-printf '%P %s %T@ %C@\n' 2>/dev/null | sort || true
}
part_series() {
	if [ ! -d "$MBUS_SERIES_DIR" ]; then
		echo "no directory $MBUS_SERIES_DIR"
	elif git -C "$MBUS_SERIES_DIR" rev-parse --git-dir >/dev/null 2>&1; then
		files_in "$MBUS_SERIES_DIR" .
	else
		(cd "$MBUS_SERIES_DIR" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum -- 2>&1) || true
	fi
}
# part NAME CMD...: "NAME HASH" of what CMD prints. CMD failing fails it
# (a hash of nothing would match every time), naming the part.
part() {
	local h
	if ! h=$("${@:2}" | hash_text); then
		printf 'main job: cannot read its inputs (%s: %s failed; see above)\n' "$1" "${*:2}" >&2
		return 1
	fi
	printf '%s %s\n' "$1" "$h"
}
# job_parts: one "NAME HASH" line for each part of what the job reads.
job_parts() {
	part workspace files_in "$MBUS_TOP" . ':!outgoing' ':!MAINTAINERS-notes' || return
	part postings files_in "$MBUS_TOP" outgoing MAINTAINERS-notes || return
	if [ "$(cd "$MBUS_SERIES_DIR" 2>/dev/null && pwd -P)" != "$(cd "$MBUS_TOP" && pwd -P)" ]; then
		part series part_series || return
	fi
	part base part_base || return
	part branches part_branches || return
	part tools part_tools || return
	part settings part_settings || return
	part guest part_guest || return
	part results part_results || return
}
# The parts the job itself writes (tree.sh the base tree, apply the
# branches, guest-root.sh the guest's root, render the postings): compared
# with the remembered run, not between the start and the end of a run.
written='^(postings|base|branches|guest|results) '
sel=${REV:-all}
# Without its parts, the job cannot tell what changed: it runs every
# stage, as it would without remembering, and remembers nothing.
if ! parts=$(job_parts); then
	info "main job: cannot tell what changed since its last good run: every stage runs, and this run is not remembered"
	parts=
fi
key=$(cache_key "$0" "$sel" "$parts")
if [ -n "$parts" ] && [ -z "${MBUS_GUEST_REFRESH:-}${MBUS_MAIN_RERUN:-}" ] && cache_has "main-$sel" "$key"; then
	stage_begin "main job: nothing changed"
	kept=$(cache_path "main-$sel" "$key")
	grep '^REVISION ' "$kept/out" || true
	sed -n '/^==> matrix$/,$p' "$kept/out"
	stage_end OK "every part of its inputs as in the run that passed at $(cat "$kept/when"); nothing redone"
	exit 0
fi
# Name what differs from the last run that passed.
last=$(ls -td "$MBUS_STATE/main-$sel-"*/ 2>/dev/null | head -n 1 || true)
if [ -n "$parts" ] && [ -n "$last" ] && [ -f "$last/parts" ]; then
	changed=$(comm -13 <(sort "$last/parts") <(sort <<<"$parts") | cut -d' ' -f1 | paste -sd' ' -)
	info "main job: since the run that passed at $(cat "$last/when"), changed: ${changed:-nothing (MBUS_MAIN_RERUN or MBUS_GUEST_REFRESH)}; every stage runs, each keeping what its own inputs allow"
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
set +o errexit
(
	rc=0
	"$MBUS_TOP/ci/each-rev.sh" @checks boot kunit render roundtrip || rc=$?
	"$MBUS_TOP/ci/matrix.sh" || rc=1
	[ "$rc" -eq 0 ] || exit "$rc"
	"$MBUS_TOP/ci/maintainers.sh" || exit
	"$MBUS_TOP/ci/where.sh" || exit
) | tee "$out/out"
st=("${PIPESTATUS[@]}")
set -o errexit
[ "${st[0]}" -eq 0 ] || exit "${st[0]}"
[ "${st[1]}" -eq 0 ] || die "main job: passed, but its output could not be kept (tee exited ${st[1]}); not remembered"

# Remember the run only if nothing it read changed while it ran; what it
# writes is taken as it left it.
now=$(job_parts) || now=
if [ -z "$parts" ] || [ -z "$now" ]; then
	info "main job: passed; not remembered (its inputs could not be read)"
elif [ "$(grep -Ev "$written" <<<"$now")" = "$(grep -Ev "$written" <<<"$parts")" ]; then
	printf '%s\n' "$now" >"$out/parts"
	date -u +%FT%TZ >"$out/when"
	# One remembered run for each selection: the newest.
	rm -rf "$MBUS_STATE/main-$sel-"*
	cache_put "main-$sel" "$(cache_key "$0" "$sel" "$now")" "$out"
else
	info "main job: its inputs changed while it ran; not remembered"
fi
