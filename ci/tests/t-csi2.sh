#!/bin/bash
# The CSI-2 receivers' comparison can fail: the same sources with one
# descriptor changed (the data type of SGRBG10_1X10) must give FAIL naming
# the entry; a code of a driver's table without a descriptor must give FAIL
# (the lookup returns NULL); a driver that keeps its own bits per pixel must
# give FAIL.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 3

tip=$(git -C "$T_TREE" rev-parse -q --verify rev/v3) || {
	notok "the csi2 comparison can fail" "no branch rev/v3 (the revisions are checked first)"
	exit 0
}
base=$(git -C "$T_TREE" rev-parse mbus-base)
mapfile -t files < <(ci/csi2-compare.sh --list-files)
tree_files() {   # COMMIT DIR
	local f
	for f in "${files[@]}"; do
		mkdir -p "$2/${f%/*}"
		git -C "$T_TREE" show "$1:$f" >"$2/$f"
	done
}
tree_files "$base" "$T_TMP/old"
tree_files "$tip" "$T_TMP/dt"
common=drivers/media/v4l2-core/v4l2-common.c
sed -i 's/{ MEDIA_BUS_FMT_SGRBG10_1X10, 10, MIPI_CSI2_DT_RAW10 }/{ MEDIA_BUS_FMT_SGRBG10_1X10, 10, MIPI_CSI2_DT_RAW12 }/' "$T_TMP/dt/$common"
expect_fail "a changed descriptor fails the csi2 comparison, naming the entry" \
	"differing line\(s\); first: -(sun6i|sun8i|j721e) [0-9]+: 0x300a .*dt=0x2b" \
	ci/csi2-compare.sh --files "$T_TMP/old" "$T_TMP/dt" "$T_TMP/cmp1"
tree_files "$tip" "$T_TMP/gone"
sed -i '/{ MEDIA_BUS_FMT_Y8_1X8, 8, MIPI_CSI2_DT_RAW8 },/d' "$T_TMP/gone/$common"
expect_fail "a code of a driver's table without a descriptor fails the csi2 comparison" \
	"the new side crashed" \
	ci/csi2-compare.sh --files "$T_TMP/old" "$T_TMP/gone" "$T_TMP/cmp2"
expect_fail "a driver that keeps its own bits per pixel fails the csi2 comparison" \
	"still keeps its own bits per pixel: not converted" \
	ci/csi2-compare.sh --files "$T_TMP/old" "$T_TMP/old" "$T_TMP/cmp3"
t_done
