#!/bin/bash
# Stage "boot": boot the revision's kernel in QEMU with vimc and vivid, run
# the guest tests, and judge the console against the unpatched base booted
# with the same guest image and scripts. The base is booted first (once per
# set of inputs); results of unchanged inputs are reused.
#
# usage: boot.sh REV      (results in $MBUS_RESULTS/REV/boot and .../base/boot)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: boot.sh REV}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
base=$(base_commit)
scripts=$(hash_files "$MBUS_TOP"/ci/{lib,boot,kernel,initramfs,qemu,judge}.sh \
	"$MBUS_TOP"/ci/guest/* "$MBUS_TOP/ci/kernel.config" "$MBUS_TOP/ci/debug.config")

# boot_one NAME COMMIT [BASEDIR]: kernel, image, guest run, verdict.
boot_one() {
	local name=$1 commit=$2 basedir=${3:-} kdir img key out t0
	out="$MBUS_RESULTS/$name/boot"
	stage_begin "boot $name"
	kdir=$("$MBUS_TOP/ci/kernel.sh" "$commit") || {
		mkdir -p "$out"
		write_verdict "$out/boot.verdict" FAIL "the kernel does not build"
		stage_end FAIL "the kernel of $name does not build"
		return 1
	}
	img=$("$MBUS_TOP/ci/initramfs.sh" "$kdir")
	key=$(printf '%s\n' "$commit" "$kdir" "$img" "$scripts" \
		"$(cat "$basedir/key" 2>/dev/null)" | sha256sum | cut -c1-16)
	rm -rf "$out"
	mkdir -p "$out"
	if [ -f "$MBUS_STATE/boot-$key/done" ]; then
		cp -a "$MBUS_STATE/boot-$key/." "$out/"
		info "  $name: guest results of identical inputs reused (guest took $(cat "$out/guest-seconds")s)"
	else
		info "  $name: booting $(basename "$img") under QEMU"
		t0=$(date +%s)
		"$MBUS_TOP/ci/qemu.sh" "$kdir/bzImage" "$img" "$out/console.log"
		echo $(($(date +%s) - t0)) >"$out/guest-seconds"
		info "  $name: guest stage $(cat "$out/guest-seconds")s ($(cat "$out/console.log.accel"))"
	fi
	echo "$key" >"$out/key"
	if "$MBUS_TOP/ci/judge.sh" "$out" ${basedir:+"$basedir"} &&
		[ -f "$out/boot.verdict" ]; then
		stage_end OK "guest $(cat "$out/guest-seconds")s; results in $out"
	else
		[ -f "$out/boot.verdict" ] ||
			write_verdict "$out/boot.verdict" FAIL "the judge itself failed; see $out"
		stage_end FAIL "$(cut -d' ' -f2- "$out/boot.verdict"); results in $out"
	fi
	if [ ! -f "$MBUS_STATE/boot-$key/done" ]; then
		rm -rf "${MBUS_STATE:?}/boot-$key"
		mkdir -p "$MBUS_STATE/boot-$key"
		cp -a "$out/." "$MBUS_STATE/boot-$key/"
		rm -f "$MBUS_STATE/boot-$key"/*.verdict
		touch "$MBUS_STATE/boot-$key/done"
	fi
	[ -f "$out/boot.verdict" ] && [ "$(cut -d' ' -f1 "$out/boot.verdict")" != FAIL ]
}

# The base, the reference: its failures are listed, never a revision's.
if ! boot_one base "$base"; then
	info "  base: the unpatched base fails its own boot checks (see $MBUS_RESULTS/base/boot)"
fi
tip=$(git -C "$MBUS_TREE" rev-parse --verify -q "$MBUS_BRANCH_PREFIX$rev") ||
	die "boot $rev: no branch $MBUS_BRANCH_PREFIX$rev (run make apply REV=$rev)"
rc=0
boot_one "$rev" "$tip" "$MBUS_RESULTS/base/boot" || rc=$?
input_hash "$rev" >"$MBUS_RESULTS/$rev/boot.inputs"
exit "$rc"
