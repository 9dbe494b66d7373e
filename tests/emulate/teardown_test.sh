#!/usr/bin/env bash
# teardown_test.sh PARSCOPE BINDIR RT_PROGRAM - whatever happens to COMMAND
# or to parscope emulate itself, nothing of the cluster stays: no process, and
# the host's namespaces (ip netns), links (ip link) and mounts (/proc/mounts)
# are as before.  COMMAND's exit status comes back (128 + signal if killed).
. "$(dirname "$0")/common.sh"
need_root
mkwork
host_state > before.txt

# run_case NAME WANT_STATUS SIGNAL COMMAND...: runs parscope emulate -N 3 with
# COMMAND (which records its run id and namespaces first); with SIGNAL, sends
# it to parscope emulate once COMMAND has started; then checks the status and
# that nothing of the run is left.
run_case() {
    local name=$1 want=$2 sig=$3
    shift 3
    rm -f id.txt ns.txt
    # a background job of a script ignores SIGINT unless told otherwise
    env --default-signal=INT "$PS" emulate -q -N 3 -- "$@" > "out.$name" 2>&1 &
    local pid=$! i
    if [ "$sig" != none ]; then
        for i in $(seq 1 200); do [ -s ns.txt ] && break; sleep 0.05; done
        [ -s ns.txt ] || fail "$name: the command did not start"
        sleep 0.3
        kill -s "$sig" "$pid"
    fi
    wait "$pid"
    local got=$?
    if [ "$got" -eq "$want" ]; then pass; else
        fail "$name: exit status $got, want $want"
        sed 's/^/    /' "out.$name" | head -10
    fi
    if [ -s id.txt ]; then
        gone "$(cat id.txt)" ns.txt "$name"
    else
        fail "$name: the command recorded no run id"
    fi
    same_state before.txt "$name"
}

t0=$(date +%s.%N)
run_case normal 0 none sh -c "$RECORD"
run_case failing 7 none sh -c "$RECORD; exit 7"
run_case killed 137 none sh -c "$RECORD; kill -9 \$\$"
# a daemon left on another node, and one on node0, when COMMAND ends
run_case daemons 0 none sh -c "$RECORD; '$PS' __node node2 'sleep 300 &' ; sleep 300 & exit 0"
run_case sigint 130 INT sh -c "$RECORD; exec sleep 300"
run_case sigterm 143 TERM sh -c "$RECORD; exec sleep 300"
run_case sigkill 137 KILL sh -c "$RECORD; '$PS' __node node1 'sleep 300 &'; exec sleep 300"
# an MPI job in flight when parscope emulate is killed
run_case sigkill_mpi 137 KILL sh -c "$RECORD; exec mpiexec -n 3 sleep 300"
# a command that ignores the signals: the third one stops the whole cluster
rm -f id.txt ns.txt
"$PS" emulate -q -N 2 -- sh -c "trap '' INT TERM HUP; $RECORD; sleep 300" > out.stubborn 2>&1 &
pid=$!
for i in $(seq 1 200); do [ -s ns.txt ] && break; sleep 0.05; done
kill -TERM "$pid"; sleep 0.3; kill -TERM "$pid"; sleep 0.3; kill -TERM "$pid"
wait "$pid"
got=$?
if [ "$got" -eq 143 ] && grep -q "stopped the cluster after 3 signals" out.stubborn; then pass; else
    fail "a command that ignores signals: status $got"; sed 's/^/    /' out.stubborn | head; fi
[ -s id.txt ] && gone "$(cat id.txt)" ns.txt "a command that ignores signals"

# a signal while the cluster is still being built reaches COMMAND once it runs
rm -f id.txt ns.txt
env --default-signal=INT "$PS" emulate -q -N 4 -- sh -c "$RECORD; exec sleep 300" > out.early 2>&1 &
pid=$!
# as soon as the cluster's init exists (a child of parscope emulate)
for i in $(seq 1 1000); do pgrep -P "$pid" > /dev/null && break; sleep 0.005; done
kill -TERM "$pid"
s0=$(date +%s)
wait "$pid"
got=$?
if [ "$got" -eq 143 ] && [ $(( $(date +%s) - s0 )) -lt 30 ]; then pass; else
    fail "SIGTERM during set-up: status $got after $(( $(date +%s) - s0 )) s"; sed 's/^/    /' out.early | head; fi
[ -s id.txt ] && gone "$(cat id.txt)" ns.txt "SIGTERM during set-up"
same_state before.txt "SIGTERM during set-up"
t1=$(date +%s.%N)
echo "teardown cases took $(python3 -c "print('%.1f' % ($t1 - $t0))") s"

# a command that does not exist: 127, as a shell says
expect 127 "cannot run 'no-such-command-here'" -- "$PS" emulate -q -N 2 -- no-such-command-here
finish
