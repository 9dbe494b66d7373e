#!/usr/bin/env bash
# cli_test.sh PARSCOPE DIR - 'parscope whitebox' on bad usage and bad input:
# exit status 2, a message naming the option or file:line:col, and no
# result file written.
set -u
bin=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# expect STATUS PATTERN ARGS...: runs 'parscope whitebox ARGS', checks the
# status and that stderr matches PATTERN, and that -o target was not written
expect() {
  local want=$1 pat=$2
  shift 2
  rm -f "$tmp/out.json"
  "$bin" whitebox "$@" > "$tmp/stdout" 2> "$tmp/stderr"
  local rc=$?
  [ $rc = "$want" ] || no "whitebox $*: exit $rc, expected $want ($(head -c 300 "$tmp/stderr"))"
  grep -q -- "$pat" "$tmp/stderr" || no "whitebox $*: stderr lacks '$pat': $(head -c 300 "$tmp/stderr")"
  [ ! -e "$tmp/out.json" ] || no "whitebox $*: wrote a result on bad input"
}

"$bin" whitebox --help > "$tmp/help" || no "--help failed"
grep -q "usage: parscope whitebox WORKLOAD -n RANKS" "$tmp/help" || no "--help lacks the usage line"
grep -q -- "--sections" "$tmp/help" || no "--help lacks --sections"

expect 2 "no workload given"
expect 2 "\-n RANKS is required" red_black -o "$tmp/out.json"
expect 2 "unknown option '--bogus'" red_black -n 2 --bogus -o "$tmp/out.json"
expect 2 "\-n: 'zero' is not a rank count" red_black -n zero -o "$tmp/out.json"
expect 2 "\-k: '0' is not a count 1..1000" red_black -n 2 -k 0 -o "$tmp/out.json"
expect 2 "\-s: '-3' is not a size" red_black -n 2 -s -3 -o "$tmp/out.json"
expect 2 "unexpected argument 'extra'" red_black extra -n 2 -o "$tmp/out.json"
expect 2 "unknown workload 'no_such'" no_such -n 2 -o "$tmp/out.json"
expect 2 "no LOOP source" clue -n 2 -o "$tmp/out.json"
expect 2 "missing.loop: no such file" "$tmp/missing.loop" -n 2 -o "$tmp/out.json"
expect 2 "\-m: $tmp/none.ini: no such file" red_black -n 2 -m "$tmp/none.ini" -o "$tmp/out.json"
mkdir -p "$tmp/models"
expect 2 "\-m: $tmp/models: is a directory, not a machine model file" red_black -n 2 -m "$tmp/models" -o "$tmp/out.json"

# a machine file with a bad number: named with its line
printf '[machine]\nsend_latency = 1e-5\nrecv_latency = 1e-5\nword_time = fast\nflop_time = 1e-9\n' > "$tmp/bad.ini"
expect 2 "bad.ini:4" red_black -n 2 -m "$tmp/bad.ini" -o "$tmp/out.json"
# flop_time = 0 and a count of 0 too (checked after parsing once, without a line; taken for unknown)
printf '[machine]\nsend_latency = 1e-5\nrecv_latency = 1e-5\nword_time = 1e-8\nflop_time = 0\n' > "$tmp/flop0.ini"
expect 2 "flop0.ini:5: flop_time: must be > 0" red_black -n 2 -m "$tmp/flop0.ini" -o "$tmp/out.json"
printf '[machine]\nsend_latency = 1e-5\nrecv_latency = 1e-5\nword_time = 1e-8\nflop_time = 1e-9\nnodes = 0\n' > "$tmp/nodes0.ini"
expect 2 "nodes0.ini:6: nodes: must be >= 1" red_black -n 2 -m "$tmp/nodes0.ini" -o "$tmp/out.json"

# a LOOP program with an error: the generator's file:line:col
printf 'int main(void)\n{\n    \\COMMUNICATE(8, 1);\n    return 0;\n}\n' > "$tmp/broken.loop"
expect 2 "broken.loop:3:" "$tmp/broken.loop" -n 2 -o "$tmp/out.json"

