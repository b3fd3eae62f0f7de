#!/bin/bash
# Stage "kernel": the boot kernel of one commit of the base tree: the test
# configuration plus the debug set (ci/kernel.config + ci/debug.config), built
# in its own object directory ($MBUS_BOOT_BUILD, shared by the base and every
# revision, with ccache), and kept in the cache: bzImage, gen_init_cpio, the
# installed modules and the .config it was built with. The commit is checked
# out and configured here, from its own Kconfig files; after the build the
# .config must still grant every option the fragments ask for. Prints the
# kernel's directory.
#
# --quick: the kernel of the quick guest (make boot QUICK=1): the test
# configuration alone, which is the check build's, built as the check
# builds it (W=1) in its object directory ($MBUS_BUILD): right after the
# check of a commit its quick kernel compiles nothing; after other stages
# moved the tree, what differs is compiled again, mostly from ccache.
#
# usage: kernel.sh [--quick] COMMIT
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"
# (It checks out commits in the base tree: one run at a time.)
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

label=kernel flavour=debug obj=$MBUS_BOOT_BUILD warn=()
frags=("$MBUS_TOP/ci/kernel.config" "$MBUS_TOP/ci/debug.config")
if [ "${1:-}" = --quick ]; then
	shift
	# (ci/build.sh's configuration and W=1: C=1 runs sparse beside the
	# compiler and is not part of an object's command line.)
	label="kernel (quick)" flavour=quick obj=$MBUS_BUILD warn=(W=1)
	frags=("$MBUS_TOP/ci/kernel.config")
fi
commit=$(git -C "$MBUS_TREE" rev-parse --verify -q "${1:?usage: kernel.sh [--quick] COMMIT}^{commit}") ||
	die "kernel.sh: no commit $1 in $MBUS_TREE"
key=$(cache_key "$0" "$flavour" "$commit" "$(hash_files "${frags[@]}" "$MBUS_TOP/ci/config.sh")")
kdir=$(cache_path kernel "$key")
if cache_has kernel "$key"; then
	echo "$kdir"
	exit 0
fi
stage_begin "$label $(git -C "$MBUS_TREE" rev-parse --short=12 "$commit")" >&2
"$MBUS_TOP/ci/config.sh" "$commit" "$obj" "${frags[@]}" >&2
tree_checkout "$commit"
new=$(mktemp -d "$MBUS_CACHE/kernel-new.XXXXXX")
trap 'rm -rf "$new"' EXIT
if [ "$flavour" = quick ]; then
	# The check build's object directory holds only objects that a check
	# compiled: ci/build.sh compares the warnings of what it compiles, and
	# an object it finds up to date prints none. What this build compiles
	# (at a commit no check may have built: a Kconfig or Makefile change
	# there rebuilds objects whose sources the check would not touch) is
	# removed again when it ends, so that the next check compiles it (from
	# ccache) and sees its warnings. A run killed before that leaves the
	# stamp; the next quick build or check (ci/build.sh) removes them.
	stamp="$obj/.mbus-quick-stamp"
	forget_compiled() {
		[ -f "$stamp" ] || return 0
		find "$obj" -name '*.o' -newer "$stamp" -delete
		rm -f "$stamp"
	}
	forget_compiled
	touch "$stamp"
	trap 'rm -rf "$new"; forget_compiled' EXIT
fi
kmake() {
	make -C "$MBUS_TREE" O="$obj" ARCH=x86_64 CC="ccache gcc" "${warn[@]}" \
		-j"$JOBS" -s "$@"
}
if ! kmake bzImage modules >"$new/build.log" 2>&1 ||
	! kmake INSTALL_MOD_PATH="$new/mods" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
		modules_install >>"$new/build.log" 2>&1; then
	mkdir -p "$MBUS_CACHE/kernels-failed"
	cp "$new/build.log" "$MBUS_CACHE/kernels-failed/$commit.log"
	stage_end FAIL "build failed: $(grep -m1 -E '(^|: )(fatal )?error[: ]|Error [0-9]+' "$new/build.log" || tail -n 1 "$new/build.log")" >&2
	exit 1
fi
if ! lost=$("$MBUS_TOP/ci/config.sh" --validate "$commit" "$obj" "${frags[@]}" 2>&1); then
	stage_end FAIL "${lost:-config.sh --validate failed without saying why}" >&2
	exit 1
fi
cp "$obj/arch/x86/boot/bzImage" "$obj/usr/gen_init_cpio" "$obj/.config" "$new/"
cache_put kernel "$key" "$new"
stage_end OK "$(du -sh "$kdir" | cut -f1) in $kdir" >&2
echo "$kdir"
