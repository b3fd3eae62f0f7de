#!/bin/bash
# ci/each-rev.sh's stage groups (builds+cocci; check,csi2-compare,
# builds+cocci as @checks has it, which make check, the main job and the
# test command run): the stage after
# "+" runs beside the others, which run one after the other and print as
# they go; its output comes after theirs; each has its own verdict line,
# and one that fails fails the run although the others pass. A run that
# is stopped stops the stage running beside, with its children. A group
# naming a stage that does not exist, stages that may share something, or
# that is no group, runs nothing. Stub stages (check.sh, csi2-compare.sh,
# builds.sh and cocci.sh) in a copy of ci/, a fixture tree and cache of
# their own.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 17

w=$T_TMP/w
mkdir -p "$w/series/series-v1"
cp -a "$T_TOP/ci" "$w/ci"
: >"$w/series/series-v1/0001-stub.patch"
tree=$T_TMP/cache/linux
git init -q "$tree"
git -C "$tree" -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m base
git -C "$tree" tag mbus-base
git -C "$tree" branch -q -f base mbus-base
# The real tree's stamp: tree.sh takes the fixture for the extracted base.
cp "$MBUS_TREE/.git/mbus-base-stamp" "$tree/.git/mbus-base-stamp"
# Each of the two (builds first) writes a file and waits for the other's:
# both see it only if the two run side by side (one after the other, in
# either order, one of them would wait in vain). cocci then exits with
# $TB_RC (3 unless set); with $T_CTL/hang, it starts a child that sleeps,
# records both pids and waits for it.
cat >"$w/ci/builds.sh" <<'STUB'
#!/bin/bash
echo "ta $1 begins"
: >"$T_CTL/ta-ran"
for _ in $(seq 1 100); do [ -e "$T_CTL/tb-ran" ] && break; sleep 0.1; done
[ -e "$T_CTL/tb-ran" ] && echo "ta $1 saw tb" || echo "ta $1 did not see tb"
[ ! -e "$T_CTL/hang" ] || sleep 60
exit "${TA_RC:-0}"
STUB
cat >"$w/ci/cocci.sh" <<'STUB'
#!/bin/bash
echo "tb $1 begins"
: >"$T_CTL/tb-ran"
for _ in $(seq 1 100); do [ -e "$T_CTL/ta-ran" ] && break; sleep 0.1; done
[ -e "$T_CTL/ta-ran" ] && echo "tb $1 saw ta" || echo "tb $1 did not see ta"
if [ -e "$T_CTL/hang" ]; then
	sleep 60 &
	echo "$$ $!" >"$T_CTL/tb-pids"
	wait
fi
exit "${TB_RC:-3}"
STUB
# check waits for cocci's file as builds does; csi2-compare only prints.
cat >"$w/ci/check.sh" <<'STUB'
#!/bin/bash
echo "tc $1 begins"
for _ in $(seq 1 100); do [ -e "$T_CTL/tb-ran" ] && break; sleep 0.1; done
[ -e "$T_CTL/tb-ran" ] && echo "tc $1 saw tb" || echo "tc $1 did not see tb"
exit "${TC_RC:-0}"
STUB
printf '#!/bin/bash\necho "t2 $1"\n' >"$w/ci/csi2-compare.sh"
printf '#!/bin/bash\necho "ap $1"\n' >"$w/ci/apply.sh"
printf '#!/bin/bash\necho "th $1"\n' >"$w/ci/htmldocs.sh"
export T_CTL=$T_TMP
each() {
	rm -f "$T_CTL/ta-ran" "$T_CTL/tb-ran"
	MBUS_CACHE=$T_TMP/cache MBUS_TREE=$tree MBUS_SERIES_DIR=$w/series \
		MBUS_RESULTS=$T_TMP/results MBUS_STATE=$T_TMP/state "$@" 2>&1
}

out=$(each "$w/ci/each-rev.sh" builds+cocci)
rc=$?
expect_match "builds+cocci: builds OK, cocci FAIL, and the run fails" \
	"rc=1 .*REVISION v1 builds: OK REVISION v1 cocci: FAIL" "rc=$rc $(tr '\n' ' ' <<<"$out")"
expect_match "builds' output as it goes, then cocci's; each saw the other's file (side by side)" \
	"ta v1 begins ta v1 saw tb tb v1 begins tb v1 saw ta REVISION" "$(tr '\n' ' ' <<<"$out")"
