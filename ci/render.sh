#!/bin/bash
# Stage "render": a revision as mails that git send-email and b4 accept, in
# outgoing/vN/: git format-patch --cover-letter with the cover letter of
# cover-letter/vN (first paragraph the subject, the rest the body, through
# the branch description), --thread, --base, and for vN>1 --range-diff
# against v(N-1). Then, per mail:
#   To/Cc   from the base tree's get_maintainer.pl for the files the patch
#           touches (the cover letter: the union). To: the maintainers (M:)
#           and the subsystem's lists; Cc: reviewers (R:) and the catch-all
#           linux-kernel list. MAINTAINERS-notes says why, file by file.
#   Message-ID, Date
#           made stable (from the revision and the patch's own id, and the
#           last patch's date for the cover letter), so that rendering twice
#           gives the same bytes.
# Gate: only a revision whose checks and boot passed for exactly these patch
# bytes on this base is rendered; otherwise a refusal that names what has not.
# The From/Signed-off-by identity is $MBUS_FROM (ci/lib.sh); a person who
# sends sets MBUS_FROM to theirs, and every patch must then carry it.
#
# usage: render.sh REV [OUTDIR]     (default: outgoing/REV)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: render.sh REV [OUTDIR]}
out=${2:-$MBUS_TOP/outgoing/$rev}
[ "${MBUS_LOCKED:-}" ] || take_lock "$@"
n=${rev#v}
cover="$MBUS_TOP/cover-letter/$rev"
res="$MBUS_RESULTS/$rev"
mapfile -t patches < <(revision_patches "$rev")
[ "${#patches[@]}" -gt 0 ] || exit 1
stage_begin "render $rev"

# --- the gate
[ -f "$cover" ] || die "render $rev: cover-letter/$rev missing (the cover letter of the revision)"
if grep -nE 'EDITME|\*\*\* (SUBJECT|BLURB) HERE|XXX' "$cover" >/dev/null; then
	die "render $rev: cover-letter/$rev still has placeholder text: $(grep -nE 'EDITME|\*\*\* (SUBJECT|BLURB) HERE|XXX' "$cover" | head -n 1)"
fi
inputs=$(input_hash "$rev")
refuse=()
for stage in check boot/boot; do
	v="$res/$stage.verdict"
	if [ ! -f "$v" ]; then
		refuse+=("${stage%/*} has not run")
	elif [ "$(cut -d' ' -f1 "$v")" = FAIL ]; then
		refuse+=("${stage%/*} failed: $(cut -d' ' -f2- "$v")")
	elif [ "$(cat "$res/${stage%/*}.inputs" 2>/dev/null)" != "$inputs" ]; then
		refuse+=("${stage%/*} passed for other patch bytes or another base")
	fi
done
if [ "${#refuse[@]}" -gt 0 ]; then
	stage_end FAIL "refused"
	die "render $rev: not rendered, because $(IFS=';'; echo "${refuse[*]}") (run: make REV=$rev)"
fi

# --- the identity: every patch's From must match one of its Signed-off-by
from=$MBUS_FROM
# shellcheck disable=SC2016 # the text of ci/lib.sh, not an expansion
project_from=$(sed -n 's/^MBUS_FROM=\${MBUS_FROM:-\(.*\)}$/\1/p' "$MBUS_TOP/ci/lib.sh")
tree="$MBUS_TREE"
base=$(base_commit)
tip=$(git -C "$tree" rev-parse "$MBUS_BRANCH_PREFIX$rev")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; git -C "$tree" branch -D -q "post/$rev" 2>/dev/null || true' EXIT
git -C "$tree" branch -f -q "post/$rev" "$tip"
git -C "$tree" config "branch.post/$rev.description" "$(cat "$cover")"
args=(--cover-letter --cover-from-description=subject --thread=shallow
	--base="$base" --from="$from" --no-signature -o "$tmp")
[ "$n" -eq 1 ] || args+=(-v "$n")
if [ "$n" -gt 1 ]; then
	prev="$MBUS_BRANCH_PREFIX v$((n - 1))"
	prev=${prev// /}
	git -C "$tree" rev-parse -q --verify "$prev" >/dev/null ||
		die "render $rev: no branch $prev for --range-diff (run make apply REV=v$((n - 1)))"
	args+=(--range-diff="$base..$prev" --creation-factor=60)
fi
email=${from##*<}
email=${email%%>*}
GIT_COMMITTER_NAME="${from% <*}" GIT_COMMITTER_EMAIL=$email \
	git -C "$tree" format-patch -q "${args[@]}" "$base..post/$rev" >/dev/null

# A person's identity replaces the project's in From and Signed-off-by: the
# person becomes the author, so format-patch's in-body From: line of the
# project identity goes too.
if [ "$from" != "$project_from" ]; then
	for m in "$tmp"/*.patch; do
		awk -v pf="From: $project_from" '
			body == 1 && $0 == pf { body = 2; next }
			body == 2 && /^$/ { body = 3; next }
			body == 1 || body == 2 { body = 3 }
			!body && /^$/ { body = 1 }
			{ print }' "$m" >"$m.new"
		mv "$m.new" "$m"
	done
	sed -i "s|^Signed-off-by: $project_from\$|Signed-off-by: $from|" "$tmp"/*.patch
fi

# --- recipients, per mail
domain=${email#*@}
mapfile -t mails < <(ls "$tmp"/*.patch)
all_to=() all_cc=()
recipients() {   # patch -> "to|cc" lines
	(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
		--roles "$1") |
		awk '/\(maintainer:/ { sub(/ \(.*/, ""); print "to|" $0; next }
		     /\(reviewer:/ { sub(/ \(.*/, ""); print "cc|" $0; next }
		     /\(open list\)$/ { sub(/ \(.*/, ""); print "cc|" $0; next }
		     /list:/ { sub(/ \(.*/, ""); print "to|" $0; next }'
}
declare -A ids
i=0
for m in "${mails[@]}"; do
	old=$(sed -n 's/^Message-ID: *<\(.*\)>$/\1/Ip' "$m" | head -n 1)
	if [ "$i" -eq 0 ]; then
		pid=cover
	else
		pid=$(git patch-id --stable <"$m" | cut -c1-12)
	fi
	ids[$old]="mbus-$rev-$i-$pid@$domain"
	i=$((i + 1))
done
lastdate=$(sed -n 's/^Date: //p' "${mails[-1]}" | head -n 1)
for m in "${mails[@]:1}"; do
	mapfile -t r < <(recipients "$m")
	for x in "${r[@]}"; do
		case $x in to\|*) all_to+=("${x#to|}") ;; cc\|*) all_cc+=("${x#cc|}") ;; esac
	done
	printf '%s\n' "${r[@]}" >"$m.rcpt"
done
{
	printf 'to|%s\n' "${all_to[@]}" | sort -u
	printf 'cc|%s\n' "${all_cc[@]}" | sort -u
} >"${mails[0]}.rcpt"

for m in "${mails[@]}"; do
	to=$(grep '^to|' "$m.rcpt" | cut -d'|' -f2 | awk '!s[$0]++' | paste -sd, | sed 's/,/, /g')
	cc=$(grep '^cc|' "$m.rcpt" | cut -d'|' -f2 | awk '!s[$0]++' | grep -vxF -f <(grep '^to|' "$m.rcpt" | cut -d'|' -f2) | paste -sd, | sed 's/,/, /g' || true)
	# The Subject is unfolded: b4 0.12 (Debian 12) fails on a folded one
	# ("Header values may not contain linefeed"); one line of up to 998
	# characters is valid mail.
	awk -v to="$to" -v cc="$cc" -v lastdate="$lastdate" -v cover="$([ "$m" = "${mails[0]}" ] && echo 1)" '
		!hdr && insubj && /^[ \t]/ { sub(/^[ \t]+/, " "); subj = subj $0; next }
		!hdr && insubj { print subj; insubj = 0 }
		!done && /^Subject: / { print "To: " to; if (cc != "") print "Cc: " cc; done = 1 }
		!hdr && /^Subject: / { subj = $0; insubj = 1; next }
		cover && !hdr && /^Date: / { print "Date: " lastdate; next }
		/^$/ { hdr = 1 }
		{ print }' "$m" >"$m.new"
	for old in "${!ids[@]}"; do
		sed -i "s|<$old>|<${ids[$old]}>|g" "$m.new"
	done
	mv "$m.new" "$m"
	rm -f "$m.rcpt"
done

# Every patch: a Signed-off-by of its From.
for m in "${mails[@]:1}"; do
	f=$(sed -n 's/^From: //p' "$m" | head -n 1)
	grep -qxF "Signed-off-by: $f" "$m" ||
		die "render $rev: ${m##*/}: From '$f' has no Signed-off-by: refusing the posting"
done

rm -rf "$out"
mkdir -p "$out"
cp "$tmp"/*.patch "$out/"
stage_end OK "${#mails[@]} mails in ${out#"$MBUS_TOP"/}"
