#!/bin/bash
# runpath.sh - parscope loads its libraries from where it was built or installed, never from the
# folder it is run in: no binary or shared library of the build (nor of an install of it) has an
# empty RUNPATH entry (which the loader reads as the current directory), and parscope run from a
# folder that holds a file named like one of its libraries starts as usual.
# usage: runpath.sh BUILD_DIR
set -u
B=$(cd "$1" && pwd)
T=$(mktemp -d /tmp/ps_runpath.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
cmake --install "$B" --prefix "$T/inst" > "$T/install.log" 2>&1 || { cat "$T/install.log" >&2; fail "cmake --install"; }
checked=0
while IFS= read -r -d '' f; do
    head -c 4 "$f" 2>/dev/null | grep -q ELF || continue
    rp=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]$/\1/p')
    checked=$((checked + 1))
    [ -z "$rp" ] && continue
    case ":$rp:" in *::*) fail "$f: RUNPATH [$rp] has an empty entry (the current directory)" ;; esac
done < <(find "$B/bin" "$B" -maxdepth 1 -type f \( -perm -u+x -o -name '*.so*' \) -print0; find "$T/inst" -type f -print0)
[ "$checked" -ge 3 ] || fail "only $checked ELF files found under $B/bin, $B and the install"
# a decoy of every library the binary needs, in the folder it runs in
mkdir "$T/cwd"
for lib in $(readelf -d "$B/bin/parscope" | sed -n 's/.*NEEDED.*\[\(.*\)\]$/\1/p'); do
    echo "not a library" > "$T/cwd/$lib"
done
for p in "$B/bin/parscope" "$T/inst/bin/parscope"; do
    out=$(cd "$T/cwd" && "$p" --version 2>&1) || fail "$p --version in a folder of decoy libraries: $out"
    case $out in parscope\ *) ;; *) fail "$p --version printed: $out" ;; esac
done
[ $fails = 0 ] && echo "runpath: all passed ($checked files)" || echo "runpath: $fails failed"
exit $((fails > 0))
