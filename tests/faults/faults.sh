#!/usr/bin/env bash
# faults.sh CASE PARSCOPE RT_PROGRAM SOURCE_DIR - parscope under faults and
# hostile input (docs/FAULTS.md): one case per run, named by the CTest test
# (faults.CASE).  Device nodes, FIFOs and links are made in a temporary
# directory, never the system's own /dev entries.
set -u
# this shell is a child subreaper (the attribute outlives exec): what a parscope killed
# outright leaves running comes back to it, and is found below it whatever session it made
# (MPICH's proxies and ranks make their own)
if [ -z "${PS_FAULTS_SUBREAPER:-}" ]; then
  PS_FAULTS_SUBREAPER=1 exec python3 -c 'import ctypes, os, sys
if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
    sys.exit("faults.sh: cannot become a child subreaper: " + os.strerror(ctypes.get_errno()))
os.execvp("bash", ["bash"] + sys.argv[1:])' "$0" "$@"
fi
case_name=$1 ps=$2 prog=$3 src=$4
# the launcher of the MPI parscope was built against (mpiexec.mpich in an MPICH build)
mpiexec=${PS_MPIEXEC:-mpiexec}
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# a LOOP program: loop NAME BODY-LINES... (inside main, after \OPEN0)
loop() {
  local name=$1
  shift
  {
    printf '#include "LOOP.h"\nint main(void)\n{\n    int nodes, me, host, n;\n'
    printf '    \\OPEN0(&nodes, &me, &host, &n, 0);\n    (void)nodes; (void)me; (void)host;\n'
    printf '    %s\n' "$@"
    printf '    \\CLOSE0();\n    return 0;\n}\n'
  } > "$tmp/$name.loop"
}

# slow.loop: each trial lasts at least 3 s whatever the load (its ranks sleep in the timed
# interval), so a signal sent as a trial ends lands in the next one
slow_loop() {
  printf '#include <time.h>\n#include "LOOP.h"\nint main(void)\n{\n    int nodes, me, host, n;\n' > "$tmp/slow.loop"
  printf '    \\OPEN0(&nodes, &me, &host, &n, 0);\n    struct timespec ts = {3, 0};\n' >> "$tmp/slow.loop"
  printf '    while (nanosleep(&ts, &ts) != 0) {}\n    \\MULTIBCAST0(64);\n    \\CLOSE0();\n    return 0;\n}\n' >> "$tmp/slow.loop"
}

# first_round PID SECONDS OUTPUT WHAT: waits for the first round of the probe PID (its scratch
# folder's raw.json); 0 once there is one.  A probe still running without one at the limit fails the
# case with what its processes were doing, and is left to its own time limit (60 s), whose ending
# is shown too; one that ended before a round was seen fails unless it ended whole (its rounds all
# ended between two looks: nothing to interrupt).
first_round() {
  local pid=$1 limit=$2 output=$3 what=$4 rc
  wait_for "$limit" sh -c "ls parscope-probe*/raw.json || ! kill -0 $pid" > /dev/null 2>&1
  ls parscope-probe*/raw.json > /dev/null 2>&1 && return 0
  if kill -0 "$pid" 2> /dev/null; then
    fail "no round of the $what ended within $limit s; what its processes were doing:"
    describe_running
    wait_pid "$pid" 70
    echo "    the stalled $what ended with status $?: $(cat "$output")"
    nothing_left 10
    return 1
  fi
  wait "$pid"
  rc=$?
  [ $rc -eq 0 ] || fail "the $what ended (status $rc) before any round was seen: $(cat "$output")"
  return 1
}

# a trace to export: two ranks of the runtime's test program
make_trace() { "$ps" run "$prog" -n 2 -q --trace "$tmp/T" > /dev/null 2>&1 || fail "making a trace"; }

case $case_name in

# 1. an output that is a device, a FIFO or a descriptor is written into, never replaced
output_nodes)
  make_trace
  "$ps" export T -f csv -o ref.csv > /dev/null 2>&1 || fail "export to a regular file"
  mknod null c 1 3 && mknod full c 1 7 && mkfifo fifo && ln -s /proc/self/fd/1 out1 || exit 1
  expect 0 "wrote" -- "$ps" export T -f csv -o null
  check "export -o NODE (1,3) left a character device" test -c null
  expect 2 "full: write failed: No space left on device" -- "$ps" export T -f csv -o full
  check "export -o NODE (1,7) left a character device" test -c full
  timeout 20 cat fifo > fifo.got &
  reader=$!
  expect 0 "wrote" -- "$ps" export T -f csv -o fifo
  wait $reader
  check "export -o FIFO left a FIFO" test -p fifo
  check "the FIFO's reader got the export" cmp -s fifo.got ref.csv
  "$ps" export T -f csv -o out1 > via-link.csv 2> /dev/null || fail "export -o LINK-TO-/proc/self/fd/1"
  check "export -o LINK left the link" test -L out1
  check "export -o LINK wrote where descriptor 1 points" cmp -s via-link.csv ref.csv
  # build -o NODE writes the program into the device, the node stays
  loop tiny '\WORK(10);'
  mknod null2 c 1 3 || exit 1
  expect 0 "" -- "$ps" build tiny.loop -o null2
  check "build -o NODE left a character device" test -c null2
  # what is not a file is refused, not replaced
  mkdir adir
  expect 2 "adir: a directory" -- "$ps" export T -f csv -o adir
  ;;

