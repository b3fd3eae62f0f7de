#!/bin/bash
# The benchmark (ci/bench.sh) runs to its end and reports what its rows
# measured, with every tool it drives stubbed: the real run takes hours and
# is never part of the tests, so without this a bench that cannot finish
# goes unseen (from ca406cc to 1491b2a it stopped at the end of its first
# row under nounset, found only by a review).
#
# A fake workspace holds the real bench.sh, lib.sh, onechange.sh and
# stage-span.sh and stubs of kernel.sh, initramfs.sh, guest-root.sh,
# qemu.sh and config.sh; `make` and kunit.py are stubs too. The make stub
# writes stage times chosen here for rows c and d, so the figures the bench
# must print are worked out by hand below, never by the code under test:
#   c: check 3990-4000, builds 4005-4035, cocci 3985-4045, htmldocs
#      4046-4048 -> 63.0 s; boot 4050-4170 -> 120.0 s
#   d: check 4980-5000, builds 5010-5050, cocci 4995-5045, htmldocs
#      5050-5055 -> 75.0 s; boot 5100-5200 -> 100.0 s
# A second run has rows b, c (after writing its stage times) and e-v1
# fail and row d record no stage times: the bench still writes its table,
# takes no figure from a failed row, says why d has none, and exits
# non-zero naming b, c and e-v1.
# shellcheck source=ci/tests/lib.sh
. "$(dirname "$0")/lib.sh"
t_plan 14

fake=$T_TMP/ws bin=$T_TMP/bin calls=$T_TMP/calls
mkdir -p "$fake/ci" "$bin" "$fake/series-v1" "$fake/series-v2"
cp "$T_TOP"/ci/{lib,bench,onechange,stage-span}.sh "$T_TOP"/ci/checks "$fake/ci/"
# stub NAME BODY: an executable script in the fake workspace's ci/.
stub() {
	printf '#!/bin/bash\n%s\n' "$2" >"$fake/ci/$1"
	chmod +x "$fake/ci/$1"
}
stub kernel.sh 'a="$*" && d=$MBUS_CACHE/kernels/${a//[\/ ]/-} && mkdir -p "$d" && echo "$d"'
stub initramfs.sh 'echo "$1/guest.img"'
stub guest-root.sh 'echo "$MBUS_CACHE/root"'
stub qemu.sh 'k=${1#"$MBUS_CACHE"/kernels/}; echo "qemu $k append=${MBUS_GUEST_APPEND:-}" >>"$STUB_CALLS"
[ "${k%/bzImage}" != "${STUB_QEMU_FAIL:-}" ] || exit 3; echo MBUS-DONE >"$3"'
stub config.sh 'mkdir -p "$2"'
# A patch of one file, one added line of C.
mkpatch() {
	printf '%s\n' "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001" \
		"Subject: [PATCH] $2" "" "---" "diff --git a/$2 b/$2" "--- /dev/null" "+++ b/$2" \
		"@@ -0,0 +1 @@" "+int x;" >"$1"
}
mkpatch "$fake/series-v1/0001-a.patch" drivers/a.c
mkpatch "$fake/series-v2/0001-a.patch" drivers/a.c
mkpatch "$fake/series-v2/0002-b.patch" drivers/b.c
mkpatch "$fake/series-v2/0003-c.patch" drivers/c.c
git -C "$fake" init -q
git -C "$fake" add .
git -C "$fake" -c user.name=t -c user.email=t@t.invalid commit -q -m fake

