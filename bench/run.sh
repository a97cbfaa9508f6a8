#!/usr/bin/env bash
# make bench: one VM boot per kernel under -icount (guest time counts
# instructions, so runs repeat exactly), the raw lines of each kept in
# $O/bench/raw-KERNEL.txt, then the tables, JSON and chart from report.py.
#
# usage: run.sh KERNEL...
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${O:-$top/build}
dir=$out/bench
mkdir -p "$dir"

# The crypto self-tests run in a kernel thread for the first seconds of a
# 6.12 boot and would be timed with whatever shares the one vCPU with them;
# fixed user address layouts keep page-table work the same from run to run.
append="cryptomgr.notests norandmaps"

raws=() bad=()
for k in "$@"; do
	raw=$dir/raw-$(basename "$k").txt log=$dir/vm-$(basename "$k").log
	echo "=== bench on kernel $k (log: $log)"
	start=$SECONDS
	O=$out "$top/selftests/vm/run-vm.sh" --kernel "$k" --icount --root-only \
		--timeout "${BENCH_TIMEOUT:-900}" \
		--initrd "$out/vm/bench-initramfs.cpio" --result "$raw.vm" \
		--append "$append" \
		-- 'capsicum_bench >&3' >"$log" 2>&1
	rc=$?
	# Only the benchmark's own lines: the channel also carries the status.
	grep -a '^bench ' "$raw.vm" >"$raw"
	rm -f "$raw.vm"
	echo "=== kernel $k: vm exit $rc, $((SECONDS - start)) s wall"
	if [ "$rc" != 0 ] || ! grep -q '^bench done ok' "$raw"; then
		bad+=("$k")
		grep -a '^bench: ' "$log" | grep -v configuration >&2
	fi
	raws+=("$(basename "$k")=$raw")
done
python3 "$here/report.py" --out "$dir" --readme "$here/README.md" "${raws[@]}" || exit 1
if [ ${#bad[@]} -gt 0 ]; then
	echo "=== bench failed on: ${bad[*]}" >&2
	exit 1
fi
