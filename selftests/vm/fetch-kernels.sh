#!/usr/bin/env bash
# Downloads the kernel images of the test matrix (selftests/vm/kernels.txt)
# as .deb files with apt, through a private apt state per Debian suite so the
# system's sources are never changed, and unpacks /boot into
# OUT/kernels/NAME/. Nothing is installed. Idempotent.
#
# usage: fetch-kernels.sh OUT
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fetch-kernels.sh OUT}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

apt_opts() { # suite
	local d="$out/apt/$1"
	echo "-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/dev/null" \
		"-o Dir::State=$d/state -o Dir::State::status=/dev/null" \
		"-o Dir::Cache=$d/cache -o Debug::NoLocking=1 -q"
}

apt_setup() { # suite
	local d="$out/apt/$1"
	[ -s "$d/sources.list" ] && ls "$d/state/lists/"*Packages* >/dev/null 2>&1 && return 0
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial"
	cat >"$d/sources.list" <<LIST
deb [signed-by=$keyring] http://deb.debian.org/debian $1 main
deb [signed-by=$keyring] http://deb.debian.org/debian-security $1-security main
LIST
	# shellcheck disable=SC2046
	apt-get $(apt_opts "$1") update >/dev/null
}

fetch() { # name suite pinned fallback-regex
	local name=$1 suite=$2 pinned=$3 regex=$4 dir="$out/kernels/$1" pkg
	if [ -s "$dir/vmlinuz" ] && [ "$(cat "$dir/package" 2>/dev/null)" = "$pinned" ]; then
		echo "deps: kernel $name: $pinned already unpacked"
		return 0
	fi
	apt_setup "$suite"
	# shellcheck disable=SC2046
	if apt-cache $(apt_opts "$suite") show "$pinned" >/dev/null 2>&1; then
		pkg=$pinned
	else
		# shellcheck disable=SC2046
		pkg=$(apt-cache $(apt_opts "$suite") pkgnames linux-image- |
			grep -E "$regex" | sort -V | tail -n 1)
		if [ -z "$pkg" ]; then
			echo "deps: kernel $name: neither $pinned nor any package matching $regex in $suite" >&2
			return 1
		fi
		echo "deps: kernel $name: pinned $pinned is gone from $suite;" \
			"falling back to the newest of the series, $pkg (untested: update kernels.txt)" >&2
	fi
	if [ -s "$dir/vmlinuz" ] && [ "$(cat "$dir/package" 2>/dev/null)" = "$pkg" ]; then
		echo "deps: kernel $name: $pkg already unpacked"
		return 0
	fi
	local tmp
	tmp=$(mktemp -d "$out/apt/dl.XXXXXX")
	# shellcheck disable=SC2046
	(cd "$tmp" && apt-get $(apt_opts "$suite") download "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
	local deb
	deb=$(ls "$tmp"/*.deb)
	rm -rf "$dir" && mkdir -p "$dir"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./boot
	cp "$tmp"/boot/vmlinuz-* "$dir/vmlinuz"
	cp "$tmp"/boot/config-* "$dir/config"
	dpkg-deb -f "$deb" Version >"$dir/version"
	echo "$pkg" >"$dir/package"
	rm -rf "$tmp"
	echo "deps: kernel $name: unpacked $pkg $(cat "$dir/version")"
}

mkdir -p "$out/apt" "$out/kernels"
while read -r name suite pinned regex; do
	case "$name" in '' | '#'*) continue ;; esac
	fetch "$name" "$suite" "$pinned" "$regex"
done <"$here/kernels.txt"
