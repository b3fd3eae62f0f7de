#!/bin/bash
# Stage "matrix": every per-patch verdict of every revision ($REV: of that
# one) as one matrix, patch by check: the checks of ci/checks (check.sh),
# coccicheck (cocci.sh), htmldocs (htmldocs.sh) and each build
# configuration of ci/builds (builds.sh). Printed as text, and written as a
# static HTML page, $MBUS_RESULTS/matrix.html, that a browser shows without
# a server. Each verdict is read against the inputs it must have been made
# from now, as ci/verdicts.sh reads them: a missing or stale one is shown
# so and fails the stage.
#
# Cells: ok, n/a (passes: the patch changes nothing the check looks at),
# xfail (passes: a known report of a posted revision, ci/known-reports),
# WARN, FAIL, STALE, MISSING. Exits non-zero if any cell is not ok, n/a,
# xfail or WARN.
#
# usage: matrix.sh
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

html="$MBUS_RESULTS/matrix.html"
mapfile -t revs < <(revisions)
[ "${#revs[@]}" -gt 0 ] || die "matrix: no revisions"
mapfile -t builds < <(awk '!/^#/ && NF { print $1 }' "$MBUS_TOP/ci/builds")
columns=("${PATCH_CHECKS[@]}" cocci htmldocs "${builds[@]}")
declare -A patch_check=()
for c in "${PATCH_CHECKS[@]}"; do patch_check[$c]=1; done

