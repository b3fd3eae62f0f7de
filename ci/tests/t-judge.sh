#!/bin/bash
# The boot stage's verdicts: consoles with a splat, a time-out, a missing
# summary, a KUnit failure, a new v4l2-compliance failure, kmemleak or
# lockdep off at the end, or no debug-state step each FAIL with the right
# reason (fixture consoles through the real ci/judge.sh); and real
# guests that panic or hang are caught (fixture inits booted by the real
# ci/qemu.sh with the base's boot kernel).
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 46

# A console as a good guest prints it.
good_console() {
	cat <<'LOG'
[    1.0] KTAP version 1
[    1.0] 1..1
[    1.0]     KTAP version 1
[    1.0]     # Subtest: list-kunit-test
[    1.0]     1..1
[    1.0]     ok 1 list_test_list_init
[    1.0] ok 1 list-kunit-test
MBUS-GUEST 6.12.118 cpus=2
MBUS-BEGIN load-vimc
MBUS-END load-vimc rc=0
MBUS-BEGIN compliance-vimc
Compliance test for vimc device /dev/media0:
	test MEDIA_IOC_DEVICE_INFO: OK
	test VIDIOC_QUERYCAP: OK
	test VIDIOC_CREATE_BUFS/REQBUFS: FAIL
	test MMAP (select, REQBUFS): OK
	test MMAP (select, REQBUFS): OK
Total for vimc device /dev/media0: 5, Succeeded: 4, Failed: 1, Warnings: 0

Grand Total for vimc device /dev/media0: 5, Succeeded: 4, Failed: 1, Warnings: 0
MBUS-END compliance-vimc rc=1
MBUS-BEGIN compliance-vimc-32
Compliance test for vimc device /dev/media0:
	test MEDIA_IOC_DEVICE_INFO: OK
Total for vimc device /dev/media0: 1, Succeeded: 1, Failed: 0, Warnings: 0

Grand Total for vimc device /dev/media0: 1, Succeeded: 1, Failed: 0, Warnings: 0
MBUS-END compliance-vimc-32 rc=0
MBUS-BEGIN mbus-test
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mbus-vimc
    ok 1 discovery through MEDIA_IOC_G_TOPOLOGY
    # mbus-vimc: 1 tests, 0 failed
ok 1 mbus-vimc
MBUS-END mbus-test rc=0
MBUS-BEGIN libcamera-list
Available cameras:
1: 'Sensor B' (platform/vimc.0 Sensor B)
MBUS-END libcamera-list rc=0
MBUS-BEGIN libcamera-capture
cam: capturing 2 frames from camera 1
Using camera platform/vimc.0 Sensor B as cam0
cam0: Capture 2 frames
13.679404 (0.00 fps) cam0-stream0 seq: 000000 bytesused: 6220800
15.529912 (0.54 fps) cam0-stream0 seq: 000001 bytesused: 6220800
MBUS-END libcamera-capture rc=0
MBUS-BEGIN compliance-vivid
Compliance test for vivid device /dev/media1:
	test VIDIOC_QUERYCAP: OK
Total for vivid device /dev/media1: 1, Succeeded: 1, Failed: 0, Warnings: 0

Grand Total for vivid device /dev/media1: 1, Succeeded: 1, Failed: 0, Warnings: 0
MBUS-END compliance-vivid rc=0
MBUS-BEGIN kmemleak
kmemleak scan done
MBUS-END kmemleak rc=0
MBUS-BEGIN debug-state
lockdep: debug_locks 1
MBUS-END debug-state rc=0
MBUS-MEM peak_kb=1048576 total_kb=3474868
MBUS-DONE
LOG
}