# two outputs of one command that are one file are refused before any work (2, naming both):
# '-' and /dev/stdout, a link and its target, two names of a file not made yet
same_output)
  expect 2 "-o /dev/stdout and --json -: both are standard output" -- "$ps" probe --tiny -n 2 -o /dev/stdout --json -
  expect 2 "-o - and --json /proc/self/fd/1: both are standard output" -- "$ps" probe --tiny -n 2 -o - --json /proc/self/fd/1
  expect 2 "-o - and --json -: both are standard output" -- "$ps" probe --tiny -n 2 -o - --json -
  # standard output a pipe: '-' and /dev/stdout are still one (and the same as /dev/stderr on it)
  "$ps" probe --tiny -n 2 -o - --json /dev/stdout 2>&1 | cat > piped
  check "probe -o - --json /dev/stdout into a pipe: refused" grep -q "both are standard output" piped
  expect 2 "-o m.ini and --json ./m.ini: the same file" -- "$ps" probe --tiny -n 2 -o m.ini --json ./m.ini
  check "nothing written" test ! -e m.ini
  echo keep > target.json && ln -s target.json alias.json
  expect 2 "-o target.json and --json alias.json: the same file" -- "$ps" probe --tiny -n 2 -o target.json --json alias.json --force
  check "the file is left" grep -qx keep target.json
  mkdir sub
  expect 2 "-o r.json and --measured sub/../r.json: the same file" -- \
    "$ps" predict fingerprint -m "$src/machines/sp2.ini" -n 2 --compare -o r.json --measured sub/../r.json
  loop tiny '\WORK(10);'
  expect 2 "-o tiny and --keep-c ./tiny: the same file" -- "$ps" build tiny.loop -o tiny --keep-c ./tiny
  # with its document on standard output (under any name), run's sheet goes to standard error
  "$ps" run "$prog" -n 2 -o /dev/stdout > r.json 2> sheet.txt
  check "run -o /dev/stdout: standard output holds only the JSON" json_ok r.json 'd["kind"] == "run"'
  check "run -o /dev/stdout: the sheet went to standard error" grep -q "Execution time" sheet.txt
  # inside an MPI job too (the ranks print no sheet into the document)
  if command -v "$mpiexec" > /dev/null; then
    OMPI_MCA_rmaps_base_oversubscribe=1 timeout 60 "$mpiexec" -n 2 "$ps_bin" run fingerprint -o /dev/stdout > in.json 2> in.err
    if json_ok in.json 'd["kind"] == "run"'; then pass; else
      fail "mpiexec run -o /dev/stdout: standard output holds only the JSON"
      sed 's/^/    mpiexec: /' in.err | head -20
    fi
  fi
  ;;

# 2. no result is replaced without --force, and never an input
overwrite)
  make_trace
  "$ps" run "$prog" -n 2 -q -o r.json > /dev/null 2>&1 || fail "making a result"
  cp r.json r.orig
  expect 2 "-o r.json: exists already \(use --force" -- "$ps" report r.json -o r.json
  expect 2 "-o r.json: is also an input" -- "$ps" report r.json -o r.json --force
  check "report -o INPUT left the input" cmp -s r.json r.orig
  echo keep > existing.csv
  expect 2 "-o existing.csv: exists already" -- "$ps" export T -f csv -o existing.csv
  check "export left an existing file" grep -qx keep existing.csv
  expect 0 "wrote" -- "$ps" export T -f csv -o existing.csv --force
  echo keep > existing.json
  expect 2 "-o existing.json: exists already" -- "$ps" compare r.json r.json -o existing.json
  check "compare left an existing file" grep -qx keep existing.json
  expect 2 "-o r.json: is also an input" -- "$ps" compare r.json r.orig -o r.json --force
  check "compare -o INPUT left the input" cmp -s r.json r.orig
  echo keep > existing.html
  expect 2 "-o existing.html: exists already" -- "$ps" report r.json -o existing.html -q
  check "report left an existing file" grep -qx keep existing.html
  # the same file twice through a link is still the input
  ln -s r.json alias.json
  expect 2 "is also an input" -- "$ps" report r.json -o alias.json --force
  check "report -o LINK-TO-INPUT left the input" cmp -s r.json r.orig
  # a command refused after its outputs were checked leaves none of the directories the check made
  expect 2 "unknown workload 'nosuch'" -- "$ps" run nosuch -n 2 --trace nd1
  check "a refused run left no --trace directory" test ! -e nd1
  expect 2 "nodir does not exist" -- "$ps" run fingerprint -n 2 --trace deep/a/b -o nodir/x.json
  check "a refused run left none of the --trace directory's parents" test ! -e deep
  expect 2 "exists already" -- "$ps" predict fingerprint -m "$src/machines/sp2.ini" -n 2 --trace nd3 -o r.json
  check "a refused prediction left no --trace directory" test ! -e nd3
  # a workload's built-in name is not a file: --trace may make a directory so named
  expect 0 "" -- "$ps" run fingerprint -n 2 -q --trace fingerprint -o fingerprint/result.json
  # the trace a result names is an input too, for the result's documents and its points'
  cp fingerprint/trace.pst fp.orig
  expect 2 "-o fingerprint/trace.pst: is also an input" -- "$ps" report fingerprint/result.json -o fingerprint/trace.pst --force
  check "report -o ITS-TRACE left the trace" cmp -s fingerprint/trace.pst fp.orig
  expect 2 "is also an input" -- "$ps" report fingerprint -o fingerprint/trace.pst --force
  check "report DIR -o ITS-TRACE left the trace" cmp -s fingerprint/trace.pst fp.orig
  printf '[machine]\nsend_latency = 1e-5\nrecv_latency = 1e-5\nword_time = 1e-8\nflop_time = 1e-9\n' > m.ini
  expect 0 "" -- "$ps" predict fingerprint -m m.ini -n 1,2 -q --trace pt -o pt/p.json
  cp pt/p2/trace.pst pt2.orig
  expect 2 "is also an input" -- "$ps" report pt/p.json -o pt/p2/trace.pst --force
  check "report -o A-POINT'S-TRACE left the trace" cmp -s pt/p2/trace.pst pt2.orig
  # a prediction's trace keys are relative to its JSON's directory, as a run's: read from anywhere
  check "predict's trace keys relative to the JSON" python3 -c "
