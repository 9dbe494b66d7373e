#!/usr/bin/env bash
# cli_test.sh PARSCOPE RT_PROGRAM - the command line's contract: usage errors
# exit 2 with a message, a failing or hanging job exits 1 naming the ranks.
set -u
ps=$1 prog=$2
fails=0 passes=0
tmp=$(mktemp -d)
src=$(cd "$(dirname "$0")/../.." && pwd)
trap 'rm -rf "$tmp"' EXIT

# expect STATUS PATTERN -- COMMAND...: runs it, checks exit status and that stderr+stdout match PATTERN
expect() {
  local want=$1 pat=$2; shift 3
  "$@" > "$tmp/out" 2>&1
  local got=$?
  if [ "$got" -ne "$want" ] || ! grep -Eq -- "$pat" "$tmp/out"; then
    echo "FAIL: $* -> status $got (want $want), output:"; sed 's/^/    /' "$tmp/out" | head -20
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}
# also PATTERN: the last expect's output matches PATTERN too (a further check of the same run)
also() {
  if ! grep -Eq -- "$1" "$tmp/out"; then
    echo "FAIL: the output of the run before does not match '$1':"; sed 's/^/    /' "$tmp/out" | head -20
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}

expect 2 "usage: parscope COMMAND" -- "$ps"
expect 0 "usage: parscope COMMAND" -- "$ps" --help
expect 2 "unknown command 'bogus'" -- "$ps" bogus
# the noise calibration's repetitions (docs/OUTPUTS.md): a whole number from 1 to 1000, refused
# before anything runs
for v in abc 0 1001 -3 12x 99999999999999999999; do
  expect 2 "^parscope: PARSCOPE_NOISE_REPS=$v: not a whole number from 1 to 1000" -- env PARSCOPE_NOISE_REPS=$v "$ps" run fingerprint -n 1
done
# every command documents itself, and refuses what it does not know
for c in characterize probe gen build run scale whitebox predict compare report export workloads emulate; do
  expect 0 "^usage: parscope $c" -- "$ps" $c --help
  expect 2 "parscope $c: .*(unknown option|unexpected argument|unrecognized).*--no-such-option" -- "$ps" $c --no-such-option
done
expect 2 "unknown option '--bogus'" -- "$ps" run --bogus
expect 0 "usage: parscope run WORKLOAD" -- "$ps" run --help
expect 2 "run: no workload given" -- "$ps" run -n 2
expect 2 "-n: '0' is not a rank count" -- "$ps" run fingerprint -n 0
expect 2 "-s: 'abc' is not a size" -- "$ps" run fingerprint -n 1 -s abc
expect 2 "unknown workload 'nosuch'" -- "$ps" run nosuch -n 1
expect 2 "nothere.loop: no such file" -- "$ps" run nothere.loop -n 1
expect 2 "no MPI launcher found: 'nosuchlauncher'" -- "$ps" run "$prog" -n 2 --launcher nosuchlauncher
expect 2 "PARSCOPE_MPIEXEC=/nonexistent: no such program" -- env PATH=/nonexistent PARSCOPE_MPIEXEC=/nonexistent "$ps" run "$prog" -n 2
# a misspelt placeholder: refused before anything runs (2), naming the option, the placeholder and the known ones
expect 2 "run: --launcher: 'mpiexec -n \{rank\}': unknown placeholder '\{rank\}' \(known: \{ranks\} .*\{hostfile\}" -- \
  "$ps" run "$prog" -n 2 --launcher "mpiexec -n {rank}"
expect 2 "whitebox: PARSCOPE_LAUNCHER: .*unknown placeholder '\{np\}'" -- env PARSCOPE_LAUNCHER="mpiexec -np {np}" "$ps" whitebox cg -n 2
for c in probe scale characterize; do
  expect 2 "$c: --launcher: .*unknown placeholder '\{rank\}'" -- "$ps" $c --launcher "mpiexec -n {rank}" -o "$tmp/never-$c"