# judge_fixture NAME [SED [BASESED]]: the good console through SED, judged
# against a base that has the good console's failures (through BASESED).
judge_fixture() {
	local d="$T_TMP/judge/$1"
	mkdir -p "$d/base/boot" "$d/rev/boot"
	good_console | sed -e "${3:-}" >"$d/base/boot/console.log"
	echo tcg >"$d/base/boot/console.log.accel"
	good_console | sed -e "${2:-}" >"$d/rev/boot/console.log"
	echo tcg >"$d/rev/boot/console.log.accel"
	ci/judge.sh "$d/base/boot" "$base_inputs" >/dev/null 2>&1
	ci/judge.sh "$d/rev/boot" "$rev_inputs" "$d/base/boot" "$base_inputs" >"$d/out" 2>&1 || true
}
# (Any keys: the judge records them; ci/verdicts.sh compares them.)
base_inputs=0123456789abcdef rev_inputs=fedcba9876543210
verdict_is() {   # NAME CHECK VERDICT REASON-REGEX
	local vfile="$T_TMP/judge/$1/rev/boot/$2.verdict" got
	got=$(cat "$vfile" 2>/dev/null || echo "none")
	if [[ $got =~ ^$3\ $rev_inputs\  ]] && grep -qE -- "$4" <<<"$got"; then
		ok "$1: $2 $3"
	else
		notok "$1: $2 $3" "got: $got"
	fi
}

judge_fixture good
verdict_is good console OK 'no BUG'
verdict_is good guest OK 'steps ran to the end'
verdict_is good kunit OK '1 test cases in 1 suites, 0 failed'
verdict_is good compliance WARN 'failing on the base too'
verdict_is good libcamera OK 'listed the vimc camera and captured 2 of 2 frames'
if grep -qx 'peak_kb 1048576' "$T_TMP/judge/good/rev/boot/memory" 2>/dev/null; then
	ok "good: the guest's memory peak is recorded"
else
	notok "good: the guest's memory peak is recorded" "$(cat "$T_TMP/judge/good/rev/boot/memory" 2>&1)"
fi

