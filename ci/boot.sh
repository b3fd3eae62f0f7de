#!/bin/bash
# Stage "boot": boot the revision's kernel in QEMU with vimc and vivid, run
# the guest tests, and judge the console (ci/judge.py) against the unpatched
# base booted with the same guest image and scripts. The base is booted
# first; a guest run and its verdicts are kept under the key of their
# inputs (the kernel, the image, the boot scripts, and for a revision the
# base's run) and reused while those are unchanged.
#
# Every verdict in <name>/boot/ records boot_inputs <name>; boot.verdict
# sums up the BOOT_CHECKS of ci/checks.
#
# --quick (make boot QUICK=1): the quick guest, for the loop of editing a
# patch: the kernel without the debug set (ci/kernel.sh --quick), the
# guest's quick steps (ci/guest/init: the series' own tests, vimc's
# compliance and libcamera), judged by the same checks against the base's
# quick run. Its results go to $MBUS_RESULTS/quick/, which nothing else
# reads: it is never a verdict of the revision (render wants the full one).
#
# usage: boot.sh [--quick] REV
#   (results in $MBUS_RESULTS/REV/boot and .../base/boot; with --quick, in
#   $MBUS_RESULTS/quick/REV and .../quick/base)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

quick=()
[ "${1:-}" != --quick ] || { quick=(--quick); shift; }
rev=${1:?usage: boot.sh [--quick] REV}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
revision_patches "$rev" >/dev/null
base=$(base_commit)

# inputs_of NAME: the key its verdicts record: boot_inputs, and for the
# quick guest that key and "quick" (a quick verdict never reads as current
# where a full one is wanted).
inputs_of() {
	if [ -n "${quick[*]}" ]; then
		printf '%s quick\n' "$(boot_inputs "$1")" | hash_text
	else
		boot_inputs "$1"
	fi
}

# boot_one NAME COMMIT [BASEDIR]: kernel, image, guest run, verdicts.
boot_one() {
	local name=$1 commit=$2 basedir=${3:-} kdir img key out inputs t0 chk v r failed=0
	out="$MBUS_RESULTS/$name/boot"
	[ -z "${quick[*]}" ] || out="$MBUS_RESULTS/quick/$name"
	mkdir -p "${out%/*}"
	inputs=$(inputs_of "$name")
	stage_begin "boot${quick:+ (quick)} $name"
	rm -rf "$out"
	mkdir -p "$out"
	if ! kdir=$("$MBUS_TOP/ci/kernel.sh" "${quick[@]}" "$commit"); then
		verdict_write "$out/boot.verdict" FAIL "$inputs" "the kernel does not build"
		stage_end FAIL "the kernel of $name does not build"
		return 1
	fi
	if ! img=$("$MBUS_TOP/ci/initramfs.sh" "$kdir" "$groot"); then
		verdict_write "$out/boot.verdict" FAIL "$inputs" "the guest image could not be made"
		stage_end FAIL "the guest image of $name could not be made"
		return 1
	fi
	key=$(cache_key "$0" "${quick[@]}" "$inputs" "$kdir" "$img" "$(cat "$basedir/key" 2>/dev/null)")
	if cache_get boot "$key" "$out"; then
		info "  $name: guest run and verdicts of identical inputs reused (guest took $(cat "$out/guest-seconds")s)"
	else
		cp "$kdir/.config" "$out/kernel.config"
		cp "$groot/versions" "$out/guest-versions"
		info "  $name: booting $(basename "$img") under QEMU"
		t0=$(date +%s)
		MBUS_GUEST_APPEND="${MBUS_GUEST_APPEND:-}${quick:+ mbus.quick}" \
			"$MBUS_TOP/ci/qemu.sh" "$kdir/bzImage" "$img" "$out/console.log"
		echo $(($(date +%s) - t0)) >"$out/guest-seconds"
		info "  $name: guest stage $(cat "$out/guest-seconds")s ($(cat "$out/console.log.accel"))"
		# (boot_one runs without errexit when called in a condition: every
		# step that can fail is tested here, and nothing partial is kept.)
		if [ -n "$basedir" ]; then
			"$MBUS_TOP/ci/judge.sh" "${quick[@]}" "$out" "$inputs" "$basedir" "$(inputs_of base)" "$base" "$commit"
		else
			"$MBUS_TOP/ci/judge.sh" "${quick[@]}" "$out" "$inputs"
		fi || {
			verdict_write "$out/boot.verdict" FAIL "$inputs" "the judge failed: $(tail -n 1 "$out/judge.err" 2>/dev/null)"
			stage_end FAIL "the judge of $name failed"
			return 1
		}
		echo "$key" >"$out/key"
		cache_put boot "$key" "$out" || return 1
	fi
	local known=() why
	for chk in "${BOOT_CHECKS[@]}"; do
		read -r v r < <(verdict_read "$out/$chk.verdict" "$inputs")
		printf '  %-4s boot %-10s %-4s %s\n' "$name" "$chk" "$v" "$r"
		if [ "$v" = FAIL ] && why=$(known_failure "$name" "boot $chk" "$r"); then
			printf '       %-10s known failure of a posted revision (ci/known-failures): %s\n' "" "$why"
			known+=("$chk")
		elif [ "$name" != base ] && known_failures_of "$name" | grep -qxF "boot $chk"; then
			printf '       %-10s XPASS: ci/known-failures lists it, but it is not that failure\n' ""
			failed=$((failed + 1))
		elif ! verdict_passes "$v"; then
			failed=$((failed + 1))
		fi
	done
	[ ! -f "$out/console.tail" ] || { echo "    console tail:"; cat "$out/console.tail"; }
	if [ "$failed" -gt 0 ]; then
		verdict_write "$out/boot.verdict" FAIL "$inputs" "$failed failing boot check(s)"
		stage_end FAIL "$failed failing boot check(s); results in $out"
		return 1
	fi
	if [ "${#known[@]}" -gt 0 ]; then
		verdict_write "$out/boot.verdict" WARN "$inputs" "known failures of a posted revision (ci/known-failures): ${known[*]}; every other boot check passes"
		stage_end WARN "known failures: ${known[*]}; results in $out"
		return 0
	fi
	verdict_write "$out/boot.verdict" OK "$inputs" "all boot checks pass"
	stage_end OK "guest $(cat "$out/guest-seconds")s; results in $out"
}

# The guest's userspace (Debian 13), the same for the base and the revision.
groot=$("$MBUS_TOP/ci/guest-root.sh") || die "boot $rev: no guest userspace (ci/guest-root.sh failed)"

# The base, the reference: its failures are listed, never a revision's.
basedir="$MBUS_RESULTS/base/boot"
[ -z "${quick[*]}" ] || basedir="$MBUS_RESULTS/quick/base"
if ! boot_one base "$base"; then
	info "  base: the unpatched base fails its own boot checks (see $basedir)"
fi
tip=$(rev_tip "$rev")
boot_one "$rev" "$tip" "$basedir"
