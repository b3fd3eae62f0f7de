#!/bin/bash
# The review round trip, offline, on a fixture mbox of replies to the
# committed outgoing/v2: a Reviewed-by on patch 3 (with a comment), an
# Acked-by on the cover letter, a reply to another series and a trailer
# with a malformed address. make trailers collects them with b4 (the cover
# letter's for every patch) and lists the comment; make new-revision starts
# v3 from v2 with them, on a copy of the workspace's revisions (the real
# series-v3 is the series' own work); the check stage warns when a patch
# that carries them changes. Bad mboxes are refused, naming the cause, and
# nothing is written into series-*.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 16

sd="$T_TMP/series"   # where ws() points MBUS_SERIES_DIR
mkdir -p "$sd"
cp -r series-v1 series-v2 cover-letter outgoing "$sd/"
rm -rf "$sd/series-v3" "$sd/cover-letter/v3"
committed=$(git status --porcelain -- series-v1 series-v2 cover-letter outgoing | sha256sum)
post=outgoing/v2
mid() { sed -n 's/^Message-Id: //p' "$(compgen -G "$post/v2-$1-*.patch" | head -n 1)"; }
subj() { sed -n 's/^Subject: //p' "$(compgen -G "$post/v2-$1-*.patch" | head -n 1)"; }
cover=$(mid 0000) p3=$(mid 0003) p5=$(mid 0005)
reply() {   # FROM-NAME FROM-ADDR MSGID IN-REPLY-TO SUBJECT BODY [REFERENCES]
	printf 'From %s Fri Dec  4 10:00:00 2026\nFrom: %s <%s>\nTo: linux-media@vger.kernel.org\n' "$2" "$1" "$2"
	printf 'Subject: Re: %s\nDate: Fri, 4 Dec 2026 10:00:00 +0000\nMessage-ID: %s\n' "$5" "$3"
	printf 'In-Reply-To: %s\nReferences: %s\n\n%s\n\n' "$4" "${7:-$cover $4}" "$6"
}
{
	reply "Fixture Reviewer" reviewer@example.net "<r1@example.net>" "$p3" "$(subj 0003)" \
		"> vimc keeps its own table of media bus codes
Please say which codes vimc gains and which it loses.

Reviewed-by: Fixture Reviewer <reviewer@example.net>"
	reply "Fixture Maintainer" maintainer@example.net "<r2@example.net>" "$cover" "$(subj 0000)" \
		"Acked-by: Fixture Maintainer <maintainer@example.net>"
	reply "Fixture Other" other@example.net "<r3@example.net>" "<another-series@example.com>" "[PATCH] other" \
		"Reviewed-by: Fixture Other <other@example.net>" "<another-series@example.com>"
	reply "Fixture Sloppy" sloppy@example.net "<r4@example.net>" "$p5" "$(subj 0005)" \
		"Tested-by: sloppy at example.net"
} >"$T_TMP/replies.mbox"

out=$(ws make -s trailers REV=v2 MBOX="$T_TMP/replies.mbox" 2>&1)
rc=$?
tr="$T_TMP/results/v2/trailers"
expect_eq "make trailers reads the replies (exit 0)" 0 "$rc"
expect_eq "patch 3: its Reviewed-by and the cover letter's Acked-by, in b4's order" \
	"Reviewed-by: Fixture Reviewer <reviewer@example.net>|Acked-by: Fixture Maintainer <maintainer@example.net>" \
	"$(paste -sd'|' "$tr/0003.trailers" 2>/dev/null)"
expect_eq "the cover letter's Acked-by is given to each of the 8 patches" 8 \
	"$(cat "$tr"/0*.trailers 2>/dev/null | grep -c '^Acked-by: Fixture Maintainer <maintainer@example.net>$')"
expect_eq "the comment is listed with its patch, author and Message-ID" \
	"- [ ] patch 3: Fixture Reviewer <reviewer@example.net> <r1@example.net>: Please say which codes vimc gains and which it loses." \
	"$(cat "$tr/review.txt" 2>/dev/null)"
if grep -q 'r3@example.net.*not a reply to this revision' <<<"$out" && grep -q '^WARN ' "$tr/trailers.verdict" 2>/dev/null; then
	ok "the reply to another series is ignored with a warning naming it"
else
	notok "the reply to another series is ignored with a warning naming it" "$out"
fi
if grep -q 'r4@example.net.*malformed trailer "Tested-by: sloppy at example.net"' <<<"$out" &&
	! grep -q 'sloppy' "$tr"/0*.trailers; then
	ok "a trailer with a malformed address is named and not collected"
