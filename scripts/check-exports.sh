#!/usr/bin/env bash
# Checks that the shared libraries (libcapsicum, libcasper) export, between
# them, exactly the functions their installed headers declare: nothing internal leaks out (a program could
# come to depend on it) and nothing public is missing (a program that
# builds would not link). The declarations come from the compiler itself
# (gcc -aux-info over every header), not from grepping C.
#
# usage: check-exports.sh INCLUDEDIR LIB.so...
set -euo pipefail

inc=${1:?usage: check-exports.sh INCLUDEDIR LIB.so...}
shift
[ $# -gt 0 ] || { echo "usage: check-exports.sh INCLUDEDIR LIB.so..." >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declared in our headers but defined by libc: capsicum_helpers.h
# redeclares tzset() for strict ISO C modes.
libc_redeclared='^tzset$'
# Defined here in libc's place, under libc's versions (lib/libcapsicum.map):
# poll() reports POLLHUP for process descriptors, as FreeBSD's does.
libc_replaced='^(poll|__poll_chk)$'

(cd "$inc" && find . -name '*.h' | sed 's|^\./|#include <|; s|$|>|') >"$tmp/all.c"
gcc -std=gnu11 -I"$inc" -fsyntax-only -aux-info "$tmp/aux" "$tmp/all.c"
# Lines look like: /* INC/sys/capsicum.h:77:NC */ extern int cap_rights_limit (int, ...);
# Only external declarations from $inc count; static inline helpers do not.
grep -F "/* $inc/" "$tmp/aux" | grep -F ' */ extern ' |
	sed -E 's/ \(.*//; s/.*[ *]//' | grep -Ev "$libc_redeclared" |
	sort -u >"$tmp/declared"
for lib in "$@"; do nm -D --defined-only "$lib"; done | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
	grep -Ev "$libc_replaced" | sort -u >"$tmp/exported"

if [ ! -s "$tmp/declared" ]; then
	echo "check-exports: no function declarations found under $inc" >&2
	exit 1
fi
if ! diff -u --label declared --label exported "$tmp/declared" "$tmp/exported"; then
	echo "check-exports: $* and the headers in $inc disagree (- declared only, + exported only)" >&2
	exit 1
fi
echo "check-exports: $(wc -l <"$tmp/exported") functions exported by $#" \
	"libraries, all declared in $inc"
