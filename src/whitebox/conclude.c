/*
 * conclude.c - the white-box breakdown's conclusions, each with its effect,
 * the noise of the same run and a verdict (report/findings.h).
 *
 * A part is a difference of two variants' median times; its noise is the
 * spread of that difference over the K x K trial pairs, the farther of the
 * quartiles from the value (for the communication part, T(comm)'s own
 * quartiles), relative to the median of T(full).  A part is a finding
 * when its share of the run exceeds that noise; a part whose value is
 * negative beyond the noise means the kernels are out of order.  The
 * comparison with the latency + bandwidth model is a finding when the
 * measured kernel differs from the prediction by more than the relative
 * half width of T(comm)'s median interval.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "trace/json.h"
#include "whitebox/whitebox.h"

json_t *ps_whitebox_conclude(const json_t *doc)
{
    json_t *out = json_array();
    const json_t *parts = json_object_get(doc, "parts");
    double full = ps_json_num(json_object_get(doc, "time"), "median");
    static const struct {
        const char *key, *label, *id;
    } part[3] = {{"communication", "communication", "communication-share"},
                 {"data_movement", "communication-related data movement", "data-movement-share"},
                 {"computation", "computation", "computation-share"}};
    char claim[800], q[600];
    for (int p = 0; p < 3 && full > 0; p++) {
        const json_t *o = json_object_get(parts, part[p].key);
        double v = ps_json_num(o, "value"), q1 = ps_json_num(o, "q1"), q3 = ps_json_num(o, "q3");
        if (!isfinite(v)) continue;
        double nz = isfinite(q1) && isfinite(q3) && ps_json_num(o, "pairs") >= 2 ? fmax(v - q1, q3 - v) / full : NAN;
        double share = v / full;
        json_t *n = json_pack("{s:f, s:f}", "value_s", v, "full_median_s", full);
        if (share < 0 && isfinite(nz) && -share > nz) {
            snprintf(claim, sizeof claim,
                     "The kernels are out of order: %s comes out negative (%.1f%% of the run, noise %.1f%%) beyond "
                     "the spread of its trial pairs, so the variants do not differ by that part alone",
                     part[p].label, 100 * share, 100 * nz);
            ps_finding_add(out, "kernels-out-of-order", share, nz, "relative", n, claim, "", NULL);
            continue;
        }
        snprintf(claim, sizeof claim, "%c%s takes %.1f%% of the run (noise %.1f%%).", part[p].label[0] - 32,
                 part[p].label + 1, 100 * share, 100 * nz);
        snprintf(q, sizeof q, "Whether %s takes a measurable share of the run (%.1f%%)", part[p].label, 100 * share);
        ps_finding_add(out, part[p].id, share, nz, "relative", n, claim, q, NULL);
    }
    const json_t *model = json_object_get(doc, "model");
    double ratio = ps_json_num(model, "measured_over_predicted");
    const json_t *tc = json_object_get(json_object_get(json_object_get(doc, "variants"), "comm"), "time");
    const json_t *ci = json_object_get(tc, "ci_median");
    double med = ps_json_num(tc, "median");
    if (json_is_true(json_object_get(model, "available")) && isfinite(ratio) && med > 0) {
        double nz = json_is_object(ci) ? fmax(med - ps_json_num(ci, "low"), ps_json_num(ci, "high") - med) / med : NAN;
        double effect = ratio - 1;
        snprintf(claim, sizeof claim,
                 "The communication kernel takes %.3g times what a latency + bandwidth model from the ping-pong "
                 "predicts for its messages (noise %.0f%%): %s",
                 ratio, 100 * nz,
                 effect > 0 ? "contention, waiting for partners or where the messages come from cost more than the "
                              "model sees"
                            : "messages overlap in flight, which the model does not see");
        snprintf(q, sizeof q, "Whether the communication kernel differs from the latency + bandwidth model (%.3g times "
                 "the prediction)", ratio);
        ps_finding_add(out, "model-comparison", effect, nz, "relative",
                       json_pack("{s:f, s:f}", "measured_s", ps_json_num(model, "measured_s"), "predicted_s",
                                 ps_json_num(model, "predicted_s")),
                       claim, q, NULL);
    }
    return out;
}
