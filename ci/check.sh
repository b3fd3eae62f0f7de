#!/bin/bash
# Stage "check": apply a revision and check it patch by patch, each patch
# applied in order and checked before the next: checkpatch, meta, build
# (W=1 C=1, new warnings against the state before the patch), kernel-doc.
#
# Results of a patch are cached under $MBUS_STATE keyed by the base, the
# checks themselves and the contents of that patch and every patch before
# it: an unchanged revision is not rebuilt, and after an edit only the
# edited patch and those after it are checked again.
#
# usage: check.sh REV       (results in $MBUS_RESULTS/REV/)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: check.sh REV}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
CHECKS="checkpatch meta build kernel-doc"

mapfile -t patches < <(revision_patches "$rev")
[ "${#patches[@]}" -gt 0 ] || exit 1
"$MBUS_TOP/ci/tree.sh"
res="$MBUS_RESULTS/$rev"
mkdir -p "$res"
rm -rf "${res:?}"/[0-9][0-9][0-9][0-9] "$res"/check.* "$res"/apply.*
"$MBUS_TOP/ci/apply.sh" "$rev"

stage_begin "check $rev"
base=$(base_commit)
mapfile -t commits < <(git -C "$MBUS_TREE" rev-list --reverse "$base..$MBUS_BRANCH_PREFIX$rev")
n=${#patches[@]}
[ "${#commits[@]}" -eq "$n" ] || die "check $rev: $n patches gave ${#commits[@]} commits"

# The state before the first patch: the warnings of a full reference build
# of the base, made once per base, configuration (the .config it gives) and
# toolchain. It starts from an empty object directory, so that every file is
# compiled and checked.
git -C "$MBUS_TREE" checkout -q --detach "$base"
"$MBUS_TOP/ci/config.sh"
ref=$(printf '%s\n' "$base" "$(gcc --version | head -n 1)" "$(sparse --version 2>&1)" \
	"$(hash_files "$MBUS_TOP/ci/build.sh" "$MBUS_BUILD/.config")" |
	sha256sum | cut -c1-16)
if [ ! -f "$MBUS_STATE/$ref/done" ]; then
	info "check $rev: full reference build of the base $(git -C "$MBUS_TREE" rev-parse --short=12 "$base") (W=1 C=1; cold: about 10 minutes on 2 cores)"
	rm -rf "${MBUS_STATE:?}/$ref" "${MBUS_BUILD:?}"
	mkdir -p "$MBUS_STATE/$ref"
	git -C "$MBUS_TREE" checkout -q --detach "$base"
	if ! "$MBUS_TOP/ci/build.sh" - "$MBUS_STATE/$ref/warnings" "$MBUS_STATE/$ref"; then
		cat "$MBUS_STATE/$ref/build.verdict"
		die "the base does not build: see $MBUS_STATE/$ref/build.log"
	fi
	touch "$MBUS_STATE/$ref/done"
fi
cp "$MBUS_STATE/$ref/warnings" "$res/base.warnings"
info "check $rev: the base has $(wc -l <"$res/base.warnings") known W=1/sparse warnings"

# The checks themselves are part of every patch's key: a changed check
# re-checks everything.
checks_hash=$(hash_files "$MBUS_TOP"/ci/{lib,checkpatch,meta,kerneldoc,check}.sh "$MBUS_TOP/ci/upstream-commits")
key=$ref
# run_check NAME CMD...: a check that dies still leaves a FAIL verdict.
run_check() {
	local name=$1 rc=0
	shift
	"$@" || rc=$?
	[ -s "$out/$name.verdict" ] ||
		write_verdict "$out/$name.verdict" FAIL "the check itself failed (exit $rc); see $out"
}

failed=0 cached=0
for i in $(seq 1 "$n"); do
	p=${patches[$((i - 1))]}
	c=${commits[$((i - 1))]}
	prev=$key
	key=$(printf '%s\n' "$prev" "$checks_hash" "$rev" "$i/$n" "$(sha256sum <"$p")" | sha256sum | cut -c1-16)
	out="$res/$(printf %04d "$i")"
	mkdir -p "$out"
	if [ -f "$MBUS_STATE/$key/done" ]; then
		cp -a "$MBUS_STATE/$key/." "$out/"
		note=" (cached)"
		cached=$((cached + 1))
	else
		note=""
		rm -f "$out"/*
		mapfile -t files < <(git -C "$MBUS_TREE" diff --name-only "$c~1" "$c")
		git -C "$MBUS_TREE" checkout -q --detach "$c~1"
		"$MBUS_TOP/ci/kerneldoc.sh" before "$out" "${files[@]}" || true
		git -C "$MBUS_TREE" checkout -q --detach "$c"
		run_check checkpatch "$MBUS_TOP/ci/checkpatch.sh" "$p" "$out"
		run_check meta "$MBUS_TOP/ci/meta.sh" "$rev" "$i" "$n" "$p" "$out"
		info "  $rev $i/$n building (W=1 C=1) ..."
		run_check build "$MBUS_TOP/ci/build.sh" "$MBUS_STATE/$prev/warnings" "$out/warnings" "$out"
		[ -f "$out/warnings" ] || cp "$MBUS_STATE/$prev/warnings" "$out/warnings"
		run_check kernel-doc "$MBUS_TOP/ci/kerneldoc.sh" after "$out" "${files[@]}"
		rm -rf "${MBUS_STATE:?}/$key"
		mkdir -p "$MBUS_STATE/$key"
		cp -a "$out/." "$MBUS_STATE/$key/"
		touch "$MBUS_STATE/$key/done"
	fi
	for chk in $CHECKS; do
		read -r verdict reason <"$out/$chk.verdict"
		printf '  %-4s %-28.28s %-10s %-4s %s%s\n' "$rev" "$i/$n ${p##*/}" \
			"$chk" "$verdict" "$reason" "$note"
		[ "$verdict" != FAIL ] || failed=$((failed + 1))
	done
done

input_hash "$rev" >"$res/check.inputs"
if [ "$failed" -gt 0 ]; then
	write_verdict "$res/check.verdict" FAIL "$failed failing check(s) in $n patches"
	stage_end FAIL "$failed failing check(s); logs in $res"
	exit 1
fi
write_verdict "$res/check.verdict" OK "$n patches, all checks pass"
stage_end OK "$n patches x 4 checks, $cached cached; logs in $res"
