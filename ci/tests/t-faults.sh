#!/bin/bash
# The gate fails closed: each fault below, made on purpose with a fixture,
# is caught, and a good case beside it passes (so the check can tell).
#  - a test script that crashes midway, declares no plan, or goes past it;
#  - a check run killed in the middle of a patch's build, then run again:
#    the lock is free, nothing of the killed step was kept, the verdicts are
#    those an uninterrupted run gives;
#  - a stale verdict (the patch changed after it was checked) and a
#    revision outside REV: never counted;
#  - a known failure of a posted revision (ci/known-failures): XFAIL only
#    for that check and reason, XPASS (a failure) otherwise;
#  - a kernel whose .config lost a requested option, and a commit whose
#    Kconfig no longer grants one;
#  - a revision whose KUnit suite did not run;
#  - a revision with a real kernel bug (an out-of-bounds read in vimc):
#    its boot fails on the KASAN/UBSAN report, the base's does not;
#  - a WARN_ON() that fires in vimc's probe: the boot fails on it;
#  - kmemleak off and lockdep turned off by a taint, with no report on
#    the console: the guest init's own steps fail the guest;
#  - a revision that breaks libcamera (a vimc sensor link made mutable):
#    its boot fails, naming libcamera; the base captures.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 34

base=$(git -C "$T_TREE" rev-parse mbus-base)

# --- test scripts that do not complete
fixture_script() {   # NAME BODY: a test script of the workspace's kind
	printf '. %q\nt_plan 3\n%s\n' "$T_TOP/ci/tests/lib.sh" "$2" >"$T_TMP/$1.sh"
	ci/ktap-run.sh "$1" "$T_TMP/$1.log" bash "$T_TMP/$1.sh" 2>&1 | grep -E '^(not )?ok - '
}
out=$(fixture_script crash 'ok one; echo "$undefined_variable"; ok two; ok three; t_done')
expect_eq "a script that crashes midway: its result before the crash counts" \
	"ok - crash: one" "$(grep -m1 '^ok - ' <<<"$out")"
expect_eq "a script that crashes midway fails, saying how" \
	"not ok - crash: the script did not complete: fell short of its plan: 1 of 3 results; exited with status 1" \
	"$(grep '^not ok - ' <<<"$out")"
printf 'printf "TAP version 13\\nok 1 a\\n"; exit 0\n' >"$T_TMP/noplan.sh"
out=$(ci/ktap-run.sh noplan "$T_TMP/noplan.log" bash "$T_TMP/noplan.sh" | grep -E '^(not )?ok - ')
expect_eq "a script without a plan fails" "not ok - noplan: the script did not complete: declared no plan (1..N)" \
	"$(grep '^not ok - ' <<<"$out")"
out=$(fixture_script past 'ok one; ok two; ok three; ok four; t_done')
expect_eq "a script that goes past its plan fails" \
	"not ok - past: the script did not complete: went past its plan: 4 results, plan 1..3" \
	"$(grep '^not ok - ' <<<"$out")"
out=$(fixture_script good 'ok one; ok two; ok three; t_done')
expect_eq "a script that completes its plan passes, nothing more" "3 0" \
	"$(grep -c '^ok - ' <<<"$out") $(grep -c '^not ok - ' <<<"$out")"

# --- a check run killed during a patch's build, then run again
core=drivers/media/test-drivers/vimc/vimc-core.c
c1=$(fixture_commit "$base" "media: vimc: fixture: comment" -- \
	"$core" '/^#define VIMC_MDEV_MODEL_NAME/i\/* The model name of the media device. */')
c2=$(fixture_commit "$c1" "media: vimc: fixture: unused variable" -- \
	"$core" '/^#define VIMC_MDEV_MODEL_NAME/a\static int vimc_fixture_killed;')
fixture_series "$T_TMP/series" v1 "$base" "$c2"
setsid bash -c 'exec env MBUS_SERIES_DIR="$1/series" MBUS_RESULTS="$1/results" \
	MBUS_BRANCH_PREFIX=test/ REV=v1 ci/each-rev.sh check' _ "$T_TMP" >"$T_TMP/killed.log" 2>&1 &
victim=$!
for _ in $(seq 600); do
	grep -q 'v1 2/2 building' "$T_TMP/killed.log" && pgrep -s "$victim" -f 'W=1 C=1' >/dev/null && break
	sleep 0.5
