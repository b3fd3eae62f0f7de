#!/bin/bash
# The main job remembers a run that passed (ci/main.sh): with nothing
# changed, make prints that run's verdicts and redoes nothing, also after a
# run that rendered new postings; a change of any part of its inputs (the
# fixture series, the workspace's files, the results, a setting, the base
# tree's refs) runs every stage again and names
# the part; a failed run, and a run whose inputs changed while it ran, are
# never remembered. In a copy of the workspace whose stage scripts are
# stubs that log their calls (ci/main.sh itself is the real one), with its
# own cache, results and series.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
t_plan 20

w="$T_TMP/ws"
mkdir -p "$w"
cp -a "$T_TOP/." "$w/"
export T_CALLS="$T_TMP/calls" T_CTL="$T_TMP/ctl"
mkdir -p "$T_CTL" "$T_TMP/series/series-v1"
printf 'From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] fixture\n\n---\n' \
	>"$T_TMP/series/series-v1/0001-fixture.patch"
# The stubs: each-rev.sh writes a verdict into the results, as the real
# stages do, fails while $T_CTL/fail exists and edits the series while it
# runs if $T_CTL/edit exists.
cat >"$w/ci/each-rev.sh" <<'STUB'
#!/bin/bash
echo "each-rev $*" >>"$T_CALLS"
mkdir -p "$MBUS_RESULTS/v1/0001"
if [ -e "$T_CTL/edit" ]; then
	echo "edited while the job ran" >>"$MBUS_SERIES_DIR/series-v1/0001-fixture.patch"
	rm "$T_CTL/edit"
fi
if [ -e "$T_CTL/fail" ]; then
	echo "FAIL stub" >"$MBUS_RESULTS/v1/0001/checkpatch.verdict"
	echo "REVISION v1 check: FAIL"
	exit 1
fi
echo "OK stub" >"$MBUS_RESULTS/v1/0001/checkpatch.verdict"
# The postings, which the real render writes into the workspace.
mkdir -p "$(dirname "$0")/../outgoing/v1"
cp "$MBUS_SERIES_DIR/series-v1/0001-fixture.patch" "$(dirname "$0")/../outgoing/v1/"
echo "REVISION v1 check: OK"
STUB
printf '#!/bin/bash\necho "matrix" >>"$T_CALLS"\nprintf "==> matrix\\nv1 0001 stub-cell ok\\n<== matrix OK\\n"\n' >"$w/ci/matrix.sh"
printf '#!/bin/bash\necho "maintainers" >>"$T_CALLS"\necho "<== maintainers OK"\n' >"$w/ci/maintainers.sh"
printf '#!/bin/bash\necho "where" >>"$T_CALLS"\necho "Postings of v1: stub"\n' >"$w/ci/where.sh"
chmod +x "$w"/ci/{each-rev,matrix,maintainers,where}.sh

# job [VAR=VALUE...]: run the real ci/main.sh of the copy; sets out, rc and
# calls (how many stub stages it started).
job() {
	: >"$T_CALLS"
	rc=0
	out=$(env -u MBUS_LOCKED -u REV -u MBUS_MAIN_RERUN -u MBUS_GUEST_REFRESH \
		MBUS_CACHE="$T_TMP/cache" MBUS_STATE="$T_TMP/state" MBUS_RESULTS="$T_TMP/results" \
		MBUS_SERIES_DIR="$T_TMP/series" MBUS_BRANCH_PREFIX="test-main-$$/" "$@" \
		"$w/ci/main.sh" 2>&1) || rc=$?
	calls=$(wc -l <"$T_CALLS")
}
trap 'git -C "$T_TREE" update-ref -d "refs/heads/test-main-$$/v1" 2>/dev/null; rm -rf "$T_TMP"' EXIT

job
expect_eq "first run: every stage runs (4 stub stages) and passes" "0 4" "$rc $calls"
job
expect_eq "nothing changed: exit 0, no stage started" "0 0" "$rc $calls"
expect_match "nothing changed: says so, with its verdict and time" \
	'^<== main job: nothing changed +OK +[0-9.]+s' "$out"
expect_match "nothing changed: the remembered revision verdicts are printed" '^REVISION v1 check: OK$' "$out"
expect_match "nothing changed: the remembered matrix is printed" '^v1 0001 stub-cell ok$' "$out"
expect_match "nothing changed: where the postings are is printed" '^Postings of v1: stub$' "$out"

echo "one more line" >>"$T_TMP/series/series-v1/0001-fixture.patch"
job
expect_eq "a patch changed: every stage runs again" "0 4" "$rc $calls"
expect_match "a patch changed: the series is named" 'changed: series;' "$out"
job
expect_eq "after a run that rendered new postings, nothing changed: no stage started" "0 0" "$rc $calls"

touch -d '2001-01-01' "$T_TMP/results/v1/0001/checkpatch.verdict"
job
expect_match "a verdict file's time changed: the results are named, every stage runs" \
	"^0 4 .*changed: results;" "$rc $calls $out"
rm "$T_TMP/results/v1/0001/checkpatch.verdict"
job
expect_match "a verdict file removed: every stage runs" "^0 4 .*changed: results;" "$rc $calls $out"

echo "# a new line" >>"$w/ci/known-failures"
job
expect_match "a workspace file changed: named, every stage runs" "^0 4 .*changed: workspace;" "$rc $calls $out"

job MBUS_GUEST_APPEND=quiet
expect_match "a setting changed: named, every stage runs" "^0 4 .*changed: settings;" "$rc $calls $out"

git -C "$T_TREE" update-ref "refs/heads/test-main-$$/v1" refs/tags/mbus-base
job
expect_match "a revision branch of the base tree moved: named, every stage runs" \
	"^0 4 .*changed: ([a-z]+ )*base( [a-z]+)*;" "$rc $calls $out"

job MBUS_MAIN_RERUN=1
expect_eq "MBUS_MAIN_RERUN=1: every stage runs although nothing changed" "0 4" "$rc $calls"
job
expect_eq "then, nothing changed: no stage started" "0 0" "$rc $calls"

# A patch that makes a stage fail.
echo "a failing line" >>"$T_TMP/series/series-v1/0001-fixture.patch"
touch "$T_CTL/fail"
job
expect_eq "a failing stage: the job fails, maintainers and where are not run" "1 2" "$rc $calls"
job
expect_eq "a failed run is not remembered: the same inputs run every stage again" "1 2" "$rc $calls"
rm "$T_CTL/fail"

echo "a passing line" >>"$T_TMP/series/series-v1/0001-fixture.patch"
touch "$T_CTL/edit"
job
expect_match "inputs changed while it ran: passes, not remembered" \
	"^0 4 .*its inputs changed while it ran; not remembered" "$rc $calls $(tr '\n' ' ' <<<"$out")"
job
expect_eq "after that, every stage runs again" "0 4" "$rc $calls"
t_done
