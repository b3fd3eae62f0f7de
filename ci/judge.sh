#!/bin/bash
# Stage "judge": the verdict on one guest run, from its console log.
#   kunit       KTAP on the console, parsed by the tree's own
#               tools/testing/kunit/kunit.py parse: any failure fails
#   compliance  v4l2-compliance per driver, compared test by test with the
#               unpatched base of the same run: a failing test that the base
#               does not fail fails; the base's own failures are listed
#   console     BUG:, WARNING:, KASAN:, UBSAN:, lockdep, Call Trace:,
#               kmemleak's unreferenced objects, Oops, panics
#   mbus        ci/guest/mbus-test's KTAP: on a revision any failure fails; on
#               the base its failures are the expected-fail set, and there
#               must be some (the base lacks the formats: the test can fail)
#   guest       a time-out, a missing MBUS-DONE, a guest step that failed
# Writes DIR/<check>.verdict and DIR/boot.verdict; prints one line a check.
#
# usage: judge.sh DIR [BASEDIR]   (DIR holds console.log; no BASEDIR: this
#                                  is the base, the reference)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: judge.sh DIR [BASEDIR]} basedir=${2:-}
[ -f "$dir/console.log" ] || die "judge: $dir/console.log missing"
# The console as read: without colour escapes and carriage returns.
log="$dir/console.txt"
sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//' "$dir/console.log" >"$log"
tailof() { grep -v '^\s*$' "$log" | tail -n "${1:-15}" | sed 's/^/    | /'; }

# The text between the markers of one guest step.
section() {
	awk -v n="$1" '$0 ~ "MBUS-BEGIN " n "$" { on = 1; next }
		on && $0 ~ "MBUS-END " n " rc=" { exit } on { print }' "$log"
}
step_rc() {
	sed -n "s/^MBUS-END $1 rc=\\([0-9]*\\).*/\\1/p" "$log" | tail -n 1
}

# --- guest: ran to the end, every step but the compliance runs succeeded.
problems=()
if grep -q '^MBUS-HOST: timeout' "$log"; then
	problems+=("the guest timed out: $(grep '^MBUS-HOST: timeout' "$log")")
elif ! grep -q '^MBUS-DONE' "$log"; then
	problems+=("the guest's summary (MBUS-DONE) is missing")
fi
while read -r step; do
	case $step in compliance-* | mbus-test) continue ;; esac
	rc=$(step_rc "$step")
	[ "$rc" = 0 ] || problems+=("guest step $step failed (rc ${rc:-none}): $(section "$step" | tail -n 1)")
done < <(sed -n 's/^MBUS-BEGIN \(.*\)/\1/p' "$log")
# Seconds per guest step, the slowest first: where the guest's time goes.
sed -n 's/^MBUS-END \([^ ]*\) rc=[0-9]* seconds=\([0-9]*\)$/\2 \1/p' "$log" |
	sort -rn >"$dir/step-seconds"
slowest=$(head -n 3 "$dir/step-seconds" | awk '{ printf "%s%s %ss", sep, $2, $1; sep = ", " }')
if [ "${#problems[@]}" -eq 0 ]; then
	write_verdict "$dir/guest.verdict" OK "$(grep -c '^MBUS-END' "$log") steps ran to the end ($(cat "$dir/console.log.accel" 2>/dev/null || echo "?")${slowest:+; slowest: $slowest})"
else
	write_verdict "$dir/guest.verdict" FAIL "$(IFS=';'; echo "${problems[*]}")"
	tailof 25 >"$dir/console.tail"
fi

# --- console: splats anywhere in the kernel's output.
grep -nE 'BUG:|WARNING:|KASAN:|UBSAN:|possible (circular|recursive) locking|INFO: (task|trying)|Call Trace:|unreferenced object 0x|Oops|Kernel panic|general protection fault' \
	"$log" >"$dir/splats" || true
