#!/bin/bash
# The benchmark's one-line change (ci/onechange.sh, rows c and d of
# ci/bench.sh) can be made in the first and the last patch of every
# revision: one line changed in each, the revision still applies to the
# base, and checkpatch still passes the changed patches (otherwise the rows
# would time a failing run). It never takes a line another patch has as
# context or removes, nor one inside a block comment, and a patch with no
# C line to change fails, named. The per-patch time of rows c and d
# (ci/stage-span.sh) is the wall span of stages that overlap, not their sum.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || exit 1
mapfile -t revs < <(compgen -G "$T_TOP/series-v*" | sed 's,.*/series-,,' | sort -V)
t_plan $((5 * ${#revs[@]} + 8))

cp_verdict() {   # PATCH NAME: the checkpatch verdict of PATCH
	mkdir -p "$T_TMP/cp-$2"
	MBUS_INPUTS=0123456789abcdef ci/checkpatch.sh "$1" "$T_TMP/cp-$2" >/dev/null 2>&1
	cut -d' ' -f1,3- "$T_TMP/cp-$2/checkpatch.verdict" 2>/dev/null || echo "no verdict"
}
for rev in "${revs[@]}"; do
	dir="$T_TMP/series/series-$rev"
	mkdir -p "$dir"
	cp "$T_TOP/series-$rev"/*.patch "$dir/"
	mapfile -t ends < <(compgen -G "$dir/*.patch" | sort | sed -n '1p;$p')
	for which in first last; do
		p=${ends[0]}
		[ "$which" = first ] || p=${ends[1]}
		ci/onechange.sh "$p" >/dev/null 2>&1 || true
		# One line, an added one, that line with the comment appended.
		d=$(diff "$T_TOP/series-$rev/$(basename "$p")" "$p" | grep -E '^[<>]')
		old=$(sed -n 's/^< //p' <<<"$d") new=$(sed -n 's/^> //p' <<<"$d")
		expect_eq "$rev's $which patch: one added line given the comment" \
			"2 lines: +$(sed 's/^+//' <<<"$old") /* bench */" \
			"$(grep -c . <<<"$d") lines: ${new:-none}"
	done
	expect_match "$rev applies to the base after both changes" '^<== apply .* OK' \
		"$(ws ci/apply.sh "$rev" 2>&1)"
	for p in "${ends[@]}"; do
		expect_match "$rev: checkpatch passes the changed $(basename "$p" | cut -c1-20)" '^OK ' \
			"$(cp_verdict "$p" "$rev-$(basename "$p" .patch)")"
	done
done

# c_patch FILE PATH HUNK LINE...: a patch of one hunk of PATH.
c_patch() {
	local f=$1 path=$2 hunk=$3
	shift 3
	mkdir -p "$(dirname "$f")"
	printf '%s\n' "diff --git a/$path b/$path" "--- a/$path" "+++ b/$path" "@@ $hunk @@" "$@" >"$f"
}
# A line that another patch of the revision has as context, or removes,
# is not taken.
c_patch "$T_TMP/ctx/0001-a.patch" drivers/x.c "-1,0 +1,3" "+int a;" "+int b;" "+int c;"
c_patch "$T_TMP/ctx/0002-b.patch" drivers/x.c "-1,2 +1,2" " int a;" "-int b;" "+int d;"
ci/onechange.sh "$T_TMP/ctx/0001-a.patch" >/dev/null 2>&1 || true
expect_eq "a line that another patch has as context or removes is not changed" \
	"+int a;|+int b;|+int c; /* bench */" "$(sed -n '5,7p' "$T_TMP/ctx/0001-a.patch" | paste -sd '|')"
# A block comment whose lines do not begin with "*" is followed: its
# lines are not taken.
c_patch "$T_TMP/comment/0001-c.patch" drivers/x.c "-1,0 +1,4" "+/* a comment" "+   int a;" "+*/" "+int b;"
ci/onechange.sh "$T_TMP/comment/0001-c.patch" >/dev/null 2>&1 || true
expect_eq "a line inside a block comment is not changed" \
	"+   int a;|+int b; /* bench */" "$(sed -n '6p;8p' "$T_TMP/comment/0001-c.patch" | paste -sd '|')"
# A patch with nothing of C to change: fails, naming the file and why.
c_patch "$T_TMP/doc/0001-doc.patch" Documentation/x.rst "-1,0 +1,1" "+int a;"
expect_fail "a patch with no C line to change fails, named" \
	"0001-doc.patch: no added line of C code to change" ci/onechange.sh "$T_TMP/doc/0001-doc.patch"

# ci/stage-span.sh on stage times written here (elapsed, verdict, name, end
# time), in the order of their ends as stage_end writes them: check
# 990-1000, builds 1005-1035 beside cocci 985-1045 (it started first),
# htmldocs 1046-1048; the matrix, v2's check and v30's check are other
# stages. The span is 1048 - 985 = 63.0 s, where the sum of the four is
# 102.0 s.
printf '%s\t%s\t%s\t%s\n' 10.0 OK "check v3" 1000.0 30.0 OK "builds v3" 1035.0 \
	60.0 OK "cocci v3" 1045.0 2.0 OK "htmldocs v3" 1048.0 3.0 OK matrix 1052.0 \
	5.0 OK "check v2" 1100.0 5.0 OK "check v30" 1200.0 >"$T_TMP/row-c.stage-times"
expect_eq "stage-span: stages side by side count once (63.0 s, not the sum 102.0 s)" 63.0 \
	"$(ci/stage-span.sh "$T_TMP/row-c.stage-times" 'check|csi2|builds|cocci|htmldocs' v3 2>&1)"
expect_eq "stage-span: only the named revision's stages (check v3: 10.0 s, not v2's or v30's)" 10.0 \
	"$(ci/stage-span.sh "$T_TMP/row-c.stage-times" check v3 2>&1)"
# stage_end's own format (bc's elapsed time, the end in nanoseconds), from
# a run: 1796668913.897378762 - (1796668912.252927690 - 15.691408763).
printf '%s\t%s\t%s\t%s\n' 15.691408763 OK "check v3" 1796668912.252927690 \
	.581243129 OK "csi2 v3" 1796668913.897378762 >"$T_TMP/run.stage-times"
expect_eq "stage-span: stage_end's format (17.3 s)" 17.3 \
	"$(ci/stage-span.sh "$T_TMP/run.stage-times" 'check|csi2' v3 2>&1)"
expect_fail "stage-span: no such stage fails, named" "row-c\.stage-times: no stage" \
	ci/stage-span.sh "$T_TMP/row-c.stage-times" boot v3
printf '10.0\tOK\tcheck v3\n' >"$T_TMP/old-stage-times"
expect_fail "stage-span: a line without an end time fails, named" "old-stage-times:1: not a stage time" \
	ci/stage-span.sh "$T_TMP/old-stage-times" check v3
t_done
