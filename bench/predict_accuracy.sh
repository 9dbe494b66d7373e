#!/usr/bin/env bash
# How close are predictions to measurements at P = 2?  Probes the machine
# (parscope probe --quick), then for each program predicts and measures it
# (parscope predict W -m MODEL -n 2 --compare -k K), and prints the table:
# measured and predicted time (fastest of K trials), the error, and the load
# average when the row was taken; then the median and largest |error| and the
# count of errors of each sign.  Programs that compute are priced by a 1-rank
# calibration run (--calibrate); programs that only communicate are predicted
# from the probe alone.
#
# usage: bench/predict_accuracy.sh [-k TRIALS] [--auto-trials] [--slownet RATE] [--model FILE] [--probe-each]
#                                  [--retry-moved N] [--only NAME,...]
#   --auto-trials   predict's --auto-trials: after K trials, more until the best
#                   two agree within 5% (at most 10), measured and calibration runs
#   --slownet RATE  probe and run under ../shared/tools/slownet RATE (MPI over a
#                   shaped TCP loopback); SLOWNET names the tool if elsewhere
#   --model FILE    use this machine model instead of probing
#   --probe-each    probe right before each row, each row predicted from its
#                   own model: on a machine whose link changes state within tens
#                   of seconds (docs/BENCHMARKS.md) the model is then seconds old
#   --retry-moved N a row measured with the machine in another state than the
#                   model's (parscope compare's checks, latency_check and
#                   speed_check "differs": the run's 8-byte half round trip
#                   beyond 1.5 times the model's either way, or a smaller
#                   change, beyond the probe's own spread, that the row's
#                   predicted communication turns into a fifth of its time,
#                   the calibration repeated after the runs
#                   beyond 1.1 times its price) is taken
#                   again, up to N times
#                   (with --probe-each after a probe of its own).  Every attempt
#                   is printed; the summary is given over the first attempts and
#                   over the last: the choice rests on the machine's state as
#                   the checks saw it, never on the error
#   PARSCOPE        the parscope binary (default: on PATH, else build/bin/parscope)
#   KEEP            a folder: each row's model, prediction and measurement are
#                   copied there (to look into a row afterwards)
set -eu
. "$(dirname "$0")/clue_common.sh"
here=$(cd "$(dirname "$0")" && pwd)
k=5
rate=""
model=""
only=""
each=0
retry=0
auto=()
while [ $# -gt 0 ]; do
  case $1 in
    -k) k=$2; shift 2 ;;
    --auto-trials) auto=(--auto-trials); shift ;;
    --slownet) rate=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --probe-each) each=1; shift ;;
    --retry-moved) retry=$2; shift 2 ;;
    *) echo "usage: $0 [-k TRIALS] [--auto-trials] [--slownet RATE] [--model FILE] [--probe-each] [--retry-moved N] [--only NAME,...]" >&2
       exit 2 ;;
  esac
done
if [ "$each" = 1 ] && [ -n "$model" ]; then
  echo "$0: --probe-each and --model exclude each other (each row probes its own model)" >&2
  exit 2
fi
slownet=${SLOWNET:-$here/../../shared/tools/slownet}
wrap=()
[ -n "$rate" ] && wrap=("$slownet" "$rate")
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; rm -rf "$work"' EXIT