# Reports known from the base (ci/known-splats) are listed, not failed.
: >"$dir/splats.known"
: >"$dir/splats.new"
while IFS= read -r hit; do
	ln=${hit%%:*}
	ctx=$(sed -n "$((ln > 3 ? ln - 3 : 1)),$((ln + 20))p" "$log")
	known=""
	while IFS='|' read -r name pats; do
		case $name in '#'* | '') continue ;; esac
		all=1
		IFS='|' read -ra pa <<<"$pats"
		for pat in "${pa[@]}"; do
			grep -qE -- "$pat" <<<"$ctx" || { all=0; break; }
		done
		[ "$all" = 0 ] || { known=$name; break; }
	done <"$MBUS_TOP/ci/known-splats"
	if [ -n "$known" ]; then
		echo "$known: $hit" >>"$dir/splats.known"
	else
		echo "$hit" >>"$dir/splats.new"
	fi
done <"$dir/splats"
if [ -s "$dir/splats.new" ]; then
	write_verdict "$dir/console.verdict" FAIL "$(wc -l <"$dir/splats.new") splat line(s), first: $(head -n 1 "$dir/splats.new")"
elif [ -s "$dir/splats.known" ]; then
	write_verdict "$dir/console.verdict" WARN "only reports known from the base (ci/known-splats): $(cut -d: -f1 "$dir/splats.known" | sort -u | tr '\n' ' ')"
else
	write_verdict "$dir/console.verdict" OK "no BUG/WARNING/KASAN/UBSAN/lockdep/Call Trace/kmemleak/Oops"
fi

# --- kunit: the tree's own parser, on the console without mbus-test's KTAP.
awk '/^MBUS-BEGIN mbus-test$/ { skip = 1 } !skip { print } /^MBUS-END mbus-test / { skip = 0 }' \
	"$log" >"$dir/kernel-ktap.log"
python3 "$MBUS_TREE/tools/testing/kunit/kunit.py" parse --json="$dir/kunit.json" \
	"$dir/kernel-ktap.log" >"$dir/kunit.txt" 2>&1 && krc=0 || krc=$?
ksum=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$dir/kunit.txt" | tail -n 1 | sed 's/\x1b\[[0-9;]*m//g') || true
if [ -z "$ksum" ]; then
	write_verdict "$dir/kunit.verdict" FAIL "no KTAP results on the console"
elif [ "$krc" -ne 0 ]; then
	write_verdict "$dir/kunit.verdict" FAIL "${ksum#*Testing complete. }"
else
	write_verdict "$dir/kunit.verdict" OK "${ksum#*Testing complete. }"
fi

# --- mbus: the guest test program's KTAP, parsed by the same tool.
{ section mbus-test | grep -v '^mbus-test: ' || true; } >"$dir/mbus-test.log"
python3 "$MBUS_TREE/tools/testing/kunit/kunit.py" parse --json="$dir/mbus.json" \
	"$dir/mbus-test.log" >"$dir/mbus.txt" 2>&1 || true
{ sed -n 's/^ *not ok [0-9]* //p' "$dir/mbus-test.log" | grep -vx 'mbus-vimc' || true; } | sort -u >"$dir/mbus.failing"
msum=$(sed -n 's/^# mbus-vimc: //p' "$dir/mbus-test.log" | tail -n 1)
nfail=$(wc -l <"$dir/mbus.failing")
if [ -z "$msum" ]; then
	write_verdict "$dir/mbus.verdict" FAIL "no results from mbus-test"
elif [ -z "$basedir" ]; then
	if [ "$nfail" -gt 0 ]; then
		write_verdict "$dir/mbus.verdict" WARN "reference: $msum; the expected-fail set of the base is in mbus.failing"
	else
		write_verdict "$dir/mbus.verdict" FAIL "$msum: nothing fails on the base, so the test shows nothing"
	fi
elif [ "$nfail" -gt 0 ]; then
	write_verdict "$dir/mbus.verdict" FAIL "$msum; first: $(head -n 1 "$dir/mbus.failing")"
else
	write_verdict "$dir/mbus.verdict" OK "$msum"
fi

