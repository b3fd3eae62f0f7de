#!/bin/bash
# Stage "builds": every patch of a revision built, patch by patch, in each
# configuration of ci/builds (media-ci's other architectures and
# configuration variants: i386, clang, x86_64 with OF, ACPI, PM, PM_SLEEP or
# DEBUG_FS off, and the drivers' own architectures without COMPILE_TEST:
# arm64, 32-bit arm, arm with pxa_camera's PXA27x), with W=1.
#
# What is built: the directories of the revision's changed .c and .h files
# under drivers/, and drivers/media/v4l2-core/, as NIPA builds a patch: a
# reference build of those directories at the base, made once per base and
# configuration and kept; then each patch's commit built incrementally in
# the configuration's own object directory, the patch's files touched so
# that every object depending on them is rebuilt. A patch fails a
# configuration if it does not build there or prints a warning (file and
# message, without line numbers) that the state before it did not. A patch
# that changes nothing the configuration compiles (a documentation patch, a
# driver the configuration does not enable) is not built there: its verdict
# is OK with a reason that begins "N/A:".
#
# Each configuration is allnoconfig with its fragment merged and the
# options of its "disable" column turned off; every option the fragment
# asks for must be granted (the first disabled option must be off in a
# variant), except options the commit's Kconfig files do not define yet.
# Every .c file a patch changes must have been compiled (its object newer
# than the build's start) in at least one configuration: a driver whose
# option no configuration grants builds nothing and would pass.
#
# Each patch's results are kept under the key of the configuration and
# patches 1..i: after an edit, only the edited patch and those after it are
# built again. A patch is checked out once and built in its configurations
# side by side, $JOBS at a time (each has its own object directory). The
# verdict of patch I in configuration NAME is written for the inputs
# cache_key ci/builds.sh "$(builds.sh --inputs REV)" I NAME, as the
# verdicts of ci/cocci.sh and ci/htmldocs.sh are (ci/matrix.sh reads them
# so).
#
# usage: builds.sh REV            (results in $MBUS_RESULTS/REV/builds/)
#        builds.sh --inputs REV   the key its verdict must be made from
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

mode=run
if [ "${1:-}" = --inputs ]; then
	mode=inputs
	shift
fi
rev=${1:?usage: builds.sh [--inputs] REV}
mapfile -t patches < <(revision_patches "$rev")
n=${#patches[@]}
[ "$n" -gt 0 ] || exit 1
out="$MBUS_RESULTS/$rev/builds"
registry="$MBUS_TOP/ci/builds"

# The configurations: name arch compiler fragment disable. MBUS_BUILDS
# (names, comma-separated) keeps only some: the tests' fixtures use it. The
# selection is part of the stage's key, and ci/gate.sh refuses to render
# while it is set: a partial run never stands for the stage.
mapfile -t confs < <(awk -v only="${MBUS_BUILDS:-}" '
	BEGIN { n = split(only, o, ","); for (i = 1; i <= n; i++) want[o[i]] = 1 }
	!/^#/ && NF && (n == 0 || $1 in want)' "$registry")
[ "${#confs[@]}" -gt 0 ] || die "builds: $registry names no configuration${MBUS_BUILDS:+ of MBUS_BUILDS=$MBUS_BUILDS}"
if [ -n "${MBUS_BUILDS:-}" ]; then
	for b in ${MBUS_BUILDS//,/ }; do
		printf '%s\n' "${confs[@]}" | awk -v b="$b" '$1 == b { f = 1 } END { exit !f }' ||
			die "builds: MBUS_BUILDS names '$b', which $registry does not"
	done
fi
frags=()
declare -A named=()
for c in "${confs[@]}"; do
	read -r name arch comp frag disable extra <<<"$c"
	[ -n "$disable" ] && [ -z "$extra" ] ||
		die "builds: $registry: '$c': want 5 fields (name arch compiler fragment disable)"
	[ -z "${named[$name]:-}" ] ||
		die "builds: $registry: '$name' names two configurations (each has its own object directory)"
	named[$name]=1
	[ -f "$MBUS_TOP/ci/$frag" ] || die "builds: $registry: $name: no fragment ci/$frag"
	frags+=("$MBUS_TOP/ci/$frag")
done
# Configurations are built side by side, JOBS at a time.
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "builds: JOBS=$JOBS: want a number of jobs, 1 or more"
# tool_id COMPILER: its version; dies naming a missing compiler.
tool_id() {
	case $1 in
	gcc) gcc --version | head -n 1 ;;
	llvm)
		command -v clang >/dev/null && command -v ld.lld >/dev/null ||
			die "builds $rev: clang or ld.lld missing (make deps)"
		clang --version | head -n 1
		;;
	*-)
		command -v "${1}gcc" >/dev/null || die "builds $rev: ${1}gcc missing (make deps)"
		"${1}gcc" --version | head -n 1
		;;
	*) die "builds: $registry: unknown compiler '$1'" ;;
	esac
}
declare -A tools=()
for c in "${confs[@]}"; do
	read -r name arch comp _ <<<"$c"
	tools[$name]=$(tool_id "$comp")
