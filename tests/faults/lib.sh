# lib.sh - shared by the fault tests (sourced by faults.sh).
#
# Every parscope a test starts (through the wrapper $ps made here) runs in a
# session of its own, and the wrapper notes the session's id; mpiexec stays
# in that session.  The ranks need not: MPICH's proxies and ranks make
# sessions of their own.  So the test's shell is a child subreaper
# (faults.sh), and what parscope leaves when it is killed outright comes back
# to it.  After parscope has been stopped the test finds what it left running,
# in those sessions or below the test's shell (left_running, from
# /proc/PID/stat only: reading another process's environment or command line
# waits on its memory map, seconds for a rank setting up its memory), and
# fails if anything is.

tmp=$(mktemp -d)
# parscope's status folders (parscope-run.XXXXXX) and Open MPI's session
# folders go here too: a parscope killed with SIGKILL cannot remove its own,
# and cleanup removes them with the rest
export TMPDIR=$tmp
# the wrapper is never a process group leader here (a background job of a
# shell without job control, or timeout's child), so setsid does not fork:
# the pid the test holds is parscope's; started under setsid already, it is
# a session leader and stays in that session
printf '#!/bin/sh\necho $$ >> %s/sessions\n[ "$(ps -o sid= -p $$ | tr -d " ")" = $$ ] && exec %s "$@"\nexec setsid %s "$@"\n' \
  "$tmp" "$(realpath "$ps")" "$(realpath "$ps")" > "$tmp/parscope-wrap"
chmod +x "$tmp/parscope-wrap"
# the binary itself, for a rank of an MPI job: a rank is a process group leader,
# so the wrapper's setsid would fork there and the rank would end at once
ps_bin=$(realpath "$ps")
ps=$tmp/parscope-wrap
prog=$(realpath "$prog")
src=$(realpath "$src")
# built programs are cached across the cases (a cold compile takes seconds)
export XDG_CACHE_HOME=${PS_FAULTS_CACHE:-$tmp/cache}
fails=0
passes=0

# the live processes (not zombies) in the sessions of the parscopes this test
# started or below the test's shell (but for this function's own), one
# "PID COMMAND" a line
left_running() {
  python3 - "$tmp/sessions" $$ <<'PY'
import os, sys
try:
    sessions = {int(x) for x in open(sys.argv[1]).read().split()}
except OSError:
    sessions = set()
shell = int(sys.argv[2])
procs = {}
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        stat = open(f"/proc/{p}/stat").read()
    except OSError:
        continue
    close = stat.rindex(")")
    # after "pid (comm)": state ppid pgrp session ...
    f = stat[close + 2:].split()
    procs[int(p)] = (f[0], int(f[1]), int(f[3]), stat[stat.index("(") + 1:close])
# this scanner and the subshells between it and the test's shell
mine, p = set(), os.getpid()
while p in procs and p != shell:
    mine.add(p)
    p = procs[p][1]
below, todo = set(), [shell]
while todo:
    q = todo.pop()
    for c, (_, ppid, _, _) in procs.items():
        if ppid == q and c not in below and c not in mine:
            below.add(c)
            todo.append(c)
for p in sorted(procs):
    state, _, sid, comm = procs[p]
    if state not in "ZX" and p not in mine and (sid in sessions or p in below):
        print(p, comm)
PY
}

# what the processes of those sessions are doing, for a failure's message: each one's state, the
# kernel function it waits in, and (with gdb) its threads' stacks, so that a stall that happens
# only on another machine says where it was
describe_running() {
  local p comm
  left_running | while read -r p comm; do
    echo "    $p $comm: state $(awk '{print $3}' /proc/$p/stat 2> /dev/null), waits in $(cat /proc/$p/wchan 2> /dev/null)"
    if command -v gdb > /dev/null; then
      timeout 10 gdb -p "$p" -batch -ex "thread apply all bt 12" 2> /dev/null | grep -E '^#|^Thread' | sed 's/^/      /'
    fi
  done
}

