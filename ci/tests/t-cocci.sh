#!/bin/bash
# coccicheck can fail a patch: a fixture revision whose patch open-codes
# ARRAY_SIZE fails the cocci stage with the report named (new against the
# file before the patch), and so does a patch that adds a second copy of
# the same report; the stage exits non-zero; every revision has inputs.
# Neither apply nor cocci moves the base tree's checkout. A git diff or a
# git ls-tree that fails stops the stage.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 10

base=$(git -C "$T_TREE" rev-parse mbus-base)
expect_match "v3 has inputs for the cocci stage" '^[0-9a-f]{16}$' "$(ci/cocci.sh --inputs v3 2>&1)"

vimc=drivers/media/test-drivers/vimc/vimc-core.c
c1=$(fixture_commit "$base" "media: vimc: fixture: open-coded ARRAY_SIZE ($T_NONCE)" -- \
	"$vimc" '/^static int vimc_probe(/i\
/* fixture '"$T_NONCE"': its own content, so that coccicheck runs on it */\
static const int vimc_fixture_table[] = { 1, 2, 3 };\
\
static int vimc_fixture_count(void)\
{\
	return sizeof(vimc_fixture_table) / sizeof(vimc_fixture_table[0]);\
}\
')
# A second copy of the same report in the same file is new too.
c2=$(fixture_commit "$c1" "media: vimc: fixture: a second open-coded ARRAY_SIZE ($T_NONCE)" -- \
	"$vimc" '/^static int vimc_probe(/i\
static int vimc_fixture_count2(void)\
{\
	return sizeof(vimc_fixture_table) / sizeof(vimc_fixture_table[0]);\
}\
')
# The base tree where the builds would have left it, at the fixture's tip:
# coccicheck at the base runs in the side tree (ci/side-tree.sh), so
# neither its HEAD nor vimc-core.c there is rewritten.
ws bash -c '. ci/lib.sh && take_lock t-cocci && tree_checkout "$1"' _ "$c2"
head=$(git -C "$T_TREE" rev-parse HEAD)
stamp=$(stat -c %y "$T_TREE/$vimc")
fault=$(fixture_stage "$base" "$c2" env PATH="$(git_fails diff)" ci/cocci.sh)
rc=$?
expect_match "a git diff that fails stops the stage, naming the commit" \
	"^rc=[1-9][0-9]* .*cocci.sh: git diff of [0-9a-f]{40} failed" "rc=$rc $(tr '\n' ' ' <<<"${fault:-}")"
expect_no_match "... before any patch's verdict" "N/A: changes no" "${fault:-}"
# ... and so does a git ls-tree (which version of a file does a commit
# have, if any?) that fails.
fault=$(fixture_stage "$base" "$c2" env PATH="$(git_fails ls-tree)" ci/cocci.sh)
rc=$?
expect_match "a git ls-tree that fails stops the stage, naming the commit" \
	"^rc=[1-9][0-9]* .*cocci v1: git ls-tree of [0-9a-f]{40}(~1)? failed" "rc=$rc $(tr '\n' ' ' <<<"${fault:-}")"
expect_no_match "... before any patch's verdict" " cocci +(OK|FAIL) " "${fault:-}"
out=$(fixture_stage "$base" "$c2" ci/cocci.sh)
rc=$?
expect_match "an open-coded ARRAY_SIZE fails the patch's coccicheck, naming the report" \
	"v1 +1/2 .* cocci +FAIL 1 new coccicheck report\\(s\\): $vimc: WARNING: Use ARRAY_SIZE" "rc=$rc ${out:-}"
expect_match "a second copy of the same report in the file fails the next patch" \
	"v1 +2/2 .* cocci +FAIL 1 new coccicheck report\\(s\\): $vimc: WARNING: Use ARRAY_SIZE" "${out:-}"
expect_eq "... and the stage exits non-zero" 1 "$rc"
expect_eq "apply and cocci did not move the base tree's HEAD" "$head" "$(git -C "$T_TREE" rev-parse HEAD)"
expect_eq "... nor rewrite its copy of the revision's file" "${stamp:-no stamp}" "$(stat -c %y "$T_TREE/$vimc")"
t_done
