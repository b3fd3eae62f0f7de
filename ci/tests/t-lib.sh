#!/bin/bash
# The keys and the verdict reader of ci/lib.sh, which every stage's caching
# and every verdict rest on, held against their definitions computed here
# without them: a cache key is the first 16 hex digits of the SHA-256 of
# the producer's hash (the first 16 of its content's), the toolchain's id
# and the parts, one a line (the one exception: no parts is one empty
# line). cache_key keeps the hashes of ci/'s scripts from its start; a
# producer named by a relative path, from another directory, or outside
# ci/ must give the same key. verdict_get/verdict_read: OK, MISSING for
# no file or a malformed one, STALE for other inputs.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 8

sha16() {
	sha256sum | cut -c1-16
}
# The toolchain's id as ci/lib.sh defines it, made here.
tc=$( {
	gcc --version 2>/dev/null | head -n 1
	sparse --version 2>&1 || true
	dpkg-query -W -f '${Package} ${Version}\n' qemu-system-x86 2>/dev/null || true
} | sha16)
# want PRODUCER PART...: the key by its definition.
want() {
	local p=$1
	shift
	{
		sha16 <"$p"
		echo "$tc"
		printf '%s\n' "$@"
	} | sha16
}

got=$(bash -c '. ci/lib.sh && toolchain_id')
expect_eq "toolchain_id is gcc's, sparse's and QEMU's versions" "$tc" "$got"
got=$(bash -c '. ci/lib.sh && cache_key ci/builds.sh "a b" "" c')
expect_eq "cache_key of a script of ci/ (kept hash), relative path" \
	"$(want ci/builds.sh "a b" "" c)" "$got"
got=$(cd / && bash -c '. "$1/ci/lib.sh" && cache_key "$1/ci/cocci.sh" x' _ "$T_TOP")
expect_eq "the same from another directory, by absolute path" "$(want ci/cocci.sh x)" "$got"
got=$(bash -c '. ci/lib.sh && cache_key README.md $'"'"'two\nlines'"'"'')
expect_eq "a producer outside ci/ (hashed when asked), a part of two lines" \
	"$(want README.md $'two\nlines')" "$got"
got=$(bash -c '. ci/lib.sh && cache_key_into k ci/matrix.sh && echo "$k"')
expect_eq "cache_key_into with no parts: one empty line" "$(want ci/matrix.sh)" "$got"

# A script of ci/ changed after lib.sh was read: a new process sees it.
cp -a "$T_TOP/ci" "$T_TMP/ci"
before=$(bash -c '. "$1/ci/lib.sh" && cache_key "$1/ci/apply.sh" p' _ "$T_TMP")
echo "# changed" >>"$T_TMP/ci/apply.sh"
after=$(bash -c '. "$1/ci/lib.sh" && cache_key "$1/ci/apply.sh" p' _ "$T_TMP")
if [ "$before" = "$(want ci/apply.sh p)" ] && [ "$after" = "$(want "$T_TMP/ci/apply.sh" p)" ] &&
	[ "$before" != "$after" ]; then
	ok "a changed script gives another key"
else
	notok "a changed script gives another key" "before $before after $after"
fi

k=0123456789abcdef
printf 'OK %s all good\n' "$k" >"$T_TMP/ok.verdict"
printf 'PASS %s\n' "$k" >"$T_TMP/bad.verdict"
out=$(bash -c '. ci/lib.sh
	for f in ok bad none; do verdict_read "$1/$f.verdict" "$2"; done
	verdict_get "$1/ok.verdict" fedcba9876543210; echo "$verdict_v $verdict_r"' _ "$T_TMP" "$k")
expect_eq "verdict_read: OK, MISSING (malformed, absent); verdict_get: STALE" \
	"OK all good|MISSING $T_TMP/bad.verdict is not a verdict|MISSING no verdict ($T_TMP/none.verdict was not made)|STALE made from other inputs ($k, now fedcba9876543210): OK all good" \
	"$(tr '\n' '|' <<<"$out" | sed 's/|$//')"
out=$(bash -c '. ci/lib.sh; verdict_write "$1/w.verdict" PASS 0123456789abcdef x' _ "$T_TMP" 2>&1)
expect_match "verdict_write refuses a verdict that is not OK, WARN or FAIL" \
	"'PASS' is not OK, WARN or FAIL" "$out"
t_done
