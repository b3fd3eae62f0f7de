#!/bin/bash
# The replacement of checkpatch's UNKNOWN_COMMIT_ID can fail: a Fixes: tag
# or a cited commit whose id is not in ci/upstream-commits, or whose
# subject is not the one listed, fails the checkpatch check, named; the
# same patch as committed passes (v3's first patch, with its Fixes: tag).
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 4

p=$(compgen -G "$T_TOP/series-v3/v3-0001-*.patch" | head -n 1)
[ -n "$p" ] || { notok "checkpatch's cited commits" "no series-v3/v3-0001-*.patch"; exit 0; }
grep -q '^Fixes: c2aad4113187 ("' "$p" || { notok "checkpatch's cited commits" "$p has no Fixes: c2aad4113187"; exit 0; }
cp_verdict() {   # PATCH NAME: the checkpatch verdict of PATCH
	mkdir -p "$T_TMP/$2"
	MBUS_INPUTS=0123456789abcdef ci/checkpatch.sh "$1" "$T_TMP/$2" >/dev/null 2>&1
	cut -d' ' -f1,3- "$T_TMP/$2/checkpatch.verdict" 2>/dev/null || echo "no verdict"
}
expect_match "the Fixes: tag of v3's first patch is verified" \
	'^OK .*1 cited commit\(s\) verified' "$(cp_verdict "$p" good)"
sed 's/^Fixes: c2aad4113187 ("media: sun6i-csi: Rework/Fixes: c2aad4113187 ("media: sun6i-csi: Redo/' "$p" >"$T_TMP/subject.patch"
expect_match "a Fixes: tag with another subject fails, named" \
	'^FAIL cites commits not in ci/upstream-commits: c2aad4113187 \("media: sun6i-csi: Redo' \
	"$(cp_verdict "$T_TMP/subject.patch" subject)"
sed 's/^Fixes: c2aad4113187 /Fixes: 0123456789ab /' "$p" >"$T_TMP/id.patch"
expect_match "a Fixes: tag with an unknown id fails, named" \
	'^FAIL cites commits not in ci/upstream-commits: 0123456789ab' "$(cp_verdict "$T_TMP/id.patch" id)"
sed 's/^Fixes: c2aad4113187 .*/Fixes: a commit of sun6i-csi/' "$p" |
	sed '0,/^This also changes\|^sun6i-csi offers/s//As commit 9a74251d8bee ("V4L\/DVB (13658): v4l: add a media-bus API") says, &/' >"$T_TMP/cited.patch"
expect_match "a cited commit with a shortened subject fails, named" \
	'FAIL .*9a74251d8bee \("V4L/DVB \(13658\): v4l: add a media-bus API"\)' "$(cp_verdict "$T_TMP/cited.patch" cited)"
t_done
