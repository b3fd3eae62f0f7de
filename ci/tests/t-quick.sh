#!/bin/bash
# The quick guest (make boot QUICK=1): the newest revision's quick run
# passes against the base's quick run, on a kernel without the debug set,
# with vimc's compliance alone, under a key of its own, and leaves every
# full verdict as it was; a quick console is never taken for a full one nor
# a full one for a quick one; and the quick guest can fail: a revision that
# breaks libcamera (a vimc sensor link made mutable) fails its quick boot,
# naming libcamera; its kernel, built in the check build's object
# directory, leaves there nothing that a check did not compile.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 16

base=$(git -C "$T_TREE" rev-parse mbus-base)
rev=$(bash -c '. ci/lib.sh && revisions' | tail -n 1)
res=${MBUS_RESULTS:-$MBUS_CACHE/results}

# --- the newest revision, through the Makefile, as a person asks for it
# (no earlier quick run's files: what is read below is this run's)
rm -rf "$res/quick"
full_before=$(find "$res/$rev/boot" "$res/base/boot" -type f -print0 2>/dev/null | sort -z |
	xargs -0 -r sha256sum)
out=$(make -s boot QUICK=1 REV="$rev" 2>&1)
rc=$?
expect_eq "make boot QUICK=1 REV=$rev exits 0" "0" "$rc"
expect_match "the quick boot is a stage of its own, of the revision and of the base" \
	"^REVISION $rev boot-quick: OK" "$(grep '^REVISION' <<<"$out")"
got=$(for n in base "$rev"; do
	read -r v _ <"$res/quick/$n/boot.verdict" && echo "$n $v"
done 2>/dev/null | tr '\n' ' ')
expect_match "the base's and the revision's quick runs pass every boot check" \
	"^base (OK|WARN) $rev (OK|WARN) $" "$got"
q="$res/quick/$rev"
expect_eq "the quick guest ran vimc's compliance, and neither the i386 run nor vivid's" "1 0" \
	"$(grep -c '^MBUS-BEGIN compliance-vimc$' "$q/console.log" 2>/dev/null) $(grep -cE '^MBUS-BEGIN compliance-(vimc-32|vivid)$' "$q/console.log" 2>/dev/null)"
expect_match "its compliance is vimc's, test by test against the base's quick run" \
	'^(OK|WARN) vimc [0-9]+, Succeeded: [0-9]+, Failed: [0-9]+, Warnings: [0-9]+(;|$)' \
	"$(cut -d' ' -f1,3- "$q/compliance.verdict" 2>/dev/null)"
expect_eq "the comparison with the base's quick run was made" "1" \
	"$(grep -c '^# v4l2-compliance, test by test' "$q/compliance.comparison" 2>/dev/null)"
expect_eq "the quick kernel has no KASAN, the full one has; the guest ran the quick steps" "0 1 1" \
	"$(grep -c '^CONFIG_KASAN=y' "$q/kernel.config" 2>/dev/null) $(grep -c '^CONFIG_KASAN=y' "$res/$rev/boot/kernel.config" 2>/dev/null) $(grep -c '^MBUS-GUEST .* quick$' "$q/console.log" 2>/dev/null)"
qin=$(cut -d' ' -f2 "$q/boot.verdict" 2>/dev/null)
fin=$(cut -d' ' -f2 "$res/$rev/boot/boot.verdict" 2>/dev/null)
if [ -n "$qin" ] && [ -n "$fin" ] && [ "$qin" != "$fin" ] &&
	[ "$(cat "$q/key" 2>/dev/null)" != "$(cat "$res/$rev/boot/key" 2>/dev/null)" ]; then
	ok "a quick verdict records inputs of its own, and its run a key of its own"
else
	notok "a quick verdict records inputs of its own, and its run a key of its own" "inputs $qin / $fin"
fi
full_after=$(find "$res/$rev/boot" "$res/base/boot" -type f -print0 2>/dev/null | sort -z |
	xargs -0 -r sha256sum)
if [ -n "$full_before" ] && [ "$full_before" = "$full_after" ]; then
	ok "a quick boot leaves the full boot's results as they were"
