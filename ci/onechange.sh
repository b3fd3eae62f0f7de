#!/bin/bash
# The benchmark's one-line change (ci/bench.sh rows c and d): edit PATCH in
# place as a person editing the series would, one added line of C code
# given a trailing comment, so that the file it touches is compiled again
# and the series still applies and passes its checks.
#
# The line: the first added line of a .c or .h file of PATCH that ends a
# statement, a declaration or an initializer (";", ",", "{" or ")"), is not
# a comment, a preprocessor line or a macro's continued line, holds no
# comment, is neither context nor a removed line of any patch in PATCH's
# directory (the revision must still apply), and stays within 80 columns (tabs as 8) with the
# comment. Prints the line it changed; with none, names PATCH and fails.
#
# usage: onechange.sh PATCH
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

f=${1:?usage: onechange.sh PATCH}
[ -f "$f" ] || die "onechange: $f: no such patch"
tag=" /* bench */"
n=$(awk -v width=$((80 - ${#tag})) '
	/^diff --git / { c = ($NF ~ /\.[ch]$/) }
	!c || !/^\+/ || /^\+\+\+ / { next }
	{
		line = substr($0, 2)
		if (line ~ /^[ \t]*($|\*|\/\*|\/\/|#)/ || line ~ /\/\*|\*\/|\/\/|\\$/ ||
		    line !~ /[;,{)]$/)
			next
		# Its width with tabs expanded to the next multiple of 8.
		w = 0
		for (i = 1; i <= length(line); i++)
			w = substr(line, i, 1) == "\t" ? w - w % 8 + 8 : w + 1
		if (w <= width)
			print NR
	}' "$f" | while read -r nr; do
	line=$(sed -n "${nr}s/^+//p" "$f")
	# (A later patch that has it as context, or removes it, would no
	# longer apply.)
	grep -qxF -e " $line" -e "-$line" "$(dirname "$f")"/*.patch && continue
	echo "$nr"
	break
done)
[ -n "$n" ] || die "onechange: $f: no added line of C code to change (a .c or .h line ending a statement, within 80 columns with '$tag')"
sed -i "${n}s|\$|$tag|" "$f"
info "  onechange: $(basename "$f") line $n: $(sed -n "${n}p" "$f" | cut -c1-90)"
