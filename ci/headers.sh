#!/bin/bash
# Stage "headers": the mail headers of a rendering, made stable and
# complete. In every mail of DIR (the cover letter first):
#   To/Cc       from MAIL.rcpt (ci/recipients.sh), a Cc that is also a To
#               left out;
#   Message-ID  and the In-Reply-To/References that point at it: from the
#               series' change-id, the revision, the mail's position and its
#               patch-id, at DOMAIN (the sender's), as b4 makes them, so
#               that they are unique to the series and revision and
#               rendering twice gives the same bytes;
#   change-id   the series' b4 change-id (MBUS_CHANGE_ID), below the cover
#               letter's base-commit, as b4 prep writes it;
#   Date        of the cover letter: the last patch's;
#   Subject     unfolded: b4 0.12 (Debian 12) fails on a folded one ("Header
#               values may not contain linefeed"); one line of up to 998
#               characters is valid mail.
#
# usage: headers.sh DIR REV DOMAIN
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: headers.sh DIR REV DOMAIN} rev=${2:?} domain=${3:?}
mapfile -t mails < <(ls "$dir"/*.patch)
[ "${#mails[@]}" -ge 2 ] || die "headers: $dir has no cover letter and patches"
declare -A ids
i=0
for m in "${mails[@]}"; do
	old=$(sed -n 's/^Message-ID: *<\(.*\)>$/\1/Ip' "$m" | head -n 1)
	[ -n "$old" ] || die "headers: ${m##*/} has no Message-ID"
	if [ "$i" -eq 0 ]; then
		pid=cover
	else
		pid=$(patch_id "$m" | cut -c1-12)
	fi
	ids[$old]="$MBUS_CHANGE_ID-$rev-$i-$pid@$domain"
	i=$((i + 1))
done
lastdate=$(sed -n 's/^Date: //p' "${mails[-1]}" | head -n 1)
for m in "${mails[@]}"; do
	[ -f "$m.rcpt" ] || die "headers: ${m##*/}.rcpt missing (ci/recipients.sh makes it)"
	to=$(grep '^to|' "$m.rcpt" | cut -d'|' -f2 | awk '!s[$0]++' | paste -sd, | sed 's/,/, /g')
	cc=$(grep '^cc|' "$m.rcpt" | cut -d'|' -f2 | awk '!s[$0]++' |
		grep -vxF -f <(grep '^to|' "$m.rcpt" | cut -d'|' -f2) | paste -sd, | sed 's/,/, /g' || true)
	awk -v to="$to" -v cc="$cc" -v lastdate="$lastdate" -v changeid="$MBUS_CHANGE_ID" -v cover="$([ "$m" = "${mails[0]}" ] && echo 1)" '
		!hdr && insubj && /^[ \t]/ { sub(/^[ \t]+/, " "); subj = subj $0; next }
		!hdr && insubj { print subj; insubj = 0 }
		!done && /^Subject: / { print "To: " to; if (cc != "") print "Cc: " cc; done = 1 }
		!hdr && /^Subject: / { subj = $0; insubj = 1; next }
		cover && !hdr && /^Date: / { print "Date: " lastdate; next }
		cover && hdr && /^base-commit: / { print; print "change-id: " changeid; next }
		/^$/ { hdr = 1 }
		{ print }' "$m" >"$m.new"
	for old in "${!ids[@]}"; do
		sed -i "s|<$old>|<${ids[$old]}>|g" "$m.new"
	done
	mv "$m.new" "$m"
	rm -f "$m.rcpt"
done
grep -q "^change-id: $MBUS_CHANGE_ID\$" "${mails[0]}" ||
	die "headers: ${mails[0]##*/} has no base-commit line to put the change-id under"
