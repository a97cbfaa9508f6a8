#!/usr/bin/env bash
# Boots the test VM and runs one command in it, as root and then as uid 1000,
# propagating the guest's status to the host.
#
# usage: run-vm.sh [options] -- COMMAND...
#   --kernel NAME|PATH  a kernel of the matrix (kernels.txt, unpacked under
#                       $O/kernels/NAME) or the path of a bzImage  [6.12]
#   --initrd FILE       base initramfs built by mkinitramfs.sh
#                       [$O/vm/initramfs.cpio]
#   --timeout SECONDS   wall-clock limit for the whole boot          [600]
#   --icount            deterministic timing: -icount shift=0,sleep=off,
#                       one vCPU (guest time counts guest instructions), and
#                       the guest's RTC runs on that clock from a fixed date
#   --append ARGS       extra kernel command-line arguments
#   --root-only         do not repeat the command as uid 1000
#   --daemon            start capsicumd at boot (its init script) first
#   --result FILE       keep the result channel (second serial port) here
#   --smp N             vCPUs when not --icount                       [2]
#   --tcg-single        two vCPUs run by one host thread (-accel
#                       tcg,thread=single): QEMU 7.2's multi-threaded TCG
#                       crashes the guest when a BPF program is attached to
#                       a hook another vCPU is running (doc/daemon.md,
#                       "Upgrading"); the live-upgrade selftest needs this
#                       and skips without it (capsicum_tcg=single on the
#                       kernel command line tells it)
#
# Exit status: the command's (0 only if it passed as root and as uid 1000),
# 1 if the guest died, hung past the timeout or never reported.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${O:-$top/build}
kernel=6.12
initrd=$out/vm/initramfs.cpio
timeout=600
icount=0
as_user=1
daemon=0
result=
append=
accel=tcg
smp=2

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--root-only) as_user=0; shift ;;
	--daemon) daemon=1; shift ;;
	--result) result=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--tcg-single) accel=tcg,thread=single; append="${append:+$append }capsicum_tcg=single"; shift ;;
	--) shift; break ;;
	*) echo "run-vm: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "run-vm: no command given" >&2; exit 2; }

if [ -f "$kernel" ]; then
	image=$kernel
elif [ -f "$out/kernels/$kernel/vmlinuz" ]; then
	image=$out/kernels/$kernel/vmlinuz
else
	echo "run-vm: no kernel '$kernel': neither a file nor $out/kernels/$kernel/vmlinuz (run 'make deps')" >&2
	exit 2
fi
[ -f "$initrd" ] || { echo "run-vm: no initramfs $initrd (run 'make')" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/capsicum-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -n "$result" ] || result=$work/result

# The command travels as a second cpio archive appended to the base one:
# the kernel unpacks both, so the base image is built once per build.
mkdir -p "$work/extra/vm"
printf '%s\n' "$*" >"$work/extra/vm/cmd"
printf 'VM_CMD="sh /vm/cmd"\nVM_AS_USER=%s\nVM_DAEMON=%s\n' "$as_user" "$daemon" \
	>"$work/extra/vm/env"
# Fixed times and inode numbers: the kernel's cost of parsing the headers
# depends on their digits, which would make -icount boots differ.
(cd "$work/extra" && find . -exec touch -h -d @0 {} + &&
	find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=+0:+0 --reproducible --quiet) >"$work/extra.cpio"
cat "$initrd" "$work/extra.cpio" >"$work/initrd"

qemu=(qemu-system-x86_64 -accel "$accel" -m 1024 -display none -monitor none
	-no-reboot -nic none
	-kernel "$image" -initrd "$work/initrd"
	-append "console=ttyS0 quiet panic=-1 rdinit=/init${append:+ $append}"
	-serial stdio -serial "file:$result")
if [ "$icount" = 1 ]; then
	# A host-time RTC would seed the guest's entropy differently per run.
	qemu+=(-smp 1 -icount shift=0,sleep=off
		-rtc base=2026-01-01T00:00:00,clock=vm)
else
	qemu+=(-smp "$smp")
fi

# init writes "status 1" on the result port first thing: a result still
# empty means the guest died before userspace, so before any of our code
# ran (TCG has, rarely, panicked in early boot). That boot is retried
# once; anything after init started counts as it is.
for boot in 1 2; do
	: >"$result"
	rc=0
	timeout -k 10 "$timeout" "${qemu[@]}" </dev/null || rc=$?
	[ -s "$result" ] || [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ "$boot" = 2 ] ||
		{ echo "run-vm: guest died before init (qemu exit $rc); booting again" >&2; continue; }
	break
done
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "run-vm: guest did not finish within ${timeout}s" >&2
	exit 1
fi
status=$(grep -a '^capsicum-vm: status ' "$result" | tail -n 1 | awk '{print $3}')
case "$status" in
0) exit 0 ;;
'') echo "run-vm: guest never reported a status (qemu exit $rc)" >&2; exit 1 ;;
*) exit 1 ;;
esac