done

# The directories built: those of the changed .c/.h files under drivers/
# (from the patches' file names) and the V4L2 core.
mapfile -t dirs < <({
	sed -nE 's#^\+\+\+ b/(drivers/.+)/[^/]+\.[ch]$#\1/#p' "${patches[@]}"
	echo drivers/media/v4l2-core/
} | sort -u)

stage_key=$(cache_key "$0" "$(input_hash "$rev")" "$(hash_files "$registry" "${frags[@]}")" \
	"$(printf '%s\n' "${tools[@]}" | sort)" "${dirs[*]}" "only=${MBUS_BUILDS:-}" \
	"$(hash_files "$MBUS_TOP"/ci/{known-reports,known-reports.sh,lib.sh})" "$(posted "$rev" && echo posted)")
if [ "$mode" = inputs ]; then
	echo "$stage_key"
	exit 0
fi
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

# normalize OBJ LOG: the warnings, "file: warning: text", without line numbers.
normalize() {
	sed -E -e "s|$MBUS_TREE/||g" -e "s|$1/||g" "$2" |
		{ grep -E '(^|: )(warning|error)[: ]' || true; } |
		sed -E -e 's/^([^: ]+):[0-9]+:[0-9]+: /\1: /' -e 's/^([^: ]+):[0-9]+: /\1: /' | sort
}

# vkey_of I NAME: into $vk, the inputs the verdict of patch I in
# configuration NAME is written for; each made once (vkeys).
declare -A vkeys=()
vkey_of() {
	vk=${vkeys[$1/$2]:-}
	[ -n "$vk" ] || {
		cache_key_into vk "$0" "$stage_key" "$1" "$2"
		vkeys[$1/$2]=$vk
	}
}

# print_table: one line per patch and configuration, as check.sh prints its.
print_table() {
	local i nnnn c name
	for ((i = 1; i <= n; i++)); do
		printf -v nnnn %04d "$i"
		for c in "${confs[@]}"; do
			read -r name _ <<<"$c"
			vkey_of "$i" "$name"
			verdict_get "$out/$nnnn/$name.verdict" "$vk"
			printf '  %-4s %-28.28s %-10s %-4s %s\n' "$rev" "$i/$n ${patches[$((i - 1))]##*/}" "$name" "$verdict_v" "$verdict_r"
		done
	done
}

stage_begin "builds $rev"
if cache_get builds "$stage_key" "$out.kept"; then
	rm -rf "$out"
	mv "$out.kept" "$out"
	print_table
	read -r v r < <(verdict_read "$out/builds.verdict" "$stage_key")
	stage_end "$v" "$r (kept)"
	verdict_passes "$v"
	exit
fi
rm -rf "$out" "$out.kept"
mkdir -p "$out"
base=$(base_commit)
tip=$(rev_tip "$rev")
mapfile -t commits < <(git -C "$MBUS_TREE" rev-list --reverse "$base..$tip")
[ "${#commits[@]}" -eq "$n" ] || die "builds $rev: $n patches gave ${#commits[@]} commits"

