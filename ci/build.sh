#!/bin/bash
# Check "build": an incremental build of COMMIT in the test configuration
# with W=1 and sparse (C=1) in the shared object directory. The files the
# patch touches are touched again first, so that every object that depends
# on them is rebuilt (and its warnings printed) whatever the object
# directory last built: another revision, or a run killed midway.
# Warnings are compared as messages (file and text, without line numbers),
# never as counts: the check fails if the build fails, if this build printed
# a warning that is not in the set known before the patch, or if the
# .config the build ended with lost an option ci/kernel.config asks for.
#
# usage: build.sh COMMIT BEFORE AFTER OUTDIR [FILE...]
#   BEFORE  file of known warnings (the state before this patch)
#   AFTER   file to write: BEFORE plus this build's warnings
#   FILE    the files the patch touches
#   With BEFORE "-": a reference build (the base); it records, never fails
#   on warnings.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

commit=$1 before=$2 after=$3 out=$4
shift 4
log="$out/build.log"
frag="$MBUS_TOP/ci/kernel.config"
"$MBUS_TOP/ci/config.sh" "$commit" "$MBUS_BUILD" "$frag"
tree_checkout "$commit"
# Objects a quick kernel build compiled and did not get to remove (a killed
# ci/kernel.sh --quick): compiled again here, so that their warnings count.
if [ -f "$MBUS_BUILD/.mbus-quick-stamp" ]; then
	find "$MBUS_BUILD" -name '*.o' -newer "$MBUS_BUILD/.mbus-quick-stamp" -delete
	rm -f "$MBUS_BUILD/.mbus-quick-stamp"
fi
for f in "$@"; do
	[ ! -f "$MBUS_TREE/$f" ] || touch "$MBUS_TREE/$f"
done
rc=0
make -C "$MBUS_TREE" O="$MBUS_BUILD" ARCH=x86_64 CC="ccache gcc" \
	W=1 C=1 -j"$JOBS" -s bzImage modules >"$log" 2>&1 || rc=$?
lost=""
if [ "$rc" -eq 0 ] && ! lost=$("$MBUS_TOP/ci/config.sh" --validate "$commit" "$MBUS_BUILD" "$frag" 2>&1); then
	lost=${lost:-"config.sh --validate failed without saying why"}
fi

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
	if [ -n "$lost" ]; then
		verdict_write "$out/build.verdict" FAIL "${MBUS_INPUTS:?}" "$lost"
		exit 1
	elif [ "$rc" -ne 0 ]; then
		verdict_write "$out/build.verdict" FAIL "${MBUS_INPUTS:?}" "reference build failed (rc $rc): $(grep -m1 -E 'error' "$log" || true)"
		exit 1
	fi
	verdict_write "$out/build.verdict" OK "${MBUS_INPUTS:?}" "reference: $(wc -l <"$after") known warnings"
	exit 0
fi

comm -13 "$before" "$out/build.warnings" >"$out/build.new-warnings"
sort -u "$before" "$out/build.warnings" >"$after"
nnew=$(wc -l <"$out/build.new-warnings")
if [ "$rc" -ne 0 ]; then
	verdict_write "$out/build.verdict" FAIL "${MBUS_INPUTS:?}" "build failed (rc $rc): $(grep -m1 -E '(error|Error)' "$log" || tail -n 1 "$log")"
elif [ -n "$lost" ]; then
	verdict_write "$out/build.verdict" FAIL "${MBUS_INPUTS:?}" "$lost"
elif [ "$nnew" -gt 0 ]; then
	verdict_write "$out/build.verdict" FAIL "${MBUS_INPUTS:?}" "$nnew new W=1/sparse warning(s): $(head -n 1 "$out/build.new-warnings")"
else
	verdict_write "$out/build.verdict" OK "${MBUS_INPUTS:?}" "builds; no new W=1/sparse warnings"
fi
