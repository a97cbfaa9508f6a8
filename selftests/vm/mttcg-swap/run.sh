#!/usr/bin/env bash
# Does swapping a BPF program on a hook another vCPU runs crash the guest?
# Builds swap.c and swap.bpf.c (not part of make), boots them RUNS times.
# Found for the live upgrade (doc/daemon.md, "Upgrading"): with QEMU 7.2's
# multi-threaded TCG and two vCPUs the guest oopses (int3 at
# bpf_lsm_task_prctl+0x5, 6.12) or hangs (6.1); with one vCPU, or two run
# by one host thread, it never did.
#
# An old link detaches only when its pin's inode is freed, after an RCU
# grace period, so fast cycles pile links up on the hook until the
# trampoline's limit (38: E2BIG); 30 cycles stay below it.
#
# usage: run.sh KERNEL mttcg|single|smp1 [RUNS [CYCLES]]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${O:-$top/build}
kernel=${1:?kernel} mode=${2:?mode} runs=${3:-3} cycles=${4:-30}
b=$out/mttcg-swap
mkdir -p "$b"
clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$top/vmlinux" \
	-c "$here/swap.bpf.c" -o "$b/swap.bpf.o" &&
	bpftool gen skeleton "$b/swap.bpf.o" name swap_bpf >"$b/swap.skel.h" &&
	gcc -O2 -Wall -I"$b" -o "$b/swap" "$here/swap.c" -lbpf -lelf -lz &&
	"$top/selftests/vm/mkinitramfs.sh" "$b/initramfs.cpio" "$b/swap" || exit 1
case $mode in
mttcg) flags=() ;;
single) flags=(--tcg-single) ;;
smp1) flags=(--smp 1) ;;
*) echo "run.sh: mode is mttcg, single or smp1" >&2; exit 2 ;;
esac
for i in $(seq 1 "$runs"); do
	log=$b/$kernel-$mode-$i.log
	O=$out "$top/selftests/vm/run-vm.sh" --kernel "$kernel" --initrd "$b/initramfs.cpio" \
		--root-only --timeout 300 "${flags[@]}" -- swap "$cycles" >"$log" 2>&1
	if grep -aq "swap-experiment done: $cycles of" "$log"; then r=survived
	elif grep -aq 'Oops\|soft lockup\|rcu.*stall\|did not finish' "$log"; then r=crashed
	else r=unknown; fi
	echo "$kernel $mode run $i: $r ($log)"
done