# kconfig_of COMMIT: the hash of COMMIT's Kconfig files into
# kconfig[COMMIT], once for all configurations (before they are built side
# by side: a background build sees only what was made before it started).
declare -A kconfig=()
kconfig_of() {
	[ -n "${kconfig[$1]:-}" ] ||
		kconfig[$1]=$(git -C "$MBUS_TREE" ls-tree -r "$1" | awk '$4 ~ /Kconfig/' | hash_text) ||
		die "builds $rev: git ls-tree of $1 failed in $MBUS_TREE"
}

# configure NAME ARCH FRAG DISABLE OBJ COMMIT: the .config of COMMIT, made
# again only when its Kconfig files, the fragment or the disabled options
# differ from those of the last one made in OBJ. Prints why it fails.
configure() {
	local name=$1 arch=$2 frag=$3 disable=$4 obj=$5 commit=$6 key lost syms o first
	[ -n "${kconfig[$commit]:-}" ] || { echo "no hash of $commit's Kconfig files (kconfig_of)"; return 1; }
	key=$(cache_key "$0" "$name $arch $disable" "$(hash_files "$frag")" "${kconfig[$commit]}")
	[ ! -f "$obj/.config" ] || [ "$(cat "$obj/.mbus-builds-key" 2>/dev/null)" != "$key" ] || return 0
	rm -f "$obj/.mbus-builds-key"
	mkdir -p "$obj"
	# (The caller has checked COMMIT out: configurations are made side by
	# side, in one checkout.)
	[ "$(git -C "$MBUS_TREE" rev-parse HEAD)" = "$(git -C "$MBUS_TREE" rev-parse "$commit^{commit}")" ] || {
		echo "$MBUS_TREE is not at $commit"
		return 1
	}
	if ! (cd "$MBUS_TREE" &&
		make -s "${margs[@]}" allnoconfig &&
		KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$frag" &&
		if [ "$disable" != - ]; then
			for o in ${disable//,/ }; do scripts/config --file "$obj/.config" --disable "$o"; done
		fi &&
		make -s "${margs[@]}" olddefconfig) >"$obj/config.log" 2>&1; then
		echo "the configuration failed: $(tail -n 1 "$obj/config.log")"
		return 1
	fi
	if [ "$disable" != - ]; then
		first=${disable%%,*}
		if grep -q "^CONFIG_$first=" "$obj/.config"; then
			echo "CONFIG_$first is still set: the variant tests nothing"
			return 1
		fi
	else
		syms=$(git -C "$MBUS_TREE" grep -hE '^\s*(menu)?config [A-Za-z0-9_]+\s*$' "$commit" -- '*Kconfig*' |
			sed -E 's/^\s*(menu)?config ([A-Za-z0-9_]+).*/CONFIG_\2/' | sort -u)
		grep -qxF CONFIG_MODULES <<<"$syms" || { echo "no Kconfig symbols found in $commit (git grep failed)"; return 1; }
		lost=$(grep -hE '^CONFIG_[A-Z0-9_]+=' "$frag" | while IFS= read -r l; do
			grep -qxF "$l" "$obj/.config" || ! grep -qxF "${l%%=*}" <<<"$syms" || echo "${l%%=*}"
		done | tr '\n' ' ')
		if [ -n "$lost" ]; then
			echo "Kconfig does not grant ${lost% }"
			return 1
		fi
	fi
	echo "$key" >"$obj/.mbus-builds-key"
}

# build OBJ LOG: the directories built in OBJ at the checked-out commit,
# with make -j$mj (the cores, shared among the builds that run side by
# side); the exit status of make.
mj=$JOBS
build() {
	make -C "$MBUS_TREE" "${margs[@]}" W=1 -j"$mj" -s "${dirs[@]}" >"$2" 2>&1
}
# changed COMMIT [PATHSPEC...]: the files COMMIT changes, one a line; dies
# if git cannot tell (an empty list would pass as a patch that changes
# nothing a configuration compiles).
changed() {
	git -C "$MBUS_TREE" diff --name-only "$1~1" "$1" -- "${@:2}" ||
		die "builds $rev: git diff of $1 failed in $MBUS_TREE"
}

# take DIR: DIR's files (a configuration's results) copied into its
# parent, the patch's directory, and DIR removed.
take() {
	cp -a "$1/." "${1%/*}/" && rm -rf "$1" ||
		die "builds $rev: $1 could not be taken into ${1%/*}"
}

# conf_margs COMPILER OBJ ARCH: make's arguments of a configuration, in margs.
conf_margs() {
	margs=(O="$2" ARCH="$3")
	case $1 in
	gcc) margs+=(CC="ccache gcc") ;;
	llvm) margs+=(LLVM=1 CC="ccache clang") ;;
	*) margs+=(CROSS_COMPILE="$1" CC="ccache ${1}gcc") ;;
	esac
}