done
sleep 1
# SIGKILL: nothing of the run can clean up after itself (make cannot remove
# a half-written object); the patch's files are rebuilt all the same.
kill -KILL -- "-$victim" 2>/dev/null
wait "$victim" 2>/dev/null
# SIGKILL is delivered at once but each process of the run (cc1, make)
# closes its files only as it exits: wait for the whole session to be gone.
for _ in $(seq 300); do
	pgrep -s "$victim" >/dev/null || break
	pkill -KILL -s "$victim" 2>/dev/null
	sleep 0.1
done
if (exec 8>>"$MBUS_CACHE/lock" && flock -n 8); then
	ok "a killed run releases the lock"
else
	notok "a killed run releases the lock" "$(cat "$MBUS_CACHE/lock.holder" 2>/dev/null)"
fi
out=$(ws env REV=v1 ci/each-rev.sh check 2>&1)
got="$(grep -cE '^  v1 +1/2 .*\(cached\)$' <<<"$out") $(grep -cE '^  v1 +2/2 .*\(cached\)$' <<<"$out")"
expect_eq "after the kill: patch 1 is kept, nothing of patch 2 was" "4 0" "$got"
v() {   # pass (OK or WARN), FAIL or none
	case $(cut -d' ' -f1 "$T_TMP/results/v1/$1/$2.verdict" 2>/dev/null) in
	OK | WARN) echo pass ;; FAIL) echo FAIL ;; *) echo none ;;
	esac
}
expect_eq "after the kill, the verdicts of an uninterrupted run" \
	"pass pass pass pass pass pass FAIL pass" \
	"$(for p in 0001 0002; do for c in checkpatch meta build kernel-doc; do v "$p" "$c"; done; done | tr '\n' ' ' | sed 's/ $//')"
if grep -q 'vimc_fixture_killed' "$T_TMP/results/v1/0002/build.new-warnings" 2>/dev/null; then
	ok "after the kill, the new warning is still found (the patch's files are rebuilt)"
else
	notok "after the kill, the new warning is still found (the patch's files are rebuilt)" \
		"$(cat "$T_TMP/results/v1/0002/build.verdict" 2>/dev/null)"
fi

# --- stale verdicts, and REV
vs() { ws env "$@" ci/verdicts.sh 2>&1; }
expect_eq "a verdict of the current inputs counts" "ok - v1 patch 0001 checkpatch: OK" \
	"$(vs REV=v1 | grep -m1 'v1 patch 0001 checkpatch' | cut -d' ' -f1-7)"
sed -i 's/The model name of the media device/The media device model name/' "$T_TMP/series/series-v1/"*0001-*.patch
expect_eq "a verdict made before the patch changed is stale, not a pass" "not ok - v1 patch 0001 checkpatch: STALE" \
	"$(vs REV=v1 | grep -m1 'v1 patch 0001 checkpatch' | cut -d' ' -f1-8)"
cp -r "$T_TMP/series/series-v1" "$T_TMP/series/series-v2"
expect_eq "with REV=v1, nothing of v2 is counted" 0 "$(vs REV=v1 | grep -c ' v2 ')"
expect_eq "without REV, v2's missing verdicts are failures" "not ok - v2 patch 0001 checkpatch: MISSING" \
	"$(vs REV= | grep -m1 'v2 patch 0001 checkpatch' | cut -d' ' -f1-8)"
rm -rf "$T_TMP/series/series-v2"

