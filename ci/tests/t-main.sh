#!/bin/bash
# The main job remembers a run that passed (ci/main.sh): with nothing
# changed, make prints that run's verdicts and redoes nothing, also after a
# run that applied and rendered anew; a change of any part of its inputs
# (the fixture series, the workspace's files and modes, what git has
# committed, a tracked file deleted, the postings, the results (not a
# quick guest's), the environment and a file a variable names, a program
# on the PATH, the base tree and the revision branches) runs every stage
# again and names the part, and a run that made the base tree is
# remembered; with a part that cannot be read, every stage runs and nothing
# is remembered; a failed run, and a run whose inputs changed while it ran,
# are never remembered; REV=vN is remembered apart. In a copy of the
# workspace whose stage scripts are stubs (ci/main.sh itself is the real
# one), with its own cache, results, series and a small fixture base tree.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
t_plan 40

w="$T_TMP/ws"
mkdir -p "$w" "$T_TMP/bin"
cp -a "$T_TOP/." "$w/"
# The stubs' control directory (a directory: the content of a file that a
# variable names is part of the job's key).
export T_CTL="$T_TMP/ctl"
mkdir -p "$T_CTL" "$T_TMP/series/series-v1"
printf 'From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] fixture\n\n---\n' \
	>"$T_TMP/series/series-v1/0001-fixture.patch"
# The fixture base tree: a tag mbus-base and a stamp, as tree.sh makes them.
tree="$T_TMP/tree"
git init -q "$tree"
git -C "$tree" -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m base
git -C "$tree" tag mbus-base
echo "fixture stamp" >"$tree/.git/mbus-base-stamp"

# The stubs: each-rev.sh applies (moves the revision branch to a commit
# made from the patch), writes a verdict into the results and the postings
# into the workspace, as the real stages do; it fails while $T_CTL/fail
# exists and edits the series while it runs if $T_CTL/edit exists.
# matrix.sh fails while $T_CTL/matrix-fail exists.
cat >"$w/ci/each-rev.sh" <<'STUB'
#!/bin/bash
echo "each-rev $*" >>"$T_CTL/calls"
# tree.sh makes the base tree's stamp if there is none.
[ -f "$MBUS_TREE/.git/mbus-base-stamp" ] || echo "fixture stamp" >"$MBUS_TREE/.git/mbus-base-stamp"
p="$MBUS_SERIES_DIR/series-v1/0001-fixture.patch"
c=$(git -C "$MBUS_TREE" commit-tree -p mbus-base -m "$(sha256sum <"$p")" "mbus-base^{tree}")
git -C "$MBUS_TREE" update-ref "refs/heads/${MBUS_BRANCH_PREFIX}v1" "$c"
mkdir -p "$MBUS_RESULTS/v1/0001" "$(dirname "$0")/../outgoing/v1"
cp "$p" "$(dirname "$0")/../outgoing/v1/"
if [ -e "$T_CTL/edit" ]; then
	echo "edited while the job ran" >>"$p"
	rm "$T_CTL/edit"
fi
if [ -e "$T_CTL/fail" ]; then
	echo "FAIL stub" >"$MBUS_RESULTS/v1/0001/checkpatch.verdict"
	echo "REVISION v1 check: FAIL"
	exit 1
fi
echo "OK stub" >"$MBUS_RESULTS/v1/0001/checkpatch.verdict"
echo "REVISION v1 check: OK"
STUB
cat >"$w/ci/matrix.sh" <<'STUB'
#!/bin/bash
echo "matrix" >>"$T_CTL/calls"
printf '==> matrix\nv1 0001 stub-cell ok\n<== matrix OK\n'
[ ! -e "$T_CTL/matrix-fail" ]
STUB
printf '#!/bin/bash\necho "maintainers" >>"$T_CTL/calls"\necho "<== maintainers OK"\n' >"$w/ci/maintainers.sh"
printf '#!/bin/bash\necho "where" >>"$T_CTL/calls"\necho "Postings of v1: stub"\n' >"$w/ci/where.sh"
chmod +x "$w"/ci/{each-rev,matrix,maintainers,where}.sh

# job [VAR=VALUE...]: run the real ci/main.sh of the copy; sets out, rc,
# calls (how many stub stages it started) and rcc ("rc calls").
job() {
	: >"$T_CTL/calls"
	rc=0
	out=$(env -u MBUS_LOCKED -u REV -u MBUS_MAIN_RERUN -u MBUS_GUEST_REFRESH \
		PATH="$T_TMP/bin:$PATH" MBUS_TREE="$tree" \
		MBUS_CACHE="$T_TMP/cache" MBUS_STATE="$T_TMP/state" MBUS_RESULTS="$T_TMP/results" \
		MBUS_SERIES_DIR="$T_TMP/series" MBUS_BRANCH_PREFIX="rev/" "$@" \
		"$w/ci/main.sh" 2>&1) || rc=$?
	calls=$(wc -l <"$T_CTL/calls")
	rcc="$rc $calls"
}
# redone NAME PART: every stage ran, passed, and PART is named as changed.
redone() {
	expect_match "$1: every stage runs again, '$2' named" \
		"^0 4 .*changed: ([a-z]+ )*$2( [a-z]+)*;" "$rcc $(head -n 1 <<<"$out")"
}
# kept NAME: nothing was started.
kept() {
	expect_eq "$1: no stage started" "0 0" "$rcc"
}