# relevant NAME FILE...: the first FILE that configuration NAME compiles
# (or might: a file the base does not have), nothing if none.
relevant() {
	local ref="$out/reference/$1" f
	shift
	for f in "$@"; do
		case $f in
		*Kconfig* | *Makefile | *Kbuild | include/*.h | arch/*.h) echo "$f"; return ;;
		*.c) if grep -qxF "${f%.c}.o" "$ref/objects" || ! git -C "$MBUS_TREE" cat-file -e "$base:$f" 2>/dev/null; then echo "$f"; return; fi ;;
		*.h) if grep -q "^${f%/*}/[^/]*\.o$" "$ref/objects"; then echo "$f"; return; fi ;;
		esac
	done
}

# build_patch CONF I PKEY FILE...: patch I (checked out, its FILEs touched
# by the caller) built in configuration CONF; the results in
# OUT/NNNN/.new-NAME, kept under PKEY. Runs beside the other
# configurations' builds of the same patch: nothing here is shared but the
# checkout, which no one moves meanwhile.
build_patch() {
	local c=$1 i=$2 pkey=$3 name arch comp fragname disable frag obj commit tmp why rc k f
	shift 3
	read -r name arch comp fragname disable <<<"$c"
	frag="$MBUS_TOP/ci/$fragname"
	obj="$MBUS_CACHE/builds/$name"
	conf_margs "$comp" "$obj" "$arch"
	commit=${commits[$((i - 1))]}
	tmp="$out/$(printf %04d "$i")/.new-$name"
	info "  builds $rev: $name: $i/$n ${patches[$((i - 1))]##*/}"
	# (A missing hash is this script's error, not the patch's: no verdict.)
	[ -n "${kconfig[$commit]:-}" ] || die "builds $rev: no hash of $commit's Kconfig files (kconfig_of)"
	if ! why=$(configure "$name" "$arch" "$frag" "$disable" "$obj" "$commit"); then
		cp "${prev[$name]}" "$tmp/$name.warnings"
		: >"$tmp/$name.compiled"
		verdict_write "$tmp/$name.verdict" FAIL "$pkey" "$why"
	else
		touch "$tmp/start"
		rc=0
		build "$obj" "$tmp/$name.log" || rc=$?
		normalize "$obj" "$tmp/$name.log" >"$tmp/this"
		comm -13 "${prev[$name]}" "$tmp/this" >"$tmp/$name.new-warnings"
		# (Multisets: a second copy of a known warning is new.)
		sort "${prev[$name]}" "$tmp/$name.new-warnings" >"$tmp/$name.warnings"
		for f in "$@"; do
			[[ $f == *.c ]] && [ "$obj/${f%.c}.o" -nt "$tmp/start" ] && echo "$f"
		done >"$tmp/$name.compiled" || true
		k=$(wc -l <"$tmp/$name.compiled")
		if [ "$rc" -ne 0 ]; then
			verdict_write "$tmp/$name.verdict" FAIL "$pkey" "does not build: $(grep -m1 -E ': error: |Error [0-9]' "$tmp/$name.log" || tail -n 1 "$tmp/$name.log")"
		elif [ -s "$tmp/$name.new-warnings" ]; then
			verdict_write "$tmp/$name.verdict" FAIL "$pkey" "$(wc -l <"$tmp/$name.new-warnings") new W=1 warning(s): $(head -n 1 "$tmp/$name.new-warnings")"
		else
			verdict_write "$tmp/$name.verdict" OK "$pkey" "builds, W=1, no new warnings ($k changed C file(s) compiled)"
		fi
		rm -f "$tmp/start" "$tmp/this"
	fi
	# Only a completed build's result is kept.
	cache_put builds-patch "$pkey" "$tmp"
}

