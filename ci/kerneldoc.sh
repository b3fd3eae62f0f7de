#!/bin/bash
# Check "kernel-doc": scripts/kernel-doc -Wall -none on the .c/.h files that a
# patch touches, before and after it; fails on any new warning (compared as
# messages without line numbers). Pre-existing warnings give WARN.
#
# usage: kerneldoc.sh before|after OUTDIR FILE...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

when=$1 out=$2
shift 2
files=()
for f in "$@"; do
	case $f in *.c | *.h) [ -f "$MBUS_TREE/$f" ] && files+=("$f") ;; esac
done
: >"$out/kernel-doc.$when"
if [ "${#files[@]}" -gt 0 ]; then
	rc=0
	(cd "$MBUS_TREE" && perl scripts/kernel-doc -Wall -none "${files[@]}") >"$out/kernel-doc.$when.raw" 2>&1 || rc=$?
	sed -E 's/^([^: ]+):[0-9]+: /\1: /' "$out/kernel-doc.$when.raw" | sort -u >"$out/kernel-doc.$when"
	# With -none, kernel-doc exits 0 unless it could not run at all.
	if [ "$rc" -ne 0 ]; then
		[ "$when" = before ] || verdict_write "$out/kernel-doc.verdict" FAIL "${MBUS_INPUTS:?}" "scripts/kernel-doc exited $rc: $(tail -n 1 "$out/kernel-doc.$when.raw")"
		echo "$rc" >"$out/kernel-doc.$when.failed"
		exit 1
	fi
fi
[ "$when" = after ] || exit 0

if [ -f "$out/kernel-doc.before.failed" ]; then
	verdict_write "$out/kernel-doc.verdict" FAIL "${MBUS_INPUTS:?}" "scripts/kernel-doc could not run before the patch: $(tail -n 1 "$out/kernel-doc.before.raw")"
	exit 1
fi
comm -13 "$out/kernel-doc.before" "$out/kernel-doc.after" >"$out/kernel-doc.log"
nnew=$(wc -l <"$out/kernel-doc.log")
nold=$(wc -l <"$out/kernel-doc.after")
if [ "$nnew" -gt 0 ]; then
	verdict_write "$out/kernel-doc.verdict" FAIL "${MBUS_INPUTS:?}" "$nnew new warning(s): $(head -n 1 "$out/kernel-doc.log")"
elif [ "$nold" -gt 0 ]; then
	verdict_write "$out/kernel-doc.verdict" WARN "${MBUS_INPUTS:?}" "no new warnings; $nold pre-existing in touched files"
else
	verdict_write "$out/kernel-doc.verdict" OK "${MBUS_INPUTS:?}" "${#files[@]} file(s), 0 warnings"
fi
