#!/bin/bash
# Stage "csi2": prove that the conversions of the CSI-2 receivers ti-cal,
# j721e-csi2rx, sun6i-mipi-csi2 and sun8i-a83t-mipi-csi2 to the V4L2 core's
# media bus code descriptors changed nothing.
# Compiles, in userspace, each driver's format table as the base has it and
# as the revision has it, the revision's descriptors (v4l2_find_mbus_code_info()
# and v4l2_format_info() with their tables, from its v4l2-common.c) and the
# drivers' own accessors, and compares every entry: media bus code, pixel
# format, and what the driver uses of it: ti-cal the bits per pixel on the
# bus; j721e-csi2rx the CSI-2 data type, the bits per pixel in memory and
# its container size; the sunxi receivers the data type and the bits per
# pixel on the bus. Any difference fails, naming the entry.
#
# usage: csi2-compare.sh REV
#        csi2-compare.sh --applies REV               (prints REV if REV
#        changes one of the four receivers, nothing if not; the one test
#        of it for the gate, the evidence and the test command)
#        csi2-compare.sh --files OLDDIR NEWDIR OUT   (each DIR holds the
#        files of the tree at their paths: the tests' fixtures)
#        csi2-compare.sh --list-files                 (those paths)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

files=(drivers/media/platform/ti/cal/cal.c drivers/media/platform/ti/cal/cal.h
	drivers/media/platform/ti/j721e-csi2rx/j721e-csi2rx.c
	drivers/media/platform/sunxi/sun6i-mipi-csi2/sun6i_mipi_csi2.c
	drivers/media/platform/sunxi/sun6i-mipi-csi2/sun6i_mipi_csi2.h
	drivers/media/platform/sunxi/sun8i-a83t-mipi-csi2/sun8i_a83t_mipi_csi2.c
	drivers/media/platform/sunxi/sun8i-a83t-mipi-csi2/sun8i_a83t_mipi_csi2.h
	drivers/media/v4l2-core/v4l2-common.c include/media/v4l2-common.h
	include/media/mipi-csi2.h include/uapi/linux/videodev2.h
	include/uapi/linux/v4l2-common.h include/uapi/linux/v4l2-controls.h
	include/uapi/linux/media-bus-format.h)

