#!/bin/bash
# Known reports of posted revisions (ci/known-reports.sh), on copies of
# per-patch verdicts: a listed failure of a posted revision becomes WARN
# "XFAIL ..."; a listed patch that does not fail so is an XPASS (exit 1);
# an entry naming no check is an error (exit 2); a revision that is not
# posted gets no XFAIL.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 4

key=0123456789abcdef
d="$T_TMP/v1"
mkdir -p "$d/0001" "$d/0002"
echo "FAIL $key 1 new Sphinx warning(s): fixture duplicate" >"$d/0001/htmldocs.verdict"
echo "OK $key no new Sphinx warning in driver-api/media" >"$d/0002/htmldocs.verdict"
kr() {   # ENTRIES REV: known-reports.sh on $d with ENTRIES; "rc=N output"
	printf '%s\n' "$1" >"$T_TMP/known"
	local out rc=0
	out=$(MBUS_KNOWN_REPORTS="$T_TMP/known" ci/known-reports.sh "$2" "$d" htmldocs 2>&1) || rc=$?
	echo "rc=$rc $out"
}

out=$(kr 'v1 htmldocs 0001 fixture duplicate$ | a fixture' v1)
expect_match "a listed failure of a posted revision (v1) is WARN XFAIL" \
	"^rc=0 +WARN $key XFAIL known report of a posted revision \\(a fixture\\): 1 new Sphinx" \
	"$out $(cat "$d/0001/htmldocs.verdict")"
echo "FAIL $key 1 new Sphinx warning(s): fixture duplicate" >"$d/0001/htmldocs.verdict"
expect_match "a listed patch that passes is an XPASS (exit 1)" \
	"^rc=1 XPASS: .*known:1 lists v1 htmldocs 0002, which is OK" \
	"$(kr 'v1 htmldocs 0002 anything | a fixture' v1)"
expect_match "an entry naming no check is an error (exit 2), naming the line" \
	"^rc=2 .*known:1: 'htmldoc 0001' is not CHECK NNNN" \
	"$(kr 'v1 htmldoc 0001 anything | a fixture' v1)"
expect_match "a revision that is not posted gets no XFAIL (v9: XPASS)" \
	"^rc=1 XPASS: .*\\(v9 is not posted\\)" \
	"$(kr 'v9 htmldocs 0001 fixture | a fixture' v9)"
t_done
