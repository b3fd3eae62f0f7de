#!/bin/bash
# The pxa_camera comparison can fail: the same sources with one descriptor
# changed (the order of RGB565_2X8_BE) must give FAIL naming that code; a
# pxa_camera.c that still has its own table must give FAIL.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 2

tip=$(git -C "$T_TREE" rev-parse -q --verify rev/v2) || {
	notok "the pxa comparison can fail" "no branch rev/v2 (the revisions are checked first)"
	exit 0
}
base=$(git -C "$T_TREE" rev-parse mbus-base)
git -C "$T_TREE" show "$base:drivers/media/platform/intel/pxa_camera.c" >"$T_TMP/old.c"
git -C "$T_TREE" show "$tip:drivers/media/platform/intel/pxa_camera.c" >"$T_TMP/new-pxa.c"
git -C "$T_TREE" show "$tip:drivers/media/v4l2-core/v4l2-common.c" >"$T_TMP/new.c"
git -C "$T_TREE" show "$tip:include/media/v4l2-common.h" >"$T_TMP/new.h"
sed -i 's/MBUS_INFO(RGB565_2X8_BE, RGB565X, 8, 16, 2X8_PADHI, BE)/MBUS_INFO(RGB565_2X8_BE, RGB565X, 8, 16, 2X8_PADHI, LE)/' "$T_TMP/new.c"
expect_fail "a changed descriptor fails the pxa comparison, naming the code" \
	"differing line.*0x1007 RGBR" \
	ci/pxa-compare.sh --files "$T_TMP/old.c" "$T_TMP/new-pxa.c" "$T_TMP/new.c" "$T_TMP/new.h" "$T_TMP/cmp1"
expect_fail "an unconverted pxa_camera fails the pxa comparison" "not converted" \
	ci/pxa-compare.sh --files "$T_TMP/old.c" "$T_TMP/old.c" "$T_TMP/new.c" "$T_TMP/new.h" "$T_TMP/cmp2"
t_done