# name | workload and its parameters | calibrate (1) or not (0)
programs=(
  "fingerprint|fingerprint -s 2000 -i 1|1"
  "cg|cg -s 512 -i 20|1"
  "mmm_s|mmm_s -s 256 -i 1|1"
  "mmm_a|mmm_a -s 256 -i 1|1"
  "red_black|red_black -s 1024 -i 5|1"
  "adi|adi|1"
  "psrs|psrs|1"
  "fft|fft -s 512|1"
  "ring|$here/programs/ring.loop -s 4096 -i 100|1"
  "mix|$here/programs/mix.loop -s 1024 -i 10|1"
  "xbcast|$here/programs/xbcast.loop -s 2048 -i 100|0"
  "alter|$here/programs/alter.loop -s 1000 -i 2000|0"
  "halo1d|$here/programs/halo1d.loop -s 400000 -i 40|1"
  "master_worker|$here/programs/master_worker.loop -s 2048 -i 10|1"
  "pipeline_imb|$here/programs/pipeline_imb.loop -s 4096 -i 4|1"
  "shift_a2a|$here/programs/shift_a2a.loop -s 256 -i 5|1"
  "butterfly|$here/programs/butterfly.loop -s 10000 -i 50|1"
  "wavefront|$here/programs/wavefront.loop -s 512 -i 20|1"
  "dotloop|$here/programs/dotloop.loop -s 20000 -i 200|1"
  "allgather_mv|$here/programs/allgather_mv.loop -s 512 -i 20|1"
  "pingpong|$here/programs/pingpong.loop -s 1 -i 2000|0"
  "overlap|$here/programs/overlap.loop -s 125 -i 2000|1"
  "manysmall|$here/programs/manysmall.loop -s 1024 -i 300|0"
  "sizes|$here/programs/sizes.loop -s 65536 -i 20|1"
  "bpingwork|$here/programs/bpingwork.loop -s 4096 -i 400|1"
  "bcastcoll|$here/programs/bcastcoll.loop -s 4096 -i 300|0"
  "oneway|$here/programs/oneway.loop -s 100 -i 1000|1"
  "allred|$here/programs/allred.loop -s 8000 -i 2000|1"
  "scatgat|$here/programs/scatgat.loop -s 16384 -i 40|1"
  "halo2d|$here/programs/halo2d.loop -s 2048 -i 100|1"
  "burst|$here/programs/burst.loop -s 1 -i 200|0"
  "mixbnb|$here/programs/mixbnb.loop -s 4096 -i 400|1"
  "pipe2|$here/programs/pipe2.loop -s 2048 -i 8|1"
)

machine
if [ -n "$rate" ]; then echo "network: slownet $rate (MPI over a shaped TCP loopback)"; else echo "network: shared memory"; fi
if [ "$each" = 1 ]; then
  echo "probe:   ${wrap[*]} $PARSCOPE probe --quick before each row (the row's own model)"
elif [ -z "$model" ]; then
  model=$work/machine.ini
  echo "probe:   ${wrap[*]} $PARSCOPE probe --quick -o $model   (load $(cut -d' ' -f1 /proc/loadavg))"
  # a busy machine stretches the probe well beyond its usual minute
  "${wrap[@]}" "$PARSCOPE" probe --quick -q --timeout 900 -o "$model" --json "$work/probe.json" --svg-dir "$work"
fi
[ "$each" = 1 ] || grep -E '^(network|S|o_post|o_done|contention|progress_send|progress_recv|rate|burst|nobus_contention|also_bus) = ' "$model" |
  tr '\n' ' ' | sed 's/^/model:   /'