out=$(TB_RC=0 each "$w/ci/each-rev.sh" builds+cocci)
rc=$?
expect_match "both passing: the run passes" \
	"rc=0 .*REVISION v1 builds: OK REVISION v1 cocci: OK" "rc=$rc $(tr '\n' ' ' <<<"$out")"
out=$(TA_RC=1 TB_RC=0 each "$w/ci/each-rev.sh" builds+cocci)
rc=$?
expect_match "the first failing, the second passing: the run fails" \
	"rc=1 .*REVISION v1 builds: FAIL REVISION v1 cocci: OK" "rc=$rc $(tr '\n' ' ' <<<"$out")"
out=$(each "$w/ci/each-rev.sh" builds+nosuch)
rc=$?
expect_match "a group with a stage that does not exist runs nothing and names it" \
	"^rc=1 error: each-rev.sh: no stage ci/nosuch.sh\$" "rc=$rc $(tr '\n' ' ' <<<"$out" | sed 's/ $//')"
out=$(each "$w/ci/each-rev.sh" cocci+builds)
rc=$?
expect_match "a group that is not known to share nothing is refused" \
	"^rc=1 error: each-rev.sh: cocci\+builds: only builds\+cocci check,csi2-compare,builds\+cocci may run side by side" "rc=$rc $(tr '\n' ' ' <<<"$out")"

# After apply: check, csi2-compare and builds one after the other, cocci
# beside all three (check and builds each see its file, it sees builds').
out=$(each "$w/ci/each-rev.sh" apply check,csi2-compare,builds+cocci)
rc=$?
expect_match "apply, then check,csi2-compare,builds+cocci: in order, cocci beside them all, its output last" \
	"^ap v1 REVISION v1 apply: OK tc v1 begins tc v1 saw tb t2 v1 ta v1 begins ta v1 saw tb tb v1 begins tb v1 saw ta REVISION" \
	"$(grep -vE '^(==>|<==) tree' <<<"$out" | tr '\n' ' ')"
expect_match "each has its verdict line; cocci failing fails the run" \
	"rc=1 .*REVISION v1 check: OK REVISION v1 csi2-compare: OK REVISION v1 builds: OK REVISION v1 cocci: FAIL" \
	"rc=$rc $(tr '\n' ' ' <<<"$out")"
out=$(TC_RC=1 TB_RC=0 each "$w/ci/each-rev.sh" apply check,csi2-compare,builds+cocci)
rc=$?
expect_match "check failing: csi2-compare and builds still run, the run fails" \
	"rc=1 .*t2 v1 ta v1 begins.*REVISION v1 check: FAIL REVISION v1 csi2-compare: OK REVISION v1 builds: OK REVISION v1 cocci: OK" \
	"rc=$rc $(tr '\n' ' ' <<<"$out")"
# @checks, the one list make check, the main job and the test command
# run: apply, then check, csi2-compare and builds with cocci beside, then
# htmldocs.
out=$(TB_RC=0 each "$w/ci/each-rev.sh" @checks)
rc=$?
expect_match "@checks: apply, check, csi2-compare and builds with cocci beside, then htmldocs" \
	"^rc=0 ap v1 REVISION v1 apply: OK tc v1 begins tc v1 saw tb t2 v1 ta v1 begins ta v1 saw tb tb v1 begins tb v1 saw ta REVISION v1 check: OK REVISION v1 csi2-compare: OK REVISION v1 builds: OK REVISION v1 cocci: OK th v1 REVISION v1 htmldocs: OK" \
	"rc=$rc $(grep -vE '^(==>|<==) tree' <<<"$out" | tr '\n' ' ')"
# The three that run them say @checks, not a list of their own.
callers=""
for f in Makefile ci/main.sh ci/test.sh; do
	grep -qE 'each-rev\.sh"? @checks( |$)' "$T_TOP/$f" || callers+="$f "
done
expect_eq "make check, the main job and the test command run each-rev.sh @checks" "" "$callers"
refused() {   # GROUP...: each-rev.sh's message and exit status
	local o rc=0
	o=$(each "$w/ci/each-rev.sh" "$@") || rc=$?
	echo "$(tail -n 1 <<<"$o") (rc=$rc)"
}
expect_eq "no group, a plain sequence, stages not known to share nothing, or check and cocci before apply: refused, named" \
	"error: each-rev.sh: 'builds+' is not a group (STAGE, STAGE[,STAGE]...+STAGE, or @checks) (rc=1)
