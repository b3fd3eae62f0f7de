#!/bin/bash
# The benchmark: how long a developer waits. Not a test: it takes an hour or
# more on 2 cores, and it never runs in the README's test command.
#
# In one scratch directory, with fresh caches (never the user's), it times:
#   a  the main job (make) for every revision, from cold: a fresh clone of
#      the workspace, a fresh cache (tree, objects, ccache)
#   b  the same again, nothing changed
#   c  again, after a one-line change in the last patch of the newest revision
#   d  again, after a one-line change in its first patch
#   e  the guest stage alone (QEMU and the guest tests), base and each revision
#   q  the quick guest (make boot QUICK=1) of the newest revision, its two
#      quick kernels built in the check build's object directory (left by
#      a-d at the newest tip); q-guest: that guest alone, as e
#   f  the anchor: tools/testing/kunit/kunit.py run --arch=x86_64 from the
#      same base tree, into its own build directory, cold
#   g  a plain cold build of the workspace's test configuration (no W=1/C=1,
#      no ccache)
# For each: wall and CPU seconds, the peak memory of the largest process
# (GNU time's maximum resident set size, QEMU included) and the disk the
# caches use. Prints a table and the ratios a/f, b/a, c/a, and writes them to
# $BENCH_DIR/bench.txt; if any row failed, marks it there, gives no figure
# from it, and exits non-zero naming it. (A revision whose kernel or guest
# image cannot be had ends the bench before rows e and q, named.)
#
# usage: bench.sh            (BENCH_DIR: default /var/tmp/mbus-bench)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

bench=${BENCH_DIR:-/var/tmp/mbus-bench}
[ -x /usr/bin/time ] || die "bench: GNU time (/usr/bin/time) missing (make deps)"
rm -rf "$bench"
mkdir -p "$bench"
export MBUS_CACHE="$bench/cache" CCACHE_DIR="$bench/cache/ccache"
unset MBUS_TREE MBUS_BUILD MBUS_BOOT_BUILD MBUS_RESULTS MBUS_STATE
# The benchmark's own stage lines (stage_end writes to $MBUS_RESULTS, and
# nounset stopped the first row's end without it): not exported, so that
# the rows' commands take the scratch cache's results directory.
MBUS_RESULTS="$bench/own-stages"
ws="$bench/ws"
git clone -q "$MBUS_TOP" "$ws"
results="$bench/bench.txt"
: >"$results"

# measure NAME DISKDIR CMD...: one row, one line of the table. DISKDIR is
# what the row's caches occupy afterwards. A line of progress every minute
# for long rows. A row that fails is added to $failed_rows.
failed_rows=
measure() {
	local name=$1 dir=$2 t pid cmd
	shift 2
	t="$bench/$name.time"
	stage_begin "bench $name"
	local wall cpu rss disk rc=0 t0=$SECONDS
	rm -f "$MBUS_CACHE/results/stage-times"
	/usr/bin/time -v -o "$t" "$@" >"$bench/$name.log" 2>&1 &
	pid=$!
	while ! wait_up_to 60 "$pid"; do
		info "  bench $name: $(((SECONDS - t0) / 60)) min; last: $(grep -E '^(==>|<==)' "$bench/$name.log" | tail -n 1 | cut -c1-100)"
	done
	wait "$pid" || rc=$?
	cp "$MBUS_CACHE/results/stage-times" "$bench/$name.stage-times" 2>/dev/null || true
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$t" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$t")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$t")
	# (A row that failed may have made no directory: "-", not the end of
	# the bench under errexit.)
	disk=$(du -sm "$dir" 2>/dev/null | cut -f1 || true)
	cmd=$(tr -s '\n\t' '  ' <<<"$*")
	[ "$rc" -eq 0 ] || failed_rows+=" $name"
	printf '%-6s %8.1f %8.1f %8d %9s  %s%s\n' "$name" "${wall:-0}" "${cpu:-0}" "$((${rss:-0} / 1024))" \
		"${disk:--}" "$cmd" "$([ "$rc" -eq 0 ] || echo " (FAILED: exit $rc)")" >>"$results"
	if [ "$rc" -eq 0 ]; then stage_end OK "wall ${wall}s"; else stage_end FAIL "exit $rc; see $bench/$name.log"; fi
}

# wait_up_to SECONDS PID: true once PID has ended (seen within 0.2 s),
# false after SECONDS.
wait_up_to() {
	local i
	for ((i = 0; i < $1 * 5; i++)); do
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.2
	done
	! kill -0 "$2" 2>/dev/null
}

# slowest ROW: the five slowest stages of a row, from the stage times that
# stage_end records (kept per row beside its log).
slowest() {
	sort -t"$(printf '\t')" -k1,1 -rn "$bench/$1.stage-times" 2>/dev/null | head -n 5 |
		awk -F'\t' '{ printf "       %8.1f s  %s (%s)\n", $1, $3, $2 }'
}