# The make stub: "tree" makes a base tree with kunit.py; the main job
# (no target) is counted, leaves a commit on top of the base checked out
# (as apply does), and its 4th and 5th calls (rows c and d) write the
# stage times above where the stages would (stage_end: $MBUS_RESULTS) and
# note which of v2's patches carry the change. Neither stub runs on a
# cache outside the bench's directory.
cat >"$bin/make" <<'STUB'
#!/bin/bash
case $MBUS_CACHE in "$BENCH_DIR"/*) ;; *) echo "make stub: cache $MBUS_CACHE is not the bench's" >&2; exit 99 ;; esac
dir= target= args=()
for a; do
	if [ "$dir" = next ]; then dir=$a; continue; fi
	case $a in -C) dir=next ;; -*) ;; *=*) args+=("$a") ;; *) target="$target $a" args+=("$a") ;; esac
done
n=$(($(grep -c '^make' "$STUB_CALLS" 2>/dev/null) + 1))
echo "make $n ${dir##*/}: ${args[*]}" >>"$STUB_CALLS"
st() {
	local r=${MBUS_RESULTS:-$MBUS_CACHE/results}
	mkdir -p "$r" && printf '%s\t%s\t%s\t%s\n' "$@" >>"$r/stage-times"
}
case $target in
" tree")
	t=$MBUS_CACHE/linux
	mkdir -p "$t/tools/testing/kunit"
	printf '%s\n' 'import os, subprocess, sys' \
		'c, b = os.environ["MBUS_CACHE"], os.environ["BENCH_DIR"]' \
		'if not c.startswith(b + "/"): sys.exit("kunit stub: cache " + c + " is not the bench\x27s")' \
		'rev = lambda r: subprocess.run(["git", "-C", c + "/linux", "rev-parse", r], capture_output=True).stdout' \
		'base = "yes" if rev("HEAD") == rev("mbus-base^{commit}") else "no"' \
		'open(os.environ["STUB_CALLS"], "a").write("kunit at-base=" + base + " " + " ".join(sys.argv[1:]) + "\\n")' \
		>"$t/tools/testing/kunit/kunit.py"
	git -C "$t" init -q && git -C "$t" add . &&
		git -C "$t" -c user.name=t -c user.email=t@t.invalid commit -q -m base && git -C "$t" tag mbus-base ;;
"")
	echo "  changed: $(grep -l 'bench \*/' "$dir"/series-v2/*.patch | sed 's,.*/,,' | paste -sd ' ')" >>"$STUB_CALLS"
	git -C "$MBUS_CACHE/linux" -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m "rev $n"
	[ "$n" != "${STUB_NOSTAGES:-}" ] || exit 0
	st 5.0 OK "check v1" 3000.0
	if [ "$n" = 4 ]; then
		st 10.0 OK "check v2" 4000.0; st 30.0 OK "builds v2" 4035.0; st 60.0 OK "cocci v2" 4045.0
		st 2.0 OK "htmldocs v2" 4048.0; st 120.0 OK "boot v2" 4170.0
	elif [ "$n" = 5 ]; then
		st 20.0 OK "check v2" 5000.0; st 50.0 OK "cocci v2" 5045.0; st 40.0 OK "builds v2" 5050.0
		st 5.0 OK "htmldocs v2" 5055.0; st 100.0 OK "boot v2" 5200.0
	fi ;;
esac
# (A call named in STUB_FAIL fails after its work, stage times included.)
case " ${STUB_FAIL:-} " in *" $n "*) exit 2 ;; esac
STUB
chmod +x "$bin/make"

# run NAME [VAR=VALUE...]: the bench of the fake workspace into $T_TMP/NAME.
run() {
	local name=$1
	shift
	: >"$calls"
	# (The person's cache and home are elsewhere: the bench must not use
	# them.)
	env "$@" PATH="$bin:$PATH" STUB_CALLS="$calls" BENCH_DIR="$T_TMP/$name" \
		MBUS_CACHE="$T_TMP/user-cache" XDG_CACHE_HOME="$T_TMP/user-xdg" HOME="$T_TMP/user-home" \
		"$fake/ci/bench.sh" >"$T_TMP/$name.out" 2>&1
}

rc=0
run good || rc=$?
table=$(cat "$T_TMP/good/bench.txt" 2>/dev/null)
expect_eq "the bench runs to its end and exits 0" 0 "$rc"
expect_eq "every row is in the table, once: t a b c d, e of the base and each revision, q, q-guest, f, g" \
	"t a b c d e-mbus-base e-v1 e-v2 q q-guest f g" \
	"$(awk '$2 ~ /^[0-9.]+$/ && $3 ~ /^[0-9.]+$/ { print $1 }' <<<"$table" | paste -sd ' ')"
