#!/usr/bin/env bash
# launcher_test.sh PARSCOPE - launcher templates end to end: quoted words
# reach the launcher intact, {hostfile} holds each rank's host (round robin
# or in blocks) and is removed after the job, Slurm's report of a dead task
# names the rank and host, bad templates exit 2 saying why.
set -u
PS=$1
fails=0 passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpiexec=${PS_MPIEXEC:-mpiexec}

expect() {
    local want=$1 pat=$2
    shift 3
    "$@" > "$tmp/out" 2>&1
    local got=$?
    if [ "$got" -ne "$want" ] || ! grep -Eq -- "$pat" "$tmp/out"; then
        echo "FAIL: $* -> status $got (want $want), output:"; sed 's/^/    /' "$tmp/out" | head -20
        fails=$((fails + 1))
    else
        passes=$((passes + 1))
    fi
}

# a launcher whose path holds a space, given arguments with spaces and quotes:
# it records what it got, then runs the job with the real mpiexec
mkdir -p "$tmp/my launcher"
cat > "$tmp/my launcher/spy" << SPY
#!/bin/sh
printf '%s\n' "\$@" > "$tmp/args"
[ "\$1" = --hostfile ] && { cp "\$2" "$tmp/hostfile"; echo "\$2" > "$tmp/hostfile.path"; shift 2; }
shift 2 # the quoted words
exec "$mpiexec" "\$@"
SPY
chmod +x "$tmp/my launcher/spy"

expect 0 "Execution time" -- "$PS" run fingerprint -n 2 \
    --launcher "'$tmp/my launcher/spy' \"a \\\"b\\\" c\" 'd e' -n {ranks}"
printf 'a "b" c\nd e\n-n\n2\n' > "$tmp/want"
diff -q <(head -4 "$tmp/args") "$tmp/want" > /dev/null && passes=$((passes + 1)) ||
    { echo "FAIL: the launcher got:"; cat "$tmp/args"; fails=$((fails + 1)); }

# {hostfile}: one line per rank, removed after the job
check_hostfile() { # MAP WANT (lines joined by spaces)
    rm -f "$tmp/hostfile" "$tmp/hostfile.path"
    expect 0 "Execution time" -- env PARSCOPE_HOSTS="h0:2, h1:1" PARSCOPE_MAP="$1" "$PS" run fingerprint -n 4 \
        --launcher "'$tmp/my launcher/spy' --hostfile {hostfile} x y -n {ranks}"
    local got
    got=$(tr '\n' ' ' < "$tmp/hostfile" | sed 's/ $//')
    [ "$got" = "$2" ] && passes=$((passes + 1)) || { echo "FAIL: $1 hostfile '$got', want '$2'"; fails=$((fails + 1)); }
    [ -e "$(cat "$tmp/hostfile.path")" ] && { echo "FAIL: the hostfile was left behind"; fails=$((fails + 1)); } ||
        passes=$((passes + 1))
}
check_hostfile round-robin "h0 h1 h0 h1"
check_hostfile block "h0 h0 h1 h0"

# Slurm's report of a task that died
cat > "$tmp/srun" << 'SRUN'
#!/bin/sh
echo "srun: error: node12: task 3: Segmentation fault (core dumped)" >&2
exit 139
SRUN
chmod +x "$tmp/srun"
expect 1 "rank 3 died on node12 \(Segmentation fault \(core dumped\)\)" -- "$PS" run fingerprint -n 4 --launcher "$tmp/srun --ntasks={ranks}"

# bad templates
expect 2 "--launcher: mpiexec 'oops: column 9: the single quote is not closed" -- \
    "$PS" run fingerprint -n 2 --launcher "mpiexec 'oops"
expect 2 "PARSCOPE_LAUNCHER: .*column 9: the double quote is not closed" -- \
    env PARSCOPE_LAUNCHER='mpiexec "-n {ranks}' "$PS" run fingerprint -n 2
expect 2 "a backslash ends the template" -- "$PS" run fingerprint -n 2 --launcher 'mpiexec \'
expect 2 "\{hostfile\} needs the hosts in PARSCOPE_HOSTS" -- \
    env -u PARSCOPE_HOSTS "$PS" run fingerprint -n 2 --launcher "mpiexec -f {hostfile} -n {ranks}"