else
	notok "a quick boot leaves the full boot's results as they were" \
		"$(diff <(echo "$full_before") <(echo "$full_after") | head -n 3)"
fi

# --- a console is judged as what it is (the real ci/judge.sh)
# judge_fixture NAME CONSOLE [--quick]: judge a copy of CONSOLE.
judge_fixture() {
	local d="$T_TMP/judge-$1"
	mkdir -p "$d"
	cp "$2" "$d/console.log"
	ci/judge.sh ${3:+"$3"} "$d" 0123456789abcdef >/dev/null 2>&1
	echo "$d"
}
d=$(judge_fixture full-of-quick "$q/console.log")
expect_match "the full judge fails a quick console: a quick guest, and no vivid" \
	'^FAIL a quick guest judged as a full one' "$(cut -d' ' -f1,3- "$d/guest.verdict" 2>/dev/null)"
expect_match "... and its compliance: the i386 run and vivid did not run" \
	'^FAIL .*vimc-32: no v4l2-compliance summary; vivid: no v4l2-compliance summary' \
	"$(cut -d' ' -f1,3- "$d/compliance.verdict" 2>/dev/null)"
d=$(judge_fixture quick-of-full "$res/$rev/boot/console.log" --quick)
expect_match "the quick judge fails a full console" \
	'^FAIL a full guest \(or none\) judged as a quick one' "$(cut -d' ' -f1,3- "$d/guest.verdict" 2>/dev/null)"
sed '/^Grand Total for vimc/d' "$q/console.log" >"$T_TMP/no-total.log"
d=$(judge_fixture quick-no-total "$T_TMP/no-total.log" --quick)
expect_match "the quick judge fails a quick run without vimc's compliance summary" \
	'^FAIL vimc: no v4l2-compliance summary$' "$(cut -d' ' -f1,3- "$d/compliance.verdict" 2>/dev/null)"

# --- the quick guest can fail: a revision that breaks libcamera, as v2's
# patch 4 did (Sensor B -> Debayer B made mutable)
c=$(fixture_commit "$base" "media: vimc: fixture: sensor B to debayer B mutable" -- \
	drivers/media/test-drivers/vimc/vimc-core.c \
	'/Sensor B (Pad 0)->(Pad 0) Debayer B/{n;n;s/MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE/MEDIA_LNK_FL_ENABLED/}')
touch "$T_TMP/before-mutable"
fixture_stage "$base" "$c" ci/boot-quick.sh >"$T_TMP/mutable.log" 2>&1
expect_eq "the quick boot of that revision exits non-zero" "1" "$?"
# Its kernel was built in the check build's object directory, at a commit
# no check built: none of what that compiled may stay there, or the next
# check would find it up to date and never see its warnings.
obj=${MBUS_BUILD:-$MBUS_CACHE/build}
expect_eq "the quick build left no object it compiled, and no stamp, in the check's object directory" \
	"0 absent" "$(find "$obj" -name '*.o' -newer "$T_TMP/before-mutable" | wc -l) $([ -e "$obj/.mbus-quick-stamp" ] && echo present || echo absent)"
expect_match "a revision that makes a vimc sensor link mutable fails its quick boot, naming libcamera" \
	'^FAIL .*captured 0 of [0-9]+ frames.*this revision breaks libcamera on vimc' \
	"$(cut -d' ' -f1,3- "$T_TMP/results/quick/v1/libcamera.verdict" 2>/dev/null)"
# (What the fixture made is not kept: its kernel, image, run and branch.)
if [ -f "$T_TMP/results/quick/v1/kernel.config" ] && kdir=$(ci/kernel.sh --quick "$c" 2>/dev/null); then
	img=$(ci/initramfs.sh "$kdir" "$(ci/guest-root.sh --peek)" 2>/dev/null) && rm -f "$img"
	rm -rf "$kdir"
fi
[ ! -f "$T_TMP/results/quick/v1/key" ] ||
	rm -rf "$(bash -c '. ci/lib.sh && cache_path boot "$1"' _ "$(cat "$T_TMP/results/quick/v1/key")")"
git -C "$T_TREE" branch -D -q test/v1 2>/dev/null

t_done
