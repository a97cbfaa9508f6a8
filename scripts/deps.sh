#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, as root: the apt packages the build and
# tests need, then the kernel images of the VM test matrix. Idempotent: a
# second run installs and downloads nothing.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${O:-$top/build}

if [ "$(id -u)" != 0 ]; then
	echo "deps: run as root (it installs packages with apt-get)" >&2
	exit 1
fi

mapfile -t wanted < <(grep -Ev '^[[:space:]]*(#|$)' "$top/scripts/apt-packages.txt")
missing=()
for p in "${wanted[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
else
	echo "deps: all ${#wanted[@]} apt packages present"
fi

"$top/selftests/vm/fetch-kernels.sh" "$out"
"$top/kernel/fetch-source.sh" "$out"
