#!/usr/bin/env bash
# options_test.sh PARSCOPE RT_PROGRAM SOURCE_DIR - the options every command
# shares mean the same everywhere: the same limits and the same message for a
# bad value (exit 2); '-o -' is standard output where the output is text or
# JSON (run, predict, compare, export, report), and refused where it is not.
set -u
ps=$1 prog=$2 src=$3
fails=0 passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect STATUS PATTERN -- COMMAND...: exit status, and stderr+stdout match PATTERN
expect() {
  local want=$1 pat=$2; shift 3
  "$@" > "$tmp/out" 2>&1
  local got=$?
  if [ "$got" -ne "$want" ] || ! grep -Eq -- "$pat" "$tmp/out"; then
    echo "FAIL: $* -> status $got (want $want), output:"; sed 's/^/    /' "$tmp/out" | head -10
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}

# the common flags: the same limits and messages in every command that has them
for c in run whitebox probe characterize; do
  expect 2 "parscope $c: -n: '0' is not a rank count 1\.\.1048576" -- "$ps" $c -n 0
  expect 2 "parscope $c: --ranks: '1048577' is not a rank count 1\.\.1048576" -- "$ps" $c --ranks 1048577
done
expect 2 "parscope predict: -n: '1048577' is not a list of processor counts" -- "$ps" predict cg -n 1048577
# lists of processor counts: every element between commas counts, and is checked (one parser)
for l in "1,,2:element 2 is empty \(two commas in a row\)" "1,2,:element 3 is empty \(a trailing comma\)" \
         ",1,2:element 1 is empty \(a leading comma\)" "1,x:'x' is not a count" "0,2:'0' is not a count" \
         "1,-2:'-2' is not a count" "1,2,4,...,20:20 is not on the progression 2, 4, 8"; do
  expect 2 "parscope predict: -n: '${l%%:*}' is not a list of processor counts: ${l#*:}" -- \
    "$ps" predict cg -m "$src/machines/sp2.ini" -n "${l%%:*}"
  expect 2 "parscope scale: --ranks: bad value '${l%%:*}' for ranks: ${l#*:}" -- \
    "$ps" scale --ranks "${l%%:*}" -o "$tmp/never"
done
expect 2 "parscope scale: --ranks: bad value '1,4097' for ranks: '4097' is not a count 1\.\.4096" -- "$ps" scale --ranks 1,4097
[ ! -e "$tmp/never" ] && passes=$((passes + 1)) || { echo "FAIL: a refused sweep made its directory"; fails=$((fails + 1)); }
expect 2 "parscope scale: --variations: element 2 of 'base,,int' is empty" -- "$ps" scale --variations base,,int
expect 2 "parscope characterize: --steps: element 2 of 'probe,' is empty \(a trailing comma\)" -- "$ps" characterize --steps probe,
for c in run whitebox predict scale; do
  expect 2 "parscope $c: -k: '0' is not a count 1\.\.1000" -- "$ps" $c -k 0
  expect 2 "parscope $c: --trials: '1001' is not a count 1\.\.1000" -- "$ps" $c --trials 1001
  expect 2 "parscope $c: -s: 'abc' is not a size 1\.\.2\^40" -- "$ps" $c -s abc
  expect 2 "parscope $c: -i: '0' is not an iteration count 1\.\.2\^40" -- "$ps" $c -i 0
done
for c in run whitebox predict scale probe; do
  expect 2 "parscope $c: --timeout: '0' is not a number of seconds > 0" -- "$ps" $c --timeout 0
  expect 2 "parscope $c: option '--launcher' needs a value" -- "$ps" $c --launcher
done
for c in run whitebox predict scale probe characterize compare report export gen build; do
  expect 2 "parscope $c: option '-o' needs a value" -- "$ps" $c -o
  expect 2 "parscope $c: unknown option '-Z'" -- "$ps" $c -Z
done
for c in run whitebox predict probe characterize compare; do
  expect 2 "parscope $c: option '--force' takes no value" -- "$ps" $c --force=yes
done
# flags that contradict each other: refused naming both, never the last one winning
expect 2 "parscope predict: --bus and --nobus contradict each other: give one of them" -- \
  "$ps" predict cg -m "$src/machines/sp2.ini" -n 2 --nobus --bus
