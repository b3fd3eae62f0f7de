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
#   e  the guest stage alone, per revision (from the results of a)
#   f  the anchor: tools/testing/kunit/kunit.py run --arch=x86_64 from the
#      same base tree, into its own build directory, cold
#   g  a plain cold build of the workspace's test configuration (no W=1/C=1,
#      no ccache)
# For each: wall and CPU seconds, the peak memory of the largest process
# (GNU time's maximum resident set size, QEMU included) and the disk the
# caches use. Prints a table and the ratios a/f, b/a, c/a, and writes them to
# $BENCH_DIR/bench.txt.
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
ws="$bench/ws"
git clone -q "$MBUS_TOP" "$ws"
results="$bench/bench.txt"
: >"$results"

# measure NAME CMD...: one row.
measure() {
	local name=$1 t
	shift
	t="$bench/$name.time"
	stage_begin "bench $name"
	local wall cpu rss disk rc=0
	/usr/bin/time -v -o "$t" "$@" >"$bench/$name.log" 2>&1 || rc=$?
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$t" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$t")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$t")
	disk=$(du -sm "$MBUS_CACHE" 2>/dev/null | cut -f1)
	printf '%-3s %9.1f %9.1f %9d %9s  %s%s\n' "$name" "$wall" "$cpu" "$((rss / 1024))" \
		"${disk:-0}" "$*" "$([ "$rc" -eq 0 ] || echo " (FAILED: exit $rc)")" >>"$results"
	if [ "$rc" -eq 0 ]; then stage_end OK "wall ${wall}s"; else stage_end FAIL "exit $rc; see $bench/$name.log"; fi
}

printf '%-3s %9s %9s %9s %9s  %s\n' "" "wall s" "cpu s" "peak MB" "cache MB" "command" >>"$results"
measure a make -C "$ws"
measure b make -C "$ws"
newest=$(cd "$ws" && ls -d series-v* | sort -V | tail -n 1)
last=$(ls "$ws/$newest"/*.patch | tail -n 1)
first=$(ls "$ws/$newest"/*.patch | head -n 1)
# A one-line change: a comment word in an added line.
sed -i '0,/^+.*\/\* /s//&bench: /' "$last"
measure c make -C "$ws"
sed -i '0,/^+.*\/\* /s//&bench: /' "$first"
measure d make -C "$ws"
for r in "$MBUS_CACHE"/results/v*/boot/guest-seconds; do
	[ -f "$r" ] || continue
	rev=${r%/boot/guest-seconds}
	printf '%-3s %9s %9s %9s %9s  %s\n' e "$(cat "$r")" - - - "guest stage of ${rev##*/} (from a)" >>"$results"
done
measure f python3 "$MBUS_CACHE/linux/tools/testing/kunit/kunit.py" run --arch=x86_64 \
	--build_dir="$bench/kunit" --jobs="$JOBS"
plain="$bench/plain"
measure g bash -c "'$MBUS_TOP/ci/config.sh' '$plain' '$MBUS_TOP/ci/kernel.config' && make -C '$MBUS_CACHE/linux' O='$plain' ARCH=x86_64 -j$JOBS -s bzImage modules"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
col() { awk -v n="$1" '$1 == n { print $2; exit }' "$results"; }
{
	echo
	echo "a/f = $(ratio "$(col a)" "$(col f)")   (target <= 2.0)"
	echo "b/a = $(ratio "$(col b)" "$(col a)")   (b target <= 15 s)"
	echo "c/a = $(ratio "$(col c)" "$(col a)")   (c target <= 60 s)"
	echo "machine: $(nproc) cores, $(date -u +%F)"
} >>"$results"
cat "$results"
