#!/bin/bash
# The benchmark's one-line change (ci/bench.sh rows c and d): edit PATCH in
# place as a person editing the series would, one added line of C code
# given a trailing comment, so that the file it touches is compiled again
# while the revision still applies and checkpatch still passes it.
#
# The line: the first added line of a .c or .h file of PATCH that ends
# with ";", ",", "{" or ")", is not in or part of a comment, is no
# preprocessor line or continued line, is neither context nor a removed
# line of any patch in PATCH's directory (the revision must still apply),
# and stays within 80 columns (tabs as 8) with the comment. Prints the
# line it changed; with none, names PATCH and fails.
#
# usage: onechange.sh PATCH
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

f=${1:?usage: onechange.sh PATCH}
[ -f "$f" ] || die "onechange: $f: no such patch"
tag=" /* bench */"
# The candidates' line numbers in PATCH. Block comments are followed
# through the context and added lines of each C file's hunks.
mapfile -t cands < <(awk -v width=$((80 - ${#tag})) '
	/^diff --git / { c = ($NF ~ /\.[ch]$/); incomment = 0; next }
	/^@@ / { incomment = 0; next }
	!c || /^(\+\+\+|---) / || !/^[ +]/ { next }
	{
		line = substr($0, 2)
		was = incomment
		rest = line
		while (rest != "") {
			if (incomment) {
				i = index(rest, "*/")
				if (!i) break
				incomment = 0
				rest = substr(rest, i + 2)
			} else {
				i = index(rest, "/*")
				if (!i) break
				incomment = 1
				rest = substr(rest, i + 2)
			}
		}
		if (!/^\+/ || was || line ~ /^[ \t]*($|\*|#)/ ||
		    line ~ /\/\*|\*\/|\/\/|\\$/ || line !~ /[;,{)]$/)
			next
		# Its width with tabs expanded to the next multiple of 8.
		w = 0
		for (i = 1; i <= length(line); i++)
			w = substr(line, i, 1) == "\t" ? w - w % 8 + 8 : w + 1
		if (w <= width)
			print NR
	}' "$f")
n=""
for nr in "${cands[@]}"; do
	line=$(sed -n "${nr}s/^+//p" "$f")
	# (A later patch that has it as context, or removes it, would no
	# longer apply.)
	grep -qxF -e " $line" -e "-$line" "$(dirname "$f")"/*.patch && continue
	n=$nr
	break
done
[ -n "$n" ] || die "onechange: $f: no added line of C code to change (a .c or .h line ending a statement, within 80 columns with '$tag')"
sed -i "${n}s|\$|$tag|" "$f"
info "  onechange: $(basename "$f") line $n: $(sed -n "${n}p" "$f" | cut -c1-90)"
