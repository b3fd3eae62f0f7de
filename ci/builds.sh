#!/bin/bash
# Stage "cross": the drivers of other architectures that a revision changes,
# built for those architectures, without COMPILE_TEST: the CSI-2 receivers
# under drivers/media/platform/{ti,sunxi}/ for arm64 (ci/cross-arm64.config:
# TI K3, Allwinner) and for 32-bit arm (ci/cross-arm.config: DRA7xx,
# A31/A83T), with Debian's cross compilers and W=1. Each configuration is
# allnoconfig with the fragment merged; every option the fragment asks for
# must be granted (the drivers really built). The directories of the
# changed drivers and drivers/media/v4l2-core/ are built at the base and at
# the revision's tip, in an object directory per architecture: the stage
# fails if the revision does not build or prints a warning (file and
# message, without line numbers) that the base does not.
#
# Every changed .c file must have been compiled for at least one of the
# architectures (its object newer than the build's start): a directory whose
# option a configuration does not grant builds nothing and would pass.
#
# A revision that changes none of these drivers has nothing to build here:
# the stage says so and exits 0, without a verdict.
#
# usage: cross.sh REV            (results in $MBUS_RESULTS/REV/cross/)
#        cross.sh --inputs REV   the key its verdict must be made from, or
#                                nothing if REV has nothing to build (exit
#                                0 both; any error exits non-zero)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

mode=run
if [ "${1:-}" = --inputs ]; then
	mode=inputs
	shift
fi
rev=${1:?usage: cross.sh [--inputs] REV}
revision_patches "$rev" >/dev/null
out="$MBUS_RESULTS/$rev/cross"

