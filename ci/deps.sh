#!/bin/bash
# Stage "deps": install what the workspace uses, from Debian, with
# --no-install-recommends. Quiet and fast when everything is there.
# With --check: only report what is missing (exit 1 if anything is).
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

# (libpython3.11: the Python of spatch's report rules; Debian's coccinelle
# depends only on python3, and spatch loads the library itself.)
PACKAGES=(
	linux-source-6.12 git git-email libmailtools-perl libauthen-sasl-perl
	libio-socket-ssl-perl b4 sparse codespell ccache
	make gcc libc6-dev bc bison flex libelf-dev libssl-dev perl python3
	xz-utils kmod cpio qemu-system-x86 mmdebstrap arch-test
	shellcheck util-linux time gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
	gcc-arm-linux-gnueabi clang lld llvm coccinelle libpython3.11 ocaml-nox python3-sphinx
	python3-sphinx-rtd-theme python3-yaml graphviz chromium fonts-dejavu-core
)

# One dpkg-query for all of them (a package it does not know is missing).
mapfile -t missing < <(
	dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2>/dev/null |
		awk '$2 == "installed" { print $1 }' | sort -u |
		comm -13 - <(printf '%s\n' "${PACKAGES[@]}" | sort -u)
)
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
