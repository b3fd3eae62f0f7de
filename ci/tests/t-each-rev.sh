#!/bin/bash
# ci/each-rev.sh's stage groups (STAGE+STAGE, as `make check` and the main
# job run builds+cocci): the stages of a group run side by side, the first
# printing as it goes and the others' output after it; each stage has its
# own verdict line, and one that fails fails the run although the other
# passes. A group naming a stage that does not exist runs nothing. Stub
# stages in a copy of ci/, a fixture tree and cache of their own.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 4

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
# Each of ta (first of the group) and tb writes a file and waits for the
# other's: both see it only if the two run side by side (one after the
# other, in either order, one of them would wait in vain). tb then fails.
cat >"$w/ci/ta.sh" <<'STUB'
#!/bin/bash
echo "ta $1 begins"
: >"$T_CTL/ta-ran"
for _ in $(seq 1 100); do [ -e "$T_CTL/tb-ran" ] && break; sleep 0.1; done
[ -e "$T_CTL/tb-ran" ] && echo "ta $1 saw tb" || echo "ta $1 did not see tb"
STUB
cat >"$w/ci/tb.sh" <<'STUB'
#!/bin/bash
echo "tb $1 begins"
: >"$T_CTL/tb-ran"
for _ in $(seq 1 100); do [ -e "$T_CTL/ta-ran" ] && break; sleep 0.1; done
[ -e "$T_CTL/ta-ran" ] && echo "tb $1 saw ta" || echo "tb $1 did not see ta"
exit "${TB_RC:-3}"
STUB
chmod +x "$w/ci/ta.sh" "$w/ci/tb.sh"
export T_CTL=$T_TMP
each() {
	rm -f "$T_CTL/ta-ran" "$T_CTL/tb-ran"
	MBUS_CACHE=$T_TMP/cache MBUS_TREE=$tree MBUS_SERIES_DIR=$w/series \
		MBUS_RESULTS=$T_TMP/results MBUS_STATE=$T_TMP/state "$@" 2>&1
}

out=$(each "$w/ci/each-rev.sh" ta+tb)
rc=$?
expect_match "ta+tb: ta OK, tb FAIL, and the run fails" \
	"rc=1 .*REVISION v1 ta: OK REVISION v1 tb: FAIL" "rc=$rc $(tr '\n' ' ' <<<"$out")"
expect_match "ta's output as it goes, then tb's; each saw the other's file (side by side)" \
	"ta v1 begins ta v1 saw tb tb v1 begins tb v1 saw ta REVISION" "$(tr '\n' ' ' <<<"$out")"
out=$(TB_RC=0 each "$w/ci/each-rev.sh" ta+tb)
rc=$?
expect_match "both passing: the run passes" \
	"rc=0 .*REVISION v1 ta: OK REVISION v1 tb: OK" "rc=$rc $(tr '\n' ' ' <<<"$out")"
out=$(each "$w/ci/each-rev.sh" ta+nosuch)
rc=$?
expect_match "a group with a stage that does not exist runs nothing and names it" \
	"^rc=1 error: each-rev.sh: no stage ci/nosuch.sh\$" "rc=$rc $(tr '\n' ' ' <<<"$out" | sed 's/ $//')"
t_done