import json; d = json.load(open('pt/p.json'))
assert [p['trace'] for p in d['points']] == ['p1/trace.pst', 'p2/trace.pst'], d['points']"
  here=$PWD
  (cd / && "$ps" report "$here/pt/p.json" -o "$here/pt.html" -q) || fail "report of pt/p.json from /"
  check "report from another directory found the predicted traces" bash -c "! grep -q 'could not be read' pt.html"
  # a trace already in --trace is replaced only with --force, as by run
  expect 2 "--trace pt: holds a trace already \(pt/p2/trace.pst; use --force" -- "$ps" predict fingerprint -m m.ini -n 2,4 -q --trace pt
  check "predict --trace left the trace" cmp -s pt/p2/trace.pst pt2.orig
  # a result whose trace a later prediction replaced (--force, without -o) gets no pictures of it
  expect 0 "" -- "$ps" predict fingerprint -m m.ini -n 2 -q --trace pq -o pq/p.json
  expect 0 "" -- "$ps" predict fingerprint -m m.ini -n 4 -q --trace pq --force
  expect 0 "" -- "$ps" report pq/p.json -o pq.html -q
  # replacing a trace that has exports beside it says they describe the earlier run
  expect 0 "" -- "$ps" export pq --format csv -q
  expect 0 "parscope predict: note: pq/trace.csv is an export of the trace being replaced" -- "$ps" predict fingerprint -m m.ini -n 2 -q --trace pq --force
  expect 0 "parscope run: note: pq/trace.csv is an export of the trace being replaced" -- "$ps" run fingerprint -n 2 -q --trace pq --force
  check "report: a trace of another run named" grep -q "No pictures: the trace pq/trace.pst is of another run than this document: 4 ranks, this document.*s 2" pq.html
  ;;

# 3. kill -9 during trial 3: trials 1 and 2 are on disk, the job dies with parscope
kill9)
  slow_loop
  "$ps" run slow.loop -n 2 -k 3 -q -o r.json > out 2>&1 &
  pid=$!
  # r.json holds trials 1 and 2, and trial 3's job runs
  end=$((SECONDS + 60))
  while :; do
    in_trial r.json 2 $pid
    st=$?
    [ $st = 0 ] || [ $st = 2 ] || [ $SECONDS -ge $end ] && break
    sleep 0.1
  done
  if [ $st != 0 ]; then
    fail "no moment found with 2 trials in r.json and trial 3 running (r.json: $(trials_in r.json) trials; it should be written after each trial)"
    kill -9 $pid
    wait_pid $pid 10
  else
    kill -9 $pid
    wait_pid $pid 10
    nothing_left 10
    check "r.json keeps the two finished trials and says what is missing" json_ok r.json \
      'd["time"]["trials"] == 2 and d["interrupted"] is True and d["complete"] is False and d["missing"] == [{"trial": 3}]'
  fi
  ;;