done
expect 2 "predict: --launcher: .*unknown placeholder '\{rank\}'" -- \
  "$ps" predict cg -m "$src/machines/sp2.ini" -n 2 --compare --launcher "mpiexec -n {rank}"
ls "$tmp" | grep -q never && { echo "FAIL: a refused command wrote its output"; fails=$((fails + 1)); } || passes=$((passes + 1))
# (the launcher of the MPI parscope was built against: Open MPI's mpiexec would start an MPICH build's
# ranks as jobs of one rank each)
mpiexec=${PS_MPIEXEC:-mpiexec} over=
"$mpiexec" --version 2>&1 | grep -q "Open MPI\|OpenRTE" && over=--oversubscribe
expect 0 "Execution time" -- "$ps" run "$prog" -n 2 --launcher "$mpiexec -n {ranks}"
also "Nodes: +2 ranks on"
expect 0 "Execution time" -- env PARSCOPE_LAUNCHER="$mpiexec $over -n {ranks}" "$ps" run "$prog" -n 3
also "Nodes: +3 ranks on"
# a rank that dies: the job fails, the rank is named
expect 1 "rank 2 (died|did not finish)" -- "$ps" run "$prog" -n 3 -- --die
# a rank struck by a fault: where, and its stack from the faulting instruction on (from the rank's
# marker, which no launcher's forwarding of its stderr can cut short), under -q as well; then the
# handler of MPI's libraries (Open MPI's, UCX's under MPICH) or a sanitizer's has its say
expect 1 "rank 2 \(process [0-9]+ on [^)]+\) when it died: SIGSEGV \(address not mapped\) at address 0x10, instruction 0x[0-9a-f]+" -- \
  "$ps" run "$prog" -n 3 -q -- --segv
pc=$(sed -n 's/.*when it died: .*, instruction \(0x[0-9a-f]*\)$/\1/p' "$tmp/out")
grep -A1 "when it died" "$tmp/out" | tail -1 | grep -Eq "^    .*rt_program(\(\+0x[0-9a-f]+\))?\[$pc\]$" &&
  passes=$((passes + 1)) || { echo "FAIL: the stack does not begin at the faulting instruction $pc:"; sed 's/^/    /' "$tmp/out"; fails=$((fails + 1)); }
also "trial 1 of 1: the job failed \(exit status [0-9]+\): rank 2 died on [^ ]+ \(killed by SIGSEGV\)"
# ... and one whose stack overflowed: said from a stack of its own
expect 1 "rank 2 \(process [0-9]+ on [^)]+\) when it died: SIGSEGV .*at address 0x[0-9a-f]+" -- \
  "$ps" run "$prog" -n 3 -q -- --overflow
