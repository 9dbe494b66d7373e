#!/usr/bin/env bash
# otf2_golden.sh PARSCOPE TESTDIR - the stored small trace exported to OTF2 and
# printed by otf2-print (definitions and events) equals golden/otf2-print.txt.
# PS_UPDATE_GOLDEN=1 rewrites it.
set -u
PS=$1
HERE=$2
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$PS" export "$HERE/golden/small.pst" --format otf2 -o "$W/a" -q || exit 1
{ otf2-print -G "$W/a/traces.otf2" && otf2-print "$W/a/traces.otf2"; } > "$W/print.txt" 2> "$W/err.txt" || { cat "$W/err.txt"; exit 1; }
if [ -s "$W/err.txt" ]; then echo "otf2-print warned:"; cat "$W/err.txt"; exit 1; fi
if [ "${PS_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$W/print.txt" "$HERE/golden/otf2-print.txt"; exit 0; fi
diff -u "$HERE/golden/otf2-print.txt" "$W/print.txt" || { echo "OTF2 dump differs from golden/otf2-print.txt"; exit 1; }
echo "OTF2 dump matches"
