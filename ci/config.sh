#!/bin/bash
# Stage "config": make the test kernel's .config in the object directory from
# tinyconfig and ci/kernel.config, with the kernel's merge_config.sh, and check
# that every option the fragment asks for was granted.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

frag="$MBUS_TOP/ci/kernel.config"
mkdir -p "$MBUS_BUILD"
key="$(hash_files "$frag") $(git -C "$MBUS_TREE" rev-parse mbus-base)"
if [ -f "$MBUS_BUILD/.config" ] && [ "$(cat "$MBUS_BUILD/.mbus-config-key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
stage_begin "config"
log="$MBUS_BUILD/config.log"
(
	cd "$MBUS_TREE"
	make -s O="$MBUS_BUILD" ARCH=x86_64 tinyconfig
	KCONFIG_CONFIG="$MBUS_BUILD/.config" scripts/kconfig/merge_config.sh \
		-m -O "$MBUS_BUILD" "$MBUS_BUILD/.config" "$frag"
	make -s O="$MBUS_BUILD" ARCH=x86_64 olddefconfig
) >"$log" 2>&1 || { cat "$log" >&2; die "config: merge_config.sh failed (see $log)"; }
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while IFS= read -r line; do
	grep -qxF "$line" "$MBUS_BUILD/.config" || echo "${line%%=*}"
done)
if [ -n "$missing" ]; then
	stage_end FAIL "not granted by Kconfig: $(echo "$missing" | tr '\n' ' ')"
	exit 1
fi
echo "$key" >"$MBUS_BUILD/.mbus-config-key"
stage_end OK "$(grep -c '=[ym]$' "$MBUS_BUILD/.config") options set"
