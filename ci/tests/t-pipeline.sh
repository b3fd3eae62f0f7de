#!/bin/bash
# The per-patch pipeline on a fixture revision made against the real base
# tree: each check passes on a good patch and fails on the patch made to
# break it; results are cached by content, and an edit re-checks only the
# edited patch and those after it.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 21

base=$(git -C "$T_TREE" rev-parse mbus-base)
core=drivers/media/test-drivers/vimc/vimc-core.c
hdr=drivers/media/test-drivers/vimc/vimc-common.h
# (The good patch also changes a Kconfig file, so that the base's
# configuration has another key than the patches'.)
c1=$(fixture_commit "$base" "media: vimc: fixture: good patch" -- \
	"$core" '/^#define VIMC_MDEV_MODEL_NAME/i\/* The model name reported by the media device. */' \
	drivers/media/test-drivers/vimc/Kconfig '1a\# The virtual media controller driver, vimc.')
c2=$(fixture_commit "$c1" "media: vimc: fixture: new W=1 warning" -- \
	"$core" '/^#define VIMC_MDEV_MODEL_NAME/a\static int vimc_fixture_unused;')
c3=$(fixture_commit "$c2" "media: vimc: fixture: new kernel-doc warning" -- \
	"$hdr" '/^#endif/i\/**\n * vimc_fixture() - a fixture\n * @missing: not a parameter\n */\nvoid vimc_fixture(void);\n')
c4=$(fixture_commit "$c3" "media: vimc: fixture: no sign-off" --no-signoff -- \
	"$core" 's/^#define VIMC_MDEV_MODEL_NAME.*/&\n\/* No sign-off. *\//')
c5=$(fixture_commit "$c4" "media: vimc: fixture: long line" -- \
	"$core" 's/^#define VIMC_MDEV_MODEL_NAME.*/&\n\/* This comment is far too long for the media subsystem, which keeps to eighty columns. *\//')
fixture_series "$T_TMP/series" v1 "$base" "$c5"

verdict() { cut -d' ' -f1 "$T_TMP/results/v1/$1/$2.verdict" 2>/dev/null || echo none; }

out=$(ws env REV=v1 ci/each-rev.sh check 2>&1)
rc=$?
expect_eq "a revision with failing checks fails" 1 "$([ "$rc" -ne 0 ] && echo 1 || echo 0)"
for chk in checkpatch meta build; do
	expect_eq "good patch: $chk OK" OK "$(verdict 0001 "$chk")"
done
expect_eq "good patch: kernel-doc passes" pass \
	"$(case $(verdict 0001 kernel-doc) in OK | WARN) echo pass ;; *) echo fail ;; esac)"
expect_eq "new W=1 warning: build FAIL" FAIL "$(verdict 0002 build)"
if grep -q "vimc_fixture_unused" "$T_TMP/results/v1/0002/build.new-warnings" 2>/dev/null; then
	ok "new W=1 warning: the warning is named"
else
	notok "new W=1 warning: the warning is named" "not in build.new-warnings"
fi
expect_eq "a known warning is not new: build OK on the next patch" OK "$(verdict 0003 build)"
expect_eq "new kernel-doc warning: kernel-doc FAIL" FAIL "$(verdict 0003 kernel-doc)"
expect_eq "no sign-off: meta FAIL" FAIL "$(verdict 0004 meta)"
expect_eq "long line: checkpatch FAIL" FAIL "$(verdict 0005 checkpatch)"
expect_eq "long line: meta OK" OK "$(verdict 0005 meta)"
if grep -qE '^  v1 +1/5 .* checkpatch +OK' <<<"$out"; then
	ok "one terminal line per revision/patch/check"
else
	notok "one terminal line per revision/patch/check" "$(echo "$out" | head -n 5)"
fi
if grep -qE '^<== check v1 +FAIL +[0-9.]+s' <<<"$out"; then
	ok "the stage prints its name, verdict and elapsed time"
else
	notok "the stage prints its name, verdict and elapsed time" "no '<== check v1 FAIL Ns' line"
fi

# Nothing changed: every patch comes from the cache, and the check build's
# object directory stays configured as the last patch built left it (the
# base's .config is made in an object directory of its own: swapped in,
# kbuild would sync the configuration at the next build). The base's and
# the patches' .config are the same bytes here (the Kconfig change is a
# comment): what a swap would change is the configuration's key.
obj=${MBUS_BUILD:-$MBUS_CACHE/build}
conf_state() { echo "$(cat "$obj/.mbus-config-key" 2>&1) $(stat -c %Y "$obj/.config" 2>&1) $(sha256sum <"$obj/.config" 2>&1)"; }
was=$(conf_state)
[ -s "$obj/.mbus-config-key" ] && [ -s "$obj/.config" ] || was="no configuration in $obj after the first check"
out=$(ws env REV=v1 ci/each-rev.sh check 2>&1)
expect_eq "unchanged revision: all 20 results cached" 20 "$(grep -c '(cached)$' <<<"$out")"
expect_eq "unchanged revision: the build's configuration untouched" "$was" "$(conf_state)"
expect_eq "unchanged revision: same verdicts" FAIL "$(verdict 0002 build)"

# Edit the last patch: only it is checked again, and git am starts from
# the kept commit of patches 1-4.
mapfile -t before < <(git -C "$T_TREE" rev-list --reverse "$base..test/v1")
c5b=$(fixture_commit "$c4" "media: vimc: fixture: long line" -- \
	"$core" 's/^#define VIMC_MDEV_MODEL_NAME.*/&\n\/* Short now. *\//')
rm -rf "$T_TMP/series"
fixture_series "$T_TMP/series" v1 "$base" "$c5b"
out=$(ws env REV=v1 ci/each-rev.sh check 2>&1)
expect_eq "after editing patch 5: patches 1-4 cached" 16 "$(grep -c '(cached)$' <<<"$out")"
expect_eq "after editing patch 5: patch 5 re-checked, checkpatch OK" OK "$(verdict 0005 checkpatch)"
expect_match "after editing patch 5: apply takes patches 1-4 as kept" \
	"apply v1: patches 1-4 kept \(at ${before[3]:0:12}\)" "$out"
mapfile -t after < <(git -C "$T_TREE" rev-list --reverse "$base..test/v1")
# The same revision applied from nothing (an empty cache: every patch by
# git am) gives the very same commits.
ws env MBUS_STATE="$T_TMP/state-empty" REV=v1 ci/apply.sh v1 >"$T_TMP/scratch.log" 2>&1
scratch=$(git -C "$T_TREE" rev-parse test/v1)
expect_eq "the branch: the same four commits, the edited patch's tree, the tip a full git am gives" \
	"${before[*]:0:4} $(git -C "$T_TREE" rev-parse "$c5b^{tree}") $scratch" \
	"${after[*]:0:4} $(git -C "$T_TREE" rev-parse "${after[4]:-none}^{tree}" 2>&1) ${after[4]:-none}"
git -C "$T_TREE" branch -D -q test/v1 2>/dev/null
t_done
