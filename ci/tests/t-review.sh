#!/bin/bash
# The review of v2 (issue "The media-bus series, v3"), point by point: each
# objection is shown by a check that fails on v2 and holds on v3. The
# expectations come from the base tree, the documents and the guest's
# results, never from the descriptors under test.
#  1. vimc: no existing link changes its flags (v2's patch 4 made the
#     sensor links mutable), and libcamera captures (the boot's verdict);
#  2. the descriptor has no memory field (pixel format, packing, order)
#     that a bridge could be programmed from;
#  3. and 5. every descriptor's bits per pixel is what subdev-formats.rst
#     shows for the code (ci/doc-bits.py: the bits of its first row times
#     the samples its name gives);
#  4. v2's v4l2_mbus_image_size(), compiled in userspace as the revision
#     has it, with the review's case (bytesperline 0x80000001, height
#     0xffffffff, three planes) must give -EOVERFLOW, and does not; the
#     KUnit suite that ran at v3's boot has that case for v3's
#     v4l2_fill_pixfmt{,_mp}().
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 10

# The branches of v2 and v3 as the current patches give them (rev_tip dies
# otherwise, and the plan falls short).
tip() { bash -c '. ci/lib.sh && rev_tip "$1"' _ "$1"; }
v2=$(tip v2) && v3=$(tip v3) || {
	notok "the review's points on v2 and v3" "the branches are not what the patches give (the revisions are checked first)"
	exit 0
}
base=$(git -C "$T_TREE" rev-parse mbus-base)

# 1. vimc's links: the lines of vimc-core.c that set link flags.
links_changed() {
	git -C "$T_TREE" diff "$base" "$1" -- drivers/media/test-drivers/vimc/vimc-core.c |
		grep -cE '^[-+].*MEDIA_LNK_FL_' || true
}
expect_match "v2 changes the flags of vimc's links (review point 1)" '^[1-9]' "$(links_changed "$v2")"
expect_eq "v3 changes the flags of no vimc link" 0 "$(links_changed "$v3")"

# ... and libcamera on vimc, as the boot of each revision judged it (the
# verdict must be current for that revision's boot inputs).
cam_verdict() {
	bash -c '. ci/lib.sh && verdict_read "$MBUS_RESULTS/$1/boot/libcamera.verdict" "$(boot_inputs "$1")"' _ "$1"
}
expect_match "libcamera does not capture from vimc on v2" '^FAIL .*libcamera' "$(cam_verdict v2)"
expect_match "libcamera captures from vimc on v3" '^OK .*captured' "$(cam_verdict v3)"

# 2. The descriptor's fields, from each revision's header.
struct_fields() {   # REV STRUCT
	git -C "$T_TREE" show "$1:include/media/v4l2-common.h" |
		awk -v s="^struct $2 \\\\{" '$0 ~ s { on = 1; next } on && /^};/ { exit } on { print }'
}
expect_match "v2's descriptor has memory fields (review point 2)" 'pixelformat;|order;|packing;' \
	"$(struct_fields "$v2" v4l2_mbus_format_info)"
fields=$(struct_fields "$v3" v4l2_mbus_code_info)
if [ -n "$fields" ] && ! grep -qE 'pixelformat|fourcc|order|packing|layout' <<<"$fields"; then
	ok "v3's descriptor has no memory field"
else
	notok "v3's descriptor has no memory field" "${fields:-no struct v4l2_mbus_code_info}"
fi

# 3. and 5. The bits per pixel against subdev-formats.rst.
expect_fail "v2's bits per sample contradict subdev-formats.rst (review points 3 and 5)" \
	"differs: RGB565_2X8_BE: the table says 8, subdev-formats.rst 8 x 2 = 16" \
	ci/doc-bits.py "$T_TREE" "$v2"
out=$(ci/doc-bits.py "$T_TREE" "$v3" 2>&1)
rc=$?
expect_eq "v3's bits per pixel are those of subdev-formats.rst" \
	"0 20 entries, 0 differ from subdev-formats.rst, 0 not read" "$rc $(tail -n 1 <<<"$out")"

# 4. The overflow case of the review: v2's helper, compiled as it is.
v2c=$(git -C "$T_TREE" show "$v2:drivers/media/v4l2-core/v4l2-common.c")
v2h=$(git -C "$T_TREE" show "$v2:include/media/v4l2-common.h")
{
	cat <<'C'
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
typedef uint8_t u8; typedef uint32_t u32; typedef uint64_t u64;
#define U32_MAX 0xffffffffU
#define EXPORT_SYMBOL_GPL(x)
C
	awk '/^enum v4l2_mbus_(packing|order|layout) \{/ { on = 1 } on { print } on && /^};/ { on = 0 }' <<<"$v2h"
	awk '/^struct v4l2_mbus_format_info \{/ { on = 1 } on { print } on && /^};/ { on = 0 }' <<<"$v2h"
	awk '/^int v4l2_mbus_image_size\(/ { on = 1 } on { print } on && /^}/ { on = 0 }' <<<"$v2c"
	cat <<'C'
int main(void)
{
	struct v4l2_mbus_format_info info = { .layout = V4L2_MBUS_LAYOUT_PLANAR_2Y_U_V };
	u32 size = 0;
	int ret = v4l2_mbus_image_size(&info, 0x80000001, 0xffffffff, &size);

	printf("ret %d size 0x%x\n", ret, size);
	return ret == -EOVERFLOW ? 0 : 1;
}
C
} >"$T_TMP/v2size.c"
if gcc -o "$T_TMP/v2size" "$T_TMP/v2size.c" 2>"$T_TMP/v2size.log"; then
	expect_fail "v2's v4l2_mbus_image_size() wraps on the review's case (review point 4)" \
		"^ret 0 size 0xfffffffe$" "$T_TMP/v2size"
else
	notok "v2's v4l2_mbus_image_size() wraps on the review's case (review point 4)" \
		"it does not compile: $(head -n 1 "$T_TMP/v2size.log")"
fi
# ... and the same case in the suite that ran at v3's boot.
# (The case's parameter is named by its fourcc and size; the results of
# the boot are read only if its verdict is current.)
kunit=$(bash -c '. ci/lib.sh && verdict_read "$MBUS_RESULTS/v3/boot/kunit.verdict" "$(boot_inputs v3)"' _)
ran=$(bash -c '. ci/lib.sh && cat "$MBUS_RESULTS/v3/boot/kunit.results"' _ 2>/dev/null |
	grep -cE '^SUCCESS v4l2_common: fill_pixfmt_sizes: 422P .* 2147483649x4294967295$' || true)
if grep -q '^OK ' <<<"$kunit" && [ "$ran" = 1 ]; then
	ok "v3's KUnit suite ran at boot with the review's overflow case"
else
	notok "v3's KUnit suite ran at boot with the review's overflow case" \
		"kunit: $kunit; the case passed $ran time(s)"
fi
t_done