echo
# the bus decision and what it came from (both directions at once against one)
[ -s "$work/probe.json" ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1])).get("duplex")
if d: print("duplex:  exchange / one-way %.2f (rounds %s)" % (d["ratio"], ", ".join("%.2f" % r for r in d.get("round_ratios", []))))
' "$work/probe.json"
echo
printf "%-12s %-34s %12s %12s %8s %8s %6s %6s  %s\n" program command measured predicted error "meas. +-" "lat." speed load
# one attempt at a row: appends its line to $work/table; 0 when done, 1 when it failed, 3 when the
# machine was in another state than the model's (compare's latency or speed check)
attempt() {
  local name=$1 cmd=$2 cal=$3 try=$4 tag=$1.$4
  local extra=("${auto[@]}")
  [ "$cal" = 1 ] && extra+=(--calibrate)
  local load rowmodel=$model
  load=$(cut -d' ' -f1 /proc/loadavg)
  if [ "$each" = 1 ]; then
    mkdir "$work/$tag.probe"
    rowmodel=$work/$tag.probe/machine.ini
    if ! "${wrap[@]}" "$PARSCOPE" probe --quick -q --timeout 900 -o "$rowmodel" > "$work/$tag.probe/out" 2>&1; then
      printf "%-12s %-34s failed: the probe: %s\n" "$name" "${cmd/#$here\//}" "$(tail -1 "$work/$tag.probe/out")"
      return 1
    fi
  fi
  # shellcheck disable=SC2086
  if ! "${wrap[@]}" "$PARSCOPE" predict $cmd -m "$rowmodel" -n 2 --compare -k "$k" "${extra[@]}" --timeout 120 -q \
      -o "$work/$tag.pred.json" --measured "$work/$tag.meas.json" > "$work/$tag.out" 2>&1; then
    printf "%-12s %-34s failed: %s\n" "$name" "${cmd/#$here\//}" "$(tail -1 "$work/$tag.out")"
    return 1
  fi
  python3 - "$work/$tag.meas.json" "$work/$tag.pred.json" "$name" "${cmd/#$here\//}$([ "$cal" = 1 ] && echo " --calibrate")" "$load" \
      "$(cut -d' ' -f1 /proc/loadavg)" "$try" >> "$work/table" <<'PY'
import json, sys
def t(path):
    d = json.load(open(path))
    d = d["points"][0] if "points" in d else d
    return d["time"]["min"]
m, p = t(sys.argv[1]), t(sys.argv[2])
# the measured time's own uncertainty (the best two trials' gap), as the comparison gives it
rows = json.load(open(sys.argv[2])).get("comparison") or [{}]
u = rows[0].get("measured_uncertainty")
busy = rows[0].get("measured_others_busy_pct")
# the run's 8-byte half round trip over the model's (parscope compare's latency_check)
lc = (rows[0].get("latency_check") or {}).get("run_over_model")
# the calibration run repeated after the measured runs over the one that priced them (compare's speed_check)
sc = (rows[0].get("speed_check") or {}).get("after_over_before")
# whether compare took either for another state of the machine than the model's
moved = lambda k: "yes" if (rows[0].get(k) or {}).get("differs") else "no"
# the model sent some messages between its S and the receive's protocol step (parscope compare's protocol_in_doubt)
proto = "yes" if rows[0].get("protocol_in_doubt") else "no"
# the model's network in doubt (an exchange neither clearly serial nor free): the other network's error (compare's network_in_doubt)
nd = rows[0].get("network_in_doubt") or {}
# a shaped link's bucket charging each message its wire bytes or its payload alone (compare's wire_in_doubt)
wd = rows[0].get("wire_in_doubt") or {}
# ... and an acknowledgement of their own for the messages sent one way (compare's ack_in_doubt)
ad = rows[0].get("ack_in_doubt") or {}
# start-up costs: the first message call of each kind beyond its kind's median, the run's over the prediction's, as a share
# of the measured time, and the error without them (compare's first_calls)
fc = rows[0].get("first_calls") or {}
fcs = (fc["measured_s"] - fc["predicted_s"]) / m if "measured_s" in fc and m > 0 else None
num = lambda v, f: f % v if isinstance(v, (int, float)) else "-"
# the run's computation against its price: faster than the calibration priced it (compare's
# compute_faster_than_priced), or slower with the ranks sharing the node (compute_slowed_on_shared_node)
cr = rows[0].get("compute_measured_over_predicted")
cflag = "faster" if rows[0].get("compute_faster_than_priced") else "slower" if rows[0].get("compute_slowed_on_shared_node") else "-"
print("\t".join([sys.argv[3], sys.argv[4], "%.6g" % m, "%.6g" % p, "%.4f" % ((p - m) / m), sys.argv[5] + "-" + sys.argv[6],
                 num(100 * u if isinstance(u, (int, float)) else None, "%.1f%%"), num(busy, "%.0f"), num(lc, "%.2f"),
                 num(sc, "%.2f"), proto, num(nd.get("error_if_other"), "%.4f"), nd.get("other_network") or "-",
                 sys.argv[7], moved("latency_check"), moved("speed_check"), num(cr, "%.2f"), cflag,
                 num(wd.get("error_if_coalesced"), "%.4f"), num(ad.get("error_if_acked"), "%.4f"),
                 num(fcs, "%.4f"), num(fc.get("error_without"), "%.4f")]))
PY
  tail -1 "$work/table" | awk -F'\t' '{nb = $12 == "-" ? "" : sprintf("  (%s %+.1f%%)", $13, $12*100);
    if ($19 != "-" && $19 != "") nb = nb sprintf("  (coalesced %+.1f%%)", $19*100);
    if ($20 != "-" && $20 != "") nb = nb sprintf("  (acknowledged %+.1f%%)", $20*100);
    if ($21 != "-" && $21 != "" && $21 > 0.05) nb = nb sprintf("  (first calls %.0f%%: %+.1f%% without)", $21*100, $22*100);
    printf "%-12s %-34s %10.4g ms %10.4g ms %+7.1f%% %8s %6s %6s  %s%s%s\n", $1, $2, $3*1e3, $4*1e3, $5*100, $7, $9, $10,
           $6, nb, ($14 > 1 ? "  (attempt " $14 ")" : "")}'
  tail -1 "$work/table" | awk -F'\t' '{exit ($15 == "yes" || $16 == "yes") ? 3 : 0}'
}
for row in "${programs[@]}"; do
  IFS='|' read -r name cmd cal <<< "$row"
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
  for ((try = 1; try <= retry + 1; try++)); do
    rc=0
    attempt "$name" "$cmd" "$cal" "$try" || rc=$?
    [ "$rc" = 3 ] || break
  done