# --- known failures of a posted revision: XFAIL only for the listed check
# with the listed reason, and only once the revision is posted.
kf="$T_TMP/known-failures"
echo 'v1 boot libcamera this revision breaks libcamera on vimc | fixture: patch 4 made the links mutable' >"$kf"
mkdir -p "$T_TMP/results/v1/boot" "$T_TMP/series/outgoing/v1"
# Posted: outgoing/v1 committed in the fixture's own repository.
echo "fixture posting" >"$T_TMP/series/outgoing/v1/v1-0000-cover-letter.patch"
git -C "$T_TMP/series" init -q
git -C "$T_TMP/series" add outgoing
git -C "$T_TMP/series" -c user.name=fixture -c user.email=fixture@example.org commit -q -m posted
binputs() { ws bash -c '. ci/lib.sh && boot_inputs v1'; }
bi=$(binputs)
kfv() {   # VERDICT REASON: the verdicts.sh line of v1 boot libcamera
	ws bash -c '. ci/lib.sh && verdict_write "$1" "$2" "$3" "$4"' _ \
		"$T_TMP/results/v1/boot/libcamera.verdict" "$1" "$bi" "$2"
	ws env REV=v1 MBUS_KNOWN_FAILURES="$kf" ci/verdicts.sh 2>&1 | grep -m1 ' v1 boot libcamera: ' | cut -d' ' -f1-8
}
expect_eq "a listed failure of a posted revision is XFAIL, not a pass" "ok - v1 boot libcamera: XFAIL known failure" \
	"$(kfv FAIL "captured 0 of 5 frames (the base captured all 5): this revision breaks libcamera on vimc")"
expect_eq "the listed check failing for another reason is not covered" "not ok - v1 boot libcamera: XPASS: ci/known-failures" \
	"$(kfv FAIL "libcamera: the capture step did not run")"
expect_eq "a listed check that passes is XPASS, a failure" "not ok - v1 boot libcamera: XPASS: ci/known-failures" \
	"$(kfv OK "captured 5 of 5 frames")"
echo 'v1 boot libcamera | fixture: an entry that says no reason' >"$kf"
expect_eq "an entry without a reason pattern covers nothing" "not ok - v1 boot libcamera: XPASS: ci/known-failures" \
	"$(kfv FAIL "captured 0 of 5 frames (the base captured all 5): this revision breaks libcamera on vimc")"
echo 'v1 boot libcamera captured [ | fixture: not a regular expression' >"$kf"
expect_fail "an entry whose pattern is not a regular expression is refused, naming the line" \
	"known-failures:1: not an extended regular expression" ws env REV=v1 MBUS_KNOWN_FAILURES="$kf" ci/verdicts.sh
echo 'v1 boot libcamera this revision breaks libcamera on vimc | fixture: patch 4 made the links mutable' >"$kf"
git -C "$T_TMP/series" rm -r -q --cached outgoing
bi=$(binputs)   # (being posted is part of a revision's boot inputs)
expect_eq "a revision not posted (outgoing/v1 not committed) cannot have known failures" "not ok - v1 boot libcamera: XPASS: ci/known-failures" \
	"$(kfv FAIL "captured 0 of 5 frames (the base captured all 5): this revision breaks libcamera on vimc")"
rm -rf "$T_TMP/results/v1/boot"
git -C "$T_TREE" branch -D -q test/v1 2>/dev/null

# --- a .config that lost a requested option
ci/config.sh "$base" "$T_TMP/obj" ci/kernel.config >/dev/null
if ci/config.sh --validate "$base" "$T_TMP/obj" ci/kernel.config 2>"$T_TMP/validate.err"; then
	ok "the check build's .config has every requested option"
else
	notok "the check build's .config has every requested option" "$(cat "$T_TMP/validate.err")"
fi
sed -i '/^CONFIG_VIDEO_VIMC=/d' "$T_TMP/obj/.config"
expect_fail "a .config that lost CONFIG_VIDEO_VIMC after a build is refused, naming it" \
	"lost requested options: CONFIG_VIDEO_VIMC=m \(have: not in .config\)" \
	ci/config.sh --validate "$base" "$T_TMP/obj" ci/kernel.config
kc=drivers/media/test-drivers/vimc/Kconfig
c3=$(fixture_commit "$base" "media: vimc: fixture: depends on BROKEN" -- \
	"$kc" 's/^\tdepends on VIDEO_DEV$/\tdepends on VIDEO_DEV \&\& BROKEN/')
expect_fail "a commit whose Kconfig no longer grants CONFIG_VIDEO_VIMC is refused, naming it" \
	"not granted by Kconfig: .*CONFIG_VIDEO_VIMC=m" \
	ci/config.sh "$c3" "$T_TMP/obj3" ci/kernel.config

