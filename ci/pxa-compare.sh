#!/bin/bash
# Stage "pxa": prove that pxa_camera's conversion to the V4L2 core's media
# bus format descriptors changed nothing it supported. Compiles, in userspace,
# the old table and helpers of pxa_camera.c (its copy of soc_mediabus) from
# the base, and the new descriptors, helpers and pxa_camera's own code list
# from the revision, then compares them entry by entry: pixel format, bits per
# sample, packing, order, layout, and the line and image sizes at several
# widths. Any difference fails.
#
# usage: pxa-compare.sh REV
#        pxa-compare.sh --files OLD_PXA NEW_PXA NEW_COMMON_C NEW_COMMON_H OUT
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --files ]; then
	old_pxa=$2 new_pxa=$3 new_c=$4 new_h=$5 out=$6
	label=files
	inputs=$(cache_key "$0" "$(hash_files "$old_pxa" "$new_pxa" "$new_c" "$new_h")")
else
	rev=${1:?usage: pxa-compare.sh REV}
	tip=$(rev_tip "$rev")
	out="$MBUS_RESULTS/$rev/pxa"
	label=$rev
	inputs=$(pxa_inputs "$rev")
	mkdir -p "$out"
	pxa=drivers/media/platform/intel/pxa_camera.c
	git -C "$MBUS_TREE" show "$(base_commit):$pxa" >"$out/old-pxa_camera.c"
	git -C "$MBUS_TREE" show "$tip:$pxa" >"$out/new-pxa_camera.c"
	git -C "$MBUS_TREE" show "$tip:drivers/media/v4l2-core/v4l2-common.c" >"$out/new-v4l2-common.c"
	git -C "$MBUS_TREE" show "$tip:include/media/v4l2-common.h" >"$out/new-v4l2-common.h"
	old_pxa=$out/old-pxa_camera.c new_pxa=$out/new-pxa_camera.c
	new_c=$out/new-v4l2-common.c new_h=$out/new-v4l2-common.h
fi
mkdir -p "$out"
stage_begin "pxa $label"
if grep -q 'pxa_mbus_pixelfmt' "$new_pxa"; then
	verdict_write "$out/pxa.verdict" FAIL "$inputs" "pxa_camera.c still has its own pxa_mbus_pixelfmt table: not converted"
	stage_end FAIL "not converted"
	exit 1
fi

# extract FILE START_REGEX END_REGEX: the lines from START to END, inclusive.
extract() {
	awk -v s="$2" -v e="$3" '$0 ~ s { on = 1 } on { print } on && $0 ~ e { exit }' "$1"
}

stubs='#include <stdint.h>
#include <stdio.h>
#include <linux/media-bus-format.h>
#include <linux/videodev2.h>
typedef uint8_t u8; typedef uint32_t u32; typedef int32_t s32; typedef uint64_t u64;
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define EINVAL 22
#define EOVERFLOW 75
#define U32_MAX 0xffffffffU
#define DIV_ROUND_UP_ULL(x, d) (((x) + (d) - 1) / (d))
#define EXPORT_SYMBOL_GPL(x)
static const unsigned int widths[] = { 1, 2, 17, 48, 640, 2048 };
'

# The old side: pxa_camera.c of the base.
{
	echo "$stubs"
	extract "$old_pxa" '^ \* enum pxa_mbus_packing' '^};' | sed '1s/^/\/**\n/'
	extract "$old_pxa" '^ \* enum pxa_mbus_order' '^};' | sed '1s/^/\/**\n/'
	extract "$old_pxa" '^ \* enum pxa_mbus_layout' '^};' | sed '1s/^/\/**\n/'
	extract "$old_pxa" '^struct pxa_mbus_pixelfmt \{' '^};'
	extract "$old_pxa" '^struct pxa_mbus_lookup \{' '^};'
	extract "$old_pxa" '^static const struct pxa_mbus_lookup mbus_fmt' '^};'
	extract "$old_pxa" '^static s32 pxa_mbus_bytes_per_line' '^}'
	extract "$old_pxa" '^static s32 pxa_mbus_image_size' '^}'
	extract "$old_pxa" '^static const struct pxa_mbus_pixelfmt pxa_camera_formats' '^};'
	cat <<'C'
static const char *const packing[] = { "NONE", "2X8_PADHI", "EXTEND16" };
static const char *const order[] = { "LE", "BE" };
static const char *const layout[] = { "PACKED", "PLANAR_2Y_U_V", "PLANAR_2Y_C", "PLANAR_Y_C" };
static void show(u32 code, const struct pxa_mbus_pixelfmt *f)
{
	unsigned int i;

	printf("0x%04x %.4s bits=%u packing=%s order=%s layout=%s", code,
	       (const char *)&f->fourcc, f->bits_per_sample, packing[f->packing],
	       order[f->order], layout[f->layout]);
	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		s32 bpl = pxa_mbus_bytes_per_line(widths[i], f);
		s32 size = bpl < 0 ? bpl : pxa_mbus_image_size(f, bpl, 480);

		printf(" %u:%d/%d", widths[i], bpl, size);
	}
	printf("\n");
}
int main(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mbus_fmt); i++)
		show(mbus_fmt[i].code, &mbus_fmt[i].fmt);
	for (i = 0; i < ARRAY_SIZE(pxa_camera_formats); i++)
		show(MEDIA_BUS_FMT_UYVY8_2X8, &pxa_camera_formats[i]);
	return 0;
}
C
} >"$out/old.c"

