#!/bin/bash
# htmldocs can fail a patch: a fixture revision whose patch adds a
# reference to a label that does not exist fails the htmldocs stage with
# Sphinx's warning named (new against the book before the patch), and the
# stage exits non-zero; a reference to another book's label (which a book
# built alone cannot resolve) passes; a patch that touches no book is n/a.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 4

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
out=$(fixture_stage "$base" "$c2" ci/htmldocs.sh)
rc=$?
expect_match "a reference to no label fails the patch's htmldocs, naming the warning" \
	"v1 +1/3 .* htmldocs +FAIL 1 new Sphinx warning\\(s\\): driver-api/media: $doc: WARNING: undefined label: .?$label" \
	"rc=$rc ${out:-}"
expect_match "a reference to another book's label passes" "v1 +2/3 .* htmldocs +OK +no new Sphinx warning in driver-api/media" "${out:-}"
expect_match "a patch that touches no book is n/a" "v1 +3/3 .* htmldocs +OK +N/A: touches no book" "${out:-}"
expect_eq "... and the stage exits non-zero" 1 "$rc"
t_done