else
	notok "a trailer with a malformed address is named and not collected" "$out"
fi

printf 'this is not mail\n' >"$T_TMP/notmbox"
expect_fail "a file that is not an mbox is refused, naming it" "notmbox: not an mbox" \
	ws make -s trailers REV=v2 MBOX="$T_TMP/notmbox"
: >"$T_TMP/empty.mbox"
expect_fail "an empty mbox is refused, naming it" "empty.mbox: empty" \
	ws make -s trailers REV=v2 MBOX="$T_TMP/empty.mbox"
reply "Fixture Other" other@example.net "<r5@example.net>" "<another-series@example.com>" "[PATCH] other" \
	"Reviewed-by: Fixture Other <other@example.net>" "<another-series@example.com>" >"$T_TMP/other.mbox"
expect_fail "replies only to another series are refused" "other.mbox: no message in it replies to the postings" \
	ws make -s trailers REV=v2 MBOX="$T_TMP/other.mbox"
# The failed runs kept the first run's results.
ws make -s trailers REV=v2 MBOX="$T_TMP/replies.mbox" >/dev/null 2>&1

out=$(ws make -s new-revision FROM=v2 2>&1)
p3v3=$(compgen -G "$sd/series-v3/v3-0003-*.patch" | head -n 1)
expect_eq "new-revision: series-v3 has v2's 8 patches, numbered [PATCH v3 m/8]" "8 8" \
	"$(compgen -G "$sd/series-v3/v3-0*.patch" | wc -l) $(grep -l '^Subject: \[PATCH v3 [1-8]/8\] media: ' "$sd"/series-v3/*.patch 2>/dev/null | wc -l)"
expect_eq "new-revision: patch 3 carries its trailers after the author's Signed-off-by" \
	"Signed-off-by: mbus-workspace <mbus-workspace@example.org>|Reviewed-by: Fixture Reviewer <reviewer@example.net>|Acked-by: Fixture Maintainer <maintainer@example.net>" \
	"$(sed '/^---$/q' "$p3v3" 2>/dev/null | grep -E '^[A-Z][a-z-]+-by: ' | paste -sd'|')"
if grep -q '^Changes in v3$' "$sd/cover-letter/v3" 2>/dev/null && grep -q '^EDITME' "$sd/cover-letter/v3" &&
	grep -qF -- '- [ ] patch 3: Fixture Reviewer' "$sd/cover-letter/v3"; then
	ok "new-revision: cover-letter/v3 has a Changes in v3 skeleton with the review item, marked EDITME"
else
	notok "new-revision: cover-letter/v3 has a Changes in v3 skeleton with the review item, marked EDITME" "$out"
fi
before=$(cat "$sd"/series-v3/*.patch "$sd/cover-letter/v3" | sha256sum)
expect_fail "new-revision refuses to overwrite an existing revision" "series-v3 exists: refusing to overwrite" \
	ws make -s new-revision FROM=v2
expect_eq "the refused run left series-v3 and cover-letter/v3 as they were" "$before" \
	"$(cat "$sd"/series-v3/*.patch "$sd/cover-letter/v3" | sha256sum)"

# The check stage's meta check: a carried trailer on a patch whose diff
# changed since v2 is named.
mkdir -p "$T_TMP/meta"
ws env MBUS_INPUTS=0123456789abcdef ci/meta.sh v3 3 8 "$p3v3" "$T_TMP/meta" >/dev/null 2>&1
same=$(cut -d' ' -f1 "$T_TMP/meta/meta.verdict" 2>/dev/null)
sed -i '0,/^+[^+]/s/^+\([^+].*\)$/+\1 \/* changed *\//' "$p3v3"
ws env MBUS_INPUTS=0123456789abcdef ci/meta.sh v3 3 8 "$p3v3" "$T_TMP/meta" >/dev/null 2>&1
got=$(cat "$T_TMP/meta/meta.verdict" 2>/dev/null)
if [ "$same" = OK ] && grep -q '^WARN .*diff changed since v2.*may no longer hold: Reviewed-by: Fixture Reviewer <reviewer@example.net>; Acked-by: Fixture Maintainer' <<<"$got"; then
	ok "check: a changed patch's carried trailers are named (the unchanged one is OK)"
else
	notok "check: a changed patch's carried trailers are named (the unchanged one is OK)" "unchanged: $same; changed: $got"
fi

expect_eq "the committed revisions, cover letters and postings are untouched" "$committed" \
	"$(git status --porcelain -- series-v1 series-v2 cover-letter outgoing | sha256sum)"
t_done