# --- a revision whose KUnit suite did not run
d=drivers/media/test-drivers/mbus-fixture
c4=$(fixture_commit "$base" "media: fixture: a KUnit suite" -- \
	"$d/.kunitconfig" "=CONFIG_KUNIT=y
CONFIG_MBUS_FIXTURE_KUNIT_TEST=y" \
	"$d/Makefile" '=obj-$(CONFIG_MBUS_FIXTURE_KUNIT_TEST) += mbus-fixture-kunit.o' \
	"$d/mbus-fixture-kunit.c" '=static struct kunit_suite mbus_fixture_suite = {
	.name = "mbus-fixture",
	.test_cases = mbus_fixture_cases,
};')
mkdir -p "$T_TMP/ku/base" "$T_TMP/ku/rev" "$T_TMP/ku/ran"
ktap_console() {   # SUITE...
	local s
	echo "KTAP version 1"
	echo "1..$#"
	for s in "$@"; do
		printf '    KTAP version 1\n    # Subtest: %s\n    1..1\n    ok 1 %s_case\nok %d %s\n' "$s" "$s" 1 "$s"
	done | awk '/^ok 1 / { n++; sub(/^ok 1 /, "ok " n " ") } { print }'
	echo "MBUS-GUEST fixture"
	echo "MBUS-DONE"
}
ktap_console list-kunit-test >"$T_TMP/ku/base/console.log"
ktap_console list-kunit-test >"$T_TMP/ku/rev/console.log"
ktap_console list-kunit-test mbus-fixture >"$T_TMP/ku/ran/console.log"
ci/judge.sh "$T_TMP/ku/base" 0123456789abcdef >/dev/null 2>&1
for r in rev ran; do
	ci/judge.sh "$T_TMP/ku/$r" fedcba9876543210 "$T_TMP/ku/base" 0123456789abcdef "$base" "$c4" >/dev/null 2>&1
done
expect_match "a revision whose KUnit suite did not run fails, naming the suite" \
	"^FAIL .*suite mbus-fixture of $d/.kunitconfig did not run" "$(cat "$T_TMP/ku/rev/kunit.verdict" 2>/dev/null)"
expect_match "a revision whose KUnit suite ran and passed passes" \
	"^OK .*the revision's suites ran: mbus-fixture" "$(cat "$T_TMP/ku/ran/kunit.verdict" 2>/dev/null)"

# --- a real kernel bug: vimc reads past vimc_pix_map_list[] when the
# formats of a capture node are enumerated. The same guest on the base's
# kernel gives no report.
cm=drivers/media/test-drivers/vimc/vimc-common.c
c5=$(fixture_commit "$base" "media: vimc: fixture: out-of-bounds read" -- \
	"$cm" 's/^\tif (i >= ARRAY_SIZE(vimc_pix_map_list))$/\tif (i > ARRAY_SIZE(vimc_pix_map_list))/')
{
	guest_init_head
	cat <<'INIT'
echo "MBUS-BEGIN enum-formats"
modprobe vimc
for v in /dev/video*; do v4l2-ctl -d "$v" --list-formats; done
echo "MBUS-END enum-formats rc=0 seconds=0"
echo "MBUS-DONE"
reboot -f
INIT
} >"$T_TMP/init-oob"
chmod +x "$T_TMP/init-oob"
# fixture_boot NAME COMMIT INIT [BASEDIR]: boot the fixture INIT on
# COMMIT's kernel, judge it (against BASEDIR's run if given).
fixture_boot() {
	local kdir img d="$T_TMP/$1"
	mkdir -p "$d"
	if ! kdir=$(ci/kernel.sh "$2" 2>"$d/kernel.err"); then
		echo "FAIL the kernel did not build: $(tail -n 1 "$d/kernel.err")" >"$d/console.verdict"
		return
	fi
	img=$(MBUS_GUEST_INIT="$3" ci/initramfs.sh "$kdir" "$(ci/guest-root.sh)")
	MBUS_GUEST_TIMEOUT=180 ci/qemu.sh "$kdir/bzImage" "$img" "$d/console.log"
	rm -f "$img"
	if [ -n "${4:-}" ]; then
		ci/judge.sh "$d" fedcba9876543210 "$4" 0123456789abcdef "$base" "$2" >/dev/null 2>&1
	else
		ci/judge.sh "$d" 0123456789abcdef >/dev/null 2>&1
	fi
	cp "$d/console.log" "$T_RESULTS/$1.console.log" 2>/dev/null || true
	[ "$2" = "$base" ] || rm -rf "$kdir"
}
oob_boot() { fixture_boot "oob-$1" "$2" "$T_TMP/init-oob"; }
mkdir -p "$T_RESULTS"
oob_boot bug "$c5"
got=$(cat "$T_TMP/oob-bug/console.verdict" 2>/dev/null)
if grep -qE '^FAIL .*(KASAN|UBSAN)' <<<"$got"; then
	ok "a revision with an out-of-bounds read in vimc fails its boot on the report"