expect 2 "PARSCOPE_HOSTS: 'h0:zero' is not HOST or HOST:SLOTS" -- \
    env PARSCOPE_HOSTS=h0:zero "$PS" run fingerprint -n 2 --launcher "mpiexec -f {hostfile} -n {ranks}"
expect 2 "PARSCOPE_MAP: 'spiral' is not round-robin or block" -- \
    env PARSCOPE_HOSTS=h0 PARSCOPE_MAP=spiral "$PS" run fingerprint -n 2 --launcher "mpiexec -f {hostfile} -n {ranks}"
expect 2 "the launcher template is empty" -- "$PS" run fingerprint -n 2 --launcher "   "
# a job on this machine alone gets an Open MPI session directory of its own, made before the job and
# removed after it (two jobs of one user started at once raced on the shared /tmp/ompi.HOST.UID);
# one the user names is passed on untouched
cat > "$tmp/session_spy" << SPY
#!/bin/sh
{ echo "base=\${OMPI_MCA_orte_tmpdir_base:-none}"; [ -d "\${OMPI_MCA_orte_tmpdir_base:-/nonexistent}" ] && echo made; } >> "$tmp/session.log"
exec "$mpiexec" "\$@"
SPY
chmod +x "$tmp/session_spy"
env -u PARSCOPE_LAUNCHER -u OMPI_MCA_orte_tmpdir_base PARSCOPE_MPIEXEC="$tmp/session_spy" TMPDIR="$tmp" \
    "$PS" run fingerprint -n 2 -s 10 -i 1 -q -o "$tmp/session.json" > "$tmp/out" 2>&1 ||
    { echo "FAIL: a run through the session spy: $(cat "$tmp/out")"; fails=$((fails + 1)); }
base=$(sed -n 's/^base=//p' "$tmp/session.log" | head -1)
case $base in
  "$tmp"/ps-ompi.*) grep -qx made "$tmp/session.log" && [ ! -e "$base" ] && passes=$((passes + 1)) ||
      { echo "FAIL: the job's session directory $base: not made before the job, or left after it"; fails=$((fails + 1)); } ;;
  *) echo "FAIL: the job's session directory: $base, expected one under $tmp/ps-ompi.*"; fails=$((fails + 1)) ;;
esac
: > "$tmp/session.log"
env -u PARSCOPE_LAUNCHER PARSCOPE_MPIEXEC="$tmp/session_spy" OMPI_MCA_orte_tmpdir_base="$tmp/mine" \
    "$PS" run fingerprint -n 2 -s 10 -i 1 -q -o "$tmp/session2.json" > "$tmp/out" 2>&1 ||
    { echo "FAIL: a run with the user's session directory: $(cat "$tmp/out")"; fails=$((fails + 1)); }
grep -qx "base=$tmp/mine" "$tmp/session.log" && passes=$((passes + 1)) ||
    { echo "FAIL: the user's OMPI_MCA_orte_tmpdir_base was not passed on: $(cat "$tmp/session.log")"; fails=$((fails + 1)); }
# nor when the user placed Open MPI's session directories otherwise (Open MPI exits when orte_tmpdir_base
# meets orte_local_tmpdir_base; orte_top_session_dir is the one of those that a job runs with alone): by a
# variable, or in the user's mca-params.conf
for how in variable file; do
    : > "$tmp/session.log"
    mkdir -p "$tmp/home/.openmpi"
    rm -f "$tmp/home/.openmpi/mca-params.conf"
    set -- env -u PARSCOPE_LAUNCHER -u OMPI_MCA_orte_tmpdir_base PARSCOPE_MPIEXEC="$tmp/session_spy"
    if [ $how = variable ]; then
        set -- "$@" OMPI_MCA_orte_top_session_dir="$tmp/top"
    else
        printf '# placed by the user\n  orte_top_session_dir = %s\n' "$tmp/top" > "$tmp/home/.openmpi/mca-params.conf"
        set -- "$@" HOME="$tmp/home"
    fi
    "$@" "$PS" run fingerprint -n 2 -s 10 -i 1 -q -o "$tmp/session_$how.json" > "$tmp/out" 2>&1 ||
        { echo "FAIL: a run with orte_top_session_dir set by a $how: $(cat "$tmp/out")"; fails=$((fails + 1)); }
    grep -qx "base=none" "$tmp/session.log" && passes=$((passes + 1)) ||
        { echo "FAIL: orte_top_session_dir set by a $how, parscope set its own: $(cat "$tmp/session.log")"; fails=$((fails + 1)); }
