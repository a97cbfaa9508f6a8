#!/usr/bin/env bash
# Writes the CO-RE header (vmlinux.h) for a kernel image: finds the
# compressed payload inside the bzImage (xz, zstd or gzip, whichever the
# distribution used), decompresses it to an ELF vmlinux and dumps its BTF.
#
# usage: vmlinux-h.sh BZIMAGE OUT.h
set -euo pipefail
image=${1:?usage: vmlinux-h.sh BZIMAGE OUT.h}
outh=${2:?usage: vmlinux-h.sh BZIMAGE OUT.h}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

try() { # magic decompressor...
	local magic=$1 off
	shift
	for off in $(LC_ALL=C grep -abo "$magic" "$image" | cut -d: -f1); do
		# Trailing bytes after the stream make the decompressor complain;
		# what counts is whether an ELF came out.
		tail -c +$((off + 1)) "$image" | "$@" >"$tmp/vmlinux" 2>/dev/null || true
		if [ "$(head -c 4 "$tmp/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ]; then
			return 0
		fi
	done
	return 1
}

try $'\xfd7zXZ\x00' xz -dc ||
	try $'\x28\xb5\x2f\xfd' zstd -dc ||
	try $'\x1f\x8b\x08' gzip -dc || {
	echo "vmlinux-h: no xz, zstd or gzip payload with an ELF kernel in $image" >&2
	exit 1
}
bpftool btf dump file "$tmp/vmlinux" format c >"$outh.tmp"
mv "$outh.tmp" "$outh"
echo "vmlinux-h: $(wc -l <"$outh") lines of types from $image"