# libcamera on a revision that breaks vimc's links, as v2's patch 4 did
# (cam's exit status 0 is not taken for a capture).
judge_fixture camfail '/^1[0-9.]* (0.[0-9]* fps) cam0-stream0 seq/d; /^cam0: Capture 2 frames/a [0:00:09.9] [177] ERROR V4L2 v4l2_videodevice.cpp:2049 /dev/video2[13:cap]: Failed to start streaming: Broken pipe'
verdict_is camfail libcamera FAIL 'captured 0 of 2 frames: .*Broken pipe \(the base captured all 2\): this revision breaks libcamera'
judge_fixture camnolist "/^1: 'Sensor B'/d"
verdict_is camnolist libcamera FAIL 'listed no vimc camera'
judge_fixture camcrash 's/^MBUS-END libcamera-capture rc=0/MBUS-END libcamera-capture rc=139/'
verdict_is camcrash libcamera FAIL 'captured 2 of 2 frames but did not end well \(libcamera-capture rc 139\)'
# v4l2-compliance repeats its streaming tests once per input: counted
# (its "Total for" says 4 here: only the comparison with the base fails).
judge_fixture fewer '0,/test MMAP (select, REQBUFS): OK/{/test MMAP (select, REQBUFS): OK/d}; s/^Total for vimc device \/dev\/media0: 5,/Total for vimc device \/dev\/media0: 4,/; s/^Grand Total for vimc device \/dev\/media0: 5,/Grand Total for vimc device \/dev\/media0: 4,/'
verdict_is fewer compliance FAIL '^FAIL [0-9a-f]+ 1 test\(s\) ran fewer times than on the base: vimc\|.*MMAP \(select, REQBUFS\) \(1 of 2\)$'
judge_fixture notsupp 's/test VIDIOC_QUERYCAP: OK$/test VIDIOC_QUERYCAP: OK (Not Supported)/'
verdict_is notsupp compliance FAIL 'Not Supported here but supported on the base'
# Output printed again or lost: a child of v4l2-compliance printing the
# parent's buffer again (its stdout buffered when testVividDisconnect
# forked), whether the repeat holds a "Test input" block, the node's
# header, or only tests; a test lost. Two nodes with a "Test input 0:"
# each are right. (Each node ends with its own "Total for", as
# v4l2-compliance prints it.)
judge_fixture repeated '/^Compliance test for vivid device/a Test input 0:\n\ttest VIDIOC_G_FMT: OK\nTest input 0:\n\ttest VIDIOC_G_FMT: OK'
verdict_is repeated compliance FAIL 'vivid: its output cannot be counted \(vivid device /dev/media1: "Test input 0:" printed twice\)'
judge_fixture repeatedhdr '/^Compliance test for vivid device/{p;n;p;n;p;}'
verdict_is repeatedhdr compliance FAIL 'vivid: its output cannot be counted \("Compliance test for vivid device /dev/media1" printed twice\)'
judge_fixture recount '0,/test VIDIOC_QUERYCAP: /{/test VIDIOC_QUERYCAP: /p}'
verdict_is recount compliance FAIL 'vimc: its output cannot be counted \(vimc device /dev/media0: 6 tests read, its "Total for" says 5\)'
judge_fixture lost '0,/test MMAP (select, REQBUFS): OK/{/test MMAP (select, REQBUFS): OK/d}'
verdict_is lost compliance FAIL 'vimc: its output cannot be counted \(vimc device /dev/media0: 4 tests read, its "Total for" says 5\)'
# A node's "Total for" lost, or printed twice.
judge_fixture nodetotal '/^Total for vivid device \/dev\/media1:/d'
verdict_is nodetotal compliance FAIL 'vivid: its output cannot be counted \(vivid device /dev/media1: no "Total for" line\)'
judge_fixture twicetotal '/^Total for vimc device \/dev\/media0: 5,/p'
verdict_is twicetotal compliance FAIL 'vimc: its output cannot be counted \("Total for vimc device /dev/media0" printed twice\)'
# A node's header lost (its tests would count for the node before); a
# whole node lost (its Total missing from the Grand Total's sum); the
# Grand Total printed twice.
judge_fixture nohdr '/^Compliance test for vivid device/d'
verdict_is nohdr compliance FAIL 'vivid: its output cannot be counted \("Total for vivid device /dev/media1" without its "Compliance test for"\)'
judge_fixture lostnode '/^Compliance test for vivid device/,/^Total for vivid device/d'
verdict_is lostnode compliance FAIL 'vivid: its output cannot be counted \(the nodes. "Total for" lines add up to 0, its "Grand Total" says 1\)'
judge_fixture twicegrand '/^Grand Total for vivid device/p'
verdict_is twicegrand compliance FAIL 'vivid: its output cannot be counted \("Grand Total for vivid device /dev/media1" printed twice\)'
judge_fixture twonodes '/^Compliance test for vivid device/i Compliance test for vivid device /dev/video9:\nTest input 0:\n\ttest VIDIOC_G_FMT: OK\nTotal for vivid device /dev/video9: 1, Succeeded: 1, Failed: 0, Warnings: 0
/^Compliance test for vivid device \/dev\/media1/a Test input 0:
s/^Grand Total for vivid device \/dev\/media1: 1,/Grand Total for vivid device \/dev\/media1: 2,/'
verdict_is twonodes compliance WARN 'failing on the base too'
judge_fixture nocompat32 '/^Grand Total for vimc device \/dev\/media0: 1,/d'
verdict_is nocompat32 compliance FAIL 'vimc-32: no v4l2-compliance summary'

judge_fixture kasan '/MBUS-BEGIN kmemleak/i [   12.3] BUG: KASAN: slab-out-of-bounds in vimc_capture_process_frame+0x12/0x40'
verdict_is kasan console FAIL 'KASAN: slab-out-of-bounds'

judge_fixture ubsan '/MBUS-BEGIN kmemleak/i [   12.3] UBSAN: shift-out-of-bounds in drivers/media/test-drivers/vimc/vimc-common.c:120:13'
verdict_is ubsan console FAIL 'UBSAN: shift-out-of-bounds'

judge_fixture knownsplat '/MBUS-BEGIN kmemleak/i schedule_timeout: wrong timeout value ffffffffffffffff\nCall Trace:\n <TASK>\n vivid_thread_sdr_cap+0xa2d/0xac2 [vivid]\n </TASK>'
verdict_is knownsplat console WARN 'vivid-sdr-schedule-timeout'

judge_fixture unknowntrace '/MBUS-BEGIN kmemleak/i Call Trace:\n <TASK>\n vimc_streamer_thread+0x12/0x40 [vimc]\n </TASK>'
verdict_is unknowntrace console FAIL 'Call Trace'

judge_fixture leak '/kmemleak scan done/i unreferenced object 0xffff888004c1e000 (size 64):'
verdict_is leak console FAIL 'unreferenced object'

