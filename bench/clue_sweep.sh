#!/usr/bin/env bash
# The whole CLUE sweep as shipped: every variation at P = 1 and 2, 3 trials,
# automatic grid and iterations; prints its wall time and the table.
# usage: bench/clue_sweep.sh [extra parscope scale options]
set -eu
. "$(dirname "$0")/clue_common.sh"
out=$(mktemp -d)/sweep
cmd=("$PARSCOPE" scale clue --max-ranks 2 --trials 3 -o "$out" "$@")
echo "command: ${cmd[*]}"
machine
start=$(date +%s.%N)
"${cmd[@]}"
echo "wall time: $(python3 -c "print('%.1f s' % ($(date +%s.%N) - $start))")"
