#!/usr/bin/env bash
# Checks that the series also builds without CONFIG_SECURITY, where its
# hooks are the inline stubs of security.h: the objects the patches touch
# (and the headers they include), compiled in a tinyconfig of their own
# beside the real build's tree. Cached like build.sh, by its inputs.
#
# usage: check-nosecurity.sh OUT
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: check-nosecurity.sh OUT}
src=$out/kernel
tree=$src/linux
objdir=$src/obj-nosecurity
jobs=${KERNEL_JOBS:-$(nproc)}

[ -d "$tree" ] || {
	echo "kernel: no patched tree in $tree (run 'make kernel')" >&2
	exit 1
}
inputs=$( (cat "$src/tree.inputs" "$0") | sha256sum | cut -d' ' -f1)
if [ "$(cat "$objdir/checked" 2>/dev/null)" = "$inputs" ]; then
	echo "kernel: the series builds without CONFIG_SECURITY (checked)"
	exit 0
fi

# The objects the series changes that this configuration still builds
# (security.o and fs/bpf_fs_kfuncs.o need CONFIG_SECURITY and BPF; the
# real build compiles them). They include the patched headers.
objs="fs/file.o fs/namei.o kernel/entry/common.o kernel/fork.o"
mkdir -p "$objdir"
make -C "$tree" O="$objdir" -s tinyconfig >/dev/null
"$tree/scripts/config" --file "$objdir/.config" -d SECURITY
make -C "$tree" O="$objdir" -s olddefconfig >/dev/null
if grep -q '^CONFIG_SECURITY=y' "$objdir/.config"; then
	echo "kernel: CONFIG_SECURITY is still set in $objdir" >&2
	exit 1
fi
echo "kernel: building $objs without CONFIG_SECURITY"
# shellcheck disable=SC2086
make -C "$tree" O="$objdir" -s -j"$jobs" $objs
echo "$inputs" >"$objdir/checked"
echo "kernel: the series builds without CONFIG_SECURITY"
