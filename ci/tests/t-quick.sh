#!/bin/bash
# The quick guest (make boot QUICK=1): the newest revision's quick run
# passes against the base's quick run, on a kernel without the debug set,
# with vimc's compliance alone, and leaves every full verdict as it was; a
# quick console is never taken for a full one; and the quick guest can
# fail: a revision that breaks libcamera (a vimc sensor link made mutable)
# fails its quick boot, naming libcamera.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 9

base=$(git -C "$T_TREE" rev-parse mbus-base)
rev=$(bash -c '. ci/lib.sh && revisions' | tail -n 1)
res=${MBUS_RESULTS:-$MBUS_CACHE/results}

# --- the newest revision, through the Makefile, as a person asks for it
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
expect_match "the quick guest ran vimc's compliance alone, judged against the base's quick run" \
	'^OK vimc [0-9]+, Succeeded: [0-9]+, Failed: 0, Warnings: 0$' \
	"$(cut -d' ' -f1,3- "$res/quick/$rev/compliance.verdict" 2>/dev/null)"
# (The quick kernel has no debug set; the guest said it ran the quick steps.)
expect_eq "the quick guest's kernel has no KASAN and its init ran the quick steps" "0 1" \
	"$(grep -c '^CONFIG_KASAN=y' "$res/quick/$rev/kernel.config" 2>/dev/null) $(grep -c '^MBUS-GUEST .* quick$' "$res/quick/$rev/console.log" 2>/dev/null)"
full_after=$(find "$res/$rev/boot" "$res/base/boot" -type f -print0 2>/dev/null | sort -z |
	xargs -0 -r sha256sum)
if [ -n "$full_before" ] && [ "$full_before" = "$full_after" ]; then
	ok "a quick boot leaves the full boot's results as they were"
else
	notok "a quick boot leaves the full boot's results as they were" \
		"$(diff <(echo "$full_before") <(echo "$full_after") | head -n 3)"
fi

# --- a quick console is judged as what it is
d="$T_TMP/judge"
mkdir -p "$d"
cp "$res/quick/$rev/console.log" "$d/console.log"
ci/judge.sh "$d" 0123456789abcdef >/dev/null 2>&1
expect_match "the full judge fails a quick run's compliance: vivid did not run" \
	'^FAIL .*vimc-32: no v4l2-compliance summary; vivid: no v4l2-compliance summary' \
	"$(cut -d' ' -f1,3- "$d/compliance.verdict" 2>/dev/null)"
sed -i '/^Grand Total for vimc/d' "$d/console.log"
rm -f "$d"/*.verdict
ci/judge.sh --quick "$d" 0123456789abcdef >/dev/null 2>&1
expect_match "the quick judge fails a quick run without vimc's compliance summary" \
	'^FAIL vimc: no v4l2-compliance summary$' "$(cut -d' ' -f1,3- "$d/compliance.verdict" 2>/dev/null)"

# --- the quick guest can fail: a revision that breaks libcamera, as v2's
# patch 4 did (Sensor B -> Debayer B made mutable)
c=$(fixture_commit "$base" "media: vimc: fixture: sensor B to debayer B mutable" -- \
	drivers/media/test-drivers/vimc/vimc-core.c \
	'/Sensor B (Pad 0)->(Pad 0) Debayer B/{n;n;s/MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE/MEDIA_LNK_FL_ENABLED/}')
fixture_stage "$base" "$c" ci/boot-quick.sh >"$T_TMP/mutable.log" 2>&1
expect_match "a revision that makes a vimc sensor link mutable fails its quick boot, naming libcamera" \
	'^FAIL .*captured 0 of [0-9]+ frames.*this revision breaks libcamera on vimc' \
	"$(cut -d' ' -f1,3- "$T_TMP/results/quick/v1/libcamera.verdict" 2>/dev/null)"
# (Its kernel is a fixture's: not kept.)
kdir=$(ci/kernel.sh --quick "$c" 2>/dev/null) && rm -rf "$kdir"

t_done
