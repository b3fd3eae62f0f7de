#!/bin/bash
# Stage "evidence": the parts of a cover letter that come from the results,
# so that no number in a posting is typed by hand. ci/render.sh puts them in
# place of the cover letter's marker lines:
#   %%EVIDENCE%%  how the revision was tested: its checks, its boot against
#                 the base booted in the same run, the guest's userspace;
#   %%LINES%%     the lines the series adds and removes, drivers against the
#                 core, with the command that counts them.
# Every verdict is read against the inputs it must have been made from now
# (verdict_read): a missing or stale one stops the rendering, naming it.
#
# usage: evidence.sh REV evidence|lines
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: evidence.sh REV evidence|lines}
what=${2:?usage: evidence.sh REV evidence|lines}
revision_has_patches "$rev" || die "evidence: no patches in series-$rev"
res=$MBUS_RESULTS/$rev
base=$(base_commit)

# current FILE INPUTS: the reason of a verdict that passes and is current.
current() {
	local v r
	read -r v r < <(verdict_read "$1" "$2")
	verdict_passes "$v" || die "evidence $rev: ${1#"$MBUS_RESULTS"/} is $v $r: run make REV=$rev"
	printf '%s' "$r"
}

lines() {
	local tip drivers core kunit
	tip=$(rev_tip "$rev")
	# numstat PATHSPEC...: "+added -removed" over the paths.
	numstat() {
		git -C "$MBUS_TREE" diff --numstat "$base" "$tip" -- "$@" |
			awk '{ a += $1; d += $2 } END { printf "+%d -%d", a, d }'
	}
	drivers=(drivers/media/test-drivers drivers/media/platform)
	kunit=(drivers/media/v4l2-core/v4l2-common-kunit.c drivers/media/v4l2-core/.kunitconfig)
	core=(drivers/media/v4l2-core include Documentation
		":!drivers/media/v4l2-core/v4l2-common-kunit.c"
		":!drivers/media/v4l2-core/.kunitconfig")
	local d c more
	d=$(numstat "${drivers[@]}") c=$(numstat "${core[@]}")
	printf '  drivers:                                %s\n' "$d"
	printf '  core, Kconfig, kernel-doc and docs:     %s\n' "$c"
	printf '  KUnit suite and its .kunitconfig:       %s\n' "$(numstat "${kunit[@]}")"
	# The measure of the issue that asked for it: the lines the drivers
	# remove against the lines the core and its documentation add.
	d=${d##* -} c=${c%% *} c=${c#+}
	more='fewer lines than'
	[ "$d" -ne "$c" ] || more='as many lines as'
	[ "$d" -le "$c" ] || more='more lines than'
	printf '\n  Removed from the drivers: %d lines.\n' "$d"
	printf '  Added to the core and its documentation: %d lines.\n' "$c"
	printf '  The drivers remove %s the core adds.\n' "$more"
	printf '\n  git diff --numstat BASE TIP -- %s\n' "${drivers[*]}"
	printf '  git diff --numstat BASE TIP -- %s\n' "${core[*]}"
	printf '  git diff --numstat BASE TIP -- %s\n' "${kunit[*]}"
}

evidence() {
	local n i nnnn chk want c r bi bb cp bd kunit comp bcomp cam mbus bmbus con csi2='' confs s
	local v4l v4l32 lcam bbox
	n=$(compgen -G "$MBUS_SERIES_DIR/series-$rev/*.patch" | wc -l)
	# Every verdict first, each in an assignment: one that is not current
	# stops the script here (a failed command substitution inside a
	# here-document would not).
	for i in $(seq 1 "$n"); do
		want=$(patch_inputs "$rev" "$i")
		nnnn=$(printf %04d "$i")
		for chk in "${PATCH_CHECKS[@]}"; do
			c=$(current "$res/$nnnn/$chk.verdict" "$want")
		done
	done
	c=$(current "$res/check.verdict" "$(rev_inputs "$rev")")
	cp=$(current "$res/0001/checkpatch.verdict" "$(patch_inputs "$rev" 1)")
	bd=$(current "$res/0001/build.verdict" "$(patch_inputs "$rev" 1)")
	for i in $(seq 2 "$n"); do
		nnnn=$(printf %04d "$i")
		for chk in checkpatch build; do
			c=$(current "$res/$nnnn/$chk.verdict" "$(patch_inputs "$rev" "$i")")
			r=$cp
			[ "$chk" = checkpatch ] || r=$bd
			[ "$chk" = build ] || { c=${c%%;*} r=${r%%;*}; }
			[ "$c" = "$r" ] ||
				die "evidence $rev: patch $i $chk says '$c', not what patch 1 says"
		done
	done
	c=$("$MBUS_TOP/ci/csi2-compare.sh" --applies "$rev")
	if [ -n "$c" ]; then
		csi2=$(current "$res/csi2/csi2.verdict" "$(csi2_inputs "$rev")")
	fi
	local -A media_ci=()
	for s in builds cocci htmldocs; do
		want=$("$MBUS_TOP/ci/$s.sh" --inputs "$rev") || die "evidence $rev: ci/$s.sh --inputs failed"
		media_ci[$s]=$(current "$res/$s/$s.verdict" "$want")
	done
	confs=$(awk '!/^#/ && NF { printf "%s%s", sep, $1; sep = ", " }' "$MBUS_TOP/ci/builds")
	bi=$(boot_inputs "$rev") bb=$(boot_inputs base)
	kunit=$(current "$res/boot/kunit.verdict" "$bi")
	comp=$(current "$res/boot/compliance.verdict" "$bi")
	bcomp=$(current "$MBUS_RESULTS/base/boot/compliance.verdict" "$bb")
	cam=$(current "$res/boot/libcamera.verdict" "$bi")
	mbus=$(current "$res/boot/mbus.verdict" "$bi")
	bmbus=$(current "$MBUS_RESULTS/base/boot/mbus.verdict" "$bb")
	con=$(current "$res/boot/console.verdict" "$bi")
	# What the console check found, said the same way whether or not the
	# base's intermittent known splat (ci/known-splats) came up in this
	# boot: the rendering must not depend on it.
	con="no BUG, WARNING, KASAN, UBSAN, lockdep, Call Trace, kmemleak or Oops report but the base's known ones (ci/known-splats)"
	[ -s "$res/boot/guest-versions" ] || die "evidence $rev: no guest-versions in the results of the boot"
	version() {   # PACKAGE: its version in the guest's root
		awk -v p="$1" '$1 == p { print $2; f = 1; exit } END { exit !f }' "$res/boot/guest-versions" ||
			die "evidence $rev: $1 is not in $res/boot/guest-versions"
	}
	v4l=$(version v4l-utils:amd64) v4l32=$(version v4l-utils:i386)
	lcam=$(version libcamera-tools:amd64) bbox=$(version busybox-static:amd64)
	cat <<TXT
Base: $(git -C "$MBUS_TREE" log -1 --format=%s "$base"), imported as
commit $(git -C "$MBUS_TREE" rev-parse --short=12 "$base") (no upstream history: the base-commit below is that import).

Each of the $n patches, applied in order (the tools' summary is the same
for every patch):
 - checkpatch.pl --strict --max-line-length=80 --codespell: ${cp%%;*};
 - an incremental W=1 C=1 (sparse) build of a configuration with vimc,
   vivid and every driver the series touches (COMPILE_TEST on x86_64):
   $bd;
 - scripts/kernel-doc -Wall on the touched files: no new warning;
 - a Signed-off-by of the author, media: subject prefix.
TXT
	[ -z "$csi2" ] || printf '
The receivers against the base, compiled in userspace and compared
entry by entry: %s.
' "$csi2"
	printf '
Each patch also, as media-ci checks a series, against the state before it:
 - built with W=1 in the configurations of ci/builds (%s):
   %s;
 - make coccicheck MODE=report on the files it changes: %s;
 - make htmldocs of the books it touches (SPHINXDIRS=): %s.
' "$confs" "${media_ci[builds]}" "${media_ci[cocci]}" "${media_ci[htmldocs]}"
	cat <<TXT

Booted under QEMU (KASAN, UBSAN, lockdep, kmemleak, DEBUG_LIST,
DEBUG_OBJECTS) against the unpatched base booted in the same run, with a
Debian 13 userspace: v4l-utils $v4l (and its i386 build, $v4l32, for
the 32-bit compat ioctl path), libcamera $lcam, busybox $bbox:
 - KUnit at boot: $kunit;
 - v4l2-compliance as v4l-utils' test-media runs it (vimc, vimc from
   32-bit userspace, vivid): $comp;
   on the base: $bcomp;
 - libcamera: $cam;
 - the end-to-end test of vimc's raw capture, which also compares the
   captured bytes of its Bayer codes with the layout of their pixel
   formats' pages: $mbus;
   on the base: $bmbus;
 - module load/unload cycles, unbind/rebind with a node held open and
   while streaming, a kmemleak scan, the console: $con.
TXT
}

case $what in
evidence) evidence | "$MBUS_TOP/ci/refill.py" ;;
lines) lines ;;
*) die "evidence: '$what' is not evidence or lines" ;;
esac