expect_eq "no row failed (of 12)" "12 rows, 0 failed" \
	"$(awk '$2 ~ /^[0-9.]+$/ && $3 ~ /^[0-9.]+$/ { n++; f += /FAILED/ } END { printf "%d rows, %d failed", n, f }' <<<"$table")"
# kunit.py's stub makes no build directory, as a kunit.py that fails early.
expect_match "row f: no build directory, so its disk is '-' and the bench goes on" \
	'^f +[0-9.]+ +[0-9.]+ +[0-9]+ +- +python3 ' "$table"
expect_match "row c: the per-patch checks of v2 from the stage times (63.0 s), its boot 120.0 s" \
	'^c: the per-patch checks of v2 63\.0 s .*its boot 120\.0 s ' "$table"
expect_match "row d: the per-patch checks 75.0 s, its boot 100.0 s" \
	'^d: the per-patch checks of v2 75\.0 s .*its boot 100\.0 s ' "$table"
expect_match "slowest stages of c: its boot first" \
	'slowest stages of c:[[:space:]]+120\.0 s  boot v2 \(OK\)' "$(tr '\n' ' ' <<<"$table")"
expect_eq "row c ran after the change of v2's last patch, row d after that of its first too" \
	"0003-c.patch|0001-a.patch 0003-c.patch" \
	"$(grep -A1 -E '^make [45] ' "$calls" | sed -n 's/^  changed: //p' | paste -sd '|')"
expect_eq "the guests: the base's and each revision's, then the quick guest with mbus.quick" \
	"mbus-base append=|rev-v1 append=|rev-v2 append=|--quick-rev-v2 append=mbus.quick" \
	"$(sed -n 's,^qemu \([^/]*\)/bzImage ,\1 ,p' "$calls" | paste -sd '|')"
expect_match "row q: make boot QUICK=1 REV=v2; row f: kunit.py run at the base commit" \
	'make 6 ws: boot QUICK=1 REV=v2 .*kunit at-base=yes run --arch=x86_64 ' "$(paste -sd ' ' "$calls")"
expect_eq "the person's workspace, cache and home are left alone (the bench has its own)" "|absent" \
	"$(git -C "$fake" status --porcelain)|$(ls -d "$T_TMP"/user-* 2>/dev/null || echo absent)"

rc=0
run bad STUB_FAIL="3 4" STUB_NOSTAGES=5 STUB_QEMU_FAIL=rev-v1 || rc=$?
table=$(cat "$T_TMP/bad/bench.txt" 2>/dev/null)
expect_eq "failed rows: the bench still writes its table, then exits non-zero naming them" \
	"1|error: bench: row(s) b c e-v1 failed" "$rc|$(grep -o 'error: bench: row(s) [a-z0-9 -]* failed' "$T_TMP/bad.out")"
expect_eq "the failed rows are marked in the table, and give no figure" \
	"b (FAILED: exit 2)|c (FAILED: exit 2)|e-v1 (FAILED: exit 3)|b/a = n/a   (b = failed;|c: the per-patch checks of v2 n/a (row c failed) (target for c <= 60 s), its boot n/a (row c failed) (target for c <= 150 s)|e-v1 = failed   (" \
	"$(sed -nE 's/^([a-z0-9-]+) .*(\(FAILED: exit [0-9]+\))$/\1 \2/p; s/^(b\/a = .*failed;).*/\1/p; /^c: /p; s/^(e-v1 = failed +\().*/\1/p' <<<"$table" | paste -sd '|')"
expect_match "a row without stage times: n/a and stage-span's reason in the table" \
	'^d: the per-patch checks of v2 n/a \(stage-span: [^ ]*/d\.stage-times: no such file' "$table"
t_done
