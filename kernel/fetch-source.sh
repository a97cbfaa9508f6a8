#!/usr/bin/env bash
# Downloads the kernel source package of kernel/source.txt into
# OUT/kernel/, through the private apt state of selftests/vm/fetch-kernels.sh
# (the system's sources are never changed). Nothing is installed.
# Idempotent: a second run downloads nothing.
#
# usage: fetch-source.sh OUT
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fetch-source.sh OUT}
read -r pkg version suite < <(grep -Ev '^[[:space:]]*(#|$)' "$here/source.txt")
dir=$out/kernel
deb=$dir/source.deb

if [ -s "$deb" ] && [ "$(cat "$dir/source.version" 2>/dev/null)" = "$version" ]; then
	echo "deps: kernel source: $pkg $version already downloaded"
	exit 0
fi
state=$out/apt/$suite
[ -s "$state/sources.list" ] || {
	echo "deps: no apt state for $suite (selftests/vm/fetch-kernels.sh makes it)" >&2
	exit 1
}
opts=(-o "Dir::Etc::SourceList=$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State=$state/state" -o Dir::State::status=/dev/null
	-o "Dir::Cache=$state/cache" -o Debug::NoLocking=1 -q)
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/dl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
got=$version
if ! apt-cache "${opts[@]}" show "$pkg=$version" >/dev/null 2>&1; then
	got=$(apt-cache "${opts[@]}" policy "$pkg" | awk '/Candidate:/ {print $2}')
	[ -n "$got" ] && [ "$got" != "(none)" ] || {
		echo "deps: kernel source: no $pkg in $suite" >&2
		exit 1
	}
	echo "deps: kernel source: pinned $pkg $version is gone from $suite;" \
		"using $got (the series may need a refresh: kernel/README)" >&2
fi
(cd "$tmp" && apt-get "${opts[@]}" download "$pkg=$got" 2>&1 |
	grep -v '^W: Download is performed unsandboxed' || true)
mv "$tmp"/*.deb "$deb"
# The pinned version is what was asked for: a fallback is fetched again
# once the pin is updated.
echo "$version" >"$dir/source.version"
echo "$got" >"$dir/source.got"
echo "deps: kernel source: downloaded $pkg $got"
