#!/bin/bash
# One book of the documentation at one commit, for the htmldocs stage
# (ci/htmldocs.sh): `make htmldocs SPHINXDIRS=BOOK` with Debian's Sphinx,
# from an empty output directory (Sphinx reports only the documents it
# reads again), in the side tree (ci/side-tree.sh), so that the base
# tree's checkout, and with it the modification times the builds go by,
# stays where the builds left it.
#
# Keeps, by its own content, Sphinx's and the book and commit: warnings
# (file and message, without line numbers), build.log, and failed if the
# build failed. The files the documentation build writes into the source
# tree (the netlink specs' generated pages, ignored by git) are removed
# after the build. Prints the kept directory.
#
# usage: htmldocs-book.sh BOOK COMMIT
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

book=${1:?usage: htmldocs-book.sh BOOK COMMIT}
commit=$(git -C "$MBUS_TREE" rev-parse -q --verify "${2:?usage: htmldocs-book.sh BOOK COMMIT}^{commit}") ||
	die "htmldocs-book: no commit $2 in $MBUS_TREE"
command -v sphinx-build >/dev/null || die "htmldocs-book: sphinx-build missing (make deps: python3-sphinx)"
sphinx_id=$(sphinx-build --version 2>&1 | head -n 1
	python3 -c 'import docutils; print("docutils", docutils.__version__)' 2>&1
	echo "${SPHINXOPTS:-} ${DOCS_THEME:-} ${KERNELDOC:-}")
key=$(cache_key "$0" "$sphinx_id" "$book" "$commit")
if cache_has htmldocs-book "$key"; then
	cache_path htmldocs-book "$key"
	exit 0
fi
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"

info "  htmldocs: SPHINXDIRS=$book at $(git -C "$MBUS_TREE" rev-parse --short=12 "$commit")" >&2
stree=$("$MBUS_TOP/ci/side-tree.sh" "$commit") || die "htmldocs-book: no side tree"
tmp=$(mktemp -d "$MBUS_CACHE/htmldocs-work.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log="$tmp/log"
rc=0
make -C "$stree" O="$tmp/obj" SPHINXDIRS="$book" htmldocs >"$log" 2>&1 || rc=$?
git -C "$stree" clean -fdqX -- Documentation/networking/netlink_spec
mkdir -p "$tmp/kept"
# Without line numbers, wherever they are ("FILE:LINE: FILE:LINE:
# WARNING: ... also defined at DOC:LINE.").
# A book built alone cannot resolve a reference to another book: an
# undefined label that a document of the tree defines (at this commit) is
# left out; one defined nowhere stays.
git -C "$MBUS_TREE" grep -hoE '^\.\. _[^:]+:' "$commit" -- Documentation |
	sed -E 's/^\.\. _(.*):$/\1/' | tr 'A-Z' 'a-z' | sort -u >"$tmp/labels"
sed -E -e "s|$stree/||g" -e "s|$tmp/obj/||g" "$log" |
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
cache_path htmldocs-book "$key"
