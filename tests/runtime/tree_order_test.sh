#!/usr/bin/env bash
# tree_order_test.sh PARSCOPE MPIEXEC TREE_PROGRAM - the virtual tree's
# mapping onto ranks (--tree-order, PARSCOPE_TREE_ORDER): at 1..5 ranks and
# several orders, the tree constructs deliver the right data, send P-1
# messages each between exactly the partners a binomial tree over the
# given order has (computed here independently, with each message's
# bytes), and the recording back end (predict) follows the same tree.
# Bad orders exit 2 naming the problem.
set -u
PS=$1 MPIEXEC=$2 PROG=$3
fails=0 passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expected P ORDER: "CONSTRUCT:SRC->DST(BYTES)" lines of a binomial tree over
# positions whose ranks are ORDER (N = 37 doubles, part r is rank r's)
expected() {
    python3 - "$1" "$2" << 'PY'
import sys
P, spec = int(sys.argv[1]), sys.argv[2]
if spec == "linear": order = list(range(P))
elif spec.startswith("stride:"):
    s = int(spec[7:]); order = [r for f in range(s) for r in range(f, P, s)]
else: order = [int(x) for x in spec.split(",")]
N, E = 37, 8
part = lambda r: (N * (r + 1) // P - N * r // P) * E
size = lambda a, b: sum(part(order[k]) for k in range(a, min(b, P)))
out, s = [], 1
while s < P:
    for pos in range(P):
        if pos % (2 * s) == s:
            out.append("TREE_COLLECT_VEC:%d->%d(%d)" % (order[pos], order[pos - s], size(pos, pos + s)))
            out.append("TREE_DISTRIB_VEC:%d->%d(%d)" % (order[pos - s], order[pos], size(pos, pos + s)))
            out.append("TREE_BCAST:%d->%d(24)" % (order[pos - s], order[pos]))
    s *= 2
if out: print("\n".join(sorted(out)))
PY
}
# seen TRACE: the same lines from a trace's sends
seen() {
    "$PS" export "$1" --format csv -o "$tmp/ev.csv" --force -q || return 1
    awk -F, '$3 == "send" && $4 ~ /^TREE_/ {print $4 ":" $1 "->" $9 "(" $8 ")"}' "$tmp/ev.csv" | sort
}

specs=("1 linear" "2 linear" "3 linear" "4 linear" "5 linear" "4 stride:2" "5 stride:2" "5 stride:3"
       "4 0,3,1,2" "3 0,2,1" "5 0,4,2,3,1")
# with PS_TEST_FEW_POINTS (the sanitizer build, against MPICH in scripts/test.sh) one of each
# kind of order, at 1, 3, 4 and 5 ranks; the normal build checks them all (every bad order runs in both)
[ -n "${PS_TEST_FEW_POINTS:-}" ] && specs=("1 linear" "3 linear" "5 stride:3" "4 0,3,1,2" "5 0,4,2,3,1")
for spec in "${specs[@]}"; do
    set -- $spec
    P=$1 order=$2
    rm -f "$tmp/t.pst"
    if ! timeout 60 "$MPIEXEC" -n "$P" "$PROG" --trace "$tmp/t.pst" --quiet --tree-order "$order" > "$tmp/out" 2>&1 ||
        ! grep -q "^tree: ok$" "$tmp/out"; then
        fail "P=$P --tree-order $order: the data"; sed 's/^/    /' "$tmp/out" | head -10; continue
    fi
    passes=$((passes + 1))
    if diff <(expected "$P" "$order") <(seen "$tmp/t.pst") > "$tmp/diff"; then passes=$((passes + 1)); else
        fail "P=$P --tree-order $order: the messages (< expected, > in the trace):"; sed 's/^/    /' "$tmp/diff"
    fi
done

# the same from the environment, and a measured run against a recorded one
rm -f "$tmp/t.pst"
PARSCOPE_TREE_ORDER=0,3,1,2 timeout 60 "$MPIEXEC" -n 4 "$PROG" --trace "$tmp/t.pst" --quiet > "$tmp/out" 2>&1
diff <(expected 4 0,3,1,2) <(seen "$tmp/t.pst") > /dev/null && passes=$((passes + 1)) || fail "PARSCOPE_TREE_ORDER"
for order in linear stride:2; do
    rm -rf "$tmp/M" "$tmp/R" "$tmp/R.json"
    PARSCOPE_TREE_ORDER=$order "$PS" run cg -n 4 -i 1 -q --trace "$tmp/M" > /dev/null 2>&1 || fail "cg run ($order)"
    PARSCOPE_TREE_ORDER=$order "$PS" predict cg -m "$(dirname "$0")/../../machines/sp2.ini" -n 4 -i 1 -q \
        --trace "$tmp/R" -o "$tmp/R.json" > /dev/null 2>&1 || fail "cg predict ($order)"
    m=$(seen "$tmp/M/trace.pst") r=$(seen "$tmp/R/trace.pst")
    if [ -n "$m" ] && [ "$m" = "$r" ]; then passes=$((passes + 1)); else
        fail "cg ($order): measured and recorded trees differ:"; echo "$m" | head -5; echo "--"; echo "$r" | head -5
    fi
done
# stride:2 and linear trees differ (the option is not ignored)
[ "$(PARSCOPE_TREE_ORDER=linear; expected 4 linear)" != "$(expected 4 stride:2)" ] && passes=$((passes + 1))

# bad orders: exit 2, one message from rank 0
bad() {
    timeout 60 "$MPIEXEC" -n "$1" "$PROG" --quiet --tree-order "$2" > "$tmp/out" 2>&1
    local rc=$?
    if [ "$rc" -ne 2 ] || ! grep -q -- "$3" "$tmp/out"; then
        fail "--tree-order $2 at P=$1: status $rc"; sed 's/^/    /' "$tmp/out" | head -5
    else passes=$((passes + 1)); fi
}
bad 3 1,0,2 "the tree's root (the first position) must be rank 0"
bad 3 0,1,1 "rank 1 appears twice"
bad 3 0,1,5 "rank 5 is outside 0..2"
bad 3 0,1 "names 2 ranks, the job has 3"
bad 2 spiral "is not linear, stride:S or a list of ranks"
bad 2 stride:0 "the stride is not a whole number >= 1"
echo "$passes checks passed, $fails failed"
[ "$fails" -eq 0 ]
