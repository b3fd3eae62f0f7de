#!/bin/bash
# Stage "check": apply a revision and check it patch by patch, each patch
# applied in order and checked before the next: checkpatch, meta, build
# (W=1 C=1, new warnings against the state before the patch), kernel-doc.
#
# The checks are those of ci/checks (PATCH_CHECKS). Results of a patch are
# cached keyed by its inputs (patch_inputs: the base, the toolchain, the
# checks' scripts, the contents of that patch and every patch before it):
# an unchanged revision is not rebuilt, and after an edit only the edited
# patch and those after it are checked again.
#
# usage: check.sh REV       (results in $MBUS_RESULTS/REV/)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: check.sh REV}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

mapfile -t patches < <(revision_patches "$rev")
[ "${#patches[@]}" -gt 0 ] || exit 1
"$MBUS_TOP/ci/tree.sh"
res="$MBUS_RESULTS/$rev"
mkdir -p "$res"
# (apply.sh writes its own verdict and tip in place, each at once: cocci,
# running beside, reads them; a verdict left by an apply that stopped
# early is of other inputs, or of a branch apply did not move.)
rm -rf "${res:?}"/[0-9][0-9][0-9][0-9] "$res"/check.*
"$MBUS_TOP/ci/apply.sh" "$rev"

stage_begin "check $rev"
base=$(base_commit)
mapfile -t commits < <(git -C "$MBUS_TREE" rev-list --reverse "$base..$MBUS_BRANCH_PREFIX$rev")
n=${#patches[@]}
[ "${#commits[@]}" -eq "$n" ] || die "check $rev: $n patches gave ${#commits[@]} commits"
frag="$MBUS_TOP/ci/kernel.config"

# The state before the first patch: the warnings of a full reference build
# of the base, made once per base, configuration (the .config it gives) and
# toolchain. It starts from an empty object directory, so that every file is
# compiled and checked. The base's .config that names it is made in an
# object directory of its own: made in the build's, it would be swapped
# with the patch's at every check of a revision that changes a Kconfig
# file, and kbuild would sync its configuration and walk the tree twice
# at the next build (8 s of an edit's 24 s).
"$MBUS_TOP/ci/config.sh" "$base" "$MBUS_CACHE/config-base" "$frag"
ref=$(cache_key "$MBUS_TOP/ci/build.sh" "$base" "$(hash_files "$MBUS_CACHE/config-base/.config")")
if ! cache_has reference "$ref"; then
	info "check $rev: full reference build of the base $(git -C "$MBUS_TREE" rev-parse --short=12 "$base") (W=1 C=1; cold: about 16 minutes on 2 cores)"
	refout=$(mktemp -d)
	rm -rf "${MBUS_BUILD:?}"
	if ! MBUS_INPUTS=$ref "$MBUS_TOP/ci/build.sh" "$base" - "$refout/warnings" "$refout"; then
		cp -a "$refout" "$res/reference"
		rm -rf "$refout"
		die "the base does not build: $(verdict_read "$res/reference/build.verdict"); see $res/reference/build.log"
	fi
	cache_put reference "$ref" "$refout"
	rm -rf "$refout"
fi
cache_get reference "$ref" "$res/reference"
cp "$res/reference/warnings" "$res/base.warnings"
info "check $rev: the base has $(wc -l <"$res/base.warnings") known W=1/sparse warnings"

# run_check NAME CMD...: a check that dies still leaves a FAIL verdict.
run_check() {
	local name=$1 rc=0
	shift
	"$@" || rc=$?
	[ -s "$out/$name.verdict" ] ||
		verdict_write "$out/$name.verdict" FAIL "$MBUS_INPUTS" "the check itself failed (exit $rc); see $out"
}

# Each patch's results are kept under the key of its inputs (patch_inputs:
# the base, the toolchain, the checks' scripts, this patch and every one
# before it), with the reference build's key.
failed=0 cached=0
prevwarn="$res/base.warnings"
mbus_check_scripts_hash=$(check_scripts_hash)
for i in $(seq 1 "$n"); do
	p=${patches[$((i - 1))]}
	c=${commits[$((i - 1))]}
	MBUS_INPUTS=$(patch_inputs "$rev" "$i")
	export MBUS_INPUTS
	key=$(cache_key "$0" "$MBUS_INPUTS" "$ref")
	out="$res/$(printf %04d "$i")"
	rm -rf "$out"
	mkdir -p "$out"
	if cache_get patch "$key" "$out"; then
		note=" (cached)"
		cached=$((cached + 1))
	else
		note=""
		changed_files files "$c"
		tree_checkout "$c~1"
		"$MBUS_TOP/ci/kerneldoc.sh" before "$out" "${files[@]}" || true
		tree_checkout "$c"
		run_check checkpatch "$MBUS_TOP/ci/checkpatch.sh" "$p" "$out"
		run_check meta "$MBUS_TOP/ci/meta.sh" "$rev" "$i" "$n" "$p" "$out"
		info "  $rev $i/$n building (W=1 C=1) ..."
		run_check build "$MBUS_TOP/ci/build.sh" "$c" "$prevwarn" "$out/warnings" "$out" "${files[@]}"
		[ -f "$out/warnings" ] || cp "$prevwarn" "$out/warnings"
		tree_checkout "$c"
		run_check kernel-doc "$MBUS_TOP/ci/kerneldoc.sh" after "$out" "${files[@]}"
		cache_put patch "$key" "$out"
	fi
	prevwarn="$out/warnings"
	for chk in "${PATCH_CHECKS[@]}"; do
		verdict_get "$out/$chk.verdict" "$MBUS_INPUTS"
		printf '  %-4s %-28.28s %-10s %-4s %s%s\n' "$rev" "$i/$n ${p##*/}" \
			"$chk" "$verdict_v" "$verdict_r" "$note"
		verdict_passes "$verdict_v" || failed=$((failed + 1))
	done
done

MBUS_INPUTS=$(rev_inputs "$rev")
if [ "$failed" -gt 0 ]; then
	verdict_write "$res/check.verdict" FAIL "$MBUS_INPUTS" "$failed failing check(s) in $n patches"
	stage_end FAIL "$failed failing check(s); logs in $res"
	exit 1
fi
verdict_write "$res/check.verdict" OK "$MBUS_INPUTS" "$n patches, all checks pass"
stage_end OK "$n patches x ${#PATCH_CHECKS[@]} checks, $cached cached; logs in $res"
