#!/usr/bin/env bash
# known_test.sh PARSCOPE DIR - the white-box breakdown of known.loop (2 ranks,
# 5 iterations of 4 Mflop \WORK, a 16 MB memcpy in \DATA_MOVE and one 64 KB
# message) lands where an independent measure puts it:
#  - computation (T(full) - T(comm+data)) against the time the ranks spent in
#    their \WORK, as the full program's trace records it;
#  - data movement (T(comm+data) - T(comm)) against the \DATA_MOVE events;
#  - the \SECTION(work) time against the \WORK time too.
#  "Lands" means: the instrumented figure lies in the part's spread over the
#  trial pairs, widened by 30% and 5 ms (the machine is shared, so trials
#  vary; the subtraction also counts the waiting that uneven ranks cause);
#  - communication (the fastest trial: interference only adds time) a small
#    positive part of T(full);
#  - the kernels start from the same memory: the buffers are filled in the
#    set-up, so the comm+data kernel's first memcpy pays no page faults the
#    comm kernel does not (no part flagged);
#  - messages and bytes per rank exactly, and the simple model's prediction
#    exactly, with known.ini (100 us, 1 GB/s): 5 x 1e-4 + 5 x 65536 / 1e9 s.
set -u
bin=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

out=$tmp/known.json
"$bin" whitebox "$dir/known.loop" -n 2 -i 5 -k 3 --sections -m "$dir/known.ini" -o "$out" --timeout 60 \
  > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
cat "$tmp/stdout"
[ $rc = 0 ] || { no "whitebox exited $rc: $(cat "$tmp/stderr")"; exit 1; }

j() { jq -r "$1" "$out"; }
# check NAME EXPR: EXPR is a jq boolean over the document
check() { [ "$(jq -r "$2" "$out")" = true ] || no "$1 ($(jq -c "$3" "$out"))"; }

check "kind" '.kind == "whitebox" and .workload == "known"' '.kind'
check "three variants and sections, 3 trials each" \
  '[.variants.comm, .variants.data, .variants.full, .variants.sections | .time.trials] == [3,3,3,3]' '.variants'
check "rounds interleaved" '(.rounds | length) == 3 and (.rounds[0] | has("comm") and has("data") and has("full") and has("sections"))' '.rounds'
check "messages per rank" '[.ranks[] | .messages_sent] == [5,5] and [.ranks[] | .bytes_sent] == [327680,327680]' '.ranks'
check "every variant sends the same" '.messages.same' '.messages'
check "ordered" '.ordered.holds' '.parts'
check "the same memory state: no page faults in the comm+data kernel that comm lacks" \
  '.memory.parts.data_movement.fault_difference < 256 and (.memory.variants.data.minor_faults | type) == "number"' '.memory'

maxc=$(j '[.ranks[].instrumented_compute_s] | max')
maxd=$(j '[.ranks[].instrumented_data_move_s] | max')
comp=$(j '.parts.computation.value')
data=$(j '.parts.data_movement.value')
comm=$(j '.parts.communication.value')
full=$(j '.variants.full.time.median')
sec=$(j '.sections[] | select(.name == "work") | .max_rank_s')
echo "computation $comp s (WORK events $maxc s), data movement $data s (DATA events $maxd s), communication $comm s, full $full s, section work $sec s"
# lands X PART: X within [min / 1.3 - 5 ms, max * 1.3 + 5 ms] of the part's pairs
lands() {
  local lo hi
  lo=$(j ".parts.$2.min"); hi=$(j ".parts.$2.max")
  echo "  $2 spread $lo .. $hi s, reference $1 s"
  awk -v x="$1" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(x >= lo / 1.3 - 0.005 && x <= hi * 1.3 + 0.005) }'
}
# the timing checks compare separate runs: a machine busy with other work can
# spoil one measurement, so they are given up to three (the structural checks
# above hold on the first)
timing_ok() {
  local ok=0
  # best-of-K: a trial on a busy machine can wait milliseconds for a core,
  # the fastest one did not
  comm=$(j '.parts.communication.best')
  full=$(j '.variants.full.time.median')
  awk -v c="$comm" -v f="$full" 'BEGIN { exit !(c > 0 && c < 0.25 * f) }' \
    || { echo "  (communication $comm s, best of the trials, is not a small positive part of $full s)"; ok=1; }
  lands "$maxc" computation || { echo "  (the WORK time $maxc s is outside the computation part's spread)"; ok=1; }
  lands "$maxd" data_movement || { echo "  (the DATA_MOVE time $maxd s is outside the data movement part's spread)"; ok=1; }
  awk -v a="$sec" -v b="$maxc" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.3 * b + 0.005) }' \
    || { echo "  (section 'work' $sec s is not within 30% + 5 ms of the WORK time $maxc s)"; ok=1; }
  return $ok
}
attempt=1
while ! timing_ok; do
  if [ $attempt -ge 3 ]; then no "the timing checks failed in 3 measurements"; break; fi
  attempt=$((attempt + 1))
  echo "measuring again (attempt $attempt)"
  rm -f "$out"
  "$bin" whitebox "$dir/known.loop" -n 2 -i 5 -k 3 --sections -m "$dir/known.ini" -o "$out" --timeout 60 \
    > "$tmp/stdout" 2> "$tmp/stderr" || { no "whitebox exited: $(cat "$tmp/stderr")"; break; }
  maxc=$(j '[.ranks[].instrumented_compute_s] | max')
  maxd=$(j '[.ranks[].instrumented_data_move_s] | max')
  sec=$(j '.sections[] | select(.name == "work") | .max_rank_s')
done
awk -v m="$maxc" 'BEGIN { exit !(m > 0.005) }' || no "the WORK time $maxc s is too small to test against"

pred=$(j '.model.predicted_s')
awk -v p="$pred" 'BEGIN { e = 5 * 1e-4 + 5 * 65536 / 1e9; d = p - e; if (d < 0) d = -d; exit !(d < 1e-12) }' \
  || no "model predicted $pred s, expected 0.00082768 s"
check "model per rank" '[.model.ranks[] | .messages] == [5,5] and .model.available' '.model'
grep -q "measured / predicted" "$tmp/stdout" || no "the text lacks the model comparison"

# the report draws it: a bar per rank and overall
"$bin" report "$out" -o "$tmp/r.html" > /dev/null 2>&1 || no "parscope report failed"
grep -q '<section id="whitebox' "$tmp/r.html" || no "report lacks the whitebox section"
bars=$(grep -o '<rect[^>]*fill="#1f3f8f"' "$tmp/r.html" | wc -l)
[ "$bars" -ge 3 ] || no "report has $bars communication bars, expected 3 (overall, rank 0, rank 1)"
grep -q "Sections" "$tmp/r.html" || no "report lacks the sections"

if [ $fail = 0 ]; then echo "known split: ok"; fi
exit $fail
