#!/bin/bash
# Stage "qemu": boot a kernel and a guest image under QEMU: serial console on
# stdio, no network, no reboot, a wall-clock limit. KVM only if a short probe
# boot under KVM succeeds on this machine (on these machines /dev/kvm exists
# but guests have hung under it); TCG otherwise. Writes the console to LOG
# and says which accelerator ran it.
#
# usage: qemu.sh BZIMAGE INITRD LOG [TIMEOUT_SECONDS]
# shellcheck source=ci/lib.sh
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 log=$3 limit=${4:-${MBUS_GUEST_TIMEOUT:-900}}
# The guest's memory (MiB), sized from the measured peak: see README.
mem=${MBUS_GUEST_MEM:-4096}
append="console=ttyS0 panic=-1 oops=panic kunit.enable=1"
append+=" kmemleak=on ${MBUS_GUEST_APPEND:-}"

qemu() {
	local accel=$1 t=$2 out=$3
	shift 3
	timeout --foreground -k 5 "$t" qemu-system-x86_64 -machine q35 \
		-accel "$accel" -cpu max -smp 2 -m "$mem" -nodefaults -no-reboot \
		-display none -serial stdio -net none \
		-kernel "$kernel" -initrd "$initrd" -append "$append $*" \
		</dev/null >"$out" 2>&1
}

# KVM is used only if a probe boot gets to userspace; decided once a cache.
accel=tcg
probe="$MBUS_CACHE/kvm-probe"
if [ "${MBUS_KVM:-auto}" = auto ] && [ -w /dev/kvm ]; then
	if [ ! -f "$probe" ]; then
		if qemu kvm 30 "$probe.log" mbus.probe && grep -q MBUS-PROBE-OK "$probe.log"; then
			echo kvm >"$probe"
		else
			echo tcg >"$probe"
		fi
	fi
	accel=$(cat "$probe")
fi

rc=0
qemu "$accel" "$limit" "$log" || rc=$?
# The serial console ends its lines with CR LF.
sed -i 's/\r$//' "$log"
echo "$accel" >"$log.accel"
case $rc in
0) ;;
124 | 137) echo "MBUS-HOST: timeout after ${limit}s ($accel)" >>"$log" ;;
*) echo "MBUS-HOST: qemu exited with $rc ($accel)" >>"$log" ;;
esac
exit 0
