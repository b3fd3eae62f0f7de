#!/bin/bash
# Stage "cocci": the kernel's coccicheck (make coccicheck MODE=report, with
# the base's scripts/coccinelle and Debian's spatch) on the .c and .h files
# each patch of a revision changes, before and after the patch. A patch
# fails if a file it changes has a report after it that the file did not
# have before it (reports compared as file and message, without line and
# column numbers).
#
# coccicheck is run once per file content: every version of a file still
# to be checked is written to a scratch directory as <blob>/<path> and the
# whole directory is one M= of one coccicheck run; the report of each
# (path, blob) is kept, so that the state after patch i is the state before
# patch i+1, and an unchanged file is never checked twice. coccicheck sees
# one file at a time (--no-includes for most of its scripts): a report that
# needs a local header is not made, before or after alike.
#
# usage: cocci.sh REV            (results in $MBUS_RESULTS/REV/cocci/)
#        cocci.sh --inputs REV   the key its verdict must be made from
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=ci/per-patch.sh
. "$(dirname "$0")/per-patch.sh"

mode=run
if [ "${1:-}" = --inputs ]; then
	mode=inputs
	shift
fi
rev=${1:?usage: cocci.sh [--inputs] REV}
mapfile -t patches < <(revision_patches "$rev")
n=${#patches[@]}
[ "$n" -gt 0 ] || exit 1
out="$MBUS_RESULTS/$rev/cocci"
command -v spatch >/dev/null || die "cocci $rev: spatch missing (make deps: coccinelle)"
base=$(base_commit)
# What makes a report: spatch and the Python of its report rules, and the
# base's coccicheck and its scripts.
cocci_id=$( {
	spatch --version | head -n 1
	/usr/bin/python3 --version 2>&1 || true
	# (coccicheck runs at the base: its scripts and its headers, in the
	# side tree that ci/side-tree.sh checks the base out in.)
	echo "$base"
} | hash_text)
inputs=$(input_hash "$rev")
stage_key=$(cache_key "$0" "$inputs" "$cocci_id" \
	"$(per_patch_id)" "$(posted "$rev" && echo posted)")
if [ "$mode" = inputs ]; then
	echo "$stage_key"
	exit 0
fi
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

stage_begin "cocci $rev"
per_patch_kept cocci "$stage_key" "$out"
rm -rf "$out" "$out.kept"
mkdir -p "$out"
tip=$(rev_tip "$rev")
# (check's apply, beside, may have applied other patches since the key
# was made: then the tip is not of the patches the key names.)
[ "$(input_hash "$rev")" = "$inputs" ] || die "cocci $rev: the patches changed while it ran"
mapfile -t commits < <(git -C "$MBUS_TREE" rev-list --reverse "$base..$tip")
[ "${#commits[@]}" -eq "$n" ] || die "cocci $rev: $n patches gave ${#commits[@]} commits"

# file_key PATH BLOB: the key of the report of one version of one file.
file_key() {
	cache_key "$0" "$cocci_id" "$1" "$2"
}
# blob_of COMMIT PATH: the blob of PATH at COMMIT, nothing if COMMIT has
# no PATH (a file the patch adds or deletes); dies if git cannot tell (git
# rev-parse fails alike for a path that is not there and for a git that
# fails, and a version never checked would have no report). The path is
# literal, never pathspec magic.
blob_of() {
	local entry mode type obj
	entry=$(git --literal-pathspecs -C "$MBUS_TREE" ls-tree "$1" -- "$2") ||
		die "cocci $rev: git ls-tree of $1 failed in $MBUS_TREE"
	[ -n "$entry" ] || return 0
	# "MODE TYPE OBJECT<TAB>PATH"
	read -r mode type obj _ <<<"${entry%%$'\t'*}"
	[ "$type" = blob ] || die "cocci $rev: $2 at $1 is a $type ($mode), not a file"
	echo "$obj"
}
# The versions to check: each changed file before and after each patch,
# their blobs kept in blobs["COMMIT PATH"] (empty: no such file) for the
# reports below, which ask git nothing again.
declare -A want=() blobs=()
for c in "${commits[@]}"; do
	changed_files files "$c" '*.c' '*.h'
	for f in "${files[@]}"; do
		found=""
		for side in "$c~1" "$c"; do
			blob=$(blob_of "$side" "$f") || exit 1
			blobs["$side $f"]=$blob
			[ -n "$blob" ] || continue
			found=1
			cache_has cocci-file "$(file_key "$f" "$blob")" || want["$blob $f"]=1
		done
		# (A file the commit changes is on one side at least: git diff
		# quotes a path with unusual bytes, which then names no file, and
		# would pass unread.)
		[ -n "$found" ] || die "cocci $rev: $f: changed by $(git -C "$MBUS_TREE" rev-parse --short=12 "$c") but in neither version (a path git quotes?)"
	done
done
if [ "${#want[@]}" -gt 0 ]; then
	work=$(mktemp -d "$MBUS_CACHE/cocci-work.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	for k in "${!want[@]}"; do
		blob=${k%% *} f=${k#* }
		d=$work/$blob/$f
		mkdir -p "${d%/*}"
		git -C "$MBUS_TREE" cat-file blob "$blob" >"$work/$blob/$f"
	done
	info "  cocci $rev: coccicheck MODE=report on ${#want[@]} file version(s)"
	# In the side tree at the base (ci/side-tree.sh): the base tree's
	# checkout stays where the builds left it. apply uses the side tree
	# too, and may run beside (in check): each holds the side tree's lock
	# while it uses it.
	exec 8>>"$MBUS_TREE-side.lock"
	flock -n 8 || {
		info "  cocci $rev: waiting for the side tree ($MBUS_TREE-side.lock)"
		flock 8 || die "cocci $rev: the side tree's lock $MBUS_TREE-side.lock could not be taken"
	}
	stree=$("$MBUS_TOP/ci/side-tree.sh" "$base") || die "cocci $rev: no side tree"
	rc=0
	# spatch finds the Python of the scripts' report rules by running the
	# "python3" of PATH (ldd of it). Through a pyenv shim (this machine
	# kind's PATH) that is about 0.8 s of each of coccicheck's 73 spatch
	# runs, four fifths of a run on one file; --python names Debian's, the
	# one Debian's coccinelle is built for (the reports are the same).
	# J (spatch's --jobs) splits the files among worker processes: more
	# workers than file versions only cost their start (9 of the 41 core
	# seconds of one version's run). With J=1 coccicheck passes no --jobs.
	cj=$((${#want[@]} < JOBS ? ${#want[@]} : JOBS))
	make -C "$stree" coccicheck MODE=report M="$work" J="$cj" \
		SPFLAGS="--python /usr/bin/python3" >"$out/coccicheck.log" 2>&1 || rc=$?
	exec 8>&-
	# A script spatch cannot run is a failure of the check, not a pass.
	if [ "$rc" -ne 0 ] || grep -qE 'No OCaml compiler|^Fatal error|coccicheck failed' "$out/coccicheck.log"; then
		verdict_write "$out/cocci.verdict" FAIL "$stage_key" "coccicheck failed (rc $rc): $(grep -m1 -E 'OCaml|Fatal|error' "$out/coccicheck.log" || tail -n 1 "$out/coccicheck.log")"
		stage_end FAIL "coccicheck failed; see $out/coccicheck.log"
		exit 1
	fi
	for k in "${!want[@]}"; do
		blob=${k%% *} f=${k#* }
		r=$(mktemp -d)
		# work/BLOB/PATH:LINE:COL-COL: MESSAGE  ->  PATH: MESSAGE
		{ grep -F "$work/$blob/$f:" "$out/coccicheck.log" || true; } |
			sed -E -e "s|^$work/$blob/||" -e 's/^([^:]+):[0-9]+:[0-9]+-[0-9]+: /\1: /' \
				-e 's/^([^:]+):[0-9]+:[0-9]+: /\1: /' -e 's/line [0-9]+/line N/g' |
			sort >"$r/report"
		cache_put cocci-file "$(file_key "$f" "$blob")" "$r"
		rm -rf "$r"
	done
fi

# report PATH COMMIT: the kept report of PATH as COMMIT has it (nothing if
# COMMIT has no such file).
report() {
	[ -n "${blobs["$2 $1"]+set}" ] || die "cocci $rev: $1 at $2 was never looked up"
	local blob=${blobs["$2 $1"]}
	[ -n "$blob" ] || return 0
	cat "$(cache_path cocci-file "$(file_key "$1" "$blob")")/report"
}
for i in $(seq 1 "$n"); do
	c=${commits[$((i - 1))]}
	d="$out/$(printf %04d "$i")"
	mkdir -p "$d"
	changed_files files "$c" '*.c' '*.h'
	# (Multisets: a second copy of a known report is new.)
	for f in "${files[@]}"; do report "$f" "$c~1" || exit 1; done | sort >"$d/cocci.before"
	for f in "${files[@]}"; do report "$f" "$c" || exit 1; done | sort >"$d/cocci.after"
	comm -13 "$d/cocci.before" "$d/cocci.after" >"$d/cocci.new"
	key=$(cache_key "$0" "$stage_key" "$i" cocci)
	if [ "${#files[@]}" -eq 0 ]; then
		verdict_write "$d/cocci.verdict" OK "$key" "N/A: changes no .c or .h file"
	elif [ -s "$d/cocci.new" ]; then
		verdict_write "$d/cocci.verdict" FAIL "$key" "$(wc -l <"$d/cocci.new") new coccicheck report(s): $(head -n 1 "$d/cocci.new")"
	else
		verdict_write "$d/cocci.verdict" OK "$key" "no new coccicheck report in ${#files[@]} file(s) ($(wc -l <"$d/cocci.after") known)"
	fi
done
per_patch_finish cocci "$0" "$stage_key" "$out" "$rev" "coccicheck report"