expect 2 "parscope predict: --auto-trials needs --compare or --calibrate \(the runs it repeats\)" -- \
  "$ps" predict cg -m "$src/machines/sp2.ini" -n 2 --auto-trials
expect 2 "parscope probe: --quick and --tiny cannot be given together" -- "$ps" probe --tiny --quick -o "$tmp/never.ini"
[ ! -e "$tmp/never.ini" ] && passes=$((passes + 1)) || { echo "FAIL: a refused probe wrote its model"; fails=$((fails + 1)); }
# emulate's sizes and rates: what is accepted and the limit (refused before any cluster is built;
# no COMMAND, so an option taken by mistake builds none either)
expect 2 "parscope emulate: --burst: '2g' is 2147483648 bytes, above the largest bucket, 1g" -- \
  "$ps" emulate -N 2 --link 1gbit --burst 2g
expect 2 "parscope emulate: --burst: '1x' is not a byte count: give a whole number of bytes, with k, m or g .*2048 bytes\.\.1g" -- \
  "$ps" emulate -N 2 --link 1gbit --burst 1x
expect 2 "parscope emulate: --burst: 1048576 bytes take 1049 s to fill at 8000 bit/s.*at most 256000 bytes" -- \
  "$ps" emulate -N 2 --link 8kbit --burst 1m
expect 2 "parscope emulate: --link: 'fast' is not a rate: give a number with a unit: bit, kbit, mbit, gbit .*8kbit\.\.100gbit" -- \
  "$ps" emulate -N 2 --link fast
# -o - where the output is a directory or a program
expect 2 "parscope scale: -o -: a directory cannot go to standard output" -- "$ps" scale -o -
expect 2 "parscope characterize: -o -: a directory cannot go to standard output" -- "$ps" characterize -o -
expect 2 "parscope build: -o -: a program cannot go to standard output" -- "$ps" build x.loop -o -

# -o -: standard output holds the document alone, the printout goes to standard error
json_kind() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['kind']==sys.argv[2], d['kind']" "$@"; }
check_json() { # what FILE KIND
  if json_kind "$2" "$3" 2>/dev/null; then passes=$((passes + 1)); else
    echo "FAIL: $1: standard output is not one '$3' document:"; head -5 "$2" | sed 's/^/    /'; fails=$((fails + 1)); fi
}
"$ps" run "$prog" -n 2 -o - > "$tmp/run.json" 2> "$tmp/run.err"
check_json "run -o -" "$tmp/run.json" run
grep -q "Execution time" "$tmp/run.err" && passes=$((passes + 1)) || { echo "FAIL: run -o -: no sheet on stderr"; fails=$((fails + 1)); }
"$ps" predict cg -m "$src/machines/sp2.ini" -n 1,2 -o - > "$tmp/pred.json" 2> "$tmp/pred.err"
check_json "predict -o -" "$tmp/pred.json" predict
grep -q "time (s)" "$tmp/pred.err" && passes=$((passes + 1)) || { echo "FAIL: predict -o -: no table on stderr"; fails=$((fails + 1)); }
"$ps" run fingerprint -n 2 -q -o "$tmp/fp.json" > /dev/null 2>&1
"$ps" predict fingerprint -m "$src/machines/sp2.ini" -n 2 -q -o "$tmp/fp.pred.json" > /dev/null 2>&1
"$ps" compare "$tmp/fp.json" "$tmp/fp.pred.json" -o - > "$tmp/cmp.json" 2> "$tmp/cmp.err"
check_json "compare -o -" "$tmp/cmp.json" compare
grep -q "%" "$tmp/cmp.err" && passes=$((passes + 1)) || { echo "FAIL: compare -o -: no table on stderr"; fails=$((fails + 1)); }
"$ps" run "$prog" -n 2 -q --trace "$tmp/T" -o "$tmp/T/r.json" > /dev/null 2>&1
"$ps" export "$tmp/T" --format perfetto -o - > "$tmp/perfetto.json" 2> /dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['traceEvents']" "$tmp/perfetto.json" \
  && passes=$((passes + 1)) || { echo "FAIL: export perfetto -o -"; fails=$((fails + 1)); }
