#!/usr/bin/env bash
# The int CLUE grid after N steps on P = 1, 2, 4 ranks equals the serial
# grid bit for bit (whole grid split by rows; and the weak layout under a
# random node order).
# usage: clue_exact.sh PARSCOPE CLUE_SERIAL MPIEXEC
set -u
ps=$1 serial=$2 mpiexec=$3
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail=0
"$serial" 64 60 25 7 int32 "$dir/serial.bin" || { echo "FAIL: serial reference"; exit 1; }
for p in 1 2 4; do
  "$mpiexec" -n $p "$ps" __rank clue --quiet --variation int --strong --grid 64x60 -i 25 --seed 7 \
      --dump "$dir/p$p.bin" >/dev/null || { echo "FAIL: run at P=$p"; fail=1; continue; }
  if cmp -s "$dir/serial.bin" "$dir/p$p.bin"; then echo "ok: P=$p equals the serial grid";
  else echo "FAIL: P=$p differs from the serial grid"; fail=1; fi
done
# weak layout: 4 ranks x 16 rows = the serial 64x64 torus, ranks in a random order
"$serial" 64 64 25 7 int32 "$dir/serial64.bin"
"$mpiexec" -n 4 "$ps" __rank clue --quiet --variation int --grid 64x16 -i 25 --seed 7 --perm 2,0,3,1 \
    --dump "$dir/perm.bin" >/dev/null || { echo "FAIL: permuted run"; fail=1; }
cmp -s "$dir/serial64.bin" "$dir/perm.bin" && echo "ok: permuted ranks equal the serial grid" \
  || { echo "FAIL: permuted ranks differ"; fail=1; }
# long: the same automaton in 64-bit cells
"$serial" 64 60 25 7 int64 "$dir/serial_long.bin"
"$mpiexec" -n 2 "$ps" __rank clue --quiet --variation long --strong --grid 64x60 -i 25 --seed 7 \
    --dump "$dir/long.bin" >/dev/null
cmp -s "$dir/serial_long.bin" "$dir/long.bin" && echo "ok: long at P=2 equals the serial grid" \
  || { echo "FAIL: long at P=2 differs"; fail=1; }
# the check can fail: a different seed gives a different grid
"$mpiexec" -n 2 "$ps" __rank clue --quiet --variation int --strong --grid 64x60 -i 25 --seed 8 \
    --dump "$dir/other.bin" >/dev/null
cmp -s "$dir/serial.bin" "$dir/other.bin" && { echo "FAIL: another seed gave the same grid"; fail=1; }
# --verify: every variation's parallel grid against a serial run inside the job
for v in base int double rearrange nodeorder vonneumann scatter cellwise long; do
  if "$mpiexec" -n 4 "$ps" __rank clue --quiet --variation $v --grid 64x16 -i 9 --seed 5 --verify >/dev/null 2>&1
  then echo "ok: --verify $v at P=4"; else echo "FAIL: --verify $v at P=4"; fail=1; fi
done
exit $fail
