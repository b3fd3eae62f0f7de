#!/bin/bash
# The cross builds can fail, and find what an x86_64 build cannot: a
# fixture revision whose patch adds a warning only arm64 compiles fails
# with that warning named; one whose patch breaks only the 32-bit arm build
# fails naming arm; a changed file that no configuration compiles (a
# driver whose option the fragments do not grant) fails, named; a revision
# that changes the receivers has something to build (v3), one that does not
# has not (v1).
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 6

base=$(git -C "$T_TREE" rev-parse mbus-base)
expect_match "v3 changes the receivers: the cross stage has inputs for it" \
	'^[0-9a-f]{16}$' "$(ci/cross.sh --inputs v3 2>&1)"
out=$(ci/cross.sh --inputs v1 2>&1)
expect_eq "v1 changes none of them: nothing to build (no key, exit 0)" "rc=0 ''" "rc=$? '$out'"

cal=drivers/media/platform/ti/cal/cal.c
# A static variable that only an arm64 build defines and never uses.
c1=$(fixture_commit "$base" "media: ti: cal: fixture: arm64-only warning ($T_NONCE)" -- \
	"$cal" '/^#include "cal.h"/a\
#ifdef CONFIG_ARM64\
static int cal_fixture_unused;\
#endif')
fixture_series "$T_TMP/series" v1 "$base" "$c1"
rc=apply
if ws ci/apply.sh v1 >"$T_TMP/apply1.log" 2>&1; then
	out=$(ws ci/cross.sh v1 2>&1)
	rc=$?
fi
expect_match "an arm64-only warning fails the cross stage, naming it" \
	"arm64: 1 new W=1 warning\\(s\\): $cal: warning: .{1,3}cal_fixture_unused.{1,3} defined but not used" \
	"rc=$rc $(grep -m1 '<== cross' <<<"$out")"
if [ "$rc" != apply ] && [ "$rc" -ne 0 ]; then
	ok "... and the stage exits non-zero"
else
	notok "... and the stage exits non-zero" "rc=$rc"
fi

# Code that only the 32-bit arm build compiles, and that does not compile.
rm -rf "$T_TMP/series" "$T_TMP/results"
c2=$(fixture_commit "$base" "media: ti: cal: fixture: arm-only error ($T_NONCE)" -- \
	"$cal" '/^#include "cal.h"/a\
#if defined(CONFIG_ARM) \&\& !defined(CONFIG_ARM64)\
static int cal_fixture_broken = cal_fixture_undeclared;\
#endif')
fixture_series "$T_TMP/series" v1 "$base" "$c2"
out=$(ws ci/apply.sh v1 2>&1 && ws ci/cross.sh v1 2>&1)
expect_match "an arm-only build failure fails the cross stage, naming arm" \
	"arm tip does not build: .*cal_fixture_undeclared" "$(grep -m1 '<== cross' <<<"$out")"

# A change in a driver that neither configuration enables: nothing of it
# is compiled, which must not pass for a build.
rm -rf "$T_TMP/series" "$T_TMP/results"
vpe=drivers/media/platform/ti/vpe/vpe.c
c3=$(fixture_commit "$base" "media: ti: vpe: fixture: not built ($T_NONCE)" -- \
	"$vpe" '1a\
/* fixture */')
fixture_series "$T_TMP/series" v1 "$base" "$c3"
out=$(ws ci/apply.sh v1 2>&1 && ws ci/cross.sh v1 2>&1)
expect_match "a changed file compiled for no architecture fails the cross stage" \
	"FAIL .*$vpe was compiled for no architecture" "$(grep -m1 '<== cross' <<<"$out")"
t_done