# kills what the test left (also when it failed), then removes its files
cleanup() {
  local p
  for p in $(left_running | awk '{print $1}'); do kill -9 "$p" 2> /dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
pass() { passes=$((passes + 1)); }

# check CONDITION-TEXT COMMAND...: passes when COMMAND succeeds
check() {
  local what=$1
  shift
  if "$@"; then pass; else fail "$what"; fi
}

# expect STATUS PATTERN -- COMMAND... (output in $tmp/out), each command
# bounded: one that hangs fails the case instead of holding it up
EXPECT_OUT=$tmp/out
EXPECT_LIMIT=${EXPECT_LIMIT:-50}
. "$(dirname "${BASH_SOURCE[0]}")/../common/expect.sh"

# no_output PATTERN: the last expect's output does not match PATTERN
no_output() {
  if grep -Eq -- "$1" "$tmp/out"; then
    fail "output matches '$1':"
    sed 's/^/    /' "$tmp/out" | head -30
  else
    pass
  fi
}

# nothing_left SECONDS: within SECONDS, no process of those sessions is running
nothing_left() {
  local end=$((SECONDS + $1)) l
  while :; do
    l=$(left_running)
    [ -z "$l" ] && { pass; return 0; }
    [ $SECONDS -ge $end ] && break
    sleep 0.2
  done
  fail "processes left running $1 s after parscope ended:"
  echo "$l" | sed 's/^/    /'
  return 1
}

# wait_pid PID SECONDS: waits for the background PID to end and returns its
# exit status; past SECONDS it is killed and the status is 124
wait_pid() {
  local end=$((SECONDS + $2))
  while kill -0 "$1" 2> /dev/null; do
    if [ $SECONDS -ge $end ]; then
      kill -9 "$1" 2> /dev/null
      wait "$1" 2> /dev/null
      fail "pid $1 still running $2 s later"
      return 124
    fi
    sleep 0.1
  done
  wait "$1"
}

# stop_job SIGNAL PID STATUS WHAT: sends SIGNAL to PID (to its process group, as a
# terminal's Ctrl-C does, when PID is given as -PID), waits for it, checks its
# exit status and that nothing it started is left running
stop_job() {
  local sig=$1 target=$2 want=$3 what=$4 rc
  kill -"$sig" -- "$target"
  wait_pid "${target#-}" 30
  rc=$?
  check "$what: exit status $want (got $rc)" test $rc -eq "$want"
  nothing_left 10
}

# wait_for SECONDS COMMAND...: polls until COMMAND succeeds; 1 at the limit
wait_for() {
  local end=$((SECONDS + $1))
  shift
  until "$@"; do
    [ $SECONDS -ge $end ] && return 1
    sleep 0.1
  done
}

# json_ok FILE PYTHON-EXPRESSION: the expression over d (the parsed FILE) is true
json_ok() {
  python3 - "$@" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"    {sys.argv[1]}: {e}")
    sys.exit(1)
ok = eval(sys.argv[2])
if not ok:
    print(f"    {sys.argv[1]}: not true: {sys.argv[2]}")
    print("    " + json.dumps({k: d[k] for k in list(d)[:40] if k not in ("machine", "trace")})[:1500])
sys.exit(0 if ok else 1)
PY
}

# trials_in FILE: the number of trials a run's result JSON holds (0 if none)
trials_in() {
  python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["time"]["trials"])
except Exception: print(0)' "$1"
}

# in_trial FILE N PID: FILE holds N trials and a job of PID's (mpiexec, a
# rank) is running, read together (one python start takes seconds on a
# loaded machine); status 2 once FILE holds more than N trials
in_trial() {
  python3 - "$tmp/sessions" "$@" <<'PY'
import json, os, sys
try:
    n = json.load(open(sys.argv[2]))["time"]["trials"]
except Exception:
    n = 0
want, pid = int(sys.argv[3]), sys.argv[4]
if n > want:
    sys.exit(2)
sessions = {int(x) for x in open(sys.argv[1]).read().split()}
job = 0
for p in os.listdir("/proc"):
    if p.isdigit() and p != pid:
        try:
            stat = open(f"/proc/{p}/stat").read()
        except OSError:
            continue
        f = stat[stat.rindex(")") + 2:].split()
        job += f[0] not in "ZX" and int(f[3]) in sessions
sys.exit(0 if n == want and job else 1)
PY
}

# has_trials FILE N: FILE holds at least N trials
has_trials() { [ "$(trials_in "$1")" -ge "$2" ]; }

# job_running PID: a process parscope (PID) started is running (mpiexec, a rank)
job_running() { left_running | awk -v p="$1" '$1 != p' | grep -q .; }

finish() {
  echo "$passes passed, $fails failed"
  [ $fails -eq 0 ]
}