# 4. SIGINT / SIGTERM / Ctrl-C during probe: the job stops, what was measured is written, what is missing said
probe_signals)
  # after the first round: written, marked interrupted
  "$ps" probe --tiny -n 2 -o m.ini --json p.json -q > out 2>&1 &
  pid=$!
  # a tiny probe (a budget of 6 s) ends its first round within 3 s here, also beside three other
  # tests' MPI jobs
  if first_round $pid 30 out "tiny probe"; then
    stop_job INT $pid 130 "SIGINT after a round"
    check "SIGINT: the machine model is written" test -s m.ini
    if grep -q "after all [0-9]* rounds were measured: the model is whole" out; then
      # the stop came after the last round (a tiny probe's are short): whole, and said so
      check "SIGINT after the last round: the JSON is whole" json_ok p.json \
        '"interrupted" not in d and "missing" not in d and "stopped_after_the_rounds" in d'
      check "SIGINT after the last round: the model is not marked interrupted" bash -c "! grep -q INTERRUPTED m.ini"
    else
      check "SIGINT: the message says what is missing" grep -Eq "interrupted.*rounds? [0-9]+ to [0-9]+ missing" out
      check "SIGINT: the machine model says it is from an interrupted probe" grep -Eq "^source = .*INTERRUPTED: [0-9]+ of [0-9]+ rounds measured" m.ini
      expect 0 "warning: the machine model m.ini is from an interrupted probe" -- "$ps" predict fingerprint -m m.ini -n 2 -q
      check "SIGINT: the JSON is written and says it was interrupted" json_ok p.json \
        'd.get("interrupted") is True and d.get("complete") is False and "missing" in d'
    fi
    check "the stopped tiny probe left no scratch directory" sh -c '! ls -d parscope-probe* 2> /dev/null'
  fi
  # a quick probe's rounds take seconds: SIGINT after its first is a partial measurement, said in the
  # JSON, the message and the model file, and a prediction from that model warns
  rm -rf parscope-probe*
  "$ps" probe --quick -n 2 -o mq.ini --json pq.json --svg-dir qsvg -q > outq 2>&1 &
  pid=$!
  if first_round $pid 40 outq "quick probe"; then
    stop_job INT $pid 130 "SIGINT after a quick probe's first round"
    check "SIGINT: the message says what is missing" grep -Eq "interrupted.*; [0-9]+ of [0-9]+ rounds measured, rounds [0-9]+ to [0-9]+ missing" outq
    check "SIGINT: the machine model says it is from an interrupted probe" grep -Eq "^source = .*INTERRUPTED: [0-9]+ of [0-9]+ rounds measured" mq.ini
    expect 0 "warning: the machine model mq.ini is from an interrupted probe" -- "$ps" predict fingerprint -m mq.ini -n 2 -q
    check "SIGINT: the JSON says it was interrupted" json_ok pq.json \
      'd.get("interrupted") is True and d.get("complete") is False and d["missing"].startswith("rounds ")'
    # the report states the rounds that ran, of how many, and the interruption
    expect 0 "" -- "$ps" report pq.json -o pq.html -q
    check "SIGINT: the report gives the rounds measured of those planned" \
      grep -Eq "[0-9]+ of [0-9]+ rounds \(INTERRUPTED\)" pq.html
  fi
  # SIGTERM while the probe runs: exit 143, one line, nothing left (a tiny probe takes 1.5 s: under
  # load the signal may come before its first round ends or after its last; both are said)
  rm -f m.ini p.json
  "$ps" probe --tiny -n 2 -o m2.ini --json p2.json --svg-dir svg2 -q > out 2>&1 &
  pid=$!
  wait_for 10 sh -c "ps -o args= --ppid $pid | grep -q mpiexec"
  stop_job TERM $pid 143 "SIGTERM"
  check "SIGTERM: one line says so" grep -q "interrupted (SIGTERM)" out
  # Ctrl-C: the terminal signals the whole foreground group (parscope; mpiexec has its own)
  setsid "$ps" probe --tiny -n 2 -o m3.ini --json p3.json --svg-dir svg3 -q > out 2>&1 &
  pid=$!
  wait_for 10 sh -c "ps -o args= --ppid $pid | grep -q mpiexec"
  stop_job INT -$pid 130 "Ctrl-C"
  check "Ctrl-C: a message" grep -q "interrupted (SIGINT)" out
  # SIGTERM after the last round: the launcher (a wrapper of mpiexec) signals parscope as the ranks end;
  # the measurement is whole and written, and the stop is said in a line as well as in the status
  printf '#!/bin/sh\nn=$1; shift\n%s -n "$n" "$@"; rc=$?\nkill -TERM "$PPID"\nexit $rc\n' "$mpiexec" > lastround.sh
  chmod +x lastround.sh
  expect 143 "interrupted \(SIGTERM\) after its last round: the measurement is whole, and its outputs are written" -- \
    "$ps" probe --tiny -n 2 -o m4.ini --json p4.json --svg-dir svg4 -q --launcher "$tmp/lastround.sh {ranks}"
  check "SIGTERM after the last round: the model written" test -s m4.ini
  check "SIGTERM after the last round: the JSON written" json_ok p4.json 'd.get("complete", True) is not False'
  nothing_left 10
  ;;

# 5. a second characterize into the same directory is refused while the first runs
characterize_lock)
  "$ps" characterize -n 2 -o D --steps fingerprint --budget 20 -q > first.out 2>&1 &
  pid=$!
  wait_for 20 test -e D/steps.ndjson || fail "the first characterize did not start"
  expect 2 "D: in use by another parscope" -- "$ps" characterize -n 2 -o D --force --steps fingerprint --budget 20 -q
  kill -INT $pid
  wait_pid $pid 30
  nothing_left 10
  check "the first characterize's summary is intact" json_ok D/summary.json 'd.get("kind") == "characterize" or "steps" in d'
  # once it has ended the directory is free again (the lock goes with the process)
  expect 2 "holds earlier results" -- "$ps" characterize -n 2 -o D --steps fingerprint --budget 20 -q
  ;;

# 6. a message larger than one MPI call carries is refused, never cut
message_size)
  loop big '\MULTIBCAST0(4294967304);'
  expect 2 "big.loop:7:[0-9]+: error: .*MULTIBCAST0.*more than one message carries" -- "$ps" build big.loop -o big
  check "no program written" test ! -e big
  loop big2 '\MULTIBCAST0(3000000000);'
  expect 2 "big2.loop:7:[0-9]+: error" -- "$ps" run big2.loop -n 2 -q
  # computed at run time: the rank names the construct and the line, exit 2
  loop big3 'size_t s = (size_t)4294967304ULL;' '\MULTIBCAST0(s);'
  expect 2 "MULTIBCAST0.*(4294967304|more than one message)" -- "$ps" run big3.loop -n 2 -q -o r3.json --timeout 20
  no_output "Sent|8.59 GB"
  check "no result written for a refused program" test ! -e r3.json
  ;;

