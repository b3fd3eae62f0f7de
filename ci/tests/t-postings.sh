#!/bin/bash
# The postings: outgoing/ is what rendering gives now (byte for byte),
# MAINTAINERS-notes is what its generator gives and names every recipient,
# a maintainer's b4 round trip gives the checked tree, git send-email
# accepts the mails (dry run), the gate refuses what has not passed, and a
# person's identity replaces the project's. Runs after the revisions were
# checked and booted (ci/test.sh). Never sends.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1

# The revisions REV selects (all, without it), as every target takes them.
revs=$(for d in series-v*/; do d=${d%/}; compgen -G "$d/*.patch" >/dev/null && echo "${d#series-}"; done |
	sort -V | { if [ -n "${REV:-}" ]; then grep -x "$REV"; else cat; fi; })
newest=$(echo "$revs" | tail -n 1)
# 7 a revision, 2 more for a newest revision after v1, the identity and
# its Message-IDs, the round trips' b4 diff, the notes, and the gate's 2.
t_plan $((7 * $(echo "$revs" | wc -w) + $([ "${newest#v}" -gt 1 ] && echo 2 || echo 0) + 6))
change_id=$(bash -c '. ci/lib.sh && echo "$MBUS_CHANGE_ID"')
# msgids DIR: the Message-IDs of the mails in DIR, one a line.
msgids() {
	awk 'FNR == 1 { h = 1 } /^$/ { h = 0 } h && sub(/^Message-I[Dd]: */, "")' "$1"/*.patch
}
for rev in $revs; do
	if [ ! -d "outgoing/$rev" ]; then
		notok "$rev: outgoing/$rev is committed" "no outgoing/$rev"
		continue
	fi
	if ci/render.sh "$rev" "$T_TMP/out/$rev" >"$T_TMP/render-$rev.log" 2>&1; then
		if d=$(diff -r "outgoing/$rev" "$T_TMP/out/$rev" 2>&1); then
			ok "$rev: rendering again gives outgoing/$rev byte for byte"
		else
			notok "$rev: rendering again gives outgoing/$rev byte for byte" "$(echo "$d" | head -n 3 | tr '\n' ' ')"
		fi
	else
		notok "$rev: rendering again gives outgoing/$rev byte for byte" "$(tail -n 1 "$T_TMP/render-$rev.log")"
	fi
	if grep -q 'EDITME\|\*\*\* SUBJECT HERE\|\*\*\* BLURB HERE' "outgoing/$rev"/*.patch; then
		notok "$rev: no placeholder text in the postings" "$(grep -l 'EDITME\|\*\*\* SUBJECT HERE\|\*\*\* BLURB HERE' "outgoing/$rev"/*.patch | head -n 1)"
	else
		ok "$rev: no placeholder text in the postings"
	fi
	# b4 can link the revisions: one change-id in every cover letter, and
	# Message-IDs unique to the series and the revision.
	if grep -qx "change-id: $change_id" "outgoing/$rev"/*0000-cover-letter.patch; then
		ok "$rev: the cover letter carries the series' change-id"
	else
		notok "$rev: the cover letter carries the series' change-id" "no 'change-id: $change_id'"
	fi
	bad=$(msgids "outgoing/$rev" | grep -vxE "<$change_id-$rev-[0-9]+-[0-9a-z]+@example\.org>" || true)
	if [ -z "$bad" ] && [ "$(msgids "outgoing/$rev" | sort -u | wc -l)" -eq "$(ls "outgoing/$rev"/*.patch | wc -l)" ]; then
		ok "$rev: every Message-ID is distinct, of the series and the revision, at the sender's domain"
	else
		notok "$rev: every Message-ID is distinct, of the series and the revision, at the sender's domain" "${bad:-duplicates}"
	fi
	# Every recipient of every mail is in MAINTAINERS-notes, for that patch.
	missing=""
	for m in "outgoing/$rev"/*.patch; do
		for a in $(sed -n '/^$/q; /^\(To\|Cc\): /{s/^[A-Za-z]*: //;p}' "$m" | tr ',' '\n' | sed 's/.*<\(.*\)>.*/\1/; s/^ *//'); do
			grep -qF "$a" MAINTAINERS-notes || missing="$missing $a(${m##*/})"
		done
	done
	if [ -z "$missing" ]; then
		ok "$rev: every To/Cc of outgoing/$rev is in MAINTAINERS-notes"
	else
		notok "$rev: every To/Cc of outgoing/$rev is in MAINTAINERS-notes" "$missing"
	fi
	if ci/roundtrip.sh "$rev" >"$T_TMP/rt-$rev.log" 2>&1; then
		ok "$rev: b4 am -m + git am of the postings give the checked tree"
	else
		notok "$rev: b4 am -m + git am of the postings give the checked tree" "$(grep -E 'FAIL|error' "$T_TMP/rt-$rev.log" | head -n 2 | tr '\n' ' ')"
	fi
	if SEND='' ci/send.sh "$rev" >"$T_TMP/send-$rev.log" 2>&1 && grep -q 'Not sent' "$T_TMP/send-$rev.log"; then
		ok "$rev: git send-email --dry-run accepts the postings, nothing sent"
	else
		notok "$rev: git send-email --dry-run accepts the postings, nothing sent" "$(tail -n 2 "$T_TMP/send-$rev.log" | tr '\n' ' ')"
	fi
done

if [ -n "$newest" ]; then
	n=${newest#v}
	if [ "$n" -gt 1 ]; then
		if [ -s "outgoing/b4-diff-v$((n - 1))-v$n.txt" ]; then
			ok "b4 diff -m between v$((n - 1)) and v$n is kept beside the postings"
		else
			notok "b4 diff -m between v$((n - 1)) and v$n is kept beside the postings" "outgoing/b4-diff-v$((n - 1))-v$n.txt missing or empty"
		fi
		if grep -q "^Range-diff against v$((n - 1)):" "outgoing/$newest"/*0000-cover-letter.patch; then
			ok "$newest: the cover letter carries the range-diff against v$((n - 1))"
		else
			notok "$newest: the cover letter carries the range-diff against v$((n - 1))" "no Range-diff"
		fi
	fi
	# A person's identity replaces the project's, in From and Signed-off-by.
	if MBUS_FROM="Example Sender <sender@example.com>" ci/render.sh "$newest" "$T_TMP/mine" >"$T_TMP/mine.log" 2>&1 &&
		grep -q '^From: Example Sender <sender@example.com>' "$T_TMP/mine"/*0001-*.patch &&
		grep -q '^Signed-off-by: Example Sender <sender@example.com>' "$T_TMP/mine"/*0001-*.patch &&
		! grep -q 'mbus-workspace@example.org' "$T_TMP/mine"/*.patch; then
		ok "MBUS_FROM replaces the project identity in From and Signed-off-by"
	else
		notok "MBUS_FROM replaces the project identity in From and Signed-off-by" "$(tail -n 1 "$T_TMP/mine.log")"
	fi
	if [ -d "$T_TMP/mine" ] && ! msgids "$T_TMP/mine" | grep -qv '@example\.com>$'; then
		ok "the Message-IDs take the domain of the sender's address"
	else
		notok "the Message-IDs take the domain of the sender's address" "$(msgids "$T_TMP/mine" 2>&1 | head -n 1)"
	fi
fi

# The round trips rewrote outgoing/b4-diff-*: to the same bytes.
if d=$(git -C "$T_TOP" status --porcelain -- outgoing) && [ -z "$d" ]; then
	ok "the round trips leave outgoing/ as committed (b4 diff is stable)"
else
	notok "the round trips leave outgoing/ as committed (b4 diff is stable)" "$d"
fi

# MAINTAINERS-notes is what the generator gives now.
if ci/maintainers.sh "$T_TMP/MAINTAINERS-notes" >/dev/null 2>&1 && diff -q MAINTAINERS-notes "$T_TMP/MAINTAINERS-notes" >/dev/null; then
	ok "MAINTAINERS-notes is in sync with its generator"
else
	notok "MAINTAINERS-notes is in sync with its generator" "run make maintainers"
fi

# The gate: a revision whose checks have not run is refused, by name.
base=$(git -C "$T_TREE" rev-parse mbus-base)
c1=$(fixture_commit "$base" "media: vimc: fixture: not checked" -- \
	drivers/media/test-drivers/vimc/vimc-core.c '/^#define VIMC_MDEV_MODEL_NAME/i\/* Not checked. */')
fixture_series "$T_TMP/series" v1 "$base" "$c1"
mkdir -p "$T_TMP/cl"
expect_fail "the gate refuses a revision whose checks have not run" \
	"not rendered, because .*check has not run;boot has not run" \
	env MBUS_SERIES_DIR="$T_TMP/series" MBUS_RESULTS="$T_TMP/results" MBUS_BRANCH_PREFIX=test/ \
	ci/render.sh v1 "$T_TMP/gated"
[ ! -e "$T_TMP/gated" ] && ok "the gate leaves no posting behind" || notok "the gate leaves no posting behind" "$T_TMP/gated exists"
t_done
