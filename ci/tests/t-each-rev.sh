#!/bin/bash
# ci/each-rev.sh's stage groups (builds+cocci, as `make check` and the
# main job run them): the two run side by side, the first printing as it
# goes and the second's output after it; each has its own verdict line,
# and one that fails fails the run although the other passes. A run that
# is stopped stops the stage running beside, with its children. A group
# naming a stage that does not exist, or two stages that may share
# something, runs nothing. Stub stages (builds.sh and cocci.sh) in a copy
# of ci/, a fixture tree and cache of their own.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 7

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
	"^rc=1 error: each-rev.sh: cocci\+builds: only builds\+cocci may run side by side" "rc=$rc $(tr '\n' ' ' <<<"$out")"

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