# 7. out-of-range \WORK is an error; no nan or inf in a sheet, a JSON or a report
work_range)
  loop w1 '\WORK(1e300);'
  expect 2 "w1.loop:7:[0-9]+: error: .*WORK" -- "$ps" run w1.loop -n 1 -q
  for v in -1e9 2e19 1e300; do
    loop wp '\WORK('"$v"');'
    expect 2 "wp.loop:7:[0-9]+: error: .*WORK" -- "$ps" predict wp.loop -m "$src/machines/sp2.ini" -n 1,2
  done
  # computed at run time
  loop w2 'double f = -1e9;' '\WORK(f);'
  expect 2 "WORK.*(negative|-1000000000)" -- "$ps" run w2.loop -n 1 -q --timeout 20
  expect 2 "WORK.*(negative|-1000000000)" -- "$ps" predict w2.loop -m "$src/machines/sp2.ini" -n 1,2
  # a machine that computes in no time is no model
  sed 's/^flop_time = .*/flop_time = 0/' "$src/machines/sp2.ini" > zero.ini
  loop ok '\WORK(1000);' '\MULTIBCAST0(64);'
  "$ps" predict ok.loop -m zero.ini -n 1,2 -o p.json > out 2>&1
  rc=$?
  check "flop_time = 0: refused with exit 2 (got $rc)" test $rc -eq 2
  check "flop_time = 0: no nan or inf" sh -c '! grep -Eqiw "nan|inf" out p.json 2> /dev/null'
  check "flop_time = 0: the message names it with its line" grep -Eq "zero.ini:[0-9]+: flop_time: must be > 0" out
  ;;

# 8. compare refuses results of different experiments and negative times
compare_mismatch)
  "$ps" run "$prog" -n 2 -q -o a.json > /dev/null 2>&1 || fail "making a result"
  python3 - <<'PY'
import json
a = json.load(open("a.json"))
# the predicted side: the same result, called a prediction (compare refuses the sides swapped)
a["kind"] = "predict"
def variant(name, f):
    d = json.loads(json.dumps(a)); f(d); json.dump(d, open(name, "w"))
variant("p.json", lambda d: None)
variant("other_workload.json", lambda d: d.update(workload="cg"))
variant("other_size.json", lambda d: d["params"].update(size=d["params"].get("size", 1) * 7 + 1))
variant("other_iters.json", lambda d: d["params"].update(iterations=d["params"].get("iterations", 1) * 5 + 3))
variant("other_ranks.json", lambda d: d["params"].update(ranks=3))
def neg(d):
    for k in ("min", "median", "max"):
        d["time"][k] = -abs(d["time"][k])
variant("negative.json", neg)
variant("negative_run.json", lambda d: (neg(d), d.update(kind="run")))
# a measured time of zero (no run takes none), a time that is no number, no time at all
variant("zero_run.json", lambda d: (d["time"].update(min=0), d.update(kind="run")))
variant("text_time.json", lambda d: (d["time"].update(min="abc"), d.update(kind="run")))
variant("no_time_run.json", lambda d: (d["time"].update(min=None, median=None, max=None), d.update(kind="run")))
# several counts, one of them without a time (its trials all failed): the others compared
def at(d, ranks, kind, timeless=False):
    x = json.loads(json.dumps(d)); x["params"]["ranks"] = ranks; x["kind"] = kind
    if timeless:
        x["time"].update(min=None, median=None, max=None)
        x["failures"] = [{"trial": 1, "message": "the job exceeded its time limit of 3 s and was stopped"}]
    return x
json.dump({"kind": "run", "points": [at(a, 2, "run"), at(a, 3, "run", True)]}, open("two_run.json", "w"))
json.dump({"kind": "predict", "points": [at(a, 2, "predict"), at(a, 3, "predict")]}, open("two_p.json", "w"))
PY
  expect 0 "P" -- "$ps" compare a.json p.json
  expect 2 "different workloads" -- "$ps" compare a.json other_workload.json
  expect 2 "different problem sizes" -- "$ps" compare a.json other_size.json
  expect 2 "different iteration counts" -- "$ps" compare a.json other_iters.json
  expect 2 "no processor count in common" -- "$ps" compare a.json other_ranks.json
  expect 2 "cannot be negative" -- "$ps" compare a.json negative.json
  expect 2 "cannot be negative" -- "$ps" compare negative_run.json p.json
  expect 2 "measured result at 2 ranks gives time.min = 0: a measured time cannot be zero" -- "$ps" compare zero_run.json p.json
  expect 2 "time.min = \"abc\": a time is a number of seconds" -- "$ps" compare text_time.json p.json
  expect 2 "no processor count has a time in both results \(1 count without one on a side\)" -- "$ps" compare no_time_run.json p.json
  expect 0 "not compared: P = 3 \(the measured result has no time: no trial succeeded; the first: the job exceeded its time limit of 3 s and was stopped\)" -- "$ps" compare two_run.json two_p.json
  mkdir -p adir
  expect 2 "compare: adir: is a directory, not a file" -- "$ps" compare adir p.json
  expect 2 "the first file holds a prediction" -- "$ps" compare p.json a.json
  expect 2 "holds a result of kind \"run\", not a prediction" -- "$ps" compare a.json a.json
  ;;

# 9. a trace event with a NaN time is refused with its index
trace_nan)
  make_trace
  python3 - T/trace.pst bad.pst <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
version, nranks, ncons, metalen = struct.unpack_from("<IIII", b, 8)
off = 24
for _ in range(ncons):
    (l,) = struct.unpack_from("<H", b, off); off += 2 + l
