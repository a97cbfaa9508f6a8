#!/usr/bin/env bash
# Builds the test VM's base initramfs: static busybox, the guest init, and
# every given program with the shared libraries it links (found with ldd),
# so the guest runs our binaries unchanged. Extra trees are copied verbatim.
#
# usage: mkinitramfs.sh OUT.cpio [-t SRC:DEST]... PROGRAM...
#   PROGRAM  host path, installed as /usr/bin/NAME
#   -t       copy file or directory SRC to DEST inside the guest
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: mkinitramfs.sh OUT.cpio [-t SRC:DEST]... PROGRAM...}
shift
root=$(mktemp -d "${out}.root.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,vm,root,home/user}
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
install -m 0755 "$here/init" "$root/init"
printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' >"$root/etc/group"
chown 1000:1000 "$root/home/user"

copy_libs() { # program
	ldd "$1" 2>/dev/null | grep -oE '/[^ ]+' | while read -r lib; do
		[ -e "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

while [ $# -gt 0 ]; do
	case "$1" in
	-t)
		src=${2%%:*}
		dest=${2#*:}
		mkdir -p "$root$(dirname "$dest")"
		cp -a "$src" "$root$dest"
		shift 2
		;;
	*)
		install -m 0755 "$1" "$root/usr/bin/$(basename "$1")"
		copy_libs "$1"
		shift
		;;
	esac
done

# The kernel parses every cpio header at boot, and how many instructions
# that takes depends on the hex digits of the mtimes and inode numbers:
# fixed times, renumbered inodes and a sorted order make the image, and so
# a benchmark boot under -icount, the same from build to build.
(cd "$root" && find . -exec touch -h -d @0 {} + &&
	find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=+0:+0 --reproducible --quiet) >"$out.tmp"
mv "$out.tmp" "$out"
