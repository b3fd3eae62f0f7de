#!/bin/bash
# Stage "config": make a kernel's .config in an object directory from
# tinyconfig and config fragments, with the kernel's merge_config.sh, and check
# that every option the fragments ask for was granted. Made again only for
# fragments, Kconfig files and a compiler it has not seen: the .config of
# each such set is kept in $MBUS_STATE and put back when the set comes back
# (the check and boot builds go back and forth between revisions whose
# Kconfig files differ).
#
# usage: config.sh [OBJDIR [FRAGMENT...]]   (default: the check build,
#                                            ci/kernel.config)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

obj=${1:-$MBUS_BUILD}
shift || true
frags=()
for f in "$@"; do
	[ -f "$f" ] || die "config: fragment $f: no such file"
	frags+=("$(realpath "$f")")
done
[ "${#frags[@]}" -gt 0 ] || frags=("$MBUS_TOP/ci/kernel.config")
mkdir -p "$obj"
# Made again when a fragment or a Kconfig file of the checked-out tree
# changes: a patch that adds an option the fragments ask for gets it.
key="$(hash_files "${frags[@]}")-$( {
	git -C "$MBUS_TREE" ls-files -s -- '*Kconfig*' 'kernel/configs/*' 'arch/x86/configs/*'
	gcc --version | head -n 1
} | sha256sum | cut -c1-16)"
if [ -f "$obj/.config" ] && [ "$(cat "$obj/.mbus-config-key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
stage_begin "config ${obj##*/}"
kept="$MBUS_STATE/config-$key"
if [ -f "$kept/done" ]; then
	cmp -s "$kept/.config" "$obj/.config" || cp "$kept/.config" "$obj/.config"
	echo "$key" >"$obj/.mbus-config-key"
	stage_end OK "$(cat "$kept/summary") (kept from an earlier run)"
	exit 0
fi
log="$obj/config.log"
# (A subshell on the left of || runs without errexit: chain with &&.)
(
	cd "$MBUS_TREE" &&
		make -s O="$obj" ARCH=x86_64 tinyconfig &&
		KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh \
			-m -O "$obj" "$obj/.config" "${frags[@]}" &&
		make -s O="$obj" ARCH=x86_64 olddefconfig
) >"$log" 2>&1 || { cat "$log" >&2; die "config: merge_config.sh failed (see $log)"; }
# Every option asked for must be granted, unless the tree does not have it
# yet (the series' own options, before the patch that adds them).
absent=()
missing=$(cat "${frags[@]}" | grep -E '^CONFIG_[A-Z0-9_]+=' | while IFS= read -r line; do
	grep -qxF "$line" "$obj/.config" || echo "${line%%=*}"
done)
for sym in $missing; do
	if ! git -C "$MBUS_TREE" grep -qE "^\s*(menu)?config ${sym#CONFIG_}\s*$" -- '*Kconfig*'; then
		absent+=("$sym")
		missing=$(echo "$missing" | grep -vx "$sym" || true)
	fi
done
if [ -n "$missing" ]; then
	stage_end FAIL "not granted by Kconfig: $(echo "$missing" | tr '\n' ' ')"
	exit 1
fi
echo "$key" >"$obj/.mbus-config-key"
summary="$(grep -c '=[ym]$' "$obj/.config") options set${absent:+; not in this tree yet: ${absent[*]}}"
rm -rf "$kept"
mkdir -p "$kept"
cp "$obj/.config" "$kept/.config"
echo "$summary" >"$kept/summary"
touch "$kept/done"
stage_end OK "$summary"