off += metalen
(n,) = struct.unpack_from("<Q", b, off)
assert n >= 3, n
# rank 0's header (version 3 adds three counters, version 4 four more), then its event 2
off += 184 + (24 if version >= 3 else 0) + (32 if version >= 4 else 0) + 2 * 40
struct.pack_into("<d", b, off, float("nan"))
open(sys.argv[2], "wb").write(b)
PY
  expect 2 "bad.pst: corrupt event 2 of rank 0 \(a time that is not a finite number\)" -- "$ps" export bad.pst -f csv -o x.csv
  check "nothing exported" test ! -e x.csv
  expect 2 "corrupt event 2 of rank 0" -- "$ps" report bad.pst -o x.html -q
  ;;

# 9b. a trace field no run can write is refused: the file, the rank, the event and what is wrong
trace_fields)
  make_trace
  # edit.py IN OUT RANK FIELD VALUE [KIND]: sets FIELD (t_begin, t_end; t0, t1, peer, bytes of the
  # first event of KIND on RANK) to VALUE (an expression of the rank's t_begin) and prints that
  # event's index
  cat > edit.py <<'PY'
import struct, sys
src, dst, rank, field, value = sys.argv[1:6]
kind = int(sys.argv[6]) if len(sys.argv) > 6 else None
rank = int(rank)
b = bytearray(open(src, "rb").read())
version, nranks, ncons, metalen = struct.unpack_from("<IIII", b, 8)
off = 24
for _ in range(ncons):
    (l,) = struct.unpack_from("<H", b, off); off += 2 + l
off += metalen
header = 184 + (24 if version >= 3 else 0) + (32 if version >= 4 else 0)
for r in range(nranks):
    n, _, t_begin = struct.unpack_from("<QQd", b, off)
    if r == rank:
        value = eval(value, {"t_begin": t_begin})
        if field in ("t_begin", "t_end"):
            struct.pack_into("<d", b, off + (16 if field == "t_begin" else 24), value)
            break
        ev = off + header
        for i in range(n):
            if b[ev + i * 40 + 34] == kind:
                e = ev + i * 40
                at = {"t0": (0, "<d"), "t1": (8, "<d"), "bytes": (16, "<Q"), "peer": (24, "<i")}[field]
                struct.pack_into(at[1], b, e + at[0], value)
                print(i)
                break
        else:
            sys.exit("no event of kind %d on rank %d" % (kind, rank))
        break
    off += header + n * 40
open(dst, "wb").write(b)
PY
  # refused by export (each format) and report, nothing written: refused FILE PATTERN
  refused() {
    local f=$1 pattern=$2 fmt
    rm -rf x.*
    for fmt in csv perfetto otf2; do
      expect 2 "$f: $pattern" -- "$ps" export "$f" -f $fmt -o x.$fmt
      check "$f: nothing exported as $fmt" test ! -e x.$fmt
    done
    expect 2 "$f: $pattern" -- "$ps" report "$f" -o x.html -q
    check "$f: no report written" test ! -e x.html
  }
  # the trace as the run wrote it, and a prediction's, are read
  expect 0 "wrote" -- "$ps" export T -f csv -o ok.csv
  "$ps" predict fingerprint -m "$src/machines/sp2.ini" -n 4 --trace P > /dev/null 2>&1 || fail "making a predicted trace"
  expect 0 "wrote" -- "$ps" export P -f csv -o okp.csv
  # 1. times outside the trace's clock, an interval that ends before it begins
  python3 edit.py T/trace.pst begin.pst 1 t_begin -1e300
  refused begin.pst "corrupt header of rank 1 \(t_begin -1e\+300 s: a trace's times lie within 4e9 s of its clock's zero\)"
  python3 edit.py T/trace.pst end.pst 0 t_end 1e300
  refused end.pst "corrupt header of rank 0 \(t_end 1e\+300 s: a trace's times lie within 4e9 s"
  python3 edit.py T/trace.pst order.pst 0 t_end "t_begin - 0.001"
  refused order.pst "corrupt header of rank 0 \(t_end [-0-9.e+]+ s is before t_begin"
  i=$(python3 edit.py T/trace.pst far.pst 1 t1 1e300 1)
  refused far.pst "corrupt event $i of rank 1 \(a time of 1e\+300 s: a trace's times lie within 4e9 s"
  # 2. a message without a partner (a compute or barrier event has none: -1 is theirs)
  for k in 2:send 3:receive 4:posted.receive 5:wait; do
    i=$(python3 edit.py T/trace.pst peer${k%%:*}.pst 0 peer -1 ${k%%:*})
    refused peer${k%%:*}.pst "corrupt event $i of rank 0 \(a ${k#*:} without a partner \(peer -1\)"
  done
  # 3. a message larger than an MPI count
  i=$(python3 edit.py T/trace.pst bytes.pst 0 bytes 4611686018427387904 2)
  refused bytes.pst "corrupt event $i of rank 0 \(a send of 4611686018427387904 bytes; an MPI count holds at most 2147483647\)"
  i=$(python3 edit.py T/trace.pst recvbytes.pst 1 bytes 2147483648 3)
  refused recvbytes.pst "corrupt event $i of rank 1 \(a receive of 2147483648 bytes"
  ;;