# Lockdep off at the end (a taint stops it with no report of its own); the
# step that tells missing from a full guest, but not from a fixture's; a
# kmemleak that turned itself off; DEBUG_OBJECTS turning itself off (its
# pr_fmt "ODEBUG: " holds the "BUG:" the console check looks for).
judge_fixture lockdepoff 's/^lockdep: debug_locks 1$/lockdep: debug_locks 0\nlockdep is off (taint 4): Disabling lock debugging due to kernel taint/; s/^MBUS-END debug-state rc=0/MBUS-END debug-state rc=1/'
verdict_is lockdepoff guest FAIL 'guest step debug-state failed \(rc 1\): lockdep is off \(taint 4\): Disabling lock debugging'
judge_fixture nodebugstate '/^MBUS-BEGIN debug-state/,/^MBUS-END debug-state/d'
verdict_is nodebugstate guest FAIL 'did not say whether lockdep stayed on \(no step debug-state\)'
judge_fixture fixtureinit '/^MBUS-BEGIN debug-state/,/^MBUS-END debug-state/d; s/^MBUS-GUEST .*/MBUS-GUEST fixture/'
verdict_is fixtureinit guest OK 'steps ran to the end'
judge_fixture kmemleakoff 's/^kmemleak scan done$/kmemleak refused to scan: it is off (kmemleak: Cannot allocate a kmemleak_object structure kmemleak: Kernel memory leak detector disabled )/; s/^MBUS-END kmemleak rc=0/MBUS-END kmemleak rc=1/'
verdict_is kmemleakoff guest FAIL 'guest step kmemleak failed \(rc 1\): kmemleak refused to scan'
judge_fixture odebugoff '/^MBUS-BEGIN kmemleak/i ODEBUG: Out of memory. ODEBUG disabled'
verdict_is odebugoff console FAIL 'ODEBUG disabled'
judge_fixture nosummary '/MBUS-DONE/d'
verdict_is nosummary guest FAIL 'summary \(MBUS-DONE\) is missing'

judge_fixture timeout '/MBUS-BEGIN kmemleak/,$c MBUS-HOST: timeout after 300s (tcg)'
verdict_is timeout guest FAIL 'timed out'
if [ -s "$T_TMP/judge/timeout/rev/boot/console.tail" ]; then
	ok "timeout: the verdict shows the console's tail"
else
	notok "timeout: the verdict shows the console's tail" "no tail in the output"
fi

judge_fixture kunit 's/^\[    1.0\]     ok 1 list_test_list_init/[    1.0]     not ok 1 list_test_list_init/; s/^\[    1.0\] ok 1 list-kunit-test/[    1.0] not ok 1 list-kunit-test/'
verdict_is kunit kunit FAIL '1 failed; first failure: list-kunit-test: list_test_list_init'

judge_fixture newfail 's/test VIDIOC_QUERYCAP: OK/test VIDIOC_QUERYCAP: FAIL/'
verdict_is newfail compliance FAIL 'new failing test.*VIDIOC_QUERYCAP'

judge_fixture nototal '/^Grand Total for vivid/d'
verdict_is nototal compliance FAIL 'vivid: no v4l2-compliance summary'

judge_fixture oom '/MBUS-BEGIN kmemleak/i [   40.1] Out of memory: Killed process 212 (v4l2-compliance) total-vm:123456kB'
verdict_is oom guest FAIL 'OOM kill in the guest'

judge_fixture mbuscrash '/^ok 1 mbus-vimc/d; /mbus-vimc: 1 tests/d'
verdict_is mbuscrash mbus FAIL 'mbus-test did not complete'

