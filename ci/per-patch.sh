# shellcheck shell=bash
# The parts that the per-patch stages of media-ci's kind (ci/cocci.sh,
# ci/htmldocs.sh) share. Sourced after ci/lib.sh, never run; part of the
# stages' keys through per_patch_id.
#
# Such a stage writes the verdict of patch I to OUT/NNNN/STAGE.verdict for
# the inputs cache_key PRODUCER KEY I STAGE (KEY: its --inputs), then
# per_patch_finish makes the rest: the known reports of posted revisions
# applied (ci/known-reports.sh), the table, the stage's verdict, kept.

# per_patch_id: what else every verdict of these stages is made from.
per_patch_id() {
	hash_files "$MBUS_TOP"/ci/{per-patch.sh,known-reports,known-reports.sh,lib.sh}
}

# per_patch_kept STAGE KEY OUT: if results of KEY are kept, put them in
# OUT, print their table and verdict, and exit with the verdict's status.
per_patch_kept() {
	local stage=$1 key=$2 out=$3 v r
	cache_get "$stage" "$key" "$out.kept" || return 0
	rm -rf "$out"
	mv "$out.kept" "$out"
	cat "$out/table"
	read -r v r < <(verdict_read "$out/$stage.verdict" "$key")
	stage_end "$v" "$r (kept)"
	verdict_passes "$v"
	exit
}

# (verdict_get of ci/lib.sh sets these.)
# shellcheck disable=SC2154
# per_patch_finish STAGE PRODUCER KEY OUT REV WHAT: one line per patch into
# OUT/table (and stdout), then the stage's verdict: OK "N patches: no new
# WHAT"; WARN if some patch passes only as a known report; FAIL if a patch
# fails, a verdict is missing or stale, or a known report does not fail so
# (XPASS) or cannot be read. Written, kept, printed; returns its status.
per_patch_finish() {
	local stage=$1 producer=$2 key=$3 out=$4 rev=$5 what=$6 krc=0 xpass i k nnnn
	local failed xfail verdict reason patches n
	mapfile -t patches < <(revision_patches "$rev")
	n=${#patches[@]}
	xpass=$("$MBUS_TOP/ci/known-reports.sh" "$rev" "$out" "$stage") || krc=$?
	[ "$krc" -le 1 ] || xpass="XPASS: ci/known-reports.sh failed (exit $krc)"
	for ((i = 1; i <= n; i++)); do
		printf -v nnnn %04d "$i"
		cache_key_into k "$producer" "$key" "$i" "$stage"
		verdict_get "$out/$nnnn/$stage.verdict" "$k"
		printf '  %-4s %-28.28s %-10s %-4s %s\n' "$rev" "$i/$n ${patches[$((i - 1))]##*/}" "$stage" "$verdict_v" "$verdict_r"
	done | tee "$out/table"
	[ -z "$xpass" ] || printf '%s\n' "$xpass" | tee -a "$out/table"
	failed=$(grep -cE " $stage +(FAIL|MISSING|STALE) |^XPASS: " "$out/table" || true)
	xfail=$(grep -cE " $stage +WARN XFAIL " "$out/table" || true)
	if [ "$failed" -gt 0 ]; then
		verdict=FAIL reason="$failed failure(s): new ${what}s, a failed run, or a known report that no longer fails so"
	elif [ "$xfail" -gt 0 ]; then
		verdict=WARN reason="$n patches: no new $what but $xfail known report(s) of the posted revision (ci/known-reports)"
	else
		verdict=OK reason="$n patches: no new $what"
	fi
	verdict_write "$out/$stage.verdict" "$verdict" "$key" "$reason"
	cache_put "$stage" "$key" "$out"
	stage_end "$verdict" "$reason"
	verdict_passes "$verdict"
}
