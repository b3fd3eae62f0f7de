#!/bin/bash
# Stage "guest-root": the guest's userspace, from Debian 13 (trixie), whose
# v4l-utils and libcamera match the 6.12 kernel (Debian 12's v4l-utils 1.22
# is older than 6.12: its v4l2-compliance misses tests and fails others).
#
# Two roots are made with Debian's mmdebstrap from the host's package
# registry: amd64 with v4l-utils, libcamera-tools, libcamera-ipa,
# busybox-static and coreutils, and i386 with v4l-utils (the 32-bit
# v4l2-compliance and v4l2-ctl, for the compat ioctl path) and coreutils.
# coreutils gives stdbuf and its libstdbuf.so: v4l2-compliance's output
# goes to a file, so its stdout is fully buffered, and the children that
# its testVividDisconnect forks print what the parent had buffered again
# when they exit; test-media runs it under stdbuf -oL.
#
# Only what the guest runs is kept: the programs, the shared libraries
# each needs (readelf; nothing of the roots is executed on the host), the
# loaders, libcamera's IPA modules and data. The result is kept in the
# cache by the package set, the suite, the mirror and this script; the
# exact versions the roots got are written beside it (versions) and read by
# the boot stage, the judge and the cover letter. MBUS_GUEST_REFRESH=1
# fetches again.
#
# If the registry cannot be reached and nothing is kept, the stage stops,
# naming the packages and the mirror; the host's own v4l-utils are never
# used instead.
#
# usage: guest-root.sh          (prints the directory: files/ versions)
#        guest-root.sh --peek   (prints it only if it is kept; never fetches)
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

suite=trixie
mirror=${MBUS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
pkgs64=(v4l-utils libcamera-tools libcamera-ipa busybox-static coreutils)
pkgs32=(v4l-utils coreutils)
# The programs the guest runs, from each root (guest path = root path;
# the i386 ones get a -32 suffix, as v4l-utils' test-media names them).
progs64=(/usr/bin/busybox /usr/bin/v4l2-compliance /usr/bin/media-ctl /usr/bin/v4l2-ctl /usr/bin/cam /usr/bin/stdbuf)
progs32=(/usr/bin/v4l2-compliance /usr/bin/v4l2-ctl)
# stdbuf preloads libstdbuf.so from its own directory if it is there, else
# from /usr/libexec/coreutils: the amd64 one is kept there, the i386 one
# beside an i386 stdbuf in /usr/libexec/coreutils-32 (a 64-bit library
# cannot be preloaded into a 32-bit program).
stdbuf_lib=/usr/libexec/coreutils/libstdbuf.so

key=$(cache_key "$0" "$suite" "$mirror" "amd64: ${pkgs64[*]}" "i386: ${pkgs32[*]}" \
	"${progs64[*]}" "${progs32[*]}" "$stdbuf_lib")
name=guest-root
if cache_has "$name" "$key" && { [ -z "${MBUS_GUEST_REFRESH:-}" ] || [ "${1:-}" = --peek ]; }; then
	cache_path "$name" "$key"
	exit 0
fi
[ "${1:-}" != --peek ] || exit 1

stage_begin "guest-root $suite" >&2
[ "$(id -u)" -eq 0 ] || die "guest-root: mmdebstrap needs root (run as root)"
command -v mmdebstrap >/dev/null || die "guest-root: mmdebstrap is not installed (make deps)"
command -v readelf >/dev/null || die "guest-root: readelf is not installed (make deps: binutils)"
work=$(mktemp -d "${TMPDIR:-/var/tmp}/mbus-guest-root.XXXXXX")
trap 'rm -rf "$work"' EXIT
out="$work/out"
mkdir -p "$out/files"

# mkroot ARCH DIR PKG...: the packages and their dependencies, extracted
# (mmdebstrap's "extract" variant: nothing of the root is executed on the
# host, so an i386 root needs neither the host kernel's IA32 emulation nor
# qemu-user; measured: a host without them fails the "essential" variant),
# the .debs kept for their versions; or a clear error.
mkroot() {
	local arch=$1 dir=$2 log="$work/mmdebstrap-$1.log"
	shift 2
	info "  guest-root: mmdebstrap $suite $arch: $*" >&2
	if ! mmdebstrap --quiet --mode=root --variant=extract --architectures="$arch" \
		--skip=download/empty,cleanup/apt/cache --include="$(
			IFS=,
			echo "$*"
		)" "$suite" "$dir" "$mirror" >"$log" 2>&1; then
		grep -E '^(E:|W:|Err:)|Could not|Failed|failed' "$log" | sort -u | head -n 8 | sed 's/^/    /' >&2
		die "guest-root: could not fetch Debian $suite ($arch) packages $* from $mirror (mmdebstrap failed; log above)"
	fi
}