job
expect_eq "first run: every stage runs (4 stub stages) and passes" "0 4" "$rcc"
job
kept "nothing changed"
expect_match "nothing changed: says so, with its verdict and time" \
	'^<== main job: nothing changed +OK +[0-9.]+s' "$out"
expect_match "nothing changed: the remembered revision verdicts are printed" '^REVISION v1 check: OK$' "$out"
expect_match "nothing changed: the remembered matrix is printed" '^v1 0001 stub-cell ok$' "$out"
expect_match "nothing changed: where the postings are is printed" '^Postings of v1: stub$' "$out"

echo "one more line" >>"$T_TMP/series/series-v1/0001-fixture.patch"
job
redone "a patch changed" series
job
kept "after a run that applied and rendered anew (branch and postings moved)"

mkdir -p "$T_TMP/results/quick/v1"
echo "OK 0123456789abcdef a quick run" >"$T_TMP/results/quick/v1/boot.verdict"
job
kept "a quick guest's run (results/quick/, which the job does not read)"

touch -d '2001-01-01' "$T_TMP/results/v1/0001/checkpatch.verdict"
job
redone "a verdict file's time changed" results
rm "$T_TMP/results/v1/0001/checkpatch.verdict"
job
redone "a verdict file removed" results

echo "# a new line" >>"$w/ci/known-failures"
job
redone "a workspace file changed" workspace
chmod +x "$w/ci/known-failures"
job
redone "a workspace file's mode changed" workspace
echo "scratch" >"$w/series-v1/notes.orig"
job
redone "an untracked file in the workspace" workspace

echo "hand edit" >>"$w/outgoing/v1/0001-fixture.patch"
job
redone "a posting edited by hand" postings
# What is committed, alone: an edit staged, the file put back.
cp "$w/MAINTAINERS-notes" "$T_TMP/notes"
echo "staged" >>"$w/MAINTAINERS-notes"
git -C "$w" add MAINTAINERS-notes
cp "$T_TMP/notes" "$w/MAINTAINERS-notes"
job
redone "the index alone changed (MAINTAINERS-notes: same content, order and mode)" postings

rm "$w/ci/upstream-commits"
job
redone "a tracked file deleted (not with git rm)" workspace
sed -i '1s/^./X/' "$w/ci/known-failures"
job
redone "then a same-size edit of another file" workspace

job SPHINXOPTS=-W
redone "a variable of the environment set" settings
job SPHINXOPTS=-W
kept "the same environment again"
job
redone "the variable unset again" settings

printf '#!/bin/sh\n' >"$T_TMP/bin/clang"
job
redone "a program added to a PATH directory" tools

echo "one entry" >"$T_TMP/kf"
job MBUS_KNOWN_FAILURES="$T_TMP/kf"
redone "a variable naming a file" settings
echo "two entry" >"$T_TMP/kf"
job MBUS_KNOWN_FAILURES="$T_TMP/kf"
redone "the file it names edited (same size)" settings

printf '#!/bin/sh\nexit 1\n' >"$T_TMP/bin/dpkg-query"
chmod +x "$T_TMP/bin/dpkg-query"
job
expect_match "a part that cannot be read: named, every stage runs, not remembered" \
	"^0 4 .*cannot read its inputs \(tools.*every stage runs.*not remembered" "$rcc $(tr '\n' ' ' <<<"$out")"
job
expect_eq "... the same again: every stage runs again" "0 4" "$rcc"
rm "$T_TMP/bin/dpkg-query"

git -C "$tree" update-ref refs/heads/rev/v1 mbus-base
job
redone "a revision branch of the base tree moved by hand" branches
echo "another stamp" >"$tree/.git/mbus-base-stamp"
job
redone "the base tree's stamp changed" base
rm "$tree/.git/mbus-base-stamp"
job
redone "no base tree yet (its stamp made during the run, as on a fresh machine)" base
job
kept "after the run that made the base tree"

job
kept "then, nothing changed"
job MBUS_MAIN_RERUN=1
expect_eq "MBUS_MAIN_RERUN=1: every stage runs although nothing changed" "0 4" "$rcc"

job REV=v1
expect_eq "REV=v1 is not taken for the whole job's run: every stage runs" "0 4" "$rcc"
job REV=v1
kept "REV=v1 again"

# A patch that makes a stage fail, then the matrix alone.
echo "a failing line" >>"$T_TMP/series/series-v1/0001-fixture.patch"
touch "$T_CTL/fail"
job
expect_eq "a failing stage: the job fails, maintainers and where are not run" "1 2" "$rcc"
job
expect_eq "a failed run is not remembered: the same inputs run every stage again" "1 2" "$rcc"
rm "$T_CTL/fail"
echo "a line the matrix fails" >>"$T_TMP/series/series-v1/0001-fixture.patch"
touch "$T_CTL/matrix-fail"
job
expect_eq "the matrix alone fails: the job fails" "1 2" "$rcc"
job
expect_eq "... and is not remembered" "1 2" "$rcc"
rm "$T_CTL/matrix-fail"

echo "a passing line" >>"$T_TMP/series/series-v1/0001-fixture.patch"
touch "$T_CTL/edit"
job
expect_match "inputs changed while it ran: passes, not remembered" \
	"^0 4 .*its inputs changed while it ran; not remembered" "$rcc $(tr '\n' ' ' <<<"$out")"
job
expect_eq "after that, every stage runs again" "0 4" "$rcc"
t_done