"$ps" report "$tmp/T/r.json" -o - > "$tmp/r.html" 2> "$tmp/r.err"
head -c 100 "$tmp/r.html" | grep -qi "<!doctype html" && grep -q "</html>" "$tmp/r.html" \
  && passes=$((passes + 1)) || { echo "FAIL: report -o -"; fails=$((fails + 1)); }
[ ! -e ./- ] && passes=$((passes + 1)) || { echo "FAIL: a file named '-' was written"; fails=$((fails + 1)); }

# the program's own arguments (after '--') are checked before the job starts: one the program
# cannot take is bad usage naming it (exit 2), never silently ignored, never a failed trial
expect 2 "unexpected program argument '--sise': the program's main takes no arguments" -- \
  "$ps" run cg -n 2 -q -- --sise 100
expect 2 "bad value for -s: 'abc'" -- "$ps" run cg -n 2 -q -- -s abc
expect 2 "unexpected program argument '--x'" -- "$ps" run psrs -n 1 -q -- --x
expect 2 "clue: unknown option '--bogus'" -- "$ps" run clue -n 1 -q -- --bogus 1
expect 2 "scale: unexpected program argument '--foo'" -- \
  "$ps" scale fingerprint --max-ranks 1 --trials 1 -o "$tmp/sc" --workload-args --foo
! grep -q "wrote" "$tmp/out" && [ ! -e "$tmp/sc" ] && passes=$((passes + 1)) ||
  { echo "FAIL: scale --workload-args --foo made $tmp/sc (empty results) before refusing"; fails=$((fails + 1)); }
# clue too, and at once: the automatic choice's timing run stays small whatever cache hwloc reports
# (under 1 GB of address space: a 512 MB cache once made it two grids of 888 MB; not under the
# sanitizers, whose shadow memory needs terabytes of address space)
limit_as='ulimit -v 1000000 &&'
[ "${PS_TEST_SANITIZED:-0}" = 1 ] && limit_as=
expect 2 "scale: clue: bad or missing value for --bogus" -- \
  bash -c "$limit_as"' exec "$@"' - "$ps" scale clue --ranks 1,2 --trials 1 -o "$tmp/sc2" \
  --workload-args --bogus --cache 536870912
[ ! -e "$tmp/sc2" ] && passes=$((passes + 1)) ||
  { echo "FAIL: scale clue --workload-args --bogus made $tmp/sc2"; fails=$((fails + 1)); }
# a runtime option after '--' is taken (the size is the run's), and a program whose main takes
# argc and argv gets what the runtime leaves
"$ps" run cg -n 1 -q -o "$tmp/s.json" -- -s 96 > /dev/null 2>&1
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['params']['size'] == 96" "$tmp/s.json" \
  && passes=$((passes + 1)) || { echo "FAIL: run cg -- -s 96: size not 96"; fails=$((fails + 1)); }
cat > "$tmp/args.loop" <<'LOOP'
#include <string.h>
int main(int argc, char **argv)
{
    int p, me, host, size;
    if (argc != 3 || strcmp(argv[1], "--mine") || strcmp(argv[2], "7")) return 3;
    \OPEN0(&p, &me, &host, &size, 0);
    \CLOSE0();
    return 0;
}
LOOP
"$ps" run "$tmp/args.loop" -n 1 -q -- --mine 7 > "$tmp/out" 2>&1 && passes=$((passes + 1)) ||
  { echo "FAIL: a program's own arguments: $(tail -3 "$tmp/out")"; fails=$((fails + 1)); }
expect 1 "exit status 3" -- "$ps" run "$tmp/args.loop" -n 1 -q -- --mine 8
# a program that parses its own arguments and never calls ps_program_args ends the check in
# ps_init, before it does anything (rt_program --die would abort at once after it)
timeout 20 "$prog" --check-args --die > "$tmp/out" 2>&1 && passes=$((passes + 1)) ||
  { echo "FAIL: rt_program --check-args --die ran on: $(tail -3 "$tmp/out")"; fails=$((fails + 1)); }

echo "options: $passes passed, $fails failed"
[ $fails -eq 0 ]