# applies REV: does REV change one of the four receivers?
applies() {
	revision_patches "$1" >/dev/null
	grep -qE '^\+\+\+ b/drivers/media/platform/(ti/(cal|j721e-csi2rx)|sunxi/sun(6i|8i-a83t)-mipi-csi2)/' \
		"$MBUS_SERIES_DIR/series-$1"/*.patch
}

if [ "${1:-}" = --list-files ]; then
	printf '%s\n' "${files[@]}"
	exit 0
elif [ "${1:-}" = --applies ]; then
	if applies "${2:?usage: csi2-compare.sh --applies REV}"; then echo "$2"; fi
	exit 0
elif [ "${1:-}" = --files ]; then
	old=$2 new=$3 out=$4
	label=files
	inputs=$(cache_key "$0" "$(cd "$old" && hash_files "${files[@]}")" "$(cd "$new" && hash_files "${files[@]}")")
else
	rev=${1:?usage: csi2-compare.sh REV}
	if ! applies "$rev"; then
		stage_begin "csi2 $rev"
		rm -rf "$MBUS_RESULTS/$rev/csi2"
		stage_end N/A "changes none of the four CSI-2 receivers: nothing to compare"
		exit 0
	fi
	tip=$(rev_tip "$rev")
	out="$MBUS_RESULTS/$rev/csi2"
	label=$rev
	inputs=$(csi2_inputs "$rev")
	# (The compiled sides are $out/old and $out/new: the sources go apart.)
	old=$out/tree-old new=$out/tree-new
	rm -rf "$old" "$new" "$out/old" "$out/new"
	for f in "${files[@]}"; do
		mkdir -p "$old/${f%/*}" "$new/${f%/*}"
		git -C "$MBUS_TREE" show "$(base_commit):$f" >"$old/$f" || die "csi2 $rev: $f not in the base"
		git -C "$MBUS_TREE" show "$tip:$f" >"$new/$f" || die "csi2 $rev: $f not in $rev"
	done
fi
mkdir -p "$out"
stage_begin "csi2 $label"
cal=drivers/media/platform/ti/cal
j7=drivers/media/platform/ti/j721e-csi2rx/j721e-csi2rx.c
s6=drivers/media/platform/sunxi/sun6i-mipi-csi2/sun6i_mipi_csi2
s8=drivers/media/platform/sunxi/sun8i-a83t-mipi-csi2/sun8i_a83t_mipi_csi2
for f in "$new/$cal/cal.h" "$new/$j7" "$new/$s6.h" "$new/$s8.h"; do
	if grep -qE '^\s+u(8|32)\s+bpp;' "$f"; then
		why="${f#"$new"/} still keeps its own bits per pixel: not converted"
		verdict_write "$out/csi2.verdict" FAIL "$inputs" "$why"
		stage_end FAIL "$why"
		exit 1
	fi
done

# extract FILE START_REGEX END_REGEX: the lines from START to END, inclusive.
extract() {
	awk -v s="$2" -v e="$3" '$0 ~ s { on = 1 } on { print } on && $0 ~ e { exit }' "$1"
}

# The headers of each side's own tree, and what the kernel's code needs.
stubs='#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/media-bus-format.h>
#include <linux/videodev2.h>
#include <media/mipi-csi2.h>
typedef uint8_t u8; typedef uint32_t u32;
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NULL ((void *)0)
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
#define SHIM_DMACNTX_SIZE_8 0
#define SHIM_DMACNTX_SIZE_16 1
#define SHIM_DMACNTX_SIZE_32 2
'

# The old side: the tables of the base, their own fields.
{
	echo "$stubs"
	extract "$old/$cal/cal.h" '^struct cal_format_info \{' '^};'
	extract "$old/$cal/cal.c" '^const struct cal_format_info cal_formats\[\]' '^};'
	extract "$old/$j7" '^struct ti_csi2rx_fmt \{' '^};'
	extract "$old/$j7" '^static const struct ti_csi2rx_fmt ti_csi2rx_formats\[\]' '^};'
	extract "$old/$s6.h" '^struct sun6i_mipi_csi2_format \{' '^};'
	extract "$old/$s6.c" '^static const struct sun6i_mipi_csi2_format sun6i_mipi_csi2_formats\[\]' '^};'
	extract "$old/$s8.h" '^struct sun8i_a83t_mipi_csi2_format \{' '^};'
	extract "$old/$s8.c" '^static const struct sun8i_a83t_mipi_csi2_format$' '^};'
	cat <<'C'
int main(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sun6i_mipi_csi2_formats); i++)
		printf("sun6i %u: 0x%04x dt=0x%02x bpp=%u\n", i,
		       sun6i_mipi_csi2_formats[i].mbus_code,
		       sun6i_mipi_csi2_formats[i].data_type,
		       sun6i_mipi_csi2_formats[i].bpp);
	for (i = 0; i < ARRAY_SIZE(sun8i_a83t_mipi_csi2_formats); i++)
		printf("sun8i %u: 0x%04x dt=0x%02x bpp=%u\n", i,
		       sun8i_a83t_mipi_csi2_formats[i].mbus_code,
		       sun8i_a83t_mipi_csi2_formats[i].data_type,
		       sun8i_a83t_mipi_csi2_formats[i].bpp);

	for (i = 0; i < ARRAY_SIZE(cal_formats); i++)
		printf("cal %u: 0x%04x %.4s bpp=%u\n", i, cal_formats[i].code,
		       (const char *)&cal_formats[i].fourcc, cal_formats[i].bpp);
	for (i = 0; i < ARRAY_SIZE(ti_csi2rx_formats); i++)
		printf("j721e %u: 0x%04x %.4s dt=0x%02x bpp=%u size=%u\n", i,
		       ti_csi2rx_formats[i].code,
		       (const char *)&ti_csi2rx_formats[i].fourcc,
		       ti_csi2rx_formats[i].csi_dt, ti_csi2rx_formats[i].bpp,
		       ti_csi2rx_formats[i].size);
	return 0;
}
C
} >"$out/old.c"

# The new side: the revision's descriptors, tables and the drivers' own
# accessors (cal_format_bpp(), ti_csi2rx_fmt_bpp()); j721e-csi2rx takes its
# data type from v4l2_find_mbus_code_info(code)->csi2_dt where it programs
# the SHIM, which main() does the same way.
{
	echo "$stubs"
	extract "$new/include/media/v4l2-common.h" '^enum v4l2_pixel_encoding \{' '^};'
	extract "$new/include/media/v4l2-common.h" '^struct v4l2_format_info \{' '^};'
	extract "$new/include/media/v4l2-common.h" '^struct v4l2_mbus_code_info \{' '^};'
	extract "$new/drivers/media/v4l2-core/v4l2-common.c" '^const struct v4l2_format_info \*v4l2_format_info\(' '^EXPORT_SYMBOL\(v4l2_format_info\);'
	extract "$new/drivers/media/v4l2-core/v4l2-common.c" '^static const struct v4l2_mbus_code_info v4l2_mbus_formats\[\]' '^};'
	extract "$new/drivers/media/v4l2-core/v4l2-common.c" '^const struct v4l2_mbus_code_info \*v4l2_find_mbus_code_info\(' '^}'
	extract "$new/$cal/cal.h" '^struct cal_format_info \{' '^};'
	extract "$new/$cal/cal.c" '^const struct cal_format_info cal_formats\[\]' '^};'
	extract "$new/$cal/cal.c" '^unsigned int cal_format_bpp\(' '^}'
	extract "$new/$j7" '^struct ti_csi2rx_fmt \{' '^};'
	extract "$new/$j7" '^static const struct ti_csi2rx_fmt ti_csi2rx_formats\[\]' '^};'
	extract "$new/$j7" '^static unsigned int ti_csi2rx_fmt_bpp\(' '^}'
	extract "$new/$s6.c" '^static const u32 sun6i_mipi_csi2_mbus_codes\[\]' '^};'
	echo 'static const struct v4l2_mbus_code_info *'
	extract "$new/$s6.c" '^sun6i_mipi_csi2_format_find\(' '^}'
	extract "$new/$s8.c" '^static const u32 sun8i_a83t_mipi_csi2_mbus_codes\[\]' '^};'
	echo 'static const struct v4l2_mbus_code_info *'
	extract "$new/$s8.c" '^sun8i_a83t_mipi_csi2_format_find\(' '^}'
	cat <<'C'
int main(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sun6i_mipi_csi2_mbus_codes); i++) {
		u32 c = sun6i_mipi_csi2_mbus_codes[i];

		printf("sun6i %u: 0x%04x dt=0x%02x bpp=%u\n", i, c,
		       sun6i_mipi_csi2_format_find(c)->csi2_dt,
		       sun6i_mipi_csi2_format_find(c)->bits_per_pixel);
	}
	for (i = 0; i < ARRAY_SIZE(sun8i_a83t_mipi_csi2_mbus_codes); i++) {
		u32 c = sun8i_a83t_mipi_csi2_mbus_codes[i];

		printf("sun8i %u: 0x%04x dt=0x%02x bpp=%u\n", i, c,
		       sun8i_a83t_mipi_csi2_format_find(c)->csi2_dt,
		       sun8i_a83t_mipi_csi2_format_find(c)->bits_per_pixel);
	}

	for (i = 0; i < ARRAY_SIZE(cal_formats); i++)
		printf("cal %u: 0x%04x %.4s bpp=%u\n", i, cal_formats[i].code,
		       (const char *)&cal_formats[i].fourcc,
		       cal_format_bpp(&cal_formats[i]));
	for (i = 0; i < ARRAY_SIZE(ti_csi2rx_formats); i++)
		printf("j721e %u: 0x%04x %.4s dt=0x%02x bpp=%u size=%u\n", i,
		       ti_csi2rx_formats[i].code,
		       (const char *)&ti_csi2rx_formats[i].fourcc,
		       v4l2_find_mbus_code_info(ti_csi2rx_formats[i].code)->csi2_dt,
		       ti_csi2rx_fmt_bpp(&ti_csi2rx_formats[i]),
		       ti_csi2rx_formats[i].size);
	return 0;
}
C
} >"$out/new.c"

for side in old new; do
	d=$old
	[ "$side" = old ] || d=$new
	mkdir -p "$out/$side-inc/linux" "$out/$side-inc/media"
	cp "$d"/include/uapi/linux/{videodev2.h,v4l2-common.h,v4l2-controls.h,media-bus-format.h} "$out/$side-inc/linux/"
	cp "$d/include/media/mipi-csi2.h" "$out/$side-inc/media/"
	# What headers_install strips from the uapi headers.
	printf '#define __user\n' >"$out/$side-inc/linux/compiler.h"
	if ! gcc -std=gnu11 -Wall -Werror -Wno-unused-function -I"$out/$side-inc" \
		-o "$out/$side" "$out/$side.c" 2>"$out/$side.build.log"; then
		verdict_write "$out/csi2.verdict" FAIL "$inputs" "the $side tables do not compile: $(grep -m1 error "$out/$side.build.log")"
		stage_end FAIL "the $side tables do not compile (see $out/$side.build.log)"
		exit 1
	fi
	# A lookup that returns NULL crashes the new side: that is a failure.
	if ! "$out/$side" >"$out/$side.table" 2>"$out/$side.run.log"; then
		verdict_write "$out/csi2.verdict" FAIL "$inputs" "the $side side crashed after $(wc -l <"$out/$side.table") entries (a code without a descriptor?)"
		stage_end FAIL "the $side side crashed"
		exit 1
	fi
done
n=$(wc -l <"$out/old.table")
if [ "$n" -gt 0 ] && diff -u "$out/old.table" "$out/new.table" >"$out/csi2.diff"; then
	verdict_write "$out/csi2.verdict" OK "$inputs" "$(grep -c '^cal ' "$out/old.table") ti-cal, $(grep -c '^j721e ' "$out/old.table") j721e-csi2rx, $(grep -c '^sun6i ' "$out/old.table") sun6i-mipi-csi2 and $(grep -c '^sun8i ' "$out/old.table") sun8i-a83t-mipi-csi2 formats identical: code, fourcc, data type, bits per pixel, size"
	stage_end OK "$(verdict_read "$out/csi2.verdict" | cut -d' ' -f2-)"
else
	verdict_write "$out/csi2.verdict" FAIL "$inputs" "$(grep -c '^[-+][a-z]' "$out/csi2.diff") differing line(s); first: $(grep -m1 '^[-+][a-z]' "$out/csi2.diff")"
	stage_end FAIL "$(verdict_read "$out/csi2.verdict" | cut -d' ' -f2-)"
	exit 1
fi