error: each-rev.sh: 'check,csi2-compare' is not a group (STAGE, STAGE[,STAGE]...+STAGE, or @checks) (rc=1)
error: each-rev.sh: check,builds+cocci: only builds+cocci check,csi2-compare,builds+cocci may run side by side (stages that share nothing) (rc=1)
error: each-rev.sh: check,csi2-compare,builds+cocci: check's apply and cocci beside it need the branch made first: run apply before it (each-rev.sh apply check,csi2-compare,builds+cocci) (rc=1)" \
	"$(refused builds+; refused check,csi2-compare; refused check,builds+cocci; refused check,csi2-compare,builds+cocci apply)"

# The side tree is shared by apply (in check) and cocci beside it: each
# holds the side tree's lock while it uses it. A revision of one real
# patch, in a series of its own, applied; then its patch is edited and
# apply, run while the test holds the lock, must wait before it touches
# the side tree or the branch, with its old verdict already gone; cocci
# must wait too, and hold the lock while coccicheck runs (a make stub
# says whether it is held).
s2=$T_TMP/series2
mkdir -p "$s2/series-v2"
git clone -q "$tree" "$T_TMP/mk"
mkdir -p "$T_TMP/mk/drivers"
printf 'int a;\n' >"$T_TMP/mk/drivers/a.c"
# (A file at the top of the tree too: cocci once made its path a directory.)
printf 'int t;\n' >"$T_TMP/mk/t.c"
git -C "$T_TMP/mk" add drivers/a.c t.c
git -C "$T_TMP/mk" -c user.name=t -c user.email=t@t.invalid commit -q -m "a: add a"
git -C "$T_TMP/mk" format-patch -q -1 -o "$s2/series-v2"
fx=(env MBUS_CACHE="$T_TMP/cache" MBUS_TREE="$tree" MBUS_SERIES_DIR="$s2"
	MBUS_RESULTS="$T_TMP/results" MBUS_STATE="$T_TMP/state")
in2() { "${fx[@]}" "$@" 2>&1; }
# waits_on_lock PID: true once PID has a flock child (waiting on the lock).
waits_on_lock() {
	local _
	for _ in $(seq 1 200); do
		pgrep -P "$1" -x flock >/dev/null && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
in2 "$T_TOP/ci/apply.sh" v2 >/dev/null
side0=$(git -C "$tree-side" rev-parse HEAD) branch0=$(git -C "$tree" rev-parse rev/v2)
sed -i 's/^+int a;/+int b;/' "$s2"/series-v2/*.patch
# (The test holds the lock on fd 7; the stage started must not inherit it.)
exec 7>>"$tree-side.lock"
flock 7
"${fx[@]}" "$T_TOP/ci/apply.sh" v2 >/dev/null 2>&1 7>&- &
apid=$!
held=no
waits_on_lock "$apid" && held=waits
seen="$held|$([ -e "$T_TMP/results/v2/apply.verdict" ] && echo verdict || echo no-verdict)"
seen+="|$([ "$(git -C "$tree-side" rev-parse HEAD)" = "$side0" ] && echo side-kept || echo side-moved)"
seen+="|$([ "$(git -C "$tree" rev-parse rev/v2)" = "$branch0" ] && echo branch-kept || echo branch-moved)"
exec 7>&-
rc=0
wait "$apid" || rc=$?
expect_eq "apply, the lock held: waits, its old verdict gone, side tree and branch unmoved; then applies" \
	"waits|no-verdict|side-kept|branch-kept|rc=0|int b;" "$seen|rc=$rc|$(git -C "$tree" show rev/v2:drivers/a.c 2>&1)"
mkdir -p "$T_TMP/bin"
printf '#!/bin/sh\necho "spatch version 1.1.1"\n' >"$T_TMP/bin/spatch"
printf '%s\n' '#!/bin/bash' \
	'flock -n "$MBUS_TREE-side.lock" true && s=free || s=held' \
	'for a; do case $a in M=*) [ -f "$(echo "${a#M=}"/*/t.c)" ] || s+=" (no file t.c)" ;; esac; done' \
	'echo "$s" >"$T_CTL/make-saw"' >"$T_TMP/bin/make"