# The directories of the drivers the revision changes (two levels below
# drivers/media/platform/{ti,sunxi}/), from the patches' file names.
mapfile -t dirs < <(sed -nE 's#^\+\+\+ b/(drivers/media/platform/(ti|sunxi)/[^/]+)/.*#\1/#p' \
	"$MBUS_SERIES_DIR/series-$rev"/*.patch | sort -u)
if [ "${#dirs[@]}" -eq 0 ]; then
	[ "$mode" = run ] || exit 0
	stage_begin "cross $rev"
	rm -rf "$out"
	stage_end N/A "changes no driver of drivers/media/platform/{ti,sunxi}/: nothing to build"
	exit 0
fi
drvdirs=("${dirs[@]}")
dirs+=(drivers/media/v4l2-core/)

# arch:CROSS_COMPILE of each configuration.
configs=(arm64:aarch64-linux-gnu- arm:arm-linux-gnueabihf-)
tools=""
for c in "${configs[@]}"; do
	command -v "${c#*:}gcc" >/dev/null || die "cross $rev: ${c#*:}gcc missing (make deps)"
	tools+="$("${c#*:}gcc" --version | head -n 1);"
done
cross_inputs=$(cache_key "$0" "$(input_hash "$rev")" "$(hash_files "$MBUS_TOP"/ci/cross-*.config)" "$tools")
if [ "$mode" = inputs ]; then
	echo "$cross_inputs"
	exit 0
fi
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

stage_begin "cross $rev"
if cache_get cross "$cross_inputs" "$out.kept"; then
	rm -rf "$out"
	mv "$out.kept" "$out"
	read -r v r < <(verdict_read "$out/cross.verdict" "$cross_inputs")
	stage_end "$v" "$r (kept)"
	verdict_passes "$v"
	exit
fi
rm -rf "$out"
mkdir -p "$out"
base=$(base_commit)
tip=$(rev_tip "$rev")

# normalize LOG: the warnings, "file: warning: text", without line numbers.
normalize() {
	sed -E -e "s|$MBUS_TREE/||g" -e "s|$1/||g" "$2" |
		{ grep -E '(^|: )(warning|error)[: ]' || true; } |
		sed -E -e 's/^([^: ]+):[0-9]+:[0-9]+: /\1: /' -e 's/^([^: ]+):[0-9]+: /\1: /' | sort -u
}

# The drivers' changed C files, each to be compiled on some architecture.
mapfile -t changed < <(git -C "$MBUS_TREE" diff --name-only "$base" "$tip" -- "${drvdirs[@]}" | grep '\.c$' || true)
declare -A built=()
verdict=OK reasons=() summary=()
for c in "${configs[@]}"; do
	arch=${c%%:*} cross=${c#*:}
	obj="$MBUS_CACHE/build-cross-$arch"
	frag="$MBUS_TOP/ci/cross-$arch.config"
	for side in base tip; do
		commit=$base
		[ "$side" = base ] || commit=$tip
		tree_checkout "$commit"
		log="$out/$arch-$side.log"
		info "  cross $rev: $arch, $side $(git -C "$MBUS_TREE" rev-parse --short=12 "$commit"): ${dirs[*]}"
		# The configuration of this commit (its own Kconfig files), made
		# again only when they or the fragment differ from the last one
		# made in this object directory (base and tip usually share it).
		key=$(cache_key "$0" "$arch" "$(hash_files "$frag")" "$(git -C "$MBUS_TREE" ls-tree -r "$commit" |
			awk '$4 ~ /Kconfig/' | hash_text)")
		mkdir -p "$obj"
		if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.mbus-cross-key" 2>/dev/null)" != "$key" ]; then
			rm -f "$obj/.config" "$obj/.mbus-cross-key"
			if ! (cd "$MBUS_TREE" &&
				make -s O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" allnoconfig &&
				KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$frag" &&
				make -s O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" olddefconfig) >"$out/$arch-$side.config.log" 2>&1; then
				verdict=FAIL reasons+=("$arch $side: configuration failed (see $out/$arch-$side.config.log)")
				continue
			fi
		fi
		lost=$(grep -hE '^CONFIG_[A-Z0-9_]+=' "$frag" | while IFS= read -r l; do
			grep -qxF "$l" "$obj/.config" || echo "${l%%=*}"
		done | tr '\n' ' ')
		if [ -n "$lost" ]; then
			verdict=FAIL reasons+=("$arch $side: Kconfig does not grant ${lost% }")
			rm -f "$obj/.mbus-cross-key"
			continue
		fi
		echo "$key" >"$obj/.mbus-cross-key"
		# The changed files are touched: every object of theirs is rebuilt.
		git -C "$MBUS_TREE" diff --name-only "$base" "$tip" -- "${dirs[@]}" |
			while IFS= read -r f; do [ ! -f "$MBUS_TREE/$f" ] || touch "$MBUS_TREE/$f"; done
		rc=0
		touch "$out/$arch-$side.start"
		make -C "$MBUS_TREE" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" \
			CC="ccache ${cross}gcc" W=1 -j"$JOBS" -s "${dirs[@]}" >"$log" 2>&1 || rc=$?
		normalize "$obj" "$log" >"$out/$arch-$side.warnings"
		if [ "$rc" -ne 0 ]; then
			verdict=FAIL reasons+=("$arch $side does not build: $(grep -m1 -E ': error: |Error [0-9]' "$log" || tail -n 1 "$log")")
		fi
		# What the revision's build compiled of the changed files.
		if [ "$side" = tip ]; then
			n=0
			for f in "${changed[@]}"; do
				[ "$obj/${f%.c}.o" -nt "$out/$arch-$side.start" ] || continue
				built[$f]+="$arch "
				n=$((n + 1))
			done
			summary+=("$arch $n of ${#changed[@]}")
		fi
	done
	[ -f "$out/$arch-base.warnings" ] && [ -f "$out/$arch-tip.warnings" ] || continue
	comm -13 "$out/$arch-base.warnings" "$out/$arch-tip.warnings" >"$out/$arch.new-warnings"
	if [ -s "$out/$arch.new-warnings" ]; then
		verdict=FAIL reasons+=("$arch: $(wc -l <"$out/$arch.new-warnings") new W=1 warning(s): $(head -n 1 "$out/$arch.new-warnings")")
	fi
done
for f in "${changed[@]}"; do
	[ -n "${built[$f]:-}" ] || { verdict=FAIL reasons+=("$f was compiled for no architecture"); }
done
if [ "$verdict" = OK ]; then
	reason="the changed files built without COMPILE_TEST, W=1, no new warnings: $(IFS=','; echo "${summary[*]}" | sed 's/,/, /g') changed C files"
else
	reason=$(IFS=';'; echo "${reasons[*]}")
fi
verdict_write "$out/cross.verdict" "$verdict" "$cross_inputs" "$reason"
# Only a result of a completed run is kept.
cache_put cross "$cross_inputs" "$out"
stage_end "$verdict" "$reason"
[ "$verdict" = OK ]