# resolve ROOT PATH: PATH inside ROOT with its symlinks followed (absolute
# ones against ROOT), as a merged-/usr system sees it (/lib -> /usr/lib).
resolve() {
	local root=$1 p=$2 t i
	for ((i = 0; i < 40; i++)); do
		case $p in /lib/* | /lib64/* | /bin/* | /sbin/*) p=/usr$p ;; esac
		p=$(realpath -sm "$p")
		[ -L "$root$p" ] || break
		t=$(readlink "$root$p")
		case $t in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
	done
	[ -f "$root$p" ] || die "guest-root: $2: not in the $suite root ($root)"
	echo "$p"
}

# keep ROOT PATH [GUESTPATH]: copy a file of ROOT into the guest's files,
# its symlinks resolved, under GUESTPATH (default: its merged-/usr path).
keep() {
	local root=$1 path=$2 dest=${3:-} real
	real=$(resolve "$root" "$path") || exit 1
	[ -n "$dest" ] || dest=$(realpath -sm "$path")
	case $dest in /lib/* | /lib64/*) dest=/usr$dest ;; esac
	mkdir -p "$out/files$(dirname "$dest")"
	cp "$root$real" "$out/files$dest"
}

# closure ROOT LIBDIR FILE...: the shared libraries the FILEs need, every
# DT_NEEDED of theirs and of those in turn (readelf, not the root's ldd:
# nothing of the root runs here), found in LIBDIR or /usr/lib of ROOT.
closure() {
	local root=$1 libdir=$2 f n l d real dyn dirs
	shift 2
	local -a todo=("$@")
	local -A seen=()
	while [ "${#todo[@]}" -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		real=$(resolve "$root" "$f") || exit 1
		dyn=$(readelf -d "$root$real") || die "guest-root: readelf -d $f failed"
		# Its RUNPATH/RPATH first ($ORIGIN: its own directory).
		dirs=$(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]$/\2/p' <<<"$dyn" | tr : ' ')
		dirs=${dirs//\$ORIGIN/$(dirname "$real")}
		while read -r n; do
			[ -n "$n" ] && [ -z "${seen[$n]:-}" ] || continue
			seen[$n]=1
			l=
			for d in $dirs "$libdir" /usr/lib; do
				[ -e "$root$d/$n" ] && { l=$d/$n; break; }
			done
			[ -n "$l" ] || die "guest-root: $f needs $n, which is not in the $suite root"
			echo "$l"
			todo+=("$l")
		done < <(sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' <<<"$dyn")
	done | sort -u
}

mkroot amd64 "$work/r64" "${pkgs64[@]}"
mkroot i386 "$work/r32" "${pkgs32[@]}"

r=$work/r64
ipa=(/usr/lib/x86_64-linux-gnu/libcamera/ipa_vimc.so)
for p in "${progs64[@]}"; do keep "$r" "$p"; done
for f in "${ipa[@]}"; do keep "$r" "$f"; keep "$r" "$f.sign"; done
keep "$r" "$stdbuf_lib"
libs=$(closure "$r" /usr/lib/x86_64-linux-gnu "${progs64[@]}" "${ipa[@]}" "$stdbuf_lib") || exit 1
for f in $libs; do keep "$r" "$f"; done
keep "$r" /lib64/ld-linux-x86-64.so.2
mkdir -p "$out/files/usr/share"
cp -a "$r/usr/share/libcamera" "$out/files/usr/share/"

r=$work/r32
for p in "${progs32[@]}"; do keep "$r" "$p" "$p-32"; done
keep "$r" /usr/bin/stdbuf /usr/libexec/coreutils-32/stdbuf
keep "$r" "$stdbuf_lib" /usr/libexec/coreutils-32/libstdbuf.so
libs=$(closure "$r" /usr/lib/i386-linux-gnu "${progs32[@]}" /usr/bin/stdbuf "$stdbuf_lib") || exit 1
for f in $libs; do keep "$r" "$f"; done
keep "$r" /lib/ld-linux.so.2

# The exact versions the roots got: every package extracted into either.
{
	echo "# Debian $suite from $mirror, by mmdebstrap $(dpkg-query -W -f '${Version}' mmdebstrap)"
	for deb in "$work"/r64/var/cache/apt/archives/*.deb "$work"/r32/var/cache/apt/archives/*.deb; do
		dpkg-deb -W --showformat '${Package}:${Architecture} ${Version}\n' "$deb"
	done | sort -u
} >"$out/versions"
grep -q '^v4l-utils:amd64 ' "$out/versions" && grep -q '^v4l-utils:i386 ' "$out/versions" &&
	grep -q '^libcamera-tools:amd64 ' "$out/versions" ||
	die "guest-root: the roots lack v4l-utils or libcamera-tools (see $out/versions)"
cache_put "$name" "$key" "$out"
stage_end OK "$(grep -E '^(v4l-utils:amd64|libcamera-tools:amd64|busybox-static:amd64) ' "$out/versions" | tr '\n' ' ')" >&2
cache_path "$name" "$key"