also "    \.\.\. the frame above [0-9]+ more times"
# ... and one killed by abort(): the signal named, the stack shown
expect 1 "rank 2 \(process [0-9]+ on [^)]+\) when it died: SIGABRT" -- "$ps" run "$prog" -n 3 -q -- --die
also "    .*abort"
# a program that handles its own faults (a page mapped on its first touch) is left to do so: nothing
# said, nothing marked dead
expect 0 "Execution time" -- "$ps" run "$prog" -n 2 -- --guard
grep -Eq "killed by|when it died" "$tmp/out" && { echo "FAIL: a fault the program handled was reported:"; sed 's/^/    /' "$tmp/out"; fails=$((fails + 1)); } || passes=$((passes + 1))
# ... and what was measured is still written: the result names every failed trial
expect 1 "trial 2 of 2: the job failed" -- "$ps" run "$prog" -n 3 -k 2 -o "$tmp/died.json" -- --die
python3 - "$tmp/died.json" <<'PY' || { echo "FAIL: the failed run's JSON"; fails=$((fails + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["time"]["trials"] == 2 and d["time"]["successful"] == 0, d["time"]
assert [f["trial"] for f in d["failures"]] == [1, 2] and "rank 2" in d["failures"][0]["message"], d["failures"]
PY
# a job that hangs: stopped at the time limit, each rank says what it waits on (one run, two checks)
expect 1 "rank [01]: timed out after [0-9.]+ s, waiting in a blocking receive" -- "$ps" run "$prog" -n 2 --timeout 3 -- --deadlock
also "exceeded its time limit of 3 s"
# a LOOP program that deadlocks through \BRECEIVE stops at --timeout, naming the ranks and what they wait on
expect 1 "rank [0-2]: timed out after [0-9.]+ s, waiting in a blocking receive \(partner rank [0-2], 32 bytes\)" -- \
  env XDG_CACHE_HOME="$tmp/cache" "$ps" run "$src/tests/sim/deadlock.loop" -n 3 --timeout 4
# results: JSON with every trial, the trace kept
expect 0 "Trials: 2" -- "$ps" run "$prog" -n 2 -k 2 --trace "$tmp/T" -o "$tmp/r.json"
python3 - "$tmp/r.json" "$tmp/T/trace.pst" "$("${PS_MPIEXEC:-mpiexec}" --version 2>&1)" <<'PY' || { echo "FAIL: result JSON"; fails=$((fails + 1)); }
import json, os, re, sys
d = json.load(open(sys.argv[1]))
# the MPI library by name and version, the one the ranks ran with: what the launcher says of itself
lib = re.match(r"(Open MPI|MPICH) ([0-9][0-9.a-z]*)$", d["machine"]["mpi"])
assert lib and re.search(r"(OpenRTE|Open MPI|Version:)\)?\s+" + re.escape(lib.group(2)) + r"\b", sys.argv[3]), (d["machine"]["mpi"], sys.argv[3])
assert d["kind"] == "run" and d["params"]["ranks"] == 2, d["params"]
t = d["time"]
assert t["trials"] == 2 and len(t["samples"]) == 2 and t["min"] <= t["median"] <= t["max"], t
s = d["sheet"]
# rt_program: a ring of 10 rounds and one without buffers, 5 round trips, the barrier and allreduce's 2
assert s["messages_sent"] == 11 * 2 + 10 + 2 and s["messages_sent"] == s["messages_received"], s
assert abs(s["busy_pct"] + s["overhead_pct"] + s["idle_pct"] - 100) < 1e-6
assert len(d["ranks"]) == 2 and all(abs(r["busy"] + r["overhead"] + r["idle"] - s["time"]) < 1e-9 for r in d["ranks"])
assert "procstats" in d and d["procstats"]["wall_s"]["max"] > 0
assert d["machine"]["cores"] >= 1 and d["machine"]["mpi"]
assert os.path.exists(sys.argv[2])
# the time's uncertainty, the machine's noise, where the ranks ran
assert t["statistic"] == "min" and "uncertainty" in t and t["ci_median"]["coverage"] == 0.5, t
n = d["noise"]
# as many calibration repetitions as PARSCOPE_NOISE_REPS asks (the suite sets it), else 40
reps = int(os.environ.get("PARSCOPE_NOISE_REPS") or 40)
assert n["before"]["calibration"]["n"] == reps and n["after"]["calibration"]["n"] == reps, n
assert "a fixed integer loop timed %d times" % reps in n["method"], n["method"]
assert n["level"] in ("quiet", "busy", "very busy") and {"before", "during", "after"} <= set(n), n
assert d["placement"]["ranks"] == 2 and "oversubscribed" in d
# the link's state around the timed interval (compare's latency check): rank 1's best clock round trip
assert 0 < d["ranks"][1]["clock_rtt"] < 0.01, d["ranks"][1]
PY
[ $fails -eq 0 ] && passes=$((passes + 1))
# more ranks than cores: it runs, the JSON says oversubscribed, the text warns, busy / idle are marked
over=$(( $(nproc) + 2 ))
expect 0 "WARNING: oversubscribed: $over ranks share" -- "$ps" run fingerprint -n $over -o "$tmp/over.json"
python3 - "$tmp/over.json" $over <<'PY' || { echo "FAIL: the oversubscribed run's JSON"; fails=$((fails + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert d["oversubscribed"] is True and d["placement"]["ranks_per_node"] == n, d.get("placement")
assert d["sheet"]["time_sliced"] is True and all(r["time_sliced"] for r in d["ranks"])
PY
# no command replaces a result silently
echo '{"kind": "earlier"}' > "$tmp/earlier.json"
expect 2 "predict: -o .*earlier.json: exists already \(use --force" -- "$ps" predict cg -m "$src/machines/sp2.ini" -n 2 -o "$tmp/earlier.json"
expect 2 "whitebox: -o .*earlier.json: exists already" -- "$ps" whitebox cg -n 2 -o "$tmp/earlier.json"
expect 2 "probe: --json .*earlier.json: exists already" -- "$ps" probe --tiny -o "$tmp/new.ini" --json "$tmp/earlier.json"
grep -q earlier "$tmp/earlier.json" && passes=$((passes + 1)) || { echo "FAIL: an earlier result was replaced"; fails=$((fails + 1)); }
expect 0 "time \(s\)" -- "$ps" predict cg -m "$src/machines/sp2.ini" -n 2 -o "$tmp/earlier.json" --force
# inside an MPI job parscope runs the workload directly; rank 0 writes the result
expect 0 "Execution time" -- "${PS_MPIEXEC:-mpiexec}" -n 2 "$ps" run fingerprint -o "$tmp/inside.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['params']['ranks']==2 and d['sheet']['messages_sent']==16, d['sheet']" \
  "$tmp/inside.json" && passes=$((passes + 1)) || { echo "FAIL: the result of a run inside an MPI job"; fails=$((fails + 1)); }
# inside a job its size is the rank count: an -n that differs is refused, not ignored
expect 2 "\-n 4: this MPI job has 2 ranks" -- "${PS_MPIEXEC:-mpiexec}" -n 2 "$ps" run fingerprint -n 4 -q
expect 2 "parscope run: --auto-trials: inside an MPI job the job is the one trial" -- "${PS_MPIEXEC:-mpiexec}" -n 2 "$ps" run fingerprint --auto-trials -q
expect 2 "parscope run: -k: inside an MPI job the job is the one trial" -- "${PS_MPIEXEC:-mpiexec}" -n 2 "$ps" run fingerprint -k 3 -q
expect 0 "Execution time" -- "${PS_MPIEXEC:-mpiexec}" -n 2 "$ps" run fingerprint -n 2
# a result to a device is written into it, never renamed over it
expect 0 '"kind": "run"' -- "$ps" run "$prog" -n 2 -q -o /dev/stdout
{ [ -L /dev/stdout ] || [ -c /dev/stdout ]; } && passes=$((passes + 1)) || { echo "FAIL: /dev/stdout was replaced"; fails=$((fails + 1)); }
# a second run into the same places is refused, unless --force
expect 2 "exists already \(use --force" -- "$ps" run "$prog" -n 2 -o "$tmp/r.json"
expect 2 "holds a trace already" -- "$ps" run "$prog" -n 2 --trace "$tmp/T"
expect 0 "Execution time" -- "$ps" run "$prog" -n 2 --trace "$tmp/T" -o "$tmp/r.json" --force
# an unwritable output and a full disk: a clear message, exit 1, the sheet still printed
mkdir -p "$tmp/ro" && chmod 500 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
  expect 1 "ro/r.json: cannot write" -- "$ps" run "$prog" -n 2 -o "$tmp/ro/r.json"
fi
mkdir -p "$tmp/full"
if unshare -m true 2>/dev/null; then
  expect 1 "full/r.json: (write failed|cannot write).*(No space|space)" -- unshare -m bash -c \
    "mount -t tmpfs -o size=4k tmpfs '$tmp/full' && dd if=/dev/zero of='$tmp/full/fill' bs=1k count=8 2>/dev/null; exec '$ps' run '$prog' -n 2 -o '$tmp/full/r.json'"
fi
echo "cli: $passes passed, $fails failed"
[ $fails -eq 0 ]
