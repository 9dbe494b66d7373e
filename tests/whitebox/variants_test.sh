#!/usr/bin/env bash
# variants_test.sh PARSCOPE DIR - the white-box variants of activity.loop:
#  1. the generated C of each variant against its golden file
#     (PS_UPDATE_GOLDEN=1 rewrites them);
#  2. what each variant really executes, counted in its trace at 2 ranks and
#     3 iterations: comm runs the messages only, data adds the \DATA_MOVE
#     blocks, full adds the computation, sections adds the \SECTION events;
#     every variant sends the same messages.
set -u
bin=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

cd "$dir" || exit 1
for v in comm data full sections; do
  if ! "$bin" gen activity.loop --variant "$v" -o "$tmp/activity_$v.c"; then
    no "gen --variant $v failed"
    continue
  fi
  if [ "${PS_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$tmp/activity_$v.c" "golden/activity_$v.c"
  elif ! diff -u "golden/activity_$v.c" "$tmp/activity_$v.c"; then
    no "generated C of the $v variant differs from golden/activity_$v.c"
  fi
done

# kind,construct counts of one variant's trace (rank 0 and 1 together)
count() { awk -F, -v k="$2" -v c="$3" 'NR > 1 && $3 == k && (c == "" || $4 == c) { n++ } END { print n + 0 }' "$1"; }

for v in comm data full sections; do
  rm -rf "$tmp/tr"
  if ! "$bin" run activity.loop -n 2 -s 100 -i 3 --variant "$v" --trace "$tmp/tr" -q --timeout 60; then
    no "run --variant $v failed"
    continue
  fi
  "$bin" export "$tmp/tr" --format csv -o "$tmp/$v.csv" > /dev/null || { no "export of $v failed"; continue; }
  f=$tmp/$v.csv
  work=$(count "$f" compute WORK); sp=$(count "$f" compute SCALPROD); data=$(count "$f" data "")
  sec=$(count "$f" section ""); sends=$(count "$f" send "")
  bytes=$(awk -F, 'NR > 1 && $3 == "send" { b += $8 } END { print b + 0 }' "$f")
  echo "$v: WORK $work, SCALPROD $sp, DATA $data, SECTION $sec, sends $sends, bytes $bytes"
  # 2 ranks x 3 iterations: COMMUNICATE 1 message + EXCHANGE 2 per rank and iteration
  [ "$sends" = 18 ] || no "$v: $sends sends, expected 18"
  [ "$bytes" = $((6 * 32 + 12 * 64)) ] || no "$v: $bytes bytes sent, expected $((6 * 32 + 12 * 64))"
  case $v in
    comm) ew=0; es=0; ed=0; ec=0 ;;
    data) ew=0; es=0; ed=6; ec=0 ;;
    full) ew=12; es=6; ed=6; ec=0 ;;
    sections) ew=12; es=6; ed=6; ec=6 ;;
  esac
  [ "$work" = "$ew" ] || no "$v: $work WORK events, expected $ew"
  [ "$sp" = "$es" ] || no "$v: $sp SCALPROD events, expected $es"
  [ "$data" = "$ed" ] || no "$v: $data DATA events, expected $ed"
  [ "$sec" = "$ec" ] || no "$v: $sec SECTION events, expected $ec"
done
if [ $fail = 0 ]; then echo "variants: ok"; fi
exit $fail