chmod +x "$T_TMP/bin"/*
exec 7>>"$tree-side.lock"
flock 7
PATH=$T_TMP/bin:$PATH "${fx[@]}" "$T_TOP/ci/cocci.sh" v2 >"$T_TMP/cocci.out" 2>&1 7>&- &
cpid=$!
held=no
waits_on_lock "$cpid" && held=waits
saw=$(cat "$T_CTL/make-saw" 2>/dev/null || echo "no make")
exec 7>&-
wait "$cpid" || true
expect_eq "cocci, the lock held: waits before coccicheck; then holds it while coccicheck runs" \
	"waits|no make|held" "$held|$saw|$(cat "$T_CTL/make-saw" 2>/dev/null || echo "no make: $(tail -n 2 "$T_TMP/cocci.out" | tr '\n' ' ')")"
# A path git diff quotes (here a '"' in its name) names no file as it
# prints it: cocci fails, named, instead of passing a file it never read.
git -C "$T_TMP/mk" reset -q --hard HEAD~1
mkdir -p "$T_TMP/mk/drivers"
printf 'int q;\n' >"$T_TMP/mk/drivers/q\"x.c"
git -C "$T_TMP/mk" add -A
git -C "$T_TMP/mk" -c user.name=t -c user.email=t@t.invalid commit -q -m "q: add a quoted path"
mkdir -p "$s2/series-v3"
git -C "$T_TMP/mk" format-patch -q -1 -o "$s2/series-v3"
rc=0
in2 "$T_TOP/ci/apply.sh" v3 >/dev/null || rc=$?
out=$(PATH=$T_TMP/bin:$PATH in2 "$T_TOP/ci/cocci.sh" v3) || rc=$((rc + 10))
expect_match "cocci fails, named, on a path git quotes" \
	'^rc=10 .*error: cocci v3: "drivers/q\\"x.c": changed by [0-9a-f]{12} but in neither version' \
	"rc=$rc $(tail -n 1 <<<"$out")"
# check keeps the apply verdict and tip that cocci, beside it, reads: the
# real check.sh, with a stub apply.sh that says what it finds.
w2=$T_TMP/w2
mkdir -p "$w2"
cp -a "$T_TOP/ci" "$w2/ci"
printf '%s\n' '#!/bin/bash' 'for f in verdict tip; do [ ! -f "$MBUS_RESULTS/$1/apply.$f" ] || printf "%s " "$f"; done >"$T_CTL/apply-saw"' \
	'exit 1' >"$w2/ci/apply.sh"
in2 "$w2/ci/check.sh" v2 >/dev/null || true
expect_eq "check leaves apply's verdict and tip in place until its apply writes them" "verdict tip " \
	"$(cat "$T_CTL/apply-saw" 2>/dev/null || echo "apply not run")"

# Stopped while both run (INT to the run's process group, as a terminal's
# ^C or make's own stop would reach it): cocci, in a group of its own, and
# its child end too.
: >"$T_CTL/hang"
rm -f "$T_CTL/ta-ran" "$T_CTL/tb-ran" "$T_CTL/tb-pids"
MBUS_CACHE=$T_TMP/cache MBUS_TREE=$tree MBUS_SERIES_DIR=$w/series MBUS_RESULTS=$T_TMP/results \
	MBUS_STATE=$T_TMP/state setsid env --default-signal=INT "$w/ci/each-rev.sh" builds+cocci \
	>"$T_TMP/stopped.log" 2>&1 &
run=$!
for _ in $(seq 1 100); do [ -s "$T_CTL/tb-pids" ] && break; sleep 0.1; done
read -r tb child <"$T_CTL/tb-pids" 2>/dev/null || tb="" child=""
# (The background job of this script ignores INT; env gives it back.)
running=0
for p in $tb $child; do ! kill -0 "$p" 2>/dev/null || running=$((running + 1)); done
kill -INT -- "-$run" 2>/dev/null
wait "$run" 2>/dev/null
rc=$?
alive=""
for _ in $(seq 1 50); do
	alive=""
	for p in $tb $child; do ! kill -0 "$p" 2>/dev/null || alive+="$p "; done
	[ -n "$alive" ] || break
	sleep 0.1
done
if [ "$running" -eq 2 ] && [ -z "$alive" ] && [ "$rc" -eq 130 ]; then
	ok "a run stopped by INT exits 130 and stops cocci and its child"
else
	notok "a run stopped by INT exits 130 and stops cocci and its child" \
		"pids '$tb $child' ($running running before), still alive '$alive', exit $rc: $(tr '\n' ' ' <"$T_TMP/stopped.log")"
	for p in $alive; do kill -9 "$p" 2>/dev/null; done
fi
rm -f "$T_CTL/hang"
t_done