# 10. a negative or absurd size is refused at once
negative_size)
  loop neg '\MULTIBCAST0(-500);'
  start=$SECONDS
  expect 2 "neg.loop:7:[0-9]+: error: .*cannot be negative" -- "$ps" run neg.loop -n 2 -q
  loop neg2 'long s = -500;' '\MULTIBCAST0(s);'
  expect 2 "MULTIBCAST0.*cannot be negative" -- "$ps" run neg2.loop -n 2 -q --timeout 25
  check "refused within 20 s, not at a time limit (took $((SECONDS - start)) s)" test $((SECONDS - start)) -lt 20
  loop neg3 'double w = -3;' 'if (nodes > 1) { \SEND((me + 1) % nodes, w); \RECEIVE((me + nodes - 1) % nodes, w); }'
  expect 2 "(SEND|RECEIVE).*cannot be negative" -- "$ps" run neg3.loop -n 2 -q --timeout 25
  # a partner outside the ranks, named with the line it is written on, in a run and in a prediction
  for c in BSEND SEND BRECEIVE RECEIVE; do
    loop "peer_$c" "\\$c(nodes, 4);"
    expect 2 "peer_$c.loop:7: \\\\$c: partner rank 2 is outside 0..1" -- "$ps" run "peer_$c.loop" -n 2 -q --timeout 25
  done
  expect 2 "peer_BSEND.loop:7: \\\\BSEND: partner rank 3 is outside 0..2" -- \
    "$ps" predict peer_BSEND.loop -m "$src/machines/sp2.ini" -n 3 --timeout 25
  ;;

# 11. every output is checked before anything is launched
outputs_first)
  start=$SECONDS
  expect 2 "-o /nonexistent/dir/r.json: the directory /nonexistent/dir does not exist" -- \
    "$ps" run cg -n 2 -q -o /nonexistent/dir/r.json
  expect 2 "--json /nonexistent/p.json" -- "$ps" probe --tiny -n 2 -o m.ini --json /nonexistent/p.json
  check "refused before launching (took $((SECONDS - start)) s)" test $((SECONDS - start)) -lt 5
  # a read-only file system (as root a directory's permission bits do not stop writing)
  mkdir ro
  unshare -m sh -c "mount -t tmpfs -o ro none '$tmp/ro' && '$ps' run cg -n 2 -q -o '$tmp/ro/r.json'" > out 2>&1
  rc=$?
  check "read-only directory: exit 2 (got $rc)" test $rc -eq 2
  check "read-only directory: named" grep -q "ro.*Read-only file system" out
  ;;

# 12. a rank count the launcher cannot start is said at once
too_many_ranks)
  start=$SECONDS
  expect 2 "-n 100000: this machine can start about [0-9]+ ranks" -- "$ps" run cg -n 100000 -q --timeout 20
  check "said at once (took $((SECONDS - start)) s)" test $((SECONDS - start)) -lt 5
  ;;

# 13. a file that is not a workload is refused before mpiexec sees it
not_a_workload)
  mknod node c 1 3 || exit 1
  printf 'just text\n' > notes.txt
  cp /bin/true ./true-copy
  printf '#!/bin/sh\nexit 0\n' > script.sh && chmod +x script.sh
  expect 2 "node: a device, not a program" -- "$ps" run "$tmp/node" -n 1
  expect 2 "notes.txt: not executable" -- "$ps" run "$tmp/notes.txt" -n 1
  expect 2 "true-copy: a program not linked with the parscope runtime" -- "$ps" run "$tmp/true-copy" -n 1
  expect 2 "script.sh: not a program" -- "$ps" run "$tmp/script.sh" -n 1
  expect 0 "Execution time" -- "$ps" run "$prog" -n 1
  ;;

# 14. a variable naming a missing program is an error; every failure says what failed
missing_programs)
  loop ok '\WORK(10);'
  expect 2 "MPICC=/nonexistent/mpicc: no such program" -- env MPICC=/nonexistent/mpicc "$ps" build ok.loop -o ok
  expect 2 "compiling the C generated from .*ok.loop failed: '/bin/false' ended with exit status 1" -- \
    env MPICC=/bin/false "$ps" run ok.loop -n 1 -q
  expect 2 "PARSCOPE_MPIEXEC=/nonexistent: no such program" -- env PARSCOPE_MPIEXEC=/nonexistent "$ps" run "$prog" -n 1
  ;;

# 15. a --config file (or a .loop file) that is not text is refused
config_nul)
  printf 'max-ranks = 2\0\ntrials = banana\n' > bad.conf
  expect 2 "bad.conf:1:14: a NUL byte: not a text file" -- "$ps" scale cg --config bad.conf -o S
  check "no sweep started" test ! -e S/scale.json
  printf '#include "LOOP.h"\nint main(void) { return 0; }\0junk\n' > nul.loop
  expect 2 "nul.loop:2:29: error: a NUL byte" -- "$ps" build nul.loop -o nul
  ;;

# 16. SIGINT during run -k 3: the JSON says it was interrupted and what is missing
run_sigint)
  slow_loop
  "$ps" run slow.loop -n 2 -k 3 -q -o r.json > out 2>&1 &
  pid=$!
  if wait_for 60 has_trials r.json 1; then
    stop_job INT $pid 130 "SIGINT during the trials"
    check "the message says how many trials are missing" grep -Eq "interrupted \(SIGINT\): [12] of 3 trials finished.*[12] missing" out
    check "r.json: interrupted, with the missing trials" json_ok r.json \
      'd["interrupted"] is True and d["complete"] is False and d["trials_planned"] == 3 and len(d["missing"]) == 3 - d["time"]["trials"] and d["time"]["trials"] >= 1'
  else
    fail "no trial ended within 60 s"
    kill -9 $pid
  fi
  ;;

