#!/bin/bash
# Stage "htmldocs": `make htmldocs SPHINXDIRS=BOOK` with Debian's Sphinx for
# the books a patch touches, before and after the patch. A book is touched
# by a patch that changes a file under it (Documentation/A/B/ if it has an
# index.rst, else Documentation/A/), or a source file one of its documents
# includes with a kernel-doc directive. A patch fails if the build fails or
# prints a Sphinx or kernel-doc warning (file and message, without line
# numbers) that the book did not print before the patch.
#
# Every build starts from an empty output directory (Sphinx reports only
# the documents it reads again), and its warnings are kept per book and
# commit: the state after patch i is the state before patch i+1. The files
# the documentation build writes into the source tree (the netlink specs'
# generated pages, ignored by git) are removed after each build.
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
sphinx_id=$(sphinx-build --version 2>&1 | head -n 1
	python3 -c 'import docutils; print("docutils", docutils.__version__)' 2>&1
	echo "${SPHINXOPTS:-} ${DOCS_THEME:-} ${KERNELDOC:-}")
stage_key=$(cache_key "$0" "$(input_hash "$rev")" "$sphinx_id" \
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
book_of() {
	local a b rest
	rest=${2#Documentation/}
	a=${rest%%/*} rest=${rest#*/}
	b=${rest%%/*}
	if [ "$b" != "$rest" ] && git -C "$MBUS_TREE" cat-file -e "$1:Documentation/$a/$b/index.rst" 2>/dev/null; then
		echo "$a/$b"
	elif git -C "$MBUS_TREE" cat-file -e "$1:Documentation/$a/index.rst" 2>/dev/null; then
		echo "$a"
	fi
}
# books COMMIT FILE...: the books the files touch at COMMIT.
books() {
	local c=$1 f
	shift
	for f in "$@"; do
		case $f in
		Documentation/*) book_of "$c" "$f" ;;
		*)
			git -C "$MBUS_TREE" grep -lE "kernel-doc:: +$f\$" "$c" -- Documentation |
				sed "s|^$c:||" | while IFS= read -r d; do book_of "$c" "$d"; done || true
			;;
		esac
	done | sort -u
}
# warnings BOOK COMMIT: the path of the kept warnings of BOOK at COMMIT,
# built if not kept; "FAILED" in its file if the build failed.
warnings() {
	local book=$1 commit key tmp log rc=0
	commit=$(git -C "$MBUS_TREE" rev-parse --verify "$2^{commit}")
	key=$(cache_key "$0" "$sphinx_id" "$book" "$commit")
	if ! cache_has htmldocs-book "$key"; then
		info "  htmldocs $rev: SPHINXDIRS=$book at $(git -C "$MBUS_TREE" rev-parse --short=12 "$commit")" >&2
		tmp=$(mktemp -d "$MBUS_CACHE/htmldocs-work.XXXXXX")
		log="$tmp/log"
		tree_checkout "$commit"
		make -C "$MBUS_TREE" O="$tmp/obj" SPHINXDIRS="$book" htmldocs >"$log" 2>&1 || rc=$?
		git -C "$MBUS_TREE" clean -fdqX -- Documentation/networking/netlink_spec
		mkdir -p "$tmp/kept"
		# Without line numbers, wherever they are ("FILE:LINE: FILE:LINE:
		# WARNING: ... also defined at DOC:LINE.").
		# A book built alone cannot resolve a reference to another book:
		# an undefined label that a document of the tree defines (at this
		# commit) is left out; one defined nowhere stays.
		git -C "$MBUS_TREE" grep -hoE '^\.\. _[^:]+:' "$commit" -- Documentation |
			sed -E 's/^\.\. _(.*):$/\1/' | tr 'A-Z' 'a-z' | sort -u >"$tmp/labels"
		sed -E -e "s|$MBUS_TREE/||g" -e "s|$tmp/obj/||g" "$log" |
			{ grep -E '(WARNING|ERROR|CRITICAL|SEVERE|warning|error):' || true; } |
			sed -E -e 's/([^ :]):[0-9]+(:[0-9]+)?/\1/g' -e 's/^(\.\/)?//' |
			awk -v labels="$tmp/labels" '
				BEGIN { while ((getline l < labels) > 0) known[l] = 1 }
				match($0, /undefined label: .[^ ]+.$/) {
					l = tolower(substr($0, RSTART + 18, RLENGTH - 19))
					if (l in known) next
				}
				{ print }' | sort >"$tmp/kept/warnings"
		cp "$log" "$tmp/kept/build.log"
		[ "$rc" -eq 0 ] || echo "FAILED: make htmldocs exited $rc: $(grep -m1 -iE 'error' "$log" || tail -n 1 "$log")" >"$tmp/kept/failed"
		cache_put htmldocs-book "$key" "$tmp/kept"
		rm -rf "$tmp"
	fi
	cache_path htmldocs-book "$key"
}

for i in $(seq 1 "$n"); do
	c=${commits[$((i - 1))]}
	d="$out/$(printf %04d "$i")"
	mkdir -p "$d"
	key=$(cache_key "$0" "$stage_key" "$i" htmldocs)
	mapfile -t files < <(git -C "$MBUS_TREE" diff --name-only "$c~1" "$c")
	mapfile -t touched < <({ books "$c~1" "${files[@]}"; books "$c" "${files[@]}"; } | sort -u)
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
done
per_patch_finish htmldocs "$0" "$stage_key" "$out" "$rev" "Sphinx warning"
