#!/usr/bin/env bash
# manpages_completion.sh BUILD_DIR - cmake --install puts a man page per command
# (made from its --help) and the bash completion in place; the pages render,
# and the completion offers every command the installed parscope lists, their
# options, the export formats and the built-in workloads.
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" || fail "cmake --install"
ps=$tmp/prefix/bin/parscope
commands=$("$ps" --help | awk '/^commands:/ {c = 1; next} c && /^  [a-z]/ {print $1} c && /^$/ {exit}')
[ "$(echo "$commands" | wc -w)" -ge 10 ] || fail "parscope --help lists only: $commands"

man1=$tmp/prefix/share/man/man1
render() { if command -v man > /dev/null; then MANWIDTH=100 man -l "$1"; else groff -man -Tutf8 "$1"; fi; }
[ -f "$man1/parscope.1" ] || fail "parscope.1 not installed"
render "$man1/parscope.1" > top.txt 2> /dev/null || fail "parscope.1 does not render"
for c in $commands; do
    page=$man1/parscope-$c.1
    [ -f "$page" ] || fail "parscope-$c.1 not installed"
    render "$page" > "$tmp/$c.txt" 2> /dev/null || fail "parscope-$c.1 does not render"
    grep -qE "usage: +parscope +$c( |$)" "$tmp/$c.txt" || fail "parscope-$c.1 is not its --help: $(head -5 "$tmp/$c.txt")"
    grep -q "^.BR parscope-$c (1)" "$man1/parscope.1" || fail "parscope.1 does not point to parscope-$c(1)"
done
grep -q -- '--ranks' "$tmp/run.txt" || fail "parscope-run.1 has no --ranks"

comp=$tmp/prefix/share/bash-completion/completions/parscope
[ -f "$comp" ] || fail "the bash completion is not installed"
complete_line() { # complete_line WORD... : what completing the last word offers
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _parscope; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$comp" "$@"
}
offered=$(complete_line "$ps" "")
for c in $commands; do
    echo "$offered" | grep -qx "$c" || fail "completion does not offer the command $c (offers: $(echo $offered))"
done
[ "$(complete_line "$ps" ex)" = export ] || fail "completing 'ex': $(complete_line "$ps" ex)"
complete_line "$ps" run --tr | grep -qx -- --trace || fail "completing 'run --tr'"
[ "$(complete_line "$ps" export T --format "" | tr '\n' ' ')" = "otf2 perfetto csv " ] || fail "export formats"
complete_line "$ps" run fi | grep -qx fingerprint || fail "completing 'run fi': $(complete_line "$ps" run fi)"
complete_line "$ps" predict m | grep -qx mmm_a || fail "completing 'predict m'"
echo "manpages_completion: $(echo $commands | wc -w) commands, a page and a completion each"