# 17. after SIGTERM characterize does not call the report missing when it wrote it
characterize_sigterm)
  # stopped in the scale sweep (tens of seconds), once the fingerprint is done: the
  # fingerprint alone can end within a second on a warm machine, before any signal
  "$ps" characterize -n 2 -o D --steps fingerprint,scale --budget 20 -q > out 2>&1 &
  pid=$!
  wait_for 30 grep -qs '"step":"fingerprint"' D/steps.ndjson || fail "characterize did not get past its fingerprint"
  sleep 0.5
  stop_job TERM $pid 143 "SIGTERM during characterize"
  check "report.html written" test -s D/report.html
  check "summary.json: interrupted, the report not missing" json_ok D/summary.json \
    'd["interrupted"] is True and "report" not in d["missing"]'
  check "the message does not list the report as missing" sh -c '! grep -E "missing:.*report" out'
  ;;

# 18. a stop at --timeout shows parscope's line, not a launcher's crash
timeout_stop)
  expect 1 "exceeded its time limit of 3 s" -- "$ps" run "$prog" -n 2 --timeout 3 -- --deadlock
  no_output "Segmentation fault|Backtrace|backtrace|\[ *[0-9]+\] "
  nothing_left 10
  # ranks that compute past the limit: Open MPI's mpiexec is aborting the job when parscope stops it
  loop spin 'volatile double x = 0;' 'for (;;) x += 1;'
  expect 1 "rank [01]: timed out after 4 s while computing" -- "$ps" run spin.loop -n 2 --timeout 4
  grep -q "exceeded its time limit of 4 s and was stopped" "$tmp/out" || fail "no line of parscope's own"
  no_output "Segmentation fault|Process received signal|abort is already in progress|\[ *[0-9]+\] "
  nothing_left 10
  expect 1 "exceeded its time limit of 4 s" -- "$ps" run cg -n 2 -i 100000000 -s 1024 --timeout 4
  no_output "Segmentation fault|Process received signal|abort is already in progress"
  nothing_left 10
  # a receive never waited for whose send never comes: the run hangs in \CLOSE0, and says so
  loop never 'if (me == 1) \RECEIVE(0, 4);'
  expect 1 "rank 1: timed out after 3 s, waiting in \\\\CLOSE0's wait for a receive the program left open \\(partner rank 0, 32 bytes\\)" -- \
    "$ps" run never.loop -n 2 --timeout 3
  grep -q "rank 0: timed out after 3 s, waiting in \\\\CLOSE0, for the other ranks to end their programs$" "$tmp/out" ||
    fail "rank 0 in \\CLOSE0's barrier not said"
  no_output "while computing|partner rank -1"
  nothing_left 10
  ;;

# 19. a truncated trace is called truncated
trace_truncated)
  make_trace
  head -c 10 T/trace.pst > ten.pst
  head -c 5 T/trace.pst > five.pst
  expect 2 "five.pst: truncated trace \\(5 bytes" -- "$ps" export five.pst -f csv -o x.csv
  expect 2 "ten.pst: truncated trace \(10 bytes" -- "$ps" export ten.pst -f csv -o x.csv
  size=$(stat -c %s T/trace.pst)
  head -c $((size - 30)) T/trace.pst > short.pst
  expect 2 "short.pst: truncated trace" -- "$ps" export short.pst -f csv -o x.csv
  : > empty.pst
  expect 2 "empty.pst: truncated trace \\(0 bytes" -- "$ps" export empty.pst -f csv -o x.csv
  ;;

# 20. a C compile error in a .loop file is bad input: exit 2, located in the .loop file
compile_error)
  loop bad 'undeclared_variable = 3;'
  expect 2 "bad.loop:7:[0-9]+: error: .undeclared_variable. undeclared" -- "$ps" build bad.loop -o bad
  expect 2 "compiling the C generated from bad.loop failed" -- "$ps" build bad.loop -o bad
  check "no program written" test ! -e bad
  expect 2 "bad.loop:7:[0-9]+: error" -- "$ps" run bad.loop -n 1
  ;;

# 21. kill -9 while the launcher cannot act on its parent-death signal (MPICH's mpiexec loses
# a SIGTERM that comes before its proxies have connected): the job still dies with parscope
kill9_lost_signal)
  {
    printf '#include <time.h>\n#include "LOOP.h"\nint main(void)\n{\n    int nodes, me, host, n;\n'
    printf '    \\OPEN0(&nodes, &me, &host, &n, 0);\n    struct timespec ts = {60, 0};\n'
    printf '    while (nanosleep(&ts, &ts) != 0) {}\n    \\CLOSE0();\n    return 0;\n}\n'
  } > long.loop
  # the launcher: for the workload's job, parscope (its parent) is killed while the launcher
  # ignores SIGTERM, so the kernel's parent-death signal is lost; then the real launcher runs
  real=$(command -v "$mpiexec")
  printf '#!/bin/sh
case " $* " in *" --workload "*) ;; *) exec %s "$@" ;; esac
' "$real" > lost-mpiexec
  printf 'trap "" TERM
echo $PPID > killed.pid
kill -9 $PPID
sleep 0.3
trap - TERM
exec %s "$@"
' "$real" >> lost-mpiexec
  chmod +x lost-mpiexec
  PARSCOPE_MPIEXEC=$tmp/lost-mpiexec "$ps" run long.loop -n 2 -q -o r.json > out 2>&1 &
  pid=$!
  if wait_pid $pid 60; then
    fail "parscope was not killed at its launch (it ended by itself)"
  fi
  check "the launcher killed parscope itself" grep -qx "$pid" killed.pid
  # the job (60 s) ends within the guard's grace (3 s) and the launcher's own stopping
  nothing_left 10
  ;;

*)
  echo "unknown case $case_name"
  exit 2
  ;;
esac
finish
