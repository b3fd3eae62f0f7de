#!/bin/bash
# Stage "deps": install what the workspace uses, from Debian, with
# --no-install-recommends. Quiet and fast when everything is there.
# With --check: only report what is missing (exit 1 if anything is).
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

PACKAGES=(
	linux-source-6.12 git git-email libmailtools-perl libauthen-sasl-perl
	libio-socket-ssl-perl b4 sparse codespell ccache
	make gcc libc6-dev bc bison flex libelf-dev libssl-dev perl python3
	xz-utils kmod cpio qemu-system-x86 mmdebstrap arch-test
	shellcheck util-linux time gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed ||
		missing+=("$p")
done
[ "${#missing[@]}" -gt 0 ] || exit 0
if [ "${1:-}" = --check ]; then
	echo "missing: ${missing[*]}"
	exit 1
fi

stage_begin "deps"
if [ "$(id -u)" -ne 0 ]; then
	die "missing packages: ${missing[*]}
  install them as root with:
    apt-get install --no-install-recommends ${missing[*]}"
fi
export DEBIAN_FRONTEND=noninteractive
# The package lists of a fresh machine may be empty or stale.
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" ||
		die "apt-get install failed for: ${missing[*]}"
fi
stage_end OK "installed: ${missing[*]}"