done
echo
[ -s "$work/table" ] && python3 - "$work/table" <<'PY'
import statistics, sys
every = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
last = {}
for r in every: last[r[0]] = r
rows = list(last.values())
def summary(rows, what):
    e = [float(r[4]) for r in rows]
    a = [abs(x) for x in e]
    print("%smedian |error| %.1f%%, largest |error| %.1f%%, %d of %d within 20%%, %d negative, %d positive"
          % (what, 100 * statistics.median(a), 100 * max(a), sum(x <= 0.2 for x in a), len(a),
             sum(x < 0 for x in e), sum(x > 0 for x in e)))
retried = [r[0] for r in rows if r[13] != "1"]
if retried:
    summary([r for r in every if r[13] == "1"], "first attempts: ")
    print("taken again, the machine in another state than the model's (latency or speed check): %s"
          % ", ".join("%s (%s attempts)" % (n, last[n][13]) for n in retried))
    summary(rows, "last attempts:  ")
else:
    summary(rows, "")
# the lines below are over the rows the summary above ends with (each program's last attempt)
which = " (last attempts)" if retried else ""
# a measured time whose best two trials differ by more than 5% is no firm reference (parscope compare)
loose = [r[0] for r in rows if r[6].endswith("%") and float(r[6][:-1]) > 5]
if loose: print("measured times not reproducible (best two > 5%% apart)%s: %s" % (which, ", ".join(loose)))
# the rows beyond 20% whose error is no larger than their measured time's own spread
within = ["%s (%+.1f%%, spread %s)" % (r[0], 100 * float(r[4]), r[6]) for r in rows
          if abs(float(r[4])) > 0.2 and r[6].endswith("%") and 100 * abs(float(r[4])) <= float(r[6][:-1])]
if within: print("beyond 20%% but within the measured time's own spread (the best two trials' gap)%s: %s"
                 % (which, ", ".join(within)))
