#!/usr/bin/env bash
# bind_now_test.sh PARSCOPE - every rank of a job parscope starts binds its
# libraries at load (LD_BIND_NOW), a built-in workload as well as a generated
# program, so that no first call pays a symbol lookup inside a timed interval;
# a value the user set is kept.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cat > "$tmp/env.loop" <<'LOOP'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 0);
    const char *v = getenv("LD_BIND_NOW");
    const char *want = getenv("BIND_NOW_WANT");
    if (!v || strcmp(v, want ? want : "1")) {
        fprintf(stderr, "rank %d: LD_BIND_NOW is %s\n", me, v ? v : "unset");
        exit(3);
    }
    \CLOSE0();
    return 0;
}
LOOP
env -u LD_BIND_NOW "$bin" run "$tmp/env.loop" -n 2 --quiet --timeout 60 > "$tmp/out" 2>&1 \
  || { echo "FAIL: a rank ran without LD_BIND_NOW=1"; cat "$tmp/out"; fail=1; }
LD_BIND_NOW=yes BIND_NOW_WANT=yes "$bin" run "$tmp/env.loop" -n 2 --quiet --timeout 60 > "$tmp/out" 2>&1 \
  || { echo "FAIL: the user's LD_BIND_NOW was not kept"; cat "$tmp/out"; fail=1; }
exit $fail