else
	notok "a revision with an out-of-bounds read in vimc fails its boot on the report" "$got"
fi
oob_boot base "$base"
got=$(cat "$T_TMP/oob-base/console.verdict" "$T_TMP/oob-base/guest.verdict" 2>/dev/null | tr '\n' ' ')
if grep -qE '^(OK|WARN) .* (OK|WARN) ' <<<"$got"; then
	ok "the same guest on the base's kernel gives no report"
else
	notok "the same guest on the base's kernel gives no report" "$got"
fi

# --- a WARN_ON() that fires when vimc probes. The boot kernels are
# tinyconfig, which turns off CONFIG_BUG and with it every WARN(); the
# debug set turns it on again: the warning, with its file, must fail the
# boot. (The same guest on the base gives no report: above.)
c8=$(fixture_commit "$base" "media: vimc: fixture: a warning at probe" -- \
	drivers/media/test-drivers/vimc/vimc-core.c '/^\tdev_dbg(&pdev->dev, "probe");$/a \\tWARN_ON(pdev);')
fixture_boot warn "$c8" "$T_TMP/init-oob"
expect_match "a revision whose driver hits a WARN_ON() fails its boot on the warning" \
	'^FAIL .*WARNING: CPU: [0-9]+ PID: [0-9]+ at drivers/media/test-drivers/vimc/vimc-core.c:[0-9]+ vimc_probe' \
	"$(cat "$T_TMP/warn/console.verdict" 2>/dev/null)"

