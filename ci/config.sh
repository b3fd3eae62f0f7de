#!/bin/bash
# Stage "config": the .config of one commit in one object directory, from
# tinyconfig and config fragments, with the kernel's merge_config.sh; and
# the check, after every kernel build, that the .config the build ended with
# still has every option the fragments ask for (as kunit_tool's
# validate_config does): a Kconfig change can silently drop an option.
#
# The commit is an argument: the stage checks it out itself and keys the
# .config on that commit's Kconfig files, never on whatever another stage
# left checked out. The .config of each set of fragments, Kconfig files and
# compiler is kept in the cache and put back when the set comes back.
#
# usage: config.sh COMMIT OBJDIR FRAGMENT...
#        config.sh --validate COMMIT OBJDIR FRAGMENT...
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"
# (It checks out commits in the base tree: one run at a time.)
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

mode=configure
if [ "${1:-}" = --validate ]; then
	mode=validate
	shift
fi
[ $# -ge 3 ] || die "usage: config.sh [--validate] COMMIT OBJDIR FRAGMENT..."
commit=$(git -C "$MBUS_TREE" rev-parse --verify -q "$1^{commit}") ||
	die "config: no commit $1 in $MBUS_TREE"
obj=$2
shift 2
frags=()
for f in "$@"; do
	[ -f "$f" ] || die "config: fragment $f: no such file"
	frags+=("$(realpath "$f")")
done

# validate_config: every CONFIG_X=V the fragments ask for is in the .config,
# and every '# CONFIG_X is not set' is unset, unless the commit's Kconfig
# files do not define X at all (the series' own options, before the patch
# that adds them). Prints what is missing.
# The symbols the commit's Kconfig files define (read once, when needed).
syms=""
trap 'rm -f "$syms"' EXIT
defined() {
	if [ -z "$syms" ]; then
		syms=$(mktemp)
		git -C "$MBUS_TREE" grep -hE '^\s*(menu)?config [A-Za-z0-9_]+\s*$' "$commit" -- '*Kconfig*' |
			sed -E 's/^\s*(menu)?config ([A-Za-z0-9_]+).*/CONFIG_\2/' | sort -u >"$syms"
		# (Never an empty list: it would exempt every option.)
		grep -qxF CONFIG_MODULES "$syms" ||
			die "config: no Kconfig symbols found in $commit (git grep failed)"
	fi
	grep -qxF "$1" "$syms"
}
validate_config() {
	local line sym
	grep -hE '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "${frags[@]}" |
		while IFS= read -r line; do
			sym=${line#\# }
			sym=${sym%%[= ]*}
			if [[ $line == '#'* ]]; then
				! grep -qE "^$sym=" "$obj/.config" && continue
			else
				grep -qxF "$line" "$obj/.config" && continue
			fi
			defined "$sym" || continue
			echo "$line (have: $(grep -E "^($sym=|# $sym is not set)" "$obj/.config" || echo "not in .config"))"
		done
}

if [ "$mode" = validate ]; then
	[ -f "$obj/.config" ] || die "config --validate: $obj/.config missing"
	defined CONFIG_MODULES || true # (reads the symbols in this shell)
	lost=$(validate_config)
	if [ -n "$lost" ]; then
		echo "config: the .config of $(git -C "$MBUS_TREE" rev-parse --short=12 "$commit") in $obj lost requested options: $(echo "$lost" | tr '\n' ';')" >&2
		exit 1
	fi
	exit 0
fi

mkdir -p "$obj"
key=$(cache_key "$0" "$(hash_files "${frags[@]}")" "$( git -C "$MBUS_TREE" ls-tree -r "$commit" |
	awk '$4 ~ /Kconfig|^kernel\/configs\/|^arch\/x86\/configs\//' | hash_text)")
if [ -f "$obj/.config" ] && [ "$(cat "$obj/.mbus-config-key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
stage_begin "config ${obj##*/}"
if cache_get config "$key" "$obj/.kept"; then
	cmp -s "$obj/.kept/.config" "$obj/.config" || cp "$obj/.kept/.config" "$obj/.config"
	echo "$key" >"$obj/.mbus-config-key"
	stage_end OK "$(cat "$obj/.kept/summary") (kept from an earlier run)"
	rm -rf "$obj/.kept"
	exit 0
fi
tree_checkout "$commit"
rm -f "$obj/.mbus-config-key"
log="$obj/config.log"
# (A subshell on the left of || runs without errexit: chain with &&.)
(
	cd "$MBUS_TREE" &&
		make -s O="$obj" ARCH=x86_64 tinyconfig &&
		KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh \
			-m -O "$obj" "$obj/.config" "${frags[@]}" &&
		make -s O="$obj" ARCH=x86_64 olddefconfig
) >"$log" 2>&1 || { cat "$log" >&2; die "config: merge_config.sh failed (see $log)"; }
defined CONFIG_MODULES || true
lost=$(validate_config)
if [ -n "$lost" ]; then
	stage_end FAIL "not granted by Kconfig: $(echo "$lost" | tr '\n' ';')"
	exit 1
fi
absent=$(grep -hoE '^CONFIG_[A-Z0-9_]+=' "${frags[@]}" | tr -d = | while read -r sym; do
	defined "$sym" || echo "$sym"
done | tr '\n' ' ' | sed 's/ $//')
summary="$(grep -c '=[ym]$' "$obj/.config") options set${absent:+; not in this tree yet: $absent}"
kept=$(mktemp -d)
cp "$obj/.config" "$kept/.config"
echo "$summary" >"$kept/summary"
cache_put config "$key" "$kept"
rm -rf "$kept"
echo "$key" >"$obj/.mbus-config-key"
stage_end OK "$summary"
