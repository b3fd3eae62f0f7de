#!/bin/bash
# Stage "kernel": the boot kernel of one commit of the base tree: the test
# configuration plus the debug set (ci/kernel.config + ci/debug.config), built
# in its own object directory ($MBUS_BOOT_BUILD, shared by the base and every
# revision, with ccache), and kept in the cache: bzImage and the installed
# modules. Prints the directory.
#
# usage: kernel.sh COMMIT
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

commit=$(git -C "$MBUS_TREE" rev-parse --verify "${1:?usage: kernel.sh COMMIT}^{commit}") ||
	die "kernel.sh: no commit $1 in $MBUS_TREE"
frags=("$MBUS_TOP/ci/kernel.config" "$MBUS_TOP/ci/debug.config")
kdir="$MBUS_CACHE/kernels/$commit-$(hash_files "${frags[@]}")"
if [ -f "$kdir/done" ]; then
	echo "$kdir"
	exit 0
fi
stage_begin "kernel $(git -C "$MBUS_TREE" rev-parse --short=12 "$commit")" >&2
"$MBUS_TOP/ci/config.sh" "$MBUS_BOOT_BUILD" "${frags[@]}" >&2
git -C "$MBUS_TREE" checkout -q --detach "$commit"
rm -rf "$kdir"
mkdir -p "$kdir"
kmake() {
	make -C "$MBUS_TREE" O="$MBUS_BOOT_BUILD" ARCH=x86_64 CC="ccache gcc" \
		-j"$JOBS" -s "$@"
}
if ! kmake bzImage modules >"$kdir/build.log" 2>&1 ||
	! kmake INSTALL_MOD_PATH="$kdir/mods" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
		modules_install >>"$kdir/build.log" 2>&1; then
	stage_end FAIL "build failed: $(grep -m1 -E 'error' "$kdir/build.log" || tail -n 1 "$kdir/build.log")" >&2
	exit 1
fi
cp "$MBUS_BOOT_BUILD/arch/x86/boot/bzImage" "$kdir/"
cp "$MBUS_BOOT_BUILD/usr/gen_init_cpio" "$kdir/"
touch "$kdir/done"
stage_end OK "$(du -sh "$kdir" | cut -f1) in $kdir" >&2
echo "$kdir"
