#!/bin/bash
# Stage "ktap-run": run one KTAP-reporting test script, keep its log, and
# say what the tree's KTAP parser (ci/ktap.py) makes of it with its exit
# status: "ok - NAME: case" / "not ok - NAME: case" a result, and one more
# "not ok - NAME: the script did not complete: ..." if it declared no plan,
# fell short of it or went past it, crashed or exited non-zero.
#
# usage: ktap-run.sh NAME LOG CMD...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

name=${1:?usage: ktap-run.sh NAME LOG CMD...} log=${2:?usage: ktap-run.sh NAME LOG CMD...}
shift 2
[ $# -gt 0 ] || die "usage: ktap-run.sh NAME LOG CMD..."
mkdir -p "$(dirname "$log")"
MBUS_KUNIT_DIR="$(base_tools)/tools/testing/kunit"
export MBUS_KUNIT_DIR
rc=0
# A test that hangs is stopped (exit 124) and fails like a crash.
timeout -k 10 "${MBUS_TEST_TIMEOUT:-2400}" "$@" </dev/null >"$log" 2>&1 || rc=$?
sed 's/^/    /' "$log"
timeout 120 python3 "$MBUS_TOP/ci/ktap.py" script "$name" "$log" "$rc" ||
	echo "not ok - $name: ci/ktap.py could not read $log (exit $?)"
