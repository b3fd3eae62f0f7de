#!/bin/bash
# Check "checkpatch": the tree's own checkpatch.pl, as the media maintainer
# profile asks (--strict --max-line-length=80), with codespell. 0/0/0 or FAIL.
#
# Two of checkpatch's tests are replaced by stricter ones, not dropped:
#  - UNKNOWN_COMMIT_ID: the base tree has no upstream history, so checkpatch
#    cannot look cited commits up. Every id cited as 'commit <id>
#    ("<subject>")' must be in ci/upstream-commits with that subject.
#  - FILE_PATH_CHANGES asks of every patch that adds or deletes a file "does
#    MAINTAINERS need updating?". The tree's get_maintainer.pl answers it:
#    every added or deleted file must fall in a MAINTAINERS section with a
#    maintainer (M:) and a list (L:), or the check fails.
# Run with the patch applied (the tree checked out at its commit).
#
# usage: checkpatch.sh PATCH OUTDIR
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

patch=$1 out=$2
dict=${CODESPELL_DICT:-/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt}
[ -f "$dict" ] || die "codespell dictionary $dict: missing (make deps)"
rc=0
(cd "$MBUS_TREE" && perl scripts/checkpatch.pl --strict --max-line-length=80 \
	--codespell --codespellfile="$dict" --color=never --no-summary-file \
	--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES --showfile "$patch") >"$out/checkpatch.log" 2>&1 || rc=$?
# Cited commits: 'commit <id> ("<subject>")', possibly folded over lines,
# and 'Fixes: <id> ("<subject>")' tags.
cited=$(commit_message "$patch" | tr '\n' ' ' | tr -s ' ' |
	grep -oE '(commit|Fixes:) [0-9a-f]{12,40} \("[^"]+"\)' || true)
bad=() ncited=0
while IFS= read -r ref; do
	[ -n "$ref" ] || continue
	ncited=$((ncited + 1))
	id=$(echo "$ref" | cut -d' ' -f2)
	subj=$(echo "$ref" | sed -E 's/^(commit|Fixes:) [0-9a-f]+ \("(.*)"\)$/\2/')
	grep -E "^${id}[0-9a-f]* " "$MBUS_TOP/ci/upstream-commits" | cut -d' ' -f2- |
		grep -qxF -- "$subj" || bad+=("$id (\"$subj\")")
done <<<"$cited"
printf 'cited upstream commits: %d, unknown: %s\n' "$ncited" "${bad[*]:-none}" >>"$out/checkpatch.log"

# Added, deleted and renamed files, and whether MAINTAINERS covers them.
uncovered=() nfiles=0
while IFS= read -r f; do
	[ -n "$f" ] || continue
	nfiles=$((nfiles + 1))
	target=$f
	[ -e "$MBUS_TREE/$f" ] || target=$(dirname "$f")
	who=$(cd "$MBUS_TREE" && perl scripts/get_maintainer.pl --no-git \
		--no-git-fallback -f "$target" 2>/dev/null) || who=""
	if ! grep -q '(maintainer:' <<<"$who" || ! grep -q '(open list:\|(moderated list:' <<<"$who"; then
		uncovered+=("$f")
	fi
	printf 'MAINTAINERS for %s:\n%s\n' "$f" "$who" >>"$out/checkpatch.log"
done < <(awk '/^diff --git / { a = $3; b = $4; sub(/^a\//, "", a); sub(/^b\//, "", b) }
	/^(new|deleted) file mode/ { print b }
	/^rename (from|to) / { print $3 }' "$patch" | sort -u)

total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' "$out/checkpatch.log" | tail -n 1)
if [ -z "$total" ]; then
	verdict_write "$out/checkpatch.verdict" FAIL "${MBUS_INPUTS:?}" "checkpatch.pl gave no summary (rc $rc)"
elif [ "${#uncovered[@]}" -gt 0 ]; then
	verdict_write "$out/checkpatch.verdict" FAIL "${MBUS_INPUTS:?}" "MAINTAINERS needs updating: no section with a maintainer and a list covers ${uncovered[*]}"
elif [ "${#bad[@]}" -gt 0 ]; then
	verdict_write "$out/checkpatch.verdict" FAIL "${MBUS_INPUTS:?}" "cites commits not in ci/upstream-commits: ${bad[*]}"
elif [[ $total =~ ^total:\ 0\ errors,\ 0\ warnings,\ 0\ checks ]] && [ "$rc" -eq 0 ]; then
	verdict_write "$out/checkpatch.verdict" OK "${MBUS_INPUTS:?}" "0 errors, 0 warnings, 0 checks; $ncited cited commit(s) verified$([ "$nfiles" -eq 0 ] || echo "; $nfiles added/deleted file(s) covered by MAINTAINERS")"
else
	first=$(grep -m1 -E '^[^:]+:[0-9]+: (ERROR|WARNING|CHECK):' "$out/checkpatch.log" || true)
	verdict_write "$out/checkpatch.verdict" FAIL "${MBUS_INPUTS:?}" "${total#total: }${first:+; first: $first}"
fi