verdict=OK reasons=()
# Each configuration's reference: kept, or built at the base.
declare -A prev=() ckeys=()
built_confs=()
for c in "${confs[@]}"; do
	read -r name arch comp fragname disable <<<"$c"
	frag="$MBUS_TOP/ci/$fragname"
	obj="$MBUS_CACHE/builds/$name"
	conf_margs "$comp" "$obj" "$arch"
	ckey=$(cache_key "$0" "$c" "$(hash_files "$frag")" "${tools[$name]}" "$base" "${dirs[*]}")

	# The reference: every object of the directories, at the base.
	ref="$out/reference/$name"
	if ! cache_get builds-reference "$ckey" "$ref"; then
		info "  builds $rev: $name: reference build of the base (${dirs[*]})"
		mkdir -p "$ref"
		tree_checkout "$base"
		kconfig_of "$base"
		if why=$(configure "$name" "$arch" "$frag" "$disable" "$obj" "$base"); then
			for d in "${dirs[@]}"; do rm -rf "${obj:?}/$d"; done
			rc=0
			build "$obj" "$ref/build.log" || rc=$?
			normalize "$obj" "$ref/build.log" >"$ref/warnings"
			(cd "$obj" && find "${dirs[@]}" -name '*.o' 2>/dev/null | sort) >"$ref/objects" || true
			if [ "$rc" -ne 0 ]; then
				verdict=FAIL reasons+=("$name: the base does not build: $(grep -m1 -E ': error: |Error [0-9]' "$ref/build.log" || tail -n 1 "$ref/build.log")")
				continue
			fi
			cache_put builds-reference "$ckey" "$ref"
		else
			verdict=FAIL reasons+=("$name: base: $why")
			continue
		fi
	fi
	prev[$name]="$ref/warnings"
	ckeys[$name]=$ckey
	built_confs+=("$c")
done