# --- compliance: per driver, per test, against the base.
# One line a test: "<driver>|<device header>|<test>|<result>".
compliance_tests() {
	section "compliance-$1" | awk -v drv="$1" '
		/^Compliance test for / { hdr = $0; sub(/:$/, "", hdr) }
		/^[ \t]*test .*: (OK|FAIL)/ {
			line = $0; sub(/^[ \t]*test /, "", line)
			res = line; sub(/.*: /, "", res); sub(/: [^:]*$/, "", line)
			print drv "|" hdr "|" line "|" res
		}'
}
: >"$dir/compliance.tests"
cproblems=() cnotes=()
for drv in vimc vivid; do
	compliance_tests "$drv" >>"$dir/compliance.tests"
	total=$(section "compliance-$drv" | grep -E '^Grand Total for' | tail -n 1) || true
	if [ -z "$total" ]; then
		cproblems+=("$drv: no v4l2-compliance summary")
		continue
	fi
	cnotes+=("$drv ${total#*: }")
done
{ grep '|FAIL$' "$dir/compliance.tests" || true; } | cut -d'|' -f1-3 | sort -u >"$dir/compliance.failing"
if [ -n "$basedir" ]; then
	if [ ! -f "$basedir/compliance.failing" ] || [ "$(cut -d' ' -f1 "$basedir/compliance.verdict" 2>/dev/null)" = FAIL ]; then
		cproblems+=("the base's compliance results are missing or incomplete: nothing to compare with")
	else
		comm -23 "$dir/compliance.failing" "$basedir/compliance.failing" >"$dir/compliance.new-failures"
		comm -12 "$dir/compliance.failing" "$basedir/compliance.failing" >"$dir/compliance.known-failures"
		comm -13 "$dir/compliance.failing" "$basedir/compliance.failing" >"$dir/compliance.fixed"
		{
			echo "# v4l2-compliance, test by test, against the unpatched base of the same run"
			echo "# new failures (fail here, pass on the base):"
			sed 's/^/NEW   /' "$dir/compliance.new-failures"
			echo "# known failures (fail here and on the base; v4l-utils 1.22 is older than the kernel):"
			sed 's/^/KNOWN /' "$dir/compliance.known-failures"
			echo "# fixed (fail on the base only):"
			sed 's/^/FIXED /' "$dir/compliance.fixed"
		} >"$dir/compliance.comparison"
		n=$(wc -l <"$dir/compliance.new-failures")
		[ "$n" -eq 0 ] || cproblems+=("$n new failing test(s): $(head -n 1 "$dir/compliance.new-failures")")
	fi
fi
known=$(wc -l <"$dir/compliance.failing")
if [ "${#cproblems[@]}" -gt 0 ]; then
	write_verdict "$dir/compliance.verdict" FAIL "$(IFS=';'; echo "${cproblems[*]}")"
elif [ "$known" -gt 0 ]; then
	write_verdict "$dir/compliance.verdict" WARN "$(IFS=';'; echo "${cnotes[*]}"); $known failing test(s), all failing on the base too (listed in compliance.comparison)"
else
	write_verdict "$dir/compliance.verdict" OK "$(IFS=';'; echo "${cnotes[*]}")"
fi
if [ -z "$basedir" ] && [ "$known" -gt 0 ]; then
	write_verdict "$dir/compliance.verdict" WARN "reference: $(IFS=';'; echo "${cnotes[*]}"); $known known failing test(s) in compliance.failing"
	[ "${#cproblems[@]}" -eq 0 ] || write_verdict "$dir/compliance.verdict" FAIL "$(IFS=';'; echo "${cproblems[*]}")"
fi

failed=0
for chk in guest console kunit mbus compliance; do
	read -r verdict reason <"$dir/$chk.verdict"
	printf '  %-4s boot %-10s %-4s %s\n' "$(basename "$(dirname "$dir")")" "$chk" "$verdict" "$reason"
	[ "$verdict" != FAIL ] || failed=$((failed + 1))
done
[ ! -f "$dir/console.tail" ] || { echo "    console tail:"; cat "$dir/console.tail"; }
if [ "$failed" -gt 0 ]; then
	write_verdict "$dir/boot.verdict" FAIL "$failed failing boot check(s)"
	exit 1
fi
write_verdict "$dir/boot.verdict" OK "all boot checks pass"
