#!/bin/sh
# Prints "ALIAS PAGE" for every further name a section-3 man page documents
# (its NAME section's .Nm lines), so `man cap_rights_get` finds
# cap_rights_limit.3 as on FreeBSD. make install links them.
#
# usage: man-links.sh PAGE.3...
for page in "$@"; do
	base=$(basename "$page")
	sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([A-Za-z0-9_]*\).*/\1/p' "$page" |
		while read -r name; do
			[ "$name.3" = "$base" ] || echo "$name.3 $base"
		done
done
