#!/bin/bash
# The wall time of some stages of one revision, from a stage-times file
# (stage_end's lines: elapsed seconds, verdict, name, end time, tab-
# separated): from the first one's start (its end less its elapsed time)
# to the last one's end. Stages that ran side by side (ci/each-rev.sh
# check,csi2-compare,builds+cocci) count once, not twice as a sum would
# count them. The benchmark's rows c and d (ci/bench.sh) are measured so.
#
# usage: stage-span.sh FILE STAGES REV
#   STAGES: an ERE of stage names ("check|builds"); a line counts if its
#   name is one of them, a space and REV (compared as a string). Fails,
#   named, if FILE has none, or a counted line is not a stage time with
#   an end time.
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: stage-span.sh FILE STAGES REV"
[ -r "$1" ] || die "stage-span: $1: no such file, or not readable"
STAGES=$2 REV=$3 FILE=$1 awk -F'\t' '
	BEGIN { stages = ENVIRON["STAGES"]; rev = " " ENVIRON["REV"]; file = ENVIRON["FILE"] }
	{
		k = length($3) - length(rev)
		if (k < 1 || substr($3, k + 1) != rev || substr($3, 1, k) !~ ("^(" stages ")$")) next
		# (The elapsed time is bc'"'"'s: ".5", "12.25"; below 0 if the
		# clock stepped back, its start still the end less it.)
		if (NF != 4 || $1 !~ /^-?[0-9]*\.?[0-9]+$/ || $4 !~ /^[0-9]+\.?[0-9]*$/) {
			printf "error: stage-span: %s:%d: not a stage time with an end time: %s\n", file, NR, $0 > "/dev/stderr"
			bad = 1
			exit 1
		}
		b = $4 - $1
		if (n++ == 0 || b < first) first = b
		if ($4 > last) last = $4
	}
	END {
		if (bad) exit 1
		if (!n) {
			printf "error: stage-span: %s: no stage (%s)%s\n", file, stages, rev > "/dev/stderr"
			exit 1
		}
		printf "%.1f\n", last - first
	}' "$1"