# Patch by patch: what is kept is taken; the rest is built, the patch
# checked out once and its configurations built side by side.
for i in $(seq 1 "$n"); do
	commit=${commits[$((i - 1))]}
	d="$out/$(printf %04d "$i")"
	mkdir -p "$d"
	upto=$(cat "${patches[@]:0:$i}" | hash_text)
	list=$(changed "$commit")
	files=()
	[ -z "$list" ] || mapfile -t files <<<"$list"
	declare -A pkeys=()
	todo=() kept=()
	for c in "${built_confs[@]}"; do
		read -r name _ <<<"$c"
		# Kept under the key of this configuration and patches 1..i.
		cache_key_into pkey "$0" "${ckeys[$name]}" "$upto"
		pkeys[$name]=$pkey
		if cache_has builds-patch "$pkey"; then
			kept+=("$MBUS_STATE/builds-patch-$pkey/.")
			continue
		fi
		tmp="$d/.new-$name"
		rm -rf "$tmp"
		mkdir -p "$tmp"
		# Does the patch change anything this configuration compiles?
		if [ -z "$(relevant "$name" "${files[@]}")" ]; then
			cp "${prev[$name]}" "$tmp/$name.warnings"
			: >"$tmp/$name.compiled"
			verdict_write "$tmp/$name.verdict" OK "$pkey" "N/A: changes nothing this configuration compiles (not built)"
			cache_put builds-patch "$pkey" "$tmp"
			take "$tmp"
		else
			todo+=("$c")
		fi
	done
	# The kept results taken into $d with one copy, as cache_get takes
	# each (its layout, $MBUS_STATE/NAME-KEY with a .done, spelled out here:
	# a helper in ci/lib.sh would move every key, lib.sh being in all of
	# them). One copy is possible because each configuration's files are
	# named for it; only their .done collide.
	if [ "${#kept[@]}" -gt 0 ]; then
		cp -a "${kept[@]}" "$d/" && rm -f "$d/.done" ||
			die "builds $rev: patch $i: the kept results could not be copied into $d"
	fi
	if [ "${#todo[@]}" -gt 0 ]; then
		tree_checkout "$commit"
		kconfig_of "$commit"
		# The patch's files touched, so that every object that depends on
		# them is rebuilt in every configuration.
		for f in "${files[@]}"; do [ ! -f "$MBUS_TREE/$f" ] || touch "$MBUS_TREE/$f"; done
		# JOBS builds at a time, the cores shared among them.
		par=$((${#todo[@]} < JOBS ? ${#todo[@]} : JOBS))
		mj=$(((JOBS + par - 1) / par))
		for c in "${todo[@]}"; do
			read -r name _ <<<"$c"
			while [ "$(jobs -pr | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
			build_patch "$c" "$i" "${pkeys[$name]}" "${files[@]}" &
		done
		wait
		mj=$JOBS
		for c in "${todo[@]}"; do
			read -r name _ <<<"$c"
			cache_has builds-patch "${pkeys[$name]}" ||
				die "builds $rev: patch $i, $name: the build stopped before its verdict (see $d/.new-$name)"
			take "$d/.new-$name"
		done
	fi
	# Each verdict written again for the revision's inputs.
	for c in "${built_confs[@]}"; do
		read -r name _ <<<"$c"
		read -r v _ r <"$d/$name.verdict"
		vkey_of "$i" "$name"
		verdict_write "$d/$name.verdict" "$v" "$vk" "$r"
		prev[$name]="$d/$name.warnings"
	done
	unset pkeys
done

# Per patch: the verdicts (a known report of a posted revision XFAIL, see
# ci/known-reports.sh), and every changed .c file compiled somewhere.
mapfile -t names < <(printf '%s\n' "${confs[@]}" | awk '{ print $1 }')
krc=0
xpass=$("$MBUS_TOP/ci/known-reports.sh" "$rev" "$out" "${names[@]}") || krc=$?
[ "$krc" -le 1 ] || xpass="ci/known-reports.sh failed (exit $krc)"
print_table
if [ -n "$xpass" ]; then
	printf '%s\n' "$xpass"
	verdict=FAIL reasons+=("$xpass")
fi
xfail=0
for i in $(seq 1 "$n"); do
	commit=${commits[$((i - 1))]}
	d="$out/$(printf %04d "$i")"
	for c in "${confs[@]}"; do
		read -r name _ <<<"$c"
		vkey_of "$i" "$name"
		verdict_get "$d/$name.verdict" "$vk"
		case $verdict_v in
		OK) ;;
		WARN) xfail=$((xfail + 1)) ;;
		*) verdict=FAIL reasons+=("patch $i $name: $verdict_v $verdict_r") ;;
		esac
	done
	list=$(git -C "$MBUS_TREE" diff --diff-filter=d --name-only "$commit~1" "$commit" -- '*.c') ||
		die "builds $rev: git diff of $commit failed in $MBUS_TREE"
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		grep -qxF -- "$f" "$d"/*.compiled 2>/dev/null ||
			{ verdict=FAIL reasons+=("patch $i: $f was compiled in no configuration"); }
	done <<<"$list"
done
if [ "$verdict" = OK ]; then
	na=$(cat "$out"/[0-9][0-9][0-9][0-9]/*.verdict | grep -c ' N/A: ' || true)
	reason="$n patches x ${#confs[@]} configurations ($((n * ${#confs[@]} - na)) built, $na n/a): no new W=1 warnings; every changed C file compiled"
	if [ "$xfail" -gt 0 ]; then
		verdict=WARN reason="$reason, but $xfail known report(s) of the posted revision (ci/known-reports)"
	fi
else
	reason="${#reasons[@]} failure(s): $(IFS=';'; echo "${reasons[*]}" | tr '\n' ' ')"
fi
verdict_write "$out/builds.verdict" "$verdict" "$stage_key" "$reason"
cache_put builds "$stage_key" "$out"
stage_end "$verdict" "$reason"
verdict_passes "$verdict"
