#!/bin/bash
# Stage "kunit": the revision's KUnit suites under the kernel's own
# tools/testing/kunit/kunit.py run --arch=x86_64 with their .kunitconfig
# (in QEMU, through kunit.py's own x86_64 set-up), for every .kunitconfig
# that the revision adds. The boot stage runs the same suites in its guest.
# Results are reused while the revision's commit is unchanged.
#
# usage: kunit.sh REV       (results in $MBUS_RESULTS/REV/kunit/)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: kunit.sh REV}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
tip=$(rev_tip "$rev")
base=$(base_commit)
# (Not in a process substitution: a git diff that fails must not pass as
# a revision that adds no KUnit suite.)
list=$(git -C "$MBUS_TREE" diff --name-only --diff-filter=AM "$base" "$tip" -- '*.kunitconfig') ||
	die "kunit $rev: git diff of $base..$tip failed in $MBUS_TREE"
configs=()
[ -z "$list" ] || mapfile -t configs <<<"$list"
out="$MBUS_RESULTS/$rev/kunit"
rm -rf "$out"
mkdir -p "$out"
stage_begin "kunit $rev"
inputs=$(cache_key "$0" "$(input_hash "$rev")")
if [ "${#configs[@]}" -eq 0 ]; then
	verdict_write "$out/kunit.verdict" OK "$inputs" "the revision adds no KUnit suite"
	stage_end OK "the revision adds no .kunitconfig"
	exit 0
fi
failed=0
for c in "${configs[@]}"; do
	dir=$(dirname "$c")
	key=$(cache_key "$0" "$tip" "$dir")
	run="$out/run-$(echo "$dir" | tr / _)"
	if ! cache_get kunit "$key" "$run"; then
		mkdir -p "$run"
		# (Only here: a kept run moves no checkout, which would make
		# every object directory compile the series' files again.)
		tree_checkout "$tip"
		(cd "$MBUS_TREE" && python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
			--kunitconfig="$dir" --build_dir="$MBUS_CACHE/kunit-build" \
			--jobs="$JOBS" --make_options CC="ccache gcc" --timeout=300) \
			>"$run/kunit.log" 2>&1 && echo 0 >"$run/rc" || echo $? >"$run/rc"
		cache_put kunit "$key" "$run"
	fi
	sum=$(sed 's/\x1b\[[0-9;]*m//g' "$run/kunit.log" | grep -E 'Testing complete\. Ran [0-9]+ tests' | tail -n 1) || true
	if [ "$(cat "$run/rc")" = 0 ] && [ -n "$sum" ]; then
		info "  $rev kunit $dir: ${sum#*Testing complete. }"
	else
		info "  $rev kunit $dir: FAIL ${sum:-no results} (see $out)"
		failed=$((failed + 1))
	fi
done
if [ "$failed" -gt 0 ]; then
	verdict_write "$out/kunit.verdict" FAIL "$inputs" "$failed kunit.py run(s) failed"
	stage_end FAIL "$failed kunit.py run(s) failed"
	exit 1
fi
verdict_write "$out/kunit.verdict" OK "$inputs" "kunit.py run passes for ${configs[*]}"
stage_end OK "${#configs[@]} kunitconfig(s)"
