#!/bin/bash
# The wall time of some stages of one revision, from a stage-times file
# (stage_end's lines: elapsed seconds, verdict, name, end time, tab-
# separated): from the first one's start (its end less its elapsed time)
# to the last one's end. Stages that ran side by side (ci/each-rev.sh
# builds+cocci) count once, not twice as a sum would count them. The
# benchmark's rows c and d (ci/bench.sh) are measured so.
#
# usage: stage-span.sh FILE STAGES REV
#   STAGES: an ERE of stage names ("(check|builds)"); a stage matches if
#   its whole name is "STAGE REV". Fails, named, if FILE has none.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: stage-span.sh FILE STAGES REV"
file=$1 stages=$2 rev=$3
[ -r "$file" ] || die "stage-span: $file: no such file"
awk -F'\t' -v re="^$stages $rev\$" -v file="$file" '
	$3 ~ re {
		if (NF != 4 || $1 !~ /^[0-9]*\.?[0-9]+$/ || $4 !~ /^[0-9]+\.?[0-9]*$/) {
			printf "stage-span: %s:%d: not a stage time with an end: %s\n", file, NR, $0 > "/dev/stderr"
			bad = 1; exit 1
		}
		b = $4 - $1; if (n++ == 0 || b < first) first = b; if ($4 > last) last = $4
	}
	END {
		if (bad) exit 1
		if (!n) { printf "stage-span: %s: no stage matches /%s/\n", file, re > "/dev/stderr"; exit 1 }
		printf "%.1f\n", last - first
	}' "$file"
