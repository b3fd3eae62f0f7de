#!/bin/bash
# Check "checkpatch": the tree's own checkpatch.pl, as the media maintainer
# profile asks (--strict --max-line-length=80), with codespell. 0/0/0 or FAIL.
#
# The base tree has no upstream history, so checkpatch's own look-up of cited
# commit ids (UNKNOWN_COMMIT_ID) cannot work; it is replaced, not dropped:
# every id cited as 'commit <id> ("<subject>")' must be in ci/upstream-commits
# with that subject.
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
	--ignore UNKNOWN_COMMIT_ID --showfile "$patch") >"$out/checkpatch.log" 2>&1 || rc=$?
# Cited commits: 'commit <id> ("<subject>")', possibly folded over lines.
cited=$(commit_message "$patch" | tr '\n' ' ' | tr -s ' ' |
	grep -oE 'commit [0-9a-f]{12,40} \("[^"]+"\)' || true)
bad=() ncited=0
while IFS= read -r ref; do
	[ -n "$ref" ] || continue
	ncited=$((ncited + 1))
	id=$(echo "$ref" | cut -d' ' -f2)
	subj=$(echo "$ref" | sed -E 's/^commit [0-9a-f]+ \("(.*)"\)$/\1/')
	grep -E "^${id}[0-9a-f]* " "$MBUS_TOP/ci/upstream-commits" | cut -d' ' -f2- |
		grep -qxF -- "$subj" || bad+=("$id (\"$subj\")")
done <<<"$cited"
printf 'cited upstream commits: %d, unknown: %s\n' "$ncited" "${bad[*]:-none}" >>"$out/checkpatch.log"

total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' "$out/checkpatch.log" | tail -n 1)
if [ -z "$total" ]; then
	write_verdict "$out/checkpatch.verdict" FAIL "checkpatch.pl gave no summary (rc $rc)"
elif [ "${#bad[@]}" -gt 0 ]; then
	write_verdict "$out/checkpatch.verdict" FAIL "cites commits not in ci/upstream-commits: ${bad[*]}"
elif [[ $total =~ ^total:\ 0\ errors,\ 0\ warnings,\ 0\ checks ]] && [ "$rc" -eq 0 ]; then
	write_verdict "$out/checkpatch.verdict" OK "0 errors, 0 warnings, 0 checks; $ncited cited commit(s) verified"
else
	first=$(grep -m1 -E '^[^:]+:[0-9]+: (ERROR|WARNING|CHECK):' "$out/checkpatch.log" || true)
	write_verdict "$out/checkpatch.verdict" FAIL "${total#total: }${first:+; first: $first}"
fi
