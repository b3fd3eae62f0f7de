#!/bin/bash
# The main job (make): every revision ($REV: that one) applied, checked,
# booted, rendered and sent round b4; the matrix of every per-patch verdict;
# MAINTAINERS-notes; where the postings are.
#
# Each stage keeps its own results by its own inputs. On top of that, a run
# that passed is remembered under a key of everything the job reads (see
# job_parts), taken as the run left it: when the next run finds every part unchanged, it prints what
# that run found (each revision's stage verdicts, the matrix, the postings)
# and redoes nothing. Any difference, in the workspace's files or postings,
# the fixture series, the base tree's refs, an installed package, a setting, the guest's
# userspace or any file of the results, and every stage runs as before,
# keeping what its own key allows; the parts that differ are named.
#
# usage: main.sh          (MBUS_GUEST_REFRESH, or MBUS_MAIN_RERUN=1: never
#                          take the remembered run)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

MBUS_LOCK_WHAT="make (main job${REV:+, REV=$REV})"
[ "${MBUS_LOCKED:-}" ] || take_lock

# job_parts: one "NAME HASH" line for each part of what the job reads.
job_parts() {
	local v
	# The workspace: every file git tracks or would track (series,
	# cover letters, ci/), by content; apart, what the job itself writes
	# there (outgoing/, MAINTAINERS-notes), which later stages also read.
	printf 'workspace %s\n' "$(cd "$MBUS_TOP" && git ls-files -z -co --exclude-standard \
		-- . ':!outgoing' ':!MAINTAINERS-notes' | xargs -0 -r sha256sum | hash_text)"
	printf 'postings %s\n' "$(cd "$MBUS_TOP" && git ls-files -z -co --exclude-standard \
		-- outgoing MAINTAINERS-notes | xargs -0 -r sha256sum | hash_text)"
	# Fixture series the tests point MBUS_SERIES_DIR at.
	if [ "$MBUS_SERIES_DIR" != "$MBUS_TOP" ]; then
		printf 'series %s\n' "$(cd "$MBUS_SERIES_DIR" && find . -path ./.git -prune -o -type f -print0 |
			sort -z | xargs -0 -r sha256sum | hash_text)"
	fi
	# The base tree: its stamp and every ref a stage reads or moves.
	printf 'base %s\n' "$({
		cat "$MBUS_TREE/.git/mbus-base-stamp" 2>/dev/null || echo "no stamp"
		git -C "$MBUS_TREE" for-each-ref --format='%(refname) %(objectname)' \
			refs/tags/mbus-base refs/heads/base "refs/heads/$MBUS_BRANCH_PREFIX" 2>/dev/null
		stat -L -c '%n %s %Y' "$KERNEL_TARBALL" 2>/dev/null || echo "no tarball"
	} | hash_text)"
	# The tools: every installed package's version, and which of them the
	# PATH finds.
	printf 'tools %s\n' "$({
		dpkg-query -W -f '${Package} ${Version}\n'
		for v in gcc sparse python3 perl git b4 spatch sphinx-build clang qemu-system-x86_64; do
			command -v "$v" || echo "no $v"
		done
	} | hash_text)"
	# The settings: every variable `make help` lists (but the two that
	# only ask for a full run), PATH, and whether the guest could use KVM.
	printf 'settings %s\n' "$({
		for v in $(sed -n 's/^#var \([A-Z_]*\).*/\1/p' "$MBUS_TOP/Makefile") PATH; do
			case $v in MBUS_MAIN_RERUN | MBUS_GUEST_REFRESH) continue ;; esac
			printf '%s=%s\n' "$v" "${!v-(unset)}"
		done
		ls -l /dev/kvm 2>&1 || true
	} | hash_text)"
	# The guest's userspace (kept by guest-root.sh).
	printf 'guest %s\n' "$({ cat "$("$MBUS_TOP/ci/guest-root.sh" --peek 2>/dev/null)/versions" 2>/dev/null ||
		echo "no guest root"; } | hash_text)"
	# Every file of the results but the tests' and the stage times, by
	# name, size and times: a verdict rewritten, removed or added differs.
	printf 'results %s\n' "$(find "$MBUS_RESULTS" -path "$MBUS_RESULTS/tests" -prune -o \
		-type f ! -path "$MBUS_RESULTS/stage-times" -printf '%P %s %T@ %C@\n' 2>/dev/null |
		sort | hash_text)"
}
sel=${REV:-all}
parts=$(job_parts)
key=$(cache_key "$0" "$sel" "$parts")
if [ -z "${MBUS_GUEST_REFRESH:-}${MBUS_MAIN_RERUN:-}" ] && cache_has "main-$sel" "$key"; then
	stage_begin "main job: nothing changed"
	kept=$(cache_path "main-$sel" "$key")
	grep '^REVISION ' "$kept/out" || true
	sed -n '/^==> matrix$/,$p' "$kept/out"
	stage_end OK "every part of its inputs as in the run that passed at $(cat "$kept/when"); nothing redone"
	exit 0
fi
# Name what differs from the last run that passed.
last=$(ls -td "$MBUS_STATE/main-$sel-"*/ 2>/dev/null | head -n 1 || true)
if [ -n "$last" ] && [ -f "$last/parts" ]; then
	changed=$(comm -13 <(sort "$last/parts") <(sort <<<"$parts") | cut -d' ' -f1 | paste -sd' ' -)
	info "main job: since the run that passed at $(cat "$last/when"), changed: ${changed:-nothing (MBUS_MAIN_RERUN or MBUS_GUEST_REFRESH)}; every stage runs, each keeping what its own inputs allow"
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rc=0
(
	rc=0
	"$MBUS_TOP/ci/each-rev.sh" check csi2-compare builds cocci htmldocs boot kunit render roundtrip || rc=$?
	"$MBUS_TOP/ci/matrix.sh" || rc=1
	[ "$rc" -eq 0 ] || exit "$rc"
	"$MBUS_TOP/ci/maintainers.sh" || exit
	"$MBUS_TOP/ci/where.sh" || exit
) > >(tee "$out/out") || rc=$?
# tee has seen all of it once it has ended.
wait $!
[ "$rc" -eq 0 ] || exit "$rc"

# Remember the run only if nothing it read changed while it ran; what it
# writes (the results, the postings) is taken as it left it.
now=$(job_parts)
if [ "$(grep -Ev '^(results|postings) ' <<<"$now")" = "$(grep -Ev '^(results|postings) ' <<<"$parts")" ]; then
	printf '%s\n' "$now" >"$out/parts"
	date -u +%FT%TZ >"$out/when"
	cache_put "main-$sel" "$(cache_key "$0" "$sel" "$now")" "$out"
else
	info "main job: its inputs changed while it ran; not remembered"
fi