# cell FILE INPUTS: the cell of one verdict, into c, v and r (no
# subshell: a matrix has hundreds).
cell() {
	verdict_get "$1" "$2"
	v=$verdict_v r=$verdict_r
	case $v in
	OK) if [[ $r == N/A:* ]]; then c=n/a; else c=ok; fi ;;
	WARN) if [[ $r == XFAIL* ]]; then c=xfail; else c=WARN; fi ;;
	*) c=$v ;;
	esac
}
# esc TEXT: TEXT for HTML, into $e (no process: once a cell).
esc() {
	e=${1//&/\&amp;}
	e=${e//</\&lt;}
	e=${e//>/\&gt;}
	e=${e//\"/\&quot;}
}

stage_begin "matrix"
# Each stage's key of each revision, computed once (about 2.7 s a
# revision): the matrix's key is made of them, and its cells are read
# against them.
declare -A stage_keys=()
for rev in "${revs[@]}"; do
	revision_has_patches "$rev" || continue
	for s in cocci htmldocs builds; do
		stage_keys[$rev/$s]=$("$MBUS_TOP/ci/$s.sh" --inputs "$rev") ||
			die "matrix: ci/$s.sh --inputs $rev failed"
	done
done
# The matrix is a function of the verdict files it reads and of the
# inputs it reads them against (the base, the toolchain, the checks'
# scripts, every revision's patches, each stage's --inputs): kept under a
# key of all of them, it is printed again, not read again cell by cell.
key=$(
	{
		base_commit
		check_scripts_hash
		hash_files "$MBUS_TOP/ci/builds"
		echo "$MBUS_RESULTS ${revs[*]}"
		cat "$MBUS_SERIES_DIR"/series-v*/*.patch 2>/dev/null
		for rev in "${revs[@]}"; do
			revision_has_patches "$rev" || continue
			for s in cocci htmldocs builds; do
				echo "${stage_keys[$rev/$s]}"
			done
			find "$MBUS_RESULTS/$rev" -name '*.verdict' -print0 2>/dev/null | sort -z |
				xargs -0 -r grep -H ''
		done
	} | hash_text
)
key=$(cache_key "$0" "$key")
if cache_has matrix "$key"; then
	kept=$(cache_path matrix "$key")
	cat "$kept/out"
	cp "$kept/matrix.html" "$html.tmp" && mv -f "$html.tmp" "$html"
	read -r v r <"$kept/verdict"
	stage_end "$v" "$r; kept: the same verdicts and inputs as when it was made"
	[ "$v" = OK ]
	exit
fi
bad=0 cells=0 k=""
mbus_check_scripts_hash=$(check_scripts_hash)
tmp=$(mktemp)
trap 'rm -rf "$tmp" "$tmp.warn" "$tmp.keep"' EXIT
{
{
	cat <<'HEAD'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mbus-workspace: checks per patch</title>
<style>
body { font-family: sans-serif; margin: 1em; }
table { border-collapse: collapse; margin-bottom: 2em; }
th, td { border: 1px solid #999; padding: 2px 6px; font-size: 13px; }
th.patch { text-align: left; font-weight: normal; }
td.ok { background: #c8f0c8; }
td.n-a { background: #eeeeee; color: #666; }
td.WARN, td.xfail { background: #fff0a0; }
td.FAIL, td.STALE, td.MISSING { background: #f4b0b0; font-weight: bold; }
</style>
</head>
<body>
<h1>Checks per patch</h1>
<p>Each cell is the verdict of one check on one patch, as the state before
the patch against the state after it; hover a cell for its reason. n/a: the
patch changes nothing the check looks at; xfail: a known report of a
revision already posted (ci/known-reports), answered by a later one.</p>
HEAD
	esc "$MBUS_RESULTS"
	printf '<p id="made">Made %s from %s.</p>\n' "$(date -u +%FT%TZ)" "$e"
} >"$html.tmp"

for rev in "${revs[@]}"; do
	revision_has_patches "$rev" || continue
	mapfile -t patches < <(revision_patches "$rev")
	n=${#patches[@]}
	printf '\nmatrix %s (%d patches)\n  %-5s' "$rev" "$n" patch
	printf ' %-11.11s' "${columns[@]}"
	printf '\n'
	{
		printf '<h2 id="%s">%s</h2>\n<table data-rev="%s">\n<tr><th>patch</th>' "$rev" "$rev" "$rev"
		printf '<th>%s</th>' "${columns[@]}"
		printf '</tr>\n'
	} >>"$html.tmp"
	for ((i = 1; i <= n; i++)); do
		printf -v nnnn %04d "$i"
		res="$MBUS_RESULTS/$rev"
		printf '  %-5s' "$nnnn"
		esc "${patches[$((i - 1))]##*/}"
		printf '<tr><th class="patch" title="%s">%s</th>' "$e" "$nnnn" >>"$html.tmp"
		want=$(patch_inputs "$rev" "$i")
		for col in "${columns[@]}"; do
			case $col in
			cocci | htmldocs)
				cache_key_into k "$MBUS_TOP/ci/$col.sh" "${stage_keys[$rev/$col]}" "$i" "$col"
				cell "$res/$col/$nnnn/$col.verdict" "$k"
				;;
			*)
				if [ -n "${patch_check[$col]:-}" ]; then
					cell "$res/$nnnn/$col.verdict" "$want"
				else
					cache_key_into k "$MBUS_TOP/ci/builds.sh" "${stage_keys[$rev/builds]}" "$i" "$col"
					cell "$res/builds/$nnnn/$col.verdict" "$k"
				fi
				;;
			esac
			cells=$((cells + 1))
			case $c in ok | n/a | xfail | WARN) ;; *) bad=$((bad + 1)) ;; esac
			printf ' %-11.11s' "$c"
			esc "$v $r"
			printf '<td class="%s" data-patch="%s" data-check="%s" title="%s">%s</td>' \
				"${c//\//-}" "$nnnn" "$col" "$e" "$c" >>"$html.tmp"
			case $c in
			ok | n/a) ;;
			xfail | WARN) echo "$rev $nnnn $col: $v $r" >>"$tmp.warn" ;;
			*) echo "$rev $nnnn $col: $v $r" >>"$tmp" ;;
			esac
		done
		printf '\n'
		printf '</tr>\n' >>"$html.tmp"
	done
	printf '</table>\n' >>"$html.tmp"
	# The stages' own verdicts: what no cell holds (a changed file that no
	# configuration compiled, a known report that no longer fails).
	printf '<ul class="stages">' >>"$html.tmp"
	for s in builds cocci htmldocs; do
		read -r v r < <(verdict_read "$MBUS_RESULTS/$rev/$s/$s.verdict" "${stage_keys[$rev/$s]}")
		printf '  %s %s: %s %s\n' "$rev" "$s" "$v" "$r"
		esc "$v $r"
		printf '<li data-stage="%s">%s: %s</li>' "$s" "$s" "$e" >>"$html.tmp"
		verdict_passes "$v" || { bad=$((bad + 1)); echo "$rev $s: $v $r" >>"$tmp"; }
	done
	printf '</ul>\n' >>"$html.tmp"
done
printf '</body>\n</html>\n' >>"$html.tmp"
mv -f "$html.tmp" "$html"
if [ -s "$tmp.warn" ]; then
	printf '\npassing with a warning or as a known report:\n'
	sed 's/^/  /' "$tmp.warn"
fi
if [ -s "$tmp" ]; then
	printf '\nnot passing:\n'
	sed 's/^/  /' "$tmp"
fi
echo "matrix: $html"
} >"$tmp.out"
cat "$tmp.out"
if [ "$bad" -eq 0 ]; then
	v=OK r="$cells cells, all pass"
else
	v=FAIL r="$bad of $cells cells do not pass"
fi
mkdir -p "$tmp.keep"
cp "$tmp.out" "$tmp.keep/out"
cp "$html" "$tmp.keep/matrix.html"
echo "$v $r" >"$tmp.keep/verdict"
cache_put matrix "$key" "$tmp.keep"
stage_end "$v" "$r"
[ "$v" = OK ]

