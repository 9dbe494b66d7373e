#!/usr/bin/env bash
# run_check.sh MPIEXEC PROGRAM CHECKER RANKS [MODE]
# Runs the runtime test program on RANKS ranks with a trace and checks it.
set -u
mpiexec=$1 prog=$2 check=$3 p=$4 mode=${5:-normal}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
case $mode in
  normal)
    "$mpiexec" -n "$p" "$prog" --trace "$dir/t.pst" --quiet || exit 1
    if [ "$p" -ge 2 ]; then expected=$((11 * p + 10 + 2 * (p - 1))); else expected=0; fi
    "$check" "$dir/t.pst" "$p" "$expected" ;;
  overflow)
    # a buffer of 16 events: the run completes, the loss is counted and reported
    PARSCOPE_TRACE_CAPACITY=16 "$mpiexec" -n "$p" "$prog" --flood --trace "$dir/t.pst" > "$dir/out" || exit 1
    grep -q "events lost to full trace buffers: the counts and times above miss them (a larger capacity: \\\\OPEN0's last argument, or PARSCOPE_TRACE_CAPACITY=EVENTS per rank)" "$dir/out" ||
        { echo "FAIL: no overflow warning naming the capacity's settings"; cat "$dir/out"; exit 1; }
    "$check" "$dir/t.pst" "$p" 0 dropped ;;
  timeout)
    start=$(date +%s)
    "$mpiexec" -n "$p" "$prog" --deadlock --timeout 2 --quiet 2> "$dir/err"
    rc=$?
    end=$(date +%s)
    [ $rc -ne 0 ] || { echo "FAIL: deadlock exited 0"; exit 1; }
    [ $((end - start)) -le 15 ] || { echo "FAIL: took $((end - start)) s"; exit 1; }
    grep -q "rank [0-9]*: timed out after 2 s, waiting in a blocking receive (partner rank" "$dir/err" \
      || { echo "FAIL: no timeout report"; cat "$dir/err"; exit 1; }
    echo "timeout reported: $(head -1 "$dir/err")" ;;
  sheet)
    "$mpiexec" -n "$p" "$prog" > "$dir/out" || exit 1
    for key in "Execution time:" "Percent processors busy:" "Messages sent / received:" "Per processor"; do
      grep -q "$key" "$dir/out" || { echo "FAIL: sheet lacks '$key'"; cat "$dir/out"; exit 1; }
    done
    [ "$(grep -c "Execution time" "$dir/out")" -eq 1 ] || { echo "FAIL: sheet printed by more than rank 0"; exit 1; } ;;
esac