done
# Open MPI's PSM and PSM2 MTLs cost every process 0.2 s of start-up where the machine has neither
# adapter: a job's environment excludes them then, keeping the params files' own exclusions, and
# leaves a choice of MTLs or PMLs alone (in the environment or a params file)
cat > "$tmp/mtl_spy" << SPY
#!/bin/sh
echo "mtl=\${OMPI_MCA_mtl:-none}" >> "$tmp/mtl.log"
exec "$mpiexec" "\$@"
SPY
chmod +x "$tmp/mtl_spy"
adapter=$(ls /sys/class/infiniband 2> /dev/null | grep -Ec '^(qib|hfi1)')
# the system's own line, as Open MPI reads its params file: the first "mtl = VALUE"
sysmtl=$(sed -n 's/^[[:space:]]*mtl[[:space:]]*=[[:space:]]*\([^#[:space:]]*\).*/\1/p' /etc/openmpi/openmpi-mca-params.conf 2> /dev/null | head -1)
syspml=$(sed -n 's/^[[:space:]]*pml[[:space:]]*=[[:space:]]*\([^#[:space:]]*\).*/\1/p' /etc/openmpi/openmpi-mca-params.conf 2> /dev/null | head -1)
# want WHAT USER-FILE-LINE [VAR=VALUE]: the job's OMPI_MCA_mtl
mtl_case() {
    local what=$1 want=$2 line=$3
    shift 3
    : > "$tmp/mtl.log"
    rm -rf "$tmp/mhome" && mkdir -p "$tmp/mhome/.openmpi"
    [ -n "$line" ] && printf '%s\n' "$line" > "$tmp/mhome/.openmpi/mca-params.conf"
    env -u PARSCOPE_LAUNCHER -u OMPI_MCA_pml -u OMPI_MCA_mtl HOME="$tmp/mhome" PARSCOPE_MPIEXEC="$tmp/mtl_spy" "$@" \
        "$PS" run fingerprint -n 2 -s 10 -i 1 -q --force -o "$tmp/mtl.json" > "$tmp/out" 2>&1 ||
        { echo "FAIL: $what: the run failed: $(tail -3 "$tmp/out")"; fails=$((fails + 1)); return; }
    grep -qx -- "mtl=$want" "$tmp/mtl.log" && passes=$((passes + 1)) ||
        { echo "FAIL: $what: the job's OMPI_MCA_mtl $(cat "$tmp/mtl.log"), want $want"; fails=$((fails + 1)); }
}
if [ "$adapter" -gt 0 ] || { [ -n "$syspml" ] && [ "${syspml#^}" = "$syspml" ]; } ||
   { [ -n "$sysmtl" ] && [ "${sysmtl#^}" = "$sysmtl" ]; }; then
    plain=none mine=none
elif [ -n "$sysmtl" ]; then
    plain="$sysmtl,psm,psm2" mine=none
else
    plain="^psm,psm2" mine=none
fi
[ "$adapter" -gt 0 ] || [ "$plain" = none ] || mine="^portals4,psm,psm2"
mtl_case "no choice made" "$plain" ""
mtl_case "the user's exclusions kept" "$mine" "  mtl = ^portals4   # mine"
mtl_case "a list of MTLs to use" "psm2" "" OMPI_MCA_mtl=psm2
mtl_case "a params file's list of PMLs" none "pml = ob1"
mtl_case "a PML chosen in the environment" none "" OMPI_MCA_pml=ob1
echo "$passes checks passed, $fails failed"
[ "$fails" -eq 0 ]