# The new side: the descriptors of v4l2-common and pxa_camera's own lists.
{
	echo "$stubs"
	extract "$new_h" '^ \* enum v4l2_mbus_packing' '^};' | sed '1s/^/\/**\n/'
	extract "$new_h" '^ \* enum v4l2_mbus_order' '^};' | sed '1s/^/\/**\n/'
	extract "$new_h" '^ \* enum v4l2_mbus_layout' '^};' | sed '1s/^/\/**\n/'
	extract "$new_h" '^struct v4l2_mbus_format_info \{' '^};'
	extract "$new_c" '^#define MBUS_INFO\(' '^EXPORT_SYMBOL_GPL\(v4l2_mbus_image_size\);' |
		sed 's/^const struct v4l2_mbus_format_info \*v4l2_mbus_format_info/static &/; s/^int v4l2_mbus_/static int v4l2_mbus_/'
	extract "$new_pxa" '^static const u32 pxa_mbus_codes\[\]' '^};'
	extract "$new_pxa" '^static const struct v4l2_mbus_format_info pxa_camera_formats' '^};'
	cat <<'C'
static const char *const packing[] = { "NONE", "2X8_PADHI", "2X8_PADLO", "EXTEND16" };
static const char *const order[] = { "LE", "BE" };
static const char *const layout[] = { "PACKED", "PLANAR_2Y_U_V", "PLANAR_2Y_C", "PLANAR_Y_C" };
static void show(u32 code, const struct v4l2_mbus_format_info *f)
{
	unsigned int i;

	if (!f) {
		printf("0x%04x no descriptor\n", code);
		return;
	}
	printf("0x%04x %.4s bits=%u packing=%s order=%s layout=%s", code,
	       (const char *)&f->pixelformat, f->bits_per_sample,
	       packing[f->packing], order[f->order], layout[f->layout]);
	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		u32 bpl, size;
		int r = v4l2_mbus_bytes_per_line(f, widths[i], &bpl);

		if (!r)
			r = v4l2_mbus_image_size(f, bpl, 480, &size);
		if (r)
			printf(" %u:%d/%d", widths[i], -r, -r);
		else
			printf(" %u:%d/%d", widths[i], (s32)bpl, (s32)size);
	}
	printf("\n");
}
int main(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pxa_mbus_codes); i++)
		show(pxa_mbus_codes[i], v4l2_mbus_format_info(pxa_mbus_codes[i]));
	for (i = 0; i < ARRAY_SIZE(pxa_camera_formats); i++)
		show(pxa_camera_formats[i].code, &pxa_camera_formats[i]);
	return 0;
}
C
} >"$out/new.c"

for side in old new; do
	if ! gcc -std=gnu11 -Wall -Werror -Wno-unused-function -o "$out/$side" "$out/$side.c" 2>"$out/$side.build.log"; then
		verdict_write "$out/pxa.verdict" FAIL "$inputs" "the $side table does not compile: $(grep -m1 error "$out/$side.build.log")"
		stage_end FAIL "the $side table does not compile (see $out/$side.build.log)"
		exit 1
	fi
	"$out/$side" | sort >"$out/$side.table"
done
if diff -u "$out/old.table" "$out/new.table" >"$out/pxa.diff"; then
	verdict_write "$out/pxa.verdict" OK "$inputs" "$(wc -l <"$out/old.table") formats identical: fourcc, bits, packing, order, layout, sizes at 6 widths"
	stage_end OK "$(verdict_read "$out/pxa.verdict" | cut -d' ' -f2-)"
else
	verdict_write "$out/pxa.verdict" FAIL "$inputs" "$(grep -c '^[-+]0x' "$out/pxa.diff") differing line(s); first: $(grep -m1 '^[-+]0x' "$out/pxa.diff")"
	stage_end FAIL "$(verdict_read "$out/pxa.verdict" | cut -d' ' -f2-)"
	exit 1
fi