# other processes busy during the fastest trial (parscope compare's measured_disturbed, above 10%)
busy = ["%s (%s%%)" % (r[0], r[7]) for r in rows if len(r) > 7 and r[7] != "-" and float(r[7]) > 10]
if busy: print("measured while other processes used over 10%% of the machine: %s" % ", ".join(busy))
# the link in another state than the probe saw (the run's latency check: 1.5 times the model's or more,
# or a change beyond the probe's own spread that the row's predicted communication turns into a fifth of its time)
other = ["%s (x%s)" % (r[0], r[8]) for r in rows if r[14] == "yes"]
if other: print("measured with the 8-byte half round trip 1.5 times the model's or more, or 1/1.5 or less, or "
                "a change beyond the probe's own spread that the predicted communication turns into 20%% of the "
                "time or more "
                "(the machine in another state than probed): %s" % ", ".join(other))
# the machine's speed moved between the calibration and the measured runs (1.1 times or more either way)
moved = ["%s (x%s)" % (r[0], r[9]) for r in rows if r[15] == "yes"]
if moved: print("measured while the machine's speed moved (the calibration run repeated after them took 1.1 times "
                "its seconds per flop or more, or 1/1.1 or less): %s" % ", ".join(moved))
# the computation itself off its price by 1.1 times either way (parscope compare): not in the retry rule
comp = ["%s (x%s, %s)" % (r[0], r[16], r[17]) for r in rows if len(r) > 17 and r[17] != "-"]
if comp: print("computation off its price by 1.1 times or more%s (faster than the calibration priced it, or slower with "
               "the ranks sharing the node): %s" % (which, ", ".join(comp)))
proto = [r[0] for r in rows if len(r) > 10 and r[10] == "yes"]
if proto: print("messages above the model's S but below the receive's protocol step (eager data, each send complete once "
                "its receiver's runtime took the message in: a protocol inferred from the receive's cost): %s" % ", ".join(proto))
nb = [(float(r[11]), r[12]) for r in rows if len(r) > 12 and r[11] != "-"]
if nb:
    b = [abs(x) for x, _ in nb]
    print("the model's network was in doubt (an exchange neither clearly serial nor clearly free); under the other "
          "network (%s) instead: median |error| %.1f%%, largest %.1f%%, %d of %d within 20%%" %
          (nb[0][1], 100 * statistics.median(b), 100 * max(b), sum(x <= 0.2 for x in b), len(b)))
wd = [(r[0], float(r[18]), float(r[4])) for r in rows if len(r) > 18 and r[18] != "-"]
if wd: print("the shaped link's bucket charges each message its wire bytes as if sent alone; with every message "
             "coalesced by TCP (its payload alone) instead: %s" %
             ", ".join("%s %+.1f%% (against %+.1f%%)" % (n, 100 * c, 100 * e) for n, c, e in wd))
ad = [(r[0], float(r[19]), float(r[4])) for r in rows if len(r) > 19 and r[19] != "-"]
if ad: print("the shaped link's bucket charges no acknowledgement of its own to a message sent one way; with half "
             "the wire bytes more for each: %s" %
             ", ".join("%s %+.1f%% (against %+.1f%%)" % (n, 100 * c, 100 * e) for n, c, e in ad))
fc = [(r[0], float(r[20]), float(r[21]), float(r[4])) for r in rows if len(r) > 21 and r[20] != "-" and float(r[20]) > 0.05]
if fc: print("start-up costs the model does not have (the first message call of each kind beyond its kind's median, the run's "
             "over the prediction's, as a share of the measured time), and the error without them on both sides%s: %s" %
             (which, ", ".join("%s %.0f%%: %+.1f%% (against %+.1f%%)" % (n, 100 * s, 100 * w, 100 * e) for n, s, w, e in fc)))
scs = [float(r[9]) for r in rows if len(r) > 9 and r[9] != "-"]
if scs: print("repeated calibration's seconds per flop over the first%s: %.2f-%.2f" % (which, min(scs), max(scs)))
lcs = [float(r[8]) for r in rows if len(r) > 8 and r[8] != "-"]
if lcs: print("run's 8-byte half round trip over the model's%s: %.2f-%.2f" % (which, min(lcs), max(lcs)))
PY
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
