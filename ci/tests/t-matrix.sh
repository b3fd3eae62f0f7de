#!/bin/bash
# The matrix of per-patch verdicts: ci/matrix.sh over the real results
# passes, and its HTML page, shown by a browser without a server (Debian's
# chromium, headless), has exactly one cell for every check of every patch
# of every revision, each with the verdict its verdict file holds (read
# here from the files themselves, not through the matrix's code), and a
# screenshot of it is a real image. On results where one verdict fails
# and one is missing, the matrix fails and shows them so, also when the
# same results passed and were kept just before.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
t_plan 7

out=$(ci/matrix.sh 2>&1)
expect_match "ci/matrix.sh passes on the revisions' results" '^<== matrix +OK ' "$out"
results=${MBUS_RESULTS:-$MBUS_CACHE/results}
html="$results/matrix.html"

# What each cell must show: the first word of each verdict file, "n/a" for
# an OK whose reason is N/A.
want="$T_TMP/want"
for dir in "$T_TOP"/series-v*/; do
	rev=${dir%/}
	rev=${rev##*/series-}
	n=$(find "$dir" -name '*.patch' | wc -l)
	[ "$n" -gt 0 ] || continue
	for i in $(seq 1 "$n"); do
		nnnn=$(printf %04d "$i")
		for f in "$results/$rev/$nnnn"/{checkpatch,meta,build,kernel-doc}.verdict \
			"$results/$rev"/{cocci,htmldocs}/"$nnnn"/*.verdict "$results/$rev/builds/$nnnn"/*.verdict; do
			read -r v _ r <"$f" || v=unreadable
			[ "$v" != OK ] || [[ $r != N/A:* ]] || v=n/a
			[ "$v" != WARN ] || [[ $r != XFAIL* ]] || v=xfail
			[ "$v" != OK ] || v=ok
			c=${f##*/}
			echo "$rev $nnnn ${c%.verdict} $v"
		done
	done
done | sort >"$want"
nwant=$(wc -l <"$want")
expect_match "the verdict files: 16 per patch (4 checks, cocci, htmldocs, 10 builds)" \
	"^$(($(find "$T_TOP"/series-v* -name "*.patch" | wc -l) * 16))\$" "$nwant"

dom="$T_TMP/dom.html"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
	--dump-dom "file://$html" >"$dom" 2>"$T_TMP/chromium.err"
# The cells as the browser parsed them: "rev patch check text".
python3 - "$dom" >"$T_TMP/got" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    rev = None; cell = None; text = ""
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.rev = a.get("data-rev")
        elif tag == "td" and "data-check" in a:
            self.cell = (self.rev, a["data-patch"], a["data-check"]); self.text = ""
    def handle_data(self, d):
        if self.cell: self.text += d
    def handle_endtag(self, tag):
        if tag == "td" and self.cell:
            print(*self.cell, self.text.strip()); self.cell = None
p = P(); p.feed(open(sys.argv[1]).read())
PY
sort -o "$T_TMP/got" "$T_TMP/got"
if [ "$nwant" -gt 0 ] && cmp -s "$want" "$T_TMP/got"; then
	ok "chromium shows every check of every patch with its verdict ($nwant cells)"
else
	notok "chromium shows every check of every patch with its verdict" \
		"$(diff "$want" "$T_TMP/got" | head -n 4 | tr '\n' ' ') $(head -c 200 "$T_TMP/chromium.err")"
fi
png="$T_TMP/matrix.png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
	--window-size=1600,1200 --screenshot="$png" "file://$html" >/dev/null 2>&1
dims=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]) if d[:8] == b"\x89PNG\r\n\x1a\n" else "not a PNG")' "$png" 2>&1)
expect_eq "a screenshot of the page is a 1600x1200 PNG" 1600x1200 "$dims"
mkdir -p "$T_RESULTS" && cp "$png" "$T_RESULTS/matrix.png" 2>/dev/null || true

# A failing and a missing verdict: the matrix fails and shows both, though
# the same results, unchanged, passed and were kept a moment before.
cp -a "$results" "$T_TMP/results"
v3=$T_TMP/results/v3
first=$(MBUS_RESULTS="$T_TMP/results" ci/matrix.sh 2>&1 | grep -v '^[<=]== ')
out=$(MBUS_RESULTS="$T_TMP/results" ci/matrix.sh 2>&1)
rc=$?
expect_match "a second run on the same results passes and is kept" \
	"rc=0 .*<== matrix +OK .*kept: " "rc=$rc $(tr '\n' ' ' <<<"$out")"
again=$(grep -v '^[<=]== ' <<<"$out")
if [ "$(grep -c '^  0001 ' <<<"$first")" -ge 3 ] && [ "$first" = "$again" ]; then
	ok "the kept run prints the same matrix, every row ($(grep -c . <<<"$again") lines)"
else
	notok "the kept run prints the same matrix, every row" "$(diff <(echo "$first") <(echo "$again") | head -n 4 | tr '\n' ' ')"
fi
read -r _ k r <"$v3/builds/0003/i386.verdict"
echo "FAIL $k fixture: made to fail" >"$v3/builds/0003/i386.verdict"
rm -f "$v3/cocci/0002/cocci.verdict"
out=$(MBUS_RESULTS="$T_TMP/results" ci/matrix.sh 2>&1)
rc=$?
expect_match "one failing and one missing verdict fail the matrix, both named" \
	"rc=1 .*v3 0002 cocci: MISSING .*v3 0003 i386: FAIL fixture" "rc=$rc $(tr '\n' ' ' <<<"$out")"
t_done
