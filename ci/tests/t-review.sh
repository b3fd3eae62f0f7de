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
#  4. the KUnit suite that ran at v3's boot has the review's overflow case.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 9

for r in v2 v3; do
	git -C "$T_TREE" rev-parse -q --verify "rev/$r" >/dev/null || {
		notok "the review's points on v2 and v3" "no branch rev/$r (the revisions are checked first)"
		exit 0
	}
done
base=$(git -C "$T_TREE" rev-parse mbus-base)

# 1. vimc's links: the lines of vimc-core.c that set link flags.
links_changed() {
	git -C "$T_TREE" diff "$base" "rev/$1" -- drivers/media/test-drivers/vimc/vimc-core.c |
		grep -cE '^[-+].*MEDIA_LNK_FL_' || true
}
expect_match "v2 changes the flags of vimc's links (review point 1)" '^[1-9]' "$(links_changed v2)"
expect_eq "v3 changes the flags of no vimc link" 0 "$(links_changed v3)"

# ... and libcamera on vimc, as the boot of each revision judged it (the
# verdict must be current for that revision's boot inputs).
cam_verdict() {
	bash -c '. ci/lib.sh && verdict_read "$MBUS_RESULTS/$1/boot/libcamera.verdict" "$(boot_inputs "$1")"' _ "$1"
}
expect_match "libcamera does not capture from vimc on v2" '^FAIL .*libcamera' "$(cam_verdict v2)"
expect_match "libcamera captures from vimc on v3" '^OK .*captured' "$(cam_verdict v3)"

# 2. The descriptor's fields, from each revision's header.
struct_fields() {   # REV STRUCT
	git -C "$T_TREE" show "rev/$1:include/media/v4l2-common.h" |
		awk -v s="^struct $2 \\\\{" '$0 ~ s { on = 1; next } on && /^};/ { exit } on { print }'
}
expect_match "v2's descriptor has memory fields (review point 2)" 'pixelformat;|order;|packing;' \
	"$(struct_fields v2 v4l2_mbus_format_info)"
fields=$(struct_fields v3 v4l2_mbus_code_info)
if [ -n "$fields" ] && ! grep -qE 'pixelformat|fourcc|order|packing|layout' <<<"$fields"; then
	ok "v3's descriptor has no memory field"
else
	notok "v3's descriptor has no memory field" "${fields:-no struct v4l2_mbus_code_info}"
fi

# 3. and 5. The bits per pixel against subdev-formats.rst.
expect_fail "v2's bits per sample contradict subdev-formats.rst (review points 3 and 5)" \
	"differs: RGB565_2X8_BE: the table says 8, subdev-formats.rst 8 x 2 = 16" \
	ci/doc-bits.py "$T_TREE" rev/v2
out=$(ci/doc-bits.py "$T_TREE" rev/v3 2>&1)
rc=$?
expect_eq "v3's bits per pixel are those of subdev-formats.rst" \
	"0 20 entries, 0 differ from subdev-formats.rst" "$rc $(tail -n 1 <<<"$out")"

# 4. The overflow case of the review, in the suite that ran at v3's boot.
kunit=$(bash -c '. ci/lib.sh && verdict_read "$MBUS_RESULTS/v3/boot/kunit.verdict" "$(boot_inputs v3)"' _)
src=$(git -C "$T_TREE" show rev/v3:drivers/media/v4l2-core/v4l2-common-kunit.c)
if grep -q '^OK ' <<<"$kunit" &&
	grep -qE 'V4L2_PIX_FMT_YUV422P, 0x80000001, 0xffffffff, -EOVERFLOW' <<<"$src"; then
	ok "v3's KUnit suite ran at boot with the review's overflow case (review point 4)"
else
	notok "v3's KUnit suite ran at boot with the review's overflow case (review point 4)" \
		"kunit: $kunit"
fi
t_done
