#!/bin/bash
# Stage "initramfs": the guest image for one kernel, made with the kernel's
# own usr/gen_init_cpio: the guest's userspace from Debian 13 (the files/ of
# ci/guest-root.sh: busybox, v4l-utils amd64 and i386, libcamera's cam, their
# libraries and loaders), /dev/console, ci/guest/init, the guest test
# programs (C, built static from ci/guest/*.c) and the kernel's modules.
# Nothing of the host's userspace goes in. Rebuilt only when its inputs
# change. Prints the image's path.
#
# usage: initramfs.sh KERNELDIR GUESTROOT
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

kdir=${1:?usage: initramfs.sh KERNELDIR GUESTROOT}
groot=${2:?usage: initramfs.sh KERNELDIR GUESTROOT}
[ -f "$groot/versions" ] && [ -x "$groot/files/usr/bin/busybox" ] ||
	die "initramfs: $groot is not a guest root of ci/guest-root.sh (no versions or busybox)"
gen="$kdir/gen_init_cpio"
[ -x "$gen" ] || die "initramfs: $gen missing (the kernel build makes it)"
gdir="$MBUS_CACHE/guest"

# The guest programs, static, kept by the content of their source and the
# compiler (two checkouts sharing the cache never use each other's).
mkdir -p "$gdir/bin"
bins=()
for src in "$MBUS_TOP"/ci/guest/*.c; do
	[ -f "$src" ] || continue
	bin="$gdir/bin/$(basename "$src" .c)-$(cache_key "$0" "$(hash_files "$src")")"
	if [ ! -x "$bin" ]; then
		gcc -static -O2 -Wall -Wextra -Werror -o "$bin.tmp.$$" "$src" ||
			die "initramfs: $src does not build"
		mv "$bin.tmp.$$" "$bin"
	fi
	bins+=("$(basename "$src" .c) $bin")
done

spec="$gdir/spec.$$"
trap 'rm -f "$spec"' EXIT
{
	printf 'dir /%s 0755 0 0\n' bin sbin dev proc sys tmp lib usr
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	# (The workspace's tests boot fixture inits: MBUS_GUEST_INIT.)
	echo "file /init ${MBUS_GUEST_INIT:-$MBUS_TOP/ci/guest/init} 0755 0 0"
	echo "file /bin/busybox $groot/files/usr/bin/busybox 0755 0 0"
	for b in "${bins[@]}"; do
		echo "file /bin/${b%% *} ${b#* } 0755 0 0"
	done
	# Debian 13's files at their own paths (merged /usr: the loaders'
	# /lib64 and /lib are links into /usr).
	(cd "$groot/files" && find usr -mindepth 1 -type d | sort | sed 's|^|dir /|; s|$| 0755 0 0|')
	(cd "$groot/files" && find usr -type f | sort) | while read -r f; do
		echo "file /$f $groot/files/$f 0755 0 0"
	done
	echo "slink /lib64 usr/lib64 0777 0 0"
	echo "slink /lib/ld-linux.so.2 ../usr/lib/ld-linux.so.2 0777 0 0"
	# The kernel's modules.
	(cd "$kdir/mods" && find lib -type d | sort | sed 's|^|dir /|; s|$| 0755 0 0|')
	(cd "$kdir/mods" && find lib -type f | sort) | while read -r f; do
		echo "file /$f $kdir/mods/$f 0644 0 0"
	done
} >"$spec"

# Keyed by the contents, not by where the workspace is checked out.
key=$( { sed "s|$MBUS_TOP|@TOP@|g" "$spec"; awk '$1 == "file" { print $3 }' "$spec" | xargs cat; } |
	sha256sum | cut -c1-16)
img="$gdir/initramfs-$key.cpio"
if [ ! -f "$img" ]; then
	"$gen" "$spec" >"$img.tmp" || die "initramfs: gen_init_cpio failed on $spec"
	mv "$img.tmp" "$img"
fi
echo "$img"
