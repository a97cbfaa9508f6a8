#!/usr/bin/env bash
# Runs the selftest binary in the VM on each named kernel (as root and as
# uid 1000), twice: once loading Capsicum itself, once with capsicumd
# started at boot (the daemon selftests run then). A third boot runs the
# live-upgrade selftest and the loads under faults (test_faults.c), as
# root, with --tcg-single: attaching programs to hooks another vCPU runs
# crashes QEMU's multi-threaded TCG (doc/daemon.md, "Upgrading"), so the
# other boots skip them. Keeps a log
# per boot and prints one closing line summing every run:
# "selftests: N passed, N failed".
#
# usage: matrix.sh KERNEL...
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${O:-$top/build}
mkdir -p "$out/logs"

total_pass=0 total_fail=0 total_skip=0 bad=()
for run in "$@"; do
for mode in plain daemon upgrade; do
	k=$run
	log=$out/logs/selftest-$(basename "$k")-$mode.log
	flags=() tests=() want=2
	case $mode in
	daemon) flags=(--daemon) ;;
	upgrade) flags=(--tcg-single --root-only) want=1
		tests=(capsicumd_upgrade_leaves_no_window
			capsicumd_killed_before_version_pin_is_completed
			capsicumd_loads_over_an_empty_pin_directory
			capsicumd_refuses_an_unfinished_load_it_cannot_complete
			capsicumd_killed_in_a_storm_of_denials_loses_nothing
			capsicumd_two_started_at_once_one_wins) ;;
	esac
	echo "=== selftests on kernel $k, $mode (log: $log)"
	O=$out "$here/run-vm.sh" --kernel "$k" --timeout "${VM_TIMEOUT:-900}" \
		"${flags[@]}" -- capsicum_selftests "${tests[@]}" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	runs=$(grep -ac '^selftests: [0-9]* passed' "$log")
	p=$(grep -a '^selftests: [0-9]* passed' "$log" | awk '{s += $2} END {print s + 0}')
	f=$(grep -a '^selftests: [0-9]* passed' "$log" | awk '{s += $4} END {print s + 0}')
	s=$(grep -a '^selftests: [0-9]* passed' "$log" | awk '{s += $6} END {print s + 0}')
	total_pass=$((total_pass + p)) total_skip=$((total_skip + s))
	# Every run (root, uid 1000) must have reported; a missing report counts
	# as a failure so a crashed guest cannot look green.
	if [ "$rc" != 0 ] || [ "$runs" -lt "$want" ]; then
		bad+=("$k/$mode")
		[ "$f" -gt 0 ] || f=1
	fi
	total_fail=$((total_fail + f))
	echo "=== kernel $k, $mode: $p passed, $f failed, $s skipped (vm exit $rc)"
done
done
[ ${#bad[@]} -eq 0 ] || echo "=== failing kernels: ${bad[*]}"
echo "selftests: $total_pass passed, $total_fail failed, $total_skip skipped"
[ ${#bad[@]} -eq 0 ]
