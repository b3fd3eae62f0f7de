#!/bin/bash
# Stage "kernel": the test kernel of one commit of the base tree, built in the
# shared object directory with the same flags as the per-patch checks (so
# nothing is rebuilt that the checks built), and kept in the cache: bzImage
# and the installed modules. Prints the directory.
#
# usage: kernel.sh COMMIT
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

commit=$(git -C "$MBUS_TREE" rev-parse --verify "${1:?usage: kernel.sh COMMIT}^{commit}") ||
	die "kernel.sh: no commit $1 in $MBUS_TREE"
kdir="$MBUS_CACHE/kernels/$commit-$(hash_files "$MBUS_TOP/ci/kernel.config")"
if [ -f "$kdir/done" ]; then
	echo "$kdir"
	exit 0
fi
stage_begin "kernel $(git -C "$MBUS_TREE" rev-parse --short=12 "$commit")" >&2
"$MBUS_TOP/ci/config.sh" >&2
git -C "$MBUS_TREE" checkout -q --detach "$commit"
rm -rf "$kdir"
mkdir -p "$kdir"
kmake() {
	make -C "$MBUS_TREE" O="$MBUS_BUILD" ARCH=x86_64 CC="ccache gcc" \
		W=1 C=1 -j"$JOBS" -s "$@"
}
if ! kmake bzImage modules >"$kdir/build.log" 2>&1 ||
	! kmake INSTALL_MOD_PATH="$kdir/mods" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
		modules_install >>"$kdir/build.log" 2>&1; then
	stage_end FAIL "build failed: $(grep -m1 -E 'error' "$kdir/build.log" || tail -n 1 "$kdir/build.log")" >&2
	exit 1
fi
cp "$MBUS_BUILD/arch/x86/boot/bzImage" "$kdir/"
touch "$kdir/done"
stage_end OK "$(du -sh "$kdir" | cut -f1) in $kdir" >&2
echo "$kdir"