# --- debug facilities that turned themselves off, which the console does
# not show: kmemleak (off on the command line) and lockdep (a module of a
# GPL-incompatible licence taints the kernel LOCKDEP_NOW_UNRELIABLE: only
# a warning that no check matches). The steps are ci/guest/init's own
# functions, taken from it.
td=drivers/media/test-drivers
c9=$(fixture_commit "$base" "media: fixture: a module of a GPL-incompatible licence" -- \
	"$td/Makefile" '$a obj-m += mbus-taint.o' \
	"$td/mbus-taint.c" '=#include <linux/init.h>
#include <linux/module.h>

static int __init mbus_taint_init(void)
{
	return 0;
}
module_init(mbus_taint_init);
MODULE_LICENSE("Proprietary");')
{
	guest_init_head
	sed -n '/^run() {$/,/^}$/p; /^kmemleak_scan() {$/,/^}$/p; /^kmemleak() {$/,/^}$/p; /^debug_state() {$/,/^}$/p' ci/guest/init
	cat <<'INIT'
run taint modprobe mbus-taint
run kmemleak kmemleak
run debug-state debug_state
echo "MBUS-DONE"
reboot -f
INIT
} >"$T_TMP/init-off"
chmod +x "$T_TMP/init-off"
MBUS_GUEST_APPEND=kmemleak=off fixture_boot off "$c9" "$T_TMP/init-off"
got=$(cat "$T_TMP/off/guest.verdict" 2>/dev/null)
expect_match "a guest whose kmemleak is off fails its kmemleak step" \
	'^FAIL .*guest step kmemleak failed \(rc 1\): kmemleak refused to scan: it is off \(.*disabled' "$got"
if sed -n '/^MBUS-BEGIN kmemleak/,/^MBUS-END kmemleak/p' "$T_TMP/off/console.log" 2>/dev/null |
	grep -q 'Operation not permitted'; then
	ok "... refused with EPERM, not for want of debugfs"
else
	notok "... refused with EPERM, not for want of debugfs" "$(grep -m1 -A2 'MBUS-BEGIN kmemleak' "$T_TMP/off/console.log" 2>/dev/null)"
fi
expect_match "a guest whose lockdep a taint turned off fails debug-state, the console quiet" \
	'^FAIL .*guest step debug-state failed \(rc 1\): lockdep is off \(taint [0-9]+\): .*Disabling lock debugging due to kernel taint.* console OK ' \
	"$got console $(cut -d' ' -f1 "$T_TMP/off/console.verdict" 2>/dev/null) "

# --- a revision that breaks libcamera: Sensor B -> Debayer B made mutable,
# as v2's patch 4 did (libcamera's vimc pipeline handler disables every
# mutable link and enables only Debayer B -> Scaler). The same guest on the
# base captures.
c6=$(fixture_commit "$base" "media: vimc: fixture: sensor B to debayer B mutable" -- \
	drivers/media/test-drivers/vimc/vimc-core.c \
	'/Sensor B (Pad 0)->(Pad 0) Debayer B/{n;n;s/MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE/MEDIA_LNK_FL_ENABLED/}')
{
	guest_init_head
	cat <<'INIT'
modprobe vimc
echo "MBUS-BEGIN libcamera-list"
cam -l 2>&1
echo "MBUS-END libcamera-list rc=$? seconds=0"
echo "MBUS-BEGIN libcamera-capture"
echo "cam: capturing 2 frames from camera 1"
cam -c1 -C2 2>&1
echo "MBUS-END libcamera-capture rc=$? seconds=0"
echo "MBUS-DONE"
reboot -f
INIT
} >"$T_TMP/init-cam"
chmod +x "$T_TMP/init-cam"
fixture_boot cam-base "$base" "$T_TMP/init-cam"
fixture_boot cam-mutable "$c6" "$T_TMP/init-cam" "$T_TMP/cam-base"
expect_match "libcamera captures from vimc on the base" '^OK .*captured 2 of 2 frames' \
	"$(cat "$T_TMP/cam-base/libcamera.verdict" 2>/dev/null)"
expect_match "a revision that makes a vimc sensor link mutable fails its boot, naming libcamera" \
	'^FAIL .*captured 0 of 2 frames.*this revision breaks libcamera on vimc' \
	"$(cat "$T_TMP/cam-mutable/libcamera.verdict" 2>/dev/null)"

# --- a wrong pairing in vimc's table: SBGGR10_1X10 stored as SGBRG10, on
# the newest revision that converts vimc to v4l2_format_info() (or the
# base). mbus-test compares the raw capture of the sensor's "100% Red"
# pattern with the bytes that the documents give; the boot must fail, that
# comparison among its failures (the judge names first either a test that
# fails here and not on the base, or one that passes on the base and not
# here), and the same guest on the base's kernel passes it.
tip_vimc=$(git -C "$T_TREE" rev-parse -q --verify rev/v3 || echo "$base")
c7=$(fixture_commit "$tip_vimc" "media: vimc: fixture: SBGGR10_1X10 stored as SGBRG10" -- \
	drivers/media/test-drivers/vimc/vimc-common.c \
	'/MEDIA_BUS_FMT_SBGGR10_1X10 }/{n;s/V4L2_PIX_FMT_SBGGR10,/V4L2_PIX_FMT_SGBRG10,/}')
{
	guest_init_head
	cat <<'INIT'
modprobe vimc
echo "MBUS-BEGIN mbus-test"
/bin/mbus-test
echo "MBUS-END mbus-test rc=$? seconds=0"
echo "MBUS-DONE"
reboot -f
INIT
} >"$T_TMP/init-bytes"
chmod +x "$T_TMP/init-bytes"
fixture_boot bytes-base "$base" "$T_TMP/init-bytes"
fixture_boot bytes-wrong "$c7" "$T_TMP/init-bytes" "$T_TMP/bytes-base"
expect_match "vimc's raw capture of SBGGR10_1X10 is what pixfmt-srggb10.rst gives, on the base" \
	'^    ok [0-9]+ SBGGR10_1X10: 100% red as pixfmt-srggb10.rst' \
	"$(grep 'SBGGR10_1X10: 100% red' "$T_TMP/bytes-base/mbus-test.log" 2>/dev/null)"
expect_match "a vimc that pairs SBGGR10_1X10 with the wrong pixel format fails its boot on the captured bytes" \
	'^FAIL .*(not failing on the base|passing on the base and not here).* [1-9]$' "$(cat "$T_TMP/bytes-wrong/mbus.verdict" 2>/dev/null) $(grep -c '^    not ok [0-9]* SBGGR10_1X10: 100% red' "$T_TMP/bytes-wrong/mbus-test.log" 2>/dev/null)"
t_done