judge_fixture mbusfail 's/^    ok 1 discovery/    not ok 1 discovery/; s/^ok 1 mbus-vimc/not ok 1 mbus-vimc/; s/1 tests, 0 failed/1 tests, 1 failed/; s/^MBUS-END mbus-test rc=0/MBUS-END mbus-test rc=1/'
verdict_is mbusfail mbus FAIL 'discovery'
mbus_fails='s/^    ok 1 discovery/    not ok 1 discovery/; s/^ok 1 mbus-vimc/not ok 1 mbus-vimc/; s/1 tests, 0 failed/1 tests, 1 failed/; s/^MBUS-END mbus-test rc=0/MBUS-END mbus-test rc=1/'
judge_fixture mbusboth "$mbus_fails" "$mbus_fails"
verdict_is mbusboth mbus OK '1 tests, 1 failed, 0 skipped, each failing on the base too'
# A test that passes on the base and is skipped on the revision (a step the
# revision's kernel refused, taken for "does not apply") fails it.
judge_fixture mbusskip 's/^    ok 1 discovery through MEDIA_IOC_G_TOPOLOGY$/    ok 1 discovery through MEDIA_IOC_G_TOPOLOGY # SKIP refused/'
verdict_is mbusskip mbus FAIL '1 passing on the base and not here \(skipped, failed or not run\), first: discovery'
# ... and so does one the revision does not run at all.
judge_fixture mbusgone 's/^    ok 1 discovery through MEDIA_IOC_G_TOPOLOGY$/    ok 1 discovery, renamed/'
verdict_is mbusgone mbus FAIL 'passing on the base and not here .*first: discovery through'

# Real guests: the base's boot kernel with inits that panic and that hang.
if ! kdir=$(ci/kernel.sh "$(git -C "$T_TREE" rev-parse mbus-base)" 2>"$T_TMP/kernel.err"); then
	notok "a real guest that panics is caught" "no boot kernel of the base: $(tail -n 1 "$T_TMP/kernel.err")"
	notok "a real guest that hangs is caught" "no boot kernel of the base"
	t_done
fi
if ! groot=$(ci/guest-root.sh 2>"$T_TMP/groot.err"); then
	notok "a real guest that panics is caught" "no guest root: $(tail -n 1 "$T_TMP/groot.err")"
	notok "a real guest that hangs is caught" "no guest root"
	t_done
fi
# The consoles are kept in the results for a look afterwards.
keep="$T_RESULTS"
mkdir -p "$keep"
guest() {   # KIND: boot a fixture init, judge its console
	local kind=$1 img
	rm -rf "$T_TMP/guest-$kind"
	mkdir -p "$T_TMP/guest-$kind/boot"
	case $kind in
	panic) printf '#!/bin/busybox sh\necho MBUS-GUEST fixture\nexit 1\n' ;;
	hang) printf '#!/bin/busybox sh\necho MBUS-GUEST fixture\nexec /bin/busybox sleep 100000\n' ;;
	esac >"$T_TMP/init-$kind"
	chmod +x "$T_TMP/init-$kind"
	img=$(MBUS_GUEST_INIT="$T_TMP/init-$kind" ci/initramfs.sh "$kdir" "$groot")
	MBUS_GUEST_TIMEOUT=40 ci/qemu.sh "$kdir/bzImage" "$img" "$T_TMP/guest-$kind/boot/console.log"
	rm -f "$img"
	ci/judge.sh "$T_TMP/guest-$kind/boot" "$base_inputs" >/dev/null 2>&1
	cp "$T_TMP/guest-$kind/boot/console.log" "$keep/guest-$kind.console.log"
}
guest panic
guest hang
# A hang fixture that never reached its init did not test the time-out: say
# so, keep that console, and boot it once more.
if ! grep -q '^MBUS-HOST: timeout' "$T_TMP/guest-hang/boot/console.log"; then
	cp "$T_TMP/guest-hang/boot/console.log" "$keep/guest-hang.first.console.log"
	echo "# the hang fixture ended without a time-out (console kept in $keep/guest-hang.first.console.log); booting it again"
	guest hang
fi
got=$(cat "$T_TMP/guest-panic/boot/console.verdict" "$T_TMP/guest-panic/boot/guest.verdict" 2>/dev/null)
if grep -q '^FAIL.*Kernel panic' <<<"$got" && grep -q '^FAIL.*MBUS-DONE' <<<"$got"; then
	ok "a real guest that panics is caught"
else
	notok "a real guest that panics is caught" "$got"
fi
expect_match "a real guest that hangs is caught" '^FAIL.*timed out' \
	"$(cat "$T_TMP/guest-hang/boot/guest.verdict" 2>/dev/null)"
t_done
