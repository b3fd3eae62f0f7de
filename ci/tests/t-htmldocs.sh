#!/bin/bash
# htmldocs can fail a patch: a fixture revision whose patch adds a
# reference to a label that does not exist fails the htmldocs stage with
# Sphinx's warning named (new against the book before the patch), and the
# stage exits non-zero; a reference to another book's label (which a book
# built alone cannot resolve) passes; a patch that touches no book is n/a;
# a patch to a header that a document includes with kernel-doc touches that
# document's book. The books are built in the side tree: the base tree's
# checkout and the modification time of its files do not move. A kernel-doc
# index that cannot be read stops the stage; it never leaves a patch
# touching no book, and neither does a git diff or a git ls-tree (is a
# book's index.rst there?) that fails.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 14

base=$(git -C "$T_TREE" rev-parse mbus-base)
doc=Documentation/driver-api/media/v4l2-common.rst
label="mbus-fixture-${T_NONCE//[.-]/}"
c1=$(fixture_commit "$base" "media: docs: fixture: broken reference ($T_NONCE)" -- \
	"$doc" "\$a\\
\\
See :ref:\`$label\`.")
# A reference to a label of another book (subdev-formats.rst) is right,
# though a book built alone cannot resolve it.
c15=$(fixture_commit "$c1" "media: docs: fixture: reference to another book ($T_NONCE)" -- \
	"$doc" "\$a\\
\\
See also :ref:\`v4l2-mbus-format\` ($T_NONCE).")
c2=$(fixture_commit "$c15" "media: vimc: fixture: no book ($T_NONCE)" -- \
	drivers/media/test-drivers/vimc/vimc-core.c '1a\
/* fixture */')
hdr=include/media/v4l2-mediabus.h
c3=$(fixture_commit "$c2" "media: v4l2-mediabus: fixture: a header with kernel-doc ($T_NONCE)" -- \
	"$hdr" '$a\
/* fixture */')

# fault NAME TIP GITCMD REGEX: the stage on the fixture revision base..TIP,
# git GITCMD failing, stops, its output matching REGEX; and no patch is
# left touching no book.
fault() {
	local out rc
	out=$(fixture_stage "$base" "$2" env PATH="$(git_fails "$3")" ci/htmldocs.sh)
	rc=$?
	expect_match "$1" "^rc=[1-9][0-9]* .*$4" "rc=$rc $(tr '\n' ' ' <<<"${out:-}")"
	expect_no_match "... and no patch is left touching no book (git $3 failing, ${2:0:12})" \
		"N/A: touches no book" "${out:-}"
}
books_lost="the books of patch 1( \\(before\\))? could not be found"
# The faults first (this run's Documentation/ is new: its index is not
# kept): git grep, git ls-tree (is a book's index.rst there?) and git
# diff failing.
fault "a git grep that fails stops the stage, naming the patch" "$c3" grep \
	"htmldocs v1: $books_lost"
fault "a git ls-tree that fails stops the stage, naming the patch" "$c3" ls-tree \
	"htmldocs v1: git ls-tree of [0-9a-f]{40}(~1)? failed.*$books_lost"
# ... also when the document is found through a header's kernel-doc and
# the patch's next file is in no book (its lookup would pass).
c5=$(fixture_commit "$base" "media: v4l2-mediabus: fixture: a header and a file of no book ($T_NONCE)" -- \
	"$hdr" '$a\
/* fixture */' init/Makefile '$a\
# fixture')
fault "a git ls-tree that fails for a header's document stops the stage" "$c5" ls-tree \
	"htmldocs v1: git ls-tree of [0-9a-f]{40}(~1)? failed.*$books_lost"
fault "a git diff that fails stops the stage, naming the patch" "$c3" diff \
	"htmldocs.sh: git diff of [0-9a-f]{40} failed"

head_before=$(git -C "$T_TREE" rev-parse HEAD)
mtime_before=$(stat -c %Y "$T_TREE/$doc")
out=$(fixture_stage "$base" "$c3" ci/htmldocs.sh)
rc=$?
expect_match "a reference to no label fails the patch's htmldocs, naming the warning" \
	"v1 +1/4 .* htmldocs +FAIL 1 new Sphinx warning\\(s\\): driver-api/media: $doc: WARNING: undefined label: .?$label" \
	"rc=$rc ${out:-}"
expect_match "a reference to another book's label passes" "v1 +2/4 .* htmldocs +OK +no new Sphinx warning in driver-api/media" "${out:-}"
expect_match "a patch that touches no book is n/a" "v1 +3/4 .* htmldocs +OK +N/A: touches no book" "${out:-}"
expect_match "a header that a document includes with kernel-doc touches its book" \
	"v1 +4/4 .* htmldocs +OK +no new Sphinx warning in driver-api/media" "${out:-}"
expect_eq "... and the stage exits non-zero" 1 "$rc"
expect_eq "the base tree's HEAD and $doc's modification time did not move" \
	"$head_before $mtime_before" "$(git -C "$T_TREE" rev-parse HEAD) $(stat -c %Y "$T_TREE/$doc")"
t_done