# a program whose whole version fails (the abort is plain C in a \LOOP, so it
# is compiled out of the comm and data kernels): exit 1, the failed trials
# named, what was measured still written
printf '%s\n' 'int main(int argc, char **argv)' '{' '    int nodes, me, host, psize;' \
  '    \OPEN0(&nodes, &me, &host, &psize, 1000);' '    (void)argc;' '    (void)argv;' \
  '    \LOOP (ITERATIONS) {' '        \COMMUNICATE(64, 1, 1);' \
  '        if (me == 0) ps_abort("the computation failed");' '    }' '    \CLOSE0();' '    return 0;' '}' \
  > "$tmp/fails.loop"
"$bin" whitebox "$tmp/fails.loop" -n 2 -i 2 -k 2 -o "$tmp/fails.json" --timeout 60 > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ $rc = 1 ] || no "a failing full kernel: exit $rc, expected 1"
grep -q "full variant, round 2" "$tmp/stderr" || no "the failed trials are not named: $(head -c 300 "$tmp/stderr")"
[ "$(jq -r '[.failures[].variant] == ["full","full"] and .variants.comm.time.trials == 2 and
            .parts.communication.value > 0 and .parts.computation.value == null' "$tmp/fails.json")" = true ] ||
  no "the result of a failing kernel: $(jq -c '{failures, parts}' "$tmp/fails.json")"

# SIGTERM in the middle: the trials so far are written, what is missing is said, exit 143 (128 + SIGTERM)
"$bin" whitebox "$dir/known.loop" -n 2 -i 2 -k 50 -o "$tmp/int.json" -q --timeout 60 2> "$tmp/stderr" &
pid=$!
# after the first round is on disk (a sanitizer build takes seconds to build the kernels)
for _ in $(seq 300); do [ -s "$tmp/int.json" ] && break; sleep 0.2; done
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || no "interrupted whitebox: exit $rc, expected 143"
grep -q "interrupted (SIGTERM); reported are the trials finished so far: comm [0-9]" "$tmp/stderr" || no "the interruption is not reported: $(head -c 300 "$tmp/stderr")"
[ "$(jq -r '.interrupted == true and (.rounds | length) >= 1 and (.rounds | length) < 50' "$tmp/int.json")" = true ] ||
  no "the interrupted result: $(jq -c '{interrupted, rounds: (.rounds | length)}' "$tmp/int.json")"

# SIGINT (Ctrl-C) in the middle: the header states the trials that ran and that the run was
# interrupted, never the 50 asked for; the JSON's params say the same as the figures' trials
"$bin" whitebox "$dir/known.loop" -n 2 -i 2 -k 50 -o "$tmp/int2.json" --timeout 60 > "$tmp/stdout2" 2> "$tmp/stderr2" &
pid=$!
for _ in $(seq 300); do [ -s "$tmp/int2.json" ] && break; sleep 0.2; done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || no "whitebox after SIGINT: exit $rc, expected 130"
head -1 "$tmp/stdout2" | grep -Eq "INTERRUPTED after [0-9]+ of 50 rounds: .*\(of 50 asked\)" ||
  no "the header does not say the run was interrupted: $(head -1 "$tmp/stdout2")"
grep -q "50 trials per variant" "$tmp/stdout2" && no "the header claims the 50 trials asked: $(head -1 "$tmp/stdout2")"
[ "$(jq -r '.params.trials_planned == 50 and .params.trials < 50 and
            .params.trials == ([.variants[].time.trials] | min) and
            ([.params.trials_by_variant | to_entries[] | .value] == [.variants.comm.time.trials, .variants.data.time.trials, .variants.full.time.trials])' \
      "$tmp/int2.json")" = true ] ||
  no "the interrupted result's trials: $(jq -c '{params, t: [.variants[].time.trials]}' "$tmp/int2.json")"
# every trial count the header names is one the figures were computed from
want=$(jq -r '.params | if ([.trials_by_variant[]] | unique | length) == 1 then "\(.trials) trials per variant ran"
              else ([.trials_by_variant | to_entries[] | "\(.value) \(.key)"] | join(", ")) + " trials ran" end' "$tmp/int2.json")
head -1 "$tmp/stdout2" | grep -qF "$want" || no "the header's trials ($(head -1 "$tmp/stdout2")) are not the JSON's ($want)"

if [ $fail = 0 ]; then echo "whitebox cli: ok"; fi
exit $fail
