#!/bin/bash
# Check "build": an incremental build of the test configuration with W=1 and
# sparse (C=1) in the shared object directory, whatever is checked out in the
# base tree. Warnings are compared as messages (file and text, without line
# numbers), never as counts: the check fails if the build fails or if this
# build printed a warning that is not in the set known before the patch.
#
# usage: build.sh BEFORE AFTER OUTDIR
#   BEFORE  file of known warnings (the state before this patch)
#   AFTER   file to write: BEFORE plus this build's warnings
#   With BEFORE "-": a reference build (the base); it records, never fails
#   on warnings.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

before=$1 after=$2 out=$3
log="$out/build.log"
"$MBUS_TOP/ci/config.sh"
rc=0
make -C "$MBUS_TREE" O="$MBUS_BUILD" ARCH=x86_64 CC="ccache gcc" \
	W=1 C=1 -j"$JOBS" -s bzImage modules >"$log" 2>&1 || rc=$?

# file:line:col: warning: text  ->  file: warning: text
normalize_warnings() {
	sed -E -e "s|$MBUS_TREE/||g" -e "s|$MBUS_BUILD/||g" "$1" |
		{ grep -E '(^|: )(warning|error|WARNING|ERROR)[: ]' || true; } |
		sed -E -e 's/^([^: ]+):[0-9]+:[0-9]+: /\1: /' \
			-e 's/^([^: ]+):[0-9]+: /\1: /' | sort -u
}
normalize_warnings "$log" >"$out/build.warnings"

if [ "$before" = - ]; then
	cp "$out/build.warnings" "$after"
	if [ "$rc" -ne 0 ]; then
		write_verdict "$out/build.verdict" FAIL "reference build failed (rc $rc): $(grep -m1 -E 'error' "$log" || true)"
		exit 1
	fi
	write_verdict "$out/build.verdict" OK "reference: $(wc -l <"$after") known warnings"
	exit 0
fi

comm -13 "$before" "$out/build.warnings" >"$out/build.new-warnings"
sort -u "$before" "$out/build.warnings" >"$after"
nnew=$(wc -l <"$out/build.new-warnings")
if [ "$rc" -ne 0 ]; then
	write_verdict "$out/build.verdict" FAIL "build failed (rc $rc): $(grep -m1 -E '(error|Error)' "$log" || tail -n 1 "$log")"
elif [ "$nnew" -gt 0 ]; then
	write_verdict "$out/build.verdict" FAIL "$nnew new W=1/sparse warning(s): $(head -n 1 "$out/build.new-warnings")"
else
	write_verdict "$out/build.verdict" OK "builds; no new W=1/sparse warnings"
fi