printf '%-6s %8s %8s %8s %9s  %s\n' "" "wall s" "cpu s" "peak MB" "cache MB" "command" >>"$results"
# t: extraction of the tree, so that a starts from an extracted tree and an
# empty ccache, like f.
measure t "$MBUS_CACHE" make -C "$ws" tree
measure a "$MBUS_CACHE" make -C "$ws"
measure b "$MBUS_CACHE" make -C "$ws"
newest=$(cd "$ws" && ls -d series-v* | sort -V | tail -n 1)
last=$(ls "$ws/$newest"/*.patch | tail -n 1)
first=$(ls "$ws/$newest"/*.patch | head -n 1)
"$MBUS_TOP/ci/onechange.sh" "$last"
measure c "$MBUS_CACHE" make -C "$ws"
"$MBUS_TOP/ci/onechange.sh" "$first"
measure d "$MBUS_CACHE" make -C "$ws"
# e: the guest stage alone (QEMU with the guest tests, the kernel and image
# already built), for the base and every revision's tip.
for ref in mbus-base $(cd "$ws" && ls -d series-v* | sort -V | sed 's,^series-,rev/,'); do
	kdir=$(cd "$ws" && ci/kernel.sh "$ref") || die "bench e: no kernel for $ref"
	img=$(cd "$ws" && ci/initramfs.sh "$kdir" "$(ci/guest-root.sh)") || die "bench e: no guest image for $kdir"
	name=e-${ref##*/}
	measure "$name" "$MBUS_CACHE" bash -c "'$ws/ci/qemu.sh' '$kdir/bzImage' '$img' '$bench/$name.console' &&
		grep -q MBUS-DONE '$bench/$name.console' && ! grep -q MBUS-HOST '$bench/$name.console'"
done
# q: the quick guest of the newest revision, as a person asks for it while
# editing (its two quick kernels built in the check build's object
# directory, which the rows before left at the newest revision's tip), then
# its guest alone.
measure q "$MBUS_CACHE" make -C "$ws" boot QUICK=1 REV="${newest#series-}"
kdir=$(cd "$ws" && ci/kernel.sh --quick "rev/${newest#series-}") || die "bench q: no quick kernel"
img=$(cd "$ws" && ci/initramfs.sh "$kdir" "$(ci/guest-root.sh)") || die "bench q: no guest image for $kdir"
measure q-guest "$MBUS_CACHE" bash -c "MBUS_GUEST_APPEND=mbus.quick '$ws/ci/qemu.sh' '$kdir/bzImage' '$img' '$bench/q-guest.console' &&
	grep -q MBUS-DONE '$bench/q-guest.console' && ! grep -q MBUS-HOST '$bench/q-guest.console'"
git -C "$MBUS_CACHE/linux" checkout -q --detach mbus-base
measure f "$bench/kunit" python3 "$MBUS_CACHE/linux/tools/testing/kunit/kunit.py" run \
	--arch=x86_64 --build_dir="$bench/kunit" --jobs="$JOBS"
# g: the boot kernel's configuration at the base, without ccache, W=1 or C=1.
plain="$bench/plain"
measure g "$plain" env MBUS_STATE="$plain.state" bash -c "'$ws/ci/config.sh' mbus-base '$plain' '$ws/ci/kernel.config' '$ws/ci/debug.config' &&
	make -C '$MBUS_CACHE/linux' O='$plain' ARCH=x86_64 -j$JOBS -s bzImage modules"

# stage_span ROW STAGES: the wall seconds of the stages (an ERE) of the
# newest revision in a row, from its stage times ("boot vN" includes its
# kernel), by ci/stage-span.sh: from the first one's start to the last
# one's end (stages that run side by side count once); "n/a" and the
# reason if the row failed or has none.
rev_new=${newest#series-}
# row_failed ROW: true if the row failed (measure keeps their names).
row_failed() { [[ " $failed_rows " == *" $1 "* ]]; }
stage_span() {
	local out
	if row_failed "$1"; then
		echo "n/a (row $1 failed)"
	elif out=$("$MBUS_TOP/ci/stage-span.sh" "$bench/$1.stage-times" "$2" "$rev_new" 2>&1); then
		echo "$out s"
	else
		echo "n/a ($(tail -n 1 <<<"$out" | sed 's/^error: //'))"
	fi
}
# col ROW: the row's wall seconds; "failed" for a failed row, nothing for
# a row not in the table. secs ROW: the same for a reader. ratio A B:
# A / B if both are figures.
col() {
	if row_failed "$1"; then echo failed; else awk -v n="$1" '$1 == n { print $2; exit }' "$results"; fi
}
secs() {
	local v
	v=$(col "$1")
	case $v in "" | failed) echo "${v:-n/a}" ;; *) echo "$v s" ;; esac
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a / b; else print "n/a" }'
}
summary=$({
	echo
	echo "a/f = $(ratio "$(col a)" "$(col f)")   (target <= 2.0)"
	echo "b/a = $(ratio "$(col b)" "$(col a)")   (b = $(secs b); target <= 10 s)"
	echo "c/a = $(ratio "$(col c)" "$(col a)")   (c = $(secs c), the whole job; target: check verdicts <= 60 s, boot <= 150 s)"
	echo "d/c = $(ratio "$(col d)" "$(col c)")   (d = $(secs d); target <= 2.0)"
	for r in c d; do
		echo "$r: the per-patch checks of $rev_new $(stage_span "$r" 'check|csi2|builds|cocci|htmldocs') (target for c <= 60 s)," \
			"its boot $(stage_span "$r" boot) (target for c <= 150 s)"
	done
	awk '$1 ~ /^e-/ { print $1 }' "$results" | while read -r e; do
		echo "$e = $(secs "$e")   (target <= 60 s per revision)"
	done
	echo "q-guest = $(secs q-guest)   (the quick guest; target <= 20 s)"
	echo
	for r in a c d; do
		echo "slowest stages of $r:"
		slowest "$r"
	done
	echo
	echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB," \
		"$(grep -qw -e vmx -e svm /proc/cpuinfo && [ -w /dev/kvm ] && echo "KVM possible" || echo "no KVM (TCG)"), $(date -u +%F)"
})
echo "$summary" >>"$results"
cat "$results"
# A row that failed timed a failing run: its figures are no measurement.
[ -z "$failed_rows" ] || die "bench: row(s)$failed_rows failed; their logs are in $bench/ (the table: $results)"
