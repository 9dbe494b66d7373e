#!/bin/bash
# build.sh PARSCOPE MPIEXEC - the seed's Figures 3, 6 and 7 as printed generate,
# build and run at 1..4 ranks; C compiler errors point into the .loop file;
# --entry; the variants compile; the passthrough program prints its strings
# untouched.
set -u
PARSCOPE=$1 MPIEXEC=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/ps-lang-build.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0
for f in fig3_mmm fig6_red_black fig7_fingerprint; do
    "$PARSCOPE" build "$here/progs/$f.loop" -o "$work/$f" || { echo "$f: build failed"; fail=1; continue; }
    for P in 1 2 3 4; do
        timeout 20 "$MPIEXEC" -n $P "$work/$f" -s 24 -i 2 --quiet > "$work/out" 2>&1 \
            || { echo "$f at $P ranks failed"; cat "$work/out"; fail=1; }
    done
done

# every construct, in every variant, compiles and runs
for v in full comm data sections; do
    "$PARSCOPE" build "$here/golden/constructs.loop" --variant $v -o "$work/constructs_$v" \
        || { echo "constructs ($v): build failed"; fail=1; continue; }
    timeout 20 "$MPIEXEC" -n 2 "$work/constructs_$v" -s 8 -i 1 --quiet > "$work/out_$v" 2>&1 \
        || { echo "constructs ($v): run failed"; cat "$work/out_$v"; fail=1; }
done
# plain C passed through: the strings reach the program unchanged
grep -qF 'back\slash \LOOP "quoted" tab	 \LOOP { \COMMUNICATE \ '"'" "$work/out_full" \
    || { echo "passthrough: strings changed"; cat "$work/out_full"; fail=1; }
# comm variant: the computation in the \LOOP body is compiled out (acc stays 0)
awk '{ if ($(NF-3) != 0) exit 1 }' "$work/out_comm" || { echo "comm variant kept computation: $(cat "$work/out_comm")"; fail=1; }
awk '{ if ($(NF-3) == 0) exit 1 }' "$work/out_full" || { echo "full variant lost computation: $(cat "$work/out_full")"; fail=1; }

# a C error in the program: reported at its line in the .loop file, status 2 (bad input)
cat > "$work/bad.loop" <<'LOOP'
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 0);
    \LOOP {
        undeclared_variable = 3;
    }
    \CLOSE0();
    return 0;
}
LOOP
"$PARSCOPE" build "$work/bad.loop" -o "$work/bad" 2> "$work/bad.err"
rc=$?
[ $rc -eq 2 ] || { echo "C error: exit status $rc, expected 2"; fail=1; }
grep -q "bad.loop:6:9: error: .undeclared_variable. undeclared" "$work/bad.err" \
    || { echo "C error not mapped into the .loop file:"; cat "$work/bad.err"; fail=1; }
[ -e "$work/bad" ] && { echo "executable written despite the compiler error"; fail=1; }
# an error inside a construct's arguments: the compiler sees generated code, whose columns run
# past the end of the .loop line; the location moves to the construct (column 5), without the
# misplaced excerpt; and the end of input inside an unclosed block names a line the file has (9)
cat > "$work/bad2.loop" << 'LOOP'
#include "LOOP.h"
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 0);
    \LOOP (n +) { \WORK(1); }
    \SECTION(x) { int r = 1 }
    \CLOSE0();
}
LOOP
"$PARSCOPE" build "$work/bad2.loop" -o "$work/bad2" 2> "$work/bad2.err"
python3 - "$work/bad2.err" "$work/bad2.loop" << 'PY' || { echo "C errors in constructs:"; cat "$work/bad2.err"; fail=1; }
import re, sys
err, src = open(sys.argv[1]).read(), open(sys.argv[2]).read().split("\n")
locs = [(int(a), int(b) if b else None) for a, b in re.findall(r"bad2\.loop:(\d+):(?:(\d+):)?", err)]
assert locs, err
for line, col in locs:
    assert 1 <= line <= len(src) - 1, (line, len(src))
    assert col is None or col <= len(src[line - 1]) + 1, (line, col, src[line - 1])
assert "bad2.loop:6:5: error: expected expression" in err, err
PY

# --entry: the program's main becomes a named function
"$PARSCOPE" gen "$here/progs/fig7_fingerprint.loop" --entry my_fp -o "$work/e.c" || fail=1
grep -q "^int my_fp(int argc, char \*\*argv) { ps_set_args" "$work/e.c" || { echo "--entry: no my_fp"; fail=1; }
grep -q "^int main" "$work/e.c" && { echo "--entry: main still defined"; fail=1; }

exit $fail
