#!/usr/bin/env bash
# Runs the selftest binary in the VM on each named kernel (as root and as
# uid 1000), keeps a log per kernel, and prints one closing line summing
# every run: "selftests: N passed, N failed".
#
# usage: matrix.sh KERNEL...
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${O:-$top/build}
mkdir -p "$out/logs"

total_pass=0 total_fail=0 total_skip=0 bad=()
for k in "$@"; do
	log=$out/logs/selftest-$(basename "$k").log
	echo "=== selftests on kernel $k (log: $log)"
	O=$out "$here/run-vm.sh" --kernel "$k" --timeout "${VM_TIMEOUT:-900}" \
		-- capsicum_selftests 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	runs=$(grep -ac '^selftests: [0-9]* passed' "$log")
	p=$(grep -a '^selftests: [0-9]* passed' "$log" | awk '{s += $2} END {print s + 0}')
	f=$(grep -a '^selftests: [0-9]* passed' "$log" | awk '{s += $4} END {print s + 0}')
	s=$(grep -a '^selftests: [0-9]* passed' "$log" | awk '{s += $6} END {print s + 0}')
	total_pass=$((total_pass + p)) total_skip=$((total_skip + s))
	# Both runs (root, uid 1000) must have reported; a missing report counts
	# as a failure so a crashed guest cannot look green.
	if [ "$rc" != 0 ] || [ "$runs" -lt 2 ]; then
		bad+=("$k")
		[ "$f" -gt 0 ] || f=1
	fi
	total_fail=$((total_fail + f))
	echo "=== kernel $k: $p passed, $f failed, $s skipped (vm exit $rc)"
done
[ ${#bad[@]} -eq 0 ] || echo "=== failing kernels: ${bad[*]}"
echo "selftests: $total_pass passed, $total_fail failed, $total_skip skipped"
[ ${#bad[@]} -eq 0 ]
