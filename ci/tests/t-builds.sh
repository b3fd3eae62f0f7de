#!/bin/bash
# The per-patch builds can fail, and find what the x86_64 check build
# cannot: fixture revisions whose patch adds a size_t format mismatch that
# only i386 warns about, a warning only arm64 compiles, code only 32-bit
# arm compiles that does not build, a function only CONFIG_PM code uses
# (no-PM); each fails its configuration, named,
# with the stage's non-zero exit. A changed file that no configuration
# compiles (a driver whose option no fragment grants) fails; a partial run
# (MBUS_BUILDS) has a key of its own; every revision has inputs. A build
# job (configurations are built side by side) that stops before its
# verdict stops the stage, naming the patch and the configuration; so does
# a git diff that fails, and JOBS=0.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 15

base=$(git -C "$T_TREE" rev-parse mbus-base)
k3=$(ci/builds.sh --inputs v3 2>&1)
expect_match "v3 has inputs for the builds stage" '^[0-9a-f]{16}$' "$k3"
expect_match "a partial run (MBUS_BUILDS=arm64) has another key" '^[0-9a-f]{16}$' \
	"$(k=$(MBUS_BUILDS=arm64 ci/builds.sh --inputs v3 2>&1) && [ "$k" != "$k3" ] && echo "$k")"

# (Apart from the real results, and bounded: a JOBS=0 taken would spin.)
expect_fail "JOBS=0 (builds side by side, JOBS at a time) is refused, named" \
	'builds: JOBS=0: want a number of jobs' env MBUS_RESULTS="$T_TMP/results" JOBS=0 timeout 60 ci/builds.sh v3

# run_fixture ONLY COMMIT: the builds stage, configurations ONLY, on a
# one-patch fixture revision v1 made of COMMIT; its output.
run_fixture() {
	fixture_stage "$base" "$2" env MBUS_BUILDS="$1" ci/builds.sh
}

# A size_t printed with %lu: right on x86_64, a -Wformat warning on i386.
vimc=drivers/media/test-drivers/vimc/vimc-core.c
c1=$(fixture_commit "$base" "media: vimc: fixture: size_t as unsigned long ($T_NONCE)" -- \
	"$vimc" '/^static int vimc_probe(/,/^{/s/^{/{\
	char vimc_fixture_buf[24];\
\
	snprintf(vimc_fixture_buf, sizeof(vimc_fixture_buf), "%lu", sizeof(struct vimc_device));/')
# The fault first (c1 is new: nothing of it is kept): comm, which only a
# build job runs, fails.
mkdir -p "$T_TMP/shim"
printf '#!/bin/sh\necho "comm: an injected fault" >&2\nexit 3\n' >"$T_TMP/shim/comm"
chmod +x "$T_TMP/shim/comm"
out=$(fixture_stage "$base" "$c1" env PATH="$T_TMP/shim:$PATH" MBUS_BUILDS=i386,no-OF ci/builds.sh)
rc=$?
expect_match "a build job that stops before its verdict stops the stage, naming it" \
	"builds v1: patch 1, (i386|no-OF): the build stopped before its verdict" "$out"
expect_match "... with a non-zero exit" "^[1-9]" "$rc"

out=$(fixture_stage "$base" "$c1" env PATH="$(git_fails diff)" MBUS_BUILDS=i386,no-OF ci/builds.sh)
rc=$?
expect_match "a git diff that fails stops the stage, naming the commit" \
	"^rc=[1-9][0-9]* .*builds v1: git diff of [0-9a-f]{40} failed" "rc=$rc $(tr '\n' ' ' <<<"${out:-}")"
# (Two places read the patch's files; the first must stop before any verdict.)
expect_no_match "... before any configuration's verdict" " (OK|FAIL) " "${out:-}"

out=$(run_fixture i386,no-OF "$c1")
rc=$?
expect_match "an i386-only format warning fails the i386 build of the patch, naming it" \
	"v1 +1/1 .* i386 +FAIL 1 new W=1 warning\\(s\\): $vimc: warning: format .{1,3}%lu.{1,3} expects argument of type .{1,3}long unsigned int.{1,3}, but argument 4 has type .{1,3}unsigned int" \
	"$out"
expect_match "... and not the x86_64 variant, which compiled the file" \
	"v1 +1/1 .* no-OF +OK +builds, W=1, no new warnings \\(1 changed C file" "$out"
expect_eq "... and the stage exits non-zero" 1 "$rc"

# A function that only CONFIG_PM code uses: the no-PM variant warns, as
# media-ci's PM-disabled build does; no-OF (PM on) does not.
c5=$(fixture_commit "$base" "media: vimc: fixture: PM-only user ($T_NONCE)" -- \
	"$vimc" '/^static int vimc_probe(/i\
static int vimc_fixture_suspend(struct device *dev)\
{\
	return 0;\
}\
\
#ifdef CONFIG_PM\
static int (*vimc_fixture_pm)(struct device *) __maybe_unused = vimc_fixture_suspend;\
#endif\
')
out=$(run_fixture no-PM,no-OF "$c5")
expect_match "a function only CONFIG_PM code uses fails the no-PM build, naming it" \
	"v1 +1/1 .* no-PM +FAIL 1 new W=1 warning\\(s\\): $vimc: warning: .{1,3}vimc_fixture_suspend.{1,3} defined but not used" "$out"
expect_match "... and not the no-OF build" "v1 +1/1 .* no-OF +OK +builds, W=1" "$out"

# A static variable that only an arm64 build defines and never uses.
cal=drivers/media/platform/ti/cal/cal.c
c2=$(fixture_commit "$base" "media: ti: cal: fixture: arm64-only warning ($T_NONCE)" -- \
	"$cal" '/^#include "cal.h"/a\
#ifdef CONFIG_ARM64\
static int cal_fixture_unused;\
#endif')
out=$(run_fixture arm64 "$c2")
expect_match "an arm64-only warning fails the arm64 build of the patch, naming it" \
	"arm64 +FAIL 1 new W=1 warning\\(s\\): $cal: warning: .{1,3}cal_fixture_unused.{1,3} defined but not used" "$out"

# Code that only the 32-bit arm build compiles, and that does not compile.
c3=$(fixture_commit "$base" "media: ti: cal: fixture: arm-only error ($T_NONCE)" -- \
	"$cal" '/^#include "cal.h"/a\
#if defined(CONFIG_ARM) \&\& !defined(CONFIG_ARM64)\
static int cal_fixture_broken = cal_fixture_undeclared;\
#endif')
out=$(run_fixture arm,arm64 "$c3")
expect_match "an arm-only build failure fails the arm build of the patch, naming it" \
	"arm +FAIL does not build: .*cal_fixture_undeclared" "$out"

# A change in a driver that no configuration enables: nothing of it is
# compiled, which must not pass for a build.
vpe=drivers/media/platform/ti/vpe/vpe.c
c4=$(fixture_commit "$base" "media: ti: vpe: fixture: not built ($T_NONCE)" -- \
	"$vpe" '1a\
/* fixture */')
out=$(run_fixture i386,arm64 "$c4")
expect_match "a changed file compiled in no configuration fails the stage" \
	"<== builds v1 +FAIL .*patch 1: $vpe was compiled in no configuration" "$out"
t_done
