#!/bin/bash
# errors.sh PARSCOPE_GEN PARSCOPE - every bad input: exit status 2, the
# diagnostic FILE:LINE:COL with the line and a caret (errors/NAME.err), and no
# output file written.  Also the commands' usage errors.  UPDATE=1 rewrites
# the stored diagnostics.
set -u
GEN=$1 PARSCOPE=$2
cd "$(dirname "$0")/errors" || exit 1
work=$(mktemp -d /tmp/ps-lang-errors.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0
n=0
for loop in *.loop; do
    name=${loop%.loop}
    "$GEN" "$loop" -o "$work/$name.c" 2> "$work/$name.err"
    rc=$?
    n=$((n + 1))
    if [ $rc -ne 2 ]; then echo "$loop: exit status $rc, expected 2"; fail=1; fi
    if [ -e "$work/$name.c" ]; then echo "$loop: output written despite the error"; fail=1; fi
    if [ "${UPDATE:-0}" = 1 ]; then cp "$work/$name.err" "$name.err"; continue; fi
    if ! diff -u "$name.err" "$work/$name.err"; then echo "$loop: diagnostic differs"; fail=1; fi
done
[ $n -ge 20 ] || { echo "only $n error cases found"; fail=1; }

# the same diagnostics through 'parscope gen' and 'parscope build' (no executable left)
"$PARSCOPE" gen e01_unknown_construct.loop -o "$work/x.c" 2> "$work/gen.err"
[ $? -eq 2 ] && cmp -s "$work/gen.err" e01_unknown_construct.err || { echo "parscope gen: wrong status or message"; fail=1; }
"$PARSCOPE" build e04_unclosed_open.loop -o "$work/exe" 2> "$work/build.err"
[ $? -eq 2 ] && grep -q "e04_unclosed_open.loop:3:5: error: \\\\LOOP's '{' at 3:11 is never closed" "$work/build.err" \
    || { echo "parscope build: wrong status or message"; cat "$work/build.err"; fail=1; }
[ -e "$work/exe" ] && { echo "parscope build: executable written despite the error"; fail=1; }

# count arguments of the wrong type (a pointer, a string, a floating-point
# value where an integer is wanted): the generated code's checks make the C
# compiler refuse them, and parscope build prints each at the argument
# (cc/NAME.err) with no compiler text about parscope/loop.h; with gcc and,
# when it is installed, clang under the MPI wrapper.  cc/ok_*.loop must build.
compilers=default
command -v clang > /dev/null 2>&1 && compilers="default clang"
for cc in $compilers; do
    for loop in cc/*.loop; do
        name=${loop%.loop}
        if [ "$cc" = clang ]; then
            (cd cc && OMPI_CC=clang MPICH_CC=clang "$PARSCOPE" build "${loop#cc/}" -o "$work/cc.exe" 2> "$work/cc.err")
        else
            (cd cc && "$PARSCOPE" build "${loop#cc/}" -o "$work/cc.exe" 2> "$work/cc.err")
        fi
        rc=$?
        case ${name#cc/} in
        ok_*) [ $rc -eq 0 ] || { echo "$loop ($cc): exit status $rc, expected 0"; cat "$work/cc.err"; fail=1; }
              continue ;;
        esac
        if [ $rc -ne 2 ]; then echo "$loop ($cc): exit status $rc, expected 2"; fail=1; fi
        grep -v '^parscope build: \| generated\.$\|: In function' "$work/cc.err" > "$work/cc.msg"
        if [ "${UPDATE:-0}" = 1 ] && [ "$cc" = default ]; then cp "$work/cc.msg" "$name.err"; continue; fi
        if ! diff -u "$name.err" "$work/cc.msg"; then echo "$loop ($cc): diagnostic differs"; fail=1; fi
    done
done
rm -f "$work/cc.exe"

# hostile sizes, made here: a 10 MB line (the excerpt shows the part around
# the column, marked "..."), and a 10 MB expression that is valid
long=$(printf '%*s' 10000000 '')
printf 'int main(void)\n{\n%s\\WORX(3);\n    return 0;\n}\n' "$long" > "$work/long.loop"
"$GEN" "$work/long.loop" -o "$work/long.c" 2> "$work/long.err"
rc=$?
[ $rc -eq 2 ] && grep -q "long.loop:3:10000001: error: unknown construct '\\\\WORX'" "$work/long.err" &&
    [ "$(sed -n 2p "$work/long.err" | wc -c)" -lt 500 ] && grep -q '^ \.\.\. *\\WORX(3);$' "$work/long.err" ||
    { echo "a 10 MB line: status $rc or message wrong"; head -c 600 "$work/long.err"; fail=1; }
printf 'int main(void)\n{\n    int x = %s1;\n    \\WORK(x);\n    return 0;\n}\n' "$(printf '1+%.0s' $(seq 1 100000))" > "$work/sum.loop"
"$GEN" "$work/sum.loop" -o "$work/sum.c" 2> "$work/sum.err" || { echo "a long valid expression: gen failed"; cat "$work/sum.err"; fail=1; }

# an existing output is left alone when generation fails
echo "previous" > "$work/keep.c"
"$GEN" e02_arg_count.loop -o "$work/keep.c" 2> /dev/null
[ "$(cat "$work/keep.c")" = previous ] || { echo "a failed gen replaced the existing output"; fail=1; }

# input that is not a LOOP program's text, refused in the same form, with
# no source line to show: a file that does not exist, a directory, a file
# over the 32 MiB limit (sparse, so never read) or a pipe past it; /dev/zero
# at its first NUL, without reading it to the end
check_input() {  # path first-line-of-the-message
    timeout 60 "$GEN" "$1" -o "$work/in.c" < "${3:-/dev/null}" 2> "$work/in.err"
    local rc=$?
    if [ $rc -ne 2 ] || [ "$(head -n 1 "$work/in.err")" != "$2" ] || [ -e "$work/in.c" ]; then
        echo "$1: status $rc or message wrong"; head -c 600 "$work/in.err"; fail=1
    fi
}
check_input "$work/missing.loop" "$work/missing.loop:1:1: error: cannot open the file: No such file or directory"
[ "$(wc -l < "$work/in.err")" -eq 1 ] || { echo "a missing file: more than the message"; fail=1; }
mkdir "$work/dir.loop"
check_input "$work/dir.loop" "$work/dir.loop:1:1: error: is a directory, not a LOOP program"
truncate -s 33M "$work/big.loop"
check_input "$work/big.loop" "$work/big.loop:1:1: error: the file is larger than 32 MiB: too large for a LOOP program"
rm -f "$work/big.loop"
yes 'int x;' | head -c 34000000 > "$work/big.txt"
check_input /dev/stdin "/dev/stdin:1:1: error: the file is larger than 32 MiB: too large for a LOOP program" "$work/big.txt"
rm -f "$work/big.txt"
check_input /dev/zero "/dev/zero:1:1: error: a NUL byte in the file: a LOOP program is text (is this a binary file?)"
"$PARSCOPE" build "$work/missing.loop" -o "$work/exe" 2> "$work/in.err"
[ $? -eq 2 ] && [ "$(cat "$work/in.err")" = "$work/missing.loop:1:1: error: cannot open the file: No such file or directory" ] ||
    { echo "parscope build of a missing file: wrong status or message"; cat "$work/in.err"; fail=1; }

# usage errors
expect() {  # status command...
    local want=$1; shift
    "$@" > "$work/u.out" 2> "$work/u.err"
    local rc=$?
    if [ $rc -ne "$want" ]; then echo "'$*': exit status $rc, expected $want"; cat "$work/u.err"; fail=1; fi
}
expect 0 "$PARSCOPE" gen --help
grep -q "usage: parscope gen FILE.loop" "$work/u.out" || { echo "gen --help: no usage"; fail=1; }
expect 0 "$PARSCOPE" build --help
expect 2 "$PARSCOPE" gen
expect 2 "$PARSCOPE" gen --bogus x.loop
grep -q "unknown option '--bogus'" "$work/u.err" || { echo "unknown flag not named"; fail=1; }
expect 2 "$PARSCOPE" gen e01_unknown_construct.loop --variant fast
grep -q "unknown variant 'fast'" "$work/u.err" || { echo "bad variant not named"; fail=1; }
expect 2 "$PARSCOPE" gen "$work/does-not-exist.loop"
grep -q "does-not-exist.loop" "$work/u.err" || { echo "missing file not named"; fail=1; }
expect 2 "$PARSCOPE" gen e01_unknown_construct.loop --entry "1bad"
expect 2 "$PARSCOPE" build
expect 2 "$PARSCOPE" build --variant x e01_unknown_construct.loop
exit $fail
