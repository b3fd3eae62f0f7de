#!/bin/bash
# Stage "htmldocs": `make htmldocs SPHINXDIRS=BOOK` with Debian's Sphinx for
# the books a patch touches, before and after the patch. A book is touched
# by a patch that changes a file under it (Documentation/A/B/ if it has an
# index.rst, else Documentation/A/), or a source file one of its documents
# includes with a kernel-doc directive. A patch fails if the build fails or
# prints a Sphinx or kernel-doc warning (file and message, without line
# numbers) that the book did not print before the patch.
#
# Each book is built and its warnings kept per book and commit by
# ci/htmldocs-book.sh: the state after patch i is the state before patch
# i+1. The kernel-doc directives of the documentation are read once per
# content of Documentation/ (its tree id) and kept: most patches do not
# change it. A patch's verdict is kept under the trees before and after
# it (its books and their warnings depend on nothing else).
#
# usage: htmldocs.sh REV            (results in $MBUS_RESULTS/REV/htmldocs/)
#        htmldocs.sh --inputs REV   the key its verdict must be made from
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=ci/per-patch.sh
. "$(dirname "$0")/per-patch.sh"

mode=run
if [ "${1:-}" = --inputs ]; then
	mode=inputs
	shift
fi
rev=${1:?usage: htmldocs.sh [--inputs] REV}
mapfile -t patches < <(revision_patches "$rev")
n=${#patches[@]}
[ "$n" -gt 0 ] || exit 1
out="$MBUS_RESULTS/$rev/htmldocs"
command -v sphinx-build >/dev/null || die "htmldocs $rev: sphinx-build missing (make deps: python3-sphinx)"
# (docutils as Sphinx's own interpreter has it: the one its script names,
# not whatever python3 PATH finds first, on this machine kind a pyenv shim.)
sphinx_py=$(sed -n '1s|^#! *\(/[^ ]*\)$|\1|p' "$(command -v sphinx-build)")
[ -x "${sphinx_py:-}" ] || sphinx_py=python3
sphinx_id=$(sphinx-build --version 2>&1 | head -n 1
	"$sphinx_py" -c 'import docutils; print("docutils", docutils.__version__)' 2>&1
	echo "${SPHINXOPTS:-} ${DOCS_THEME:-} ${KERNELDOC:-}")
stage_key=$(cache_key "$0" "$(input_hash "$rev")" "$sphinx_id" \
	"$(hash_files "$MBUS_TOP/ci/htmldocs-book.sh")" \
	"$(per_patch_id)" "$(posted "$rev" && echo posted)")
if [ "$mode" = inputs ]; then
	echo "$stage_key"
	exit 0
fi
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

stage_begin "htmldocs $rev"
per_patch_kept htmldocs "$stage_key" "$out"
rm -rf "$out" "$out.kept"
mkdir -p "$out"
base=$(base_commit)
tip=$(rev_tip "$rev")
mapfile -t commits < <(git -C "$MBUS_TREE" rev-list --reverse "$base..$tip")
[ "${#commits[@]}" -eq "$n" ] || die "htmldocs $rev: $n patches gave ${#commits[@]} commits"

# book_of COMMIT PATH: the book (SPHINXDIRS value) a document belongs to.
# Dies if git cannot tell whether an index.rst is there (git cat-file -e
# fails alike for a file that is not there and for a git that fails).
book_of() {
	local a b rest
	rest=${2#Documentation/}
	a=${rest%%/*} rest=${rest#*/}
	b=${rest%%/*}
	if [ "$b" != "$rest" ] && has_file "$1" "Documentation/$a/$b/index.rst"; then
		echo "$a/$b"
	elif has_file "$1" "Documentation/$a/index.rst"; then
		echo "$a"
	fi
}
# has_file COMMIT PATH: whether COMMIT has PATH; dies if git cannot tell.
has_file() {
	local there
	there=$(git --literal-pathspecs -C "$MBUS_TREE" ls-tree --name-only "$1" -- "$2") ||
		die "htmldocs $rev: git ls-tree of $1 failed in $MBUS_TREE"
	[ -n "$there" ]
}
# kdoc_index COMMIT: "SOURCE<TAB>DOCUMENT" for every kernel-doc directive
# under Documentation/ at COMMIT, kept by the tree id of Documentation/.
kdoc_index() {
	local c=$1 key tmp docs
	docs=$(git -C "$MBUS_TREE" rev-parse --verify -q "$c:Documentation") ||
		die "htmldocs $rev: no Documentation/ at $c"
	key=$(cache_key "$0" kdoc-index "$docs")
	if ! cache_has htmldocs-kdoc "$key"; then
		tmp=$(mktemp -d)
		git -C "$MBUS_TREE" grep -E 'kernel-doc:: +' "$c" -- Documentation |
			sed -nE "s|^$c:([^:]+):.*kernel-doc:: +(.*)\$|\2\t\1|p" >"$tmp/index" ||
			{ rm -rf "$tmp"; die "htmldocs $rev: git grep of the kernel-doc directives at $c failed"; }
		grep -q '^include/media/' "$tmp/index" ||
			{ rm -rf "$tmp"; die "htmldocs $rev: no kernel-doc directive of include/media/ found at $c"; }
		cache_put htmldocs-kdoc "$key" "$tmp" || { rm -rf "$tmp"; die "htmldocs $rev: the index could not be kept"; }
		rm -rf "$tmp"
	fi
	cat "$(cache_path htmldocs-kdoc "$key")/index"
}
# books COMMIT FILE...: the books the files touch at COMMIT.
books() {
	local c=$1 f index
	shift
	index=$(kdoc_index "$c") || exit 1
	for f in "$@"; do
		case $f in
		Documentation/*) book_of "$c" "$f" || exit 1 ;;
		*)
			awk -F '\t' -v f="$f" '$1 == f { print $2 }' <<<"$index" |
				while IFS= read -r d; do book_of "$c" "$d" || exit 1; done || exit 1
			;;
		esac
	done | sort -u
}
# warnings BOOK COMMIT: the path of the kept warnings of BOOK at COMMIT,
# built if not kept; "FAILED" in its file if the build failed.
warnings() {
	"$MBUS_TOP/ci/htmldocs-book.sh" "$1" "$2" || die "htmldocs $rev: ci/htmldocs-book.sh $1 $2 failed"
}

# A patch's verdict is made from the trees before and after it, and kept
# under them: after an edit, the patches before it are not looked at again
# (their verdicts are written again for the revision's inputs).
patch_id=$(cache_key "$0" "$sphinx_id" "$(hash_files "$MBUS_TOP/ci/htmldocs-book.sh")" "$(per_patch_id)")
for i in $(seq 1 "$n"); do
	c=${commits[$((i - 1))]}
	d="$out/$(printf %04d "$i")"
	mkdir -p "$d"
	key=$(cache_key "$0" "$stage_key" "$i" htmldocs)
	trees=$(git -C "$MBUS_TREE" rev-parse "$c~1^{tree}" "$c^{tree}") ||
		die "htmldocs $rev: no trees of patch $i ($c) in $MBUS_TREE"
	pkey=$(cache_key "$0" "$patch_id" "$trees")
	if cache_get htmldocs-patch "$pkey" "$d"; then
		read -r v _ r <"$d/htmldocs.verdict"
		verdict_write "$d/htmldocs.verdict" "$v" "$key" "$r"
		continue
	fi
	# (Not in process substitutions: a git diff or a books() that fails
	# must stop the stage, not leave the patch touching no book.)
	changed_files files "$c"
	b1=$(books "$c~1" "${files[@]}") || die "htmldocs $rev: the books of patch $i (before) could not be found"
	b2=$(books "$c" "${files[@]}") || die "htmldocs $rev: the books of patch $i could not be found"
	mapfile -t touched < <(printf '%s\n' "$b1" "$b2" | sed '/^$/d' | sort -u)
	: >"$d/htmldocs.new"
	bad=""
	for book in "${touched[@]}"; do
		before=$(warnings "$book" "$c~1")
		after=$(warnings "$book" "$c")
		if [ -f "$after/failed" ]; then
			bad+="$book: $(cat "$after/failed"); "
			continue
		fi
		comm -13 "$before/warnings" "$after/warnings" | sed "s|^|$book: |" >>"$d/htmldocs.new"
		cp "$after/build.log" "$d/htmldocs-${book//\//_}.log"
	done
	if [ "${#touched[@]}" -eq 0 ]; then
		verdict_write "$d/htmldocs.verdict" OK "$key" "N/A: touches no book"
	elif [ -n "$bad" ]; then
		verdict_write "$d/htmldocs.verdict" FAIL "$key" "${bad%; }"
	elif [ -s "$d/htmldocs.new" ]; then
		verdict_write "$d/htmldocs.verdict" FAIL "$key" "$(wc -l <"$d/htmldocs.new") new Sphinx warning(s): $(head -n 1 "$d/htmldocs.new")"
	else
		verdict_write "$d/htmldocs.verdict" OK "$key" "no new Sphinx warning in ${touched[*]}"
	fi
	cache_put htmldocs-patch "$pkey" "$d" || die "htmldocs $rev: patch $i's result could not be kept"
done
per_patch_finish htmldocs "$0" "$stage_key" "$out" "$rev" "Sphinx warning"
