#!/usr/bin/env bash
# Builds the patched kernel: unpacks the source package fetched by
# kernel/fetch-source.sh, applies kernel/patches/*.patch, configures
# `make tinyconfig` plus kernel/config.fragment (checking that every
# option of the fragment took), and builds a bzImage into
# OUT/kernels/patched/vmlinuz, beside the stock images. A build whose
# inputs (source version, patches, fragment, this script) have not
# changed is reused.
#
# usage: build.sh OUT
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUT}
src=$out/kernel
tree=$src/linux
objdir=$src/obj
dest=$out/kernels/patched
jobs=${KERNEL_JOBS:-$(nproc)}

[ -s "$src/source.deb" ] || {
	echo "kernel: no source package in $src (run 'make deps')" >&2
	exit 1
}
inputs=$( (cat "$src/source.got" "$here/config.fragment" "$0" "$here"/patches/*.patch) |
	sha256sum | cut -d' ' -f1)
if [ -s "$dest/vmlinuz" ] && [ "$(cat "$dest/inputs" 2>/dev/null)" = "$inputs" ]; then
	echo "kernel: $dest/vmlinuz is up to date"
	exit 0
fi

# A fresh tree for new inputs; the object directory is kept, so kbuild
# rebuilds only what the changed patches touch.
if [ "$(cat "$src/tree.inputs" 2>/dev/null)" != "$inputs" ]; then
	echo "kernel: unpacking $(cat "$src/source.got") and applying the series"
	rm -rf "$tree" "$src/unpack"
	mkdir -p "$src/unpack"
	dpkg-deb --fsys-tarfile "$src/source.deb" | tar -x -C "$src/unpack" ./usr/src
	tar -xf "$src"/unpack/usr/src/linux-source-*.tar.xz -C "$src/unpack"
	mv "$src"/unpack/linux-source-* "$tree"
	rm -rf "$src/unpack"
	for p in "$here"/patches/*.patch; do
		patch -d "$tree" -p1 --quiet --forward <"$p"
	done
	echo "$inputs" >"$src/tree.inputs"
fi

mkdir -p "$objdir"
make -C "$tree" O="$objdir" -s tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -O "$objdir" -m "$objdir/.config" \
	"$here/config.fragment" >/dev/null
make -C "$tree" O="$objdir" -s olddefconfig >/dev/null
missing=0
while IFS= read -r line; do
	case "$line" in '' | '#'*) continue ;; esac
	key=${line%%=*}
	if [ "${line#*=}" = n ]; then
		! grep -q "^$key=" "$objdir/.config" || { echo "kernel: $key is still set" >&2; missing=1; }
	elif ! grep -qxF "$line" "$objdir/.config"; then
		echo "kernel: $line did not take: $(grep "^$key=\|$key is not set" "$objdir/.config")" >&2
		missing=1
	fi
done <"$here/config.fragment"
[ "$missing" = 0 ] || exit 1

echo "kernel: building bzImage with $jobs jobs (a few minutes)"
start=$(date +%s)
make -C "$tree" O="$objdir" -s -j"$jobs" bzImage
mkdir -p "$dest"
cp "$objdir/arch/x86/boot/bzImage" "$dest/vmlinuz"
cp "$objdir/.config" "$dest/config"
echo "patched $(cat "$src/source.got")" >"$dest/package"
echo "$inputs" >"$dest/inputs"
echo "kernel: built $dest/vmlinuz in $(($(date +%s) - start)) s"
