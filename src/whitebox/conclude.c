/*
 * conclude.c - the white-box breakdown's conclusions, each with its effect,
 * the noise of the same run and a verdict (report/findings.h).
 *
 * A part is a difference of two variants' median times, spread over the
 * K x K trial pairs (the communication part: over T(comm)'s trials).  Its
 * effect is its share of the median T(full); its noise is how far the pairs
 * reach from the value towards zero (value - min, or max - value for a
 * negative part), relative to T(full).  So a part is beyond the noise
 * exactly when every pair lies on its side of zero: a share of the run
 * when all are above, the kernels out of order when all are below.  The
 * part's note and the order check (analyze.c) use the same verdict.  The
 * comparison with the latency + bandwidth model is a finding when the
 * prediction lies outside T(comm)'s median interval.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "trace/json.h"
#include "whitebox/whitebox.h"

ps_wb_part_noise ps_wb_part_noise_of(const json_t *part, double full)
{
    double v = ps_json_num(part, "value");
    ps_wb_part_noise pn = {NAN, NAN, PS_WB_NOISE_UNKNOWN};
    if (!(full > 0) || !isfinite(v)) return pn;
    pn.effect = v / full;
    double edge = v < 0 ? ps_json_num(part, "max") : ps_json_num(part, "min");
    /* one pair has no spread: its noise cannot be told (findings.h) */
    if (!(ps_json_num(part, "pairs") >= 2) || !isfinite(edge)) return pn;
    pn.noise = fabs(v - edge) / full;
    /* the comparison ps_finding_add makes, so the verdicts agree */
    if (!(fabs(pn.effect) > pn.noise)) pn.verdict = PS_WB_WITHIN_NOISE;
    else pn.verdict = v < 0 ? PS_WB_BELOW_NOISE : PS_WB_ABOVE_NOISE;
    return pn;
}

static const struct {
    const char *key, *label, *id;
} part[3] = {{"communication", "communication", "communication-share"},
             {"data_movement", "communication-related data movement", "data-movement-share"},
             {"computation", "computation", "computation-share"}};

static void part_conclusion(json_t *out, int p, const json_t *o, double full)
{
    ps_wb_part_noise pn = ps_wb_part_noise_of(o, full);
    int pairs = (int)ps_json_num(o, "pairs");
    const char *unit = p == 0 ? "trials" : "trial pairs";
    json_t *n = json_pack("{s:f, s:f, s:o, s:o, s:i}", "value_s", ps_json_num(o, "value"), "full_median_s", full,
                          "min_s", ps_json_real_or_null(ps_json_num(o, "min")), "max_s",
                          ps_json_real_or_null(ps_json_num(o, "max")), "pairs", pairs);
    char claim[800], q[600];
    if (pn.verdict == PS_WB_BELOW_NOISE) {
        snprintf(claim, sizeof claim,
                 "The kernels are out of order: %s is negative in all %d %s (%.1f%% of the run, noise %.1f%%: how "
                 "far the pairs reach above it), so the variants do not differ by that part alone",
                 part[p].label, pairs, unit, 100 * pn.effect, 100 * pn.noise);
        ps_finding_add(out, "kernels-out-of-order", pn.effect, pn.noise, "relative", n, claim, "", NULL);
        return;
    }
    snprintf(claim, sizeof claim, "%c%s takes %.1f%% of the run, above zero in all %d %s (noise %.1f%%: how far they "
             "reach below it).", part[p].label[0] - 32, part[p].label + 1, 100 * pn.effect, pairs, unit,
             100 * pn.noise);
    snprintf(q, sizeof q, "Whether %s takes a measurable share of the run (%.1f%%; the noise is how far its %s "
             "reach from it towards zero)", part[p].label, 100 * pn.effect, unit);
    ps_finding_add(out, part[p].id, pn.effect, pn.noise, "relative", n, claim, q, NULL);
}

/* measured / predicted - 1 against the edge of T(comm)'s median interval on
 * the prediction's side, in the same unit (a fraction of the prediction) */
static void model_conclusion(json_t *out, const json_t *doc)
{
    const json_t *model = json_object_get(doc, "model");
    double ratio = ps_json_num(model, "measured_over_predicted");
    double measured = ps_json_num(model, "measured_s"), predicted = ps_json_num(model, "predicted_s");
    const json_t *tc = json_object_get(json_object_get(json_object_get(doc, "variants"), "comm"), "time");
    const json_t *ci = json_object_get(tc, "ci_median");
    if (!json_is_true(json_object_get(model, "available")) || !isfinite(ratio) || !(predicted > 0)) return;
    double edge = ps_json_num(ci, ratio >= 1 ? "low" : "high");
    double nz = isfinite(edge) ? fabs(measured - edge) / predicted : NAN;
    double effect = ratio - 1;
    char claim[800], q[600];
    snprintf(claim, sizeof claim,
             "The communication kernel takes %.3g times what a latency + bandwidth model from the ping-pong "
             "predicts for its messages, and T(comm)'s median interval comes no nearer than %.3g times: %s",
             ratio, edge / predicted,
             effect > 0 ? "contention, waiting for partners or where the messages come from cost more than the "
                          "model sees"
                        : "messages overlap in flight, which the model does not see");
    snprintf(q, sizeof q, "Whether the communication kernel differs from the latency + bandwidth model (%.3g times "
             "the prediction; the noise is how far T(comm)'s median interval reaches towards the prediction)", ratio);
    ps_finding_add(out, "model-comparison", effect, nz, "relative",
                   json_pack("{s:f, s:f}", "measured_s", measured, "predicted_s", predicted), claim, q, NULL);
}

json_t *ps_whitebox_conclude(const json_t *doc)
{
    json_t *out = json_array();
    const json_t *parts = json_object_get(doc, "parts");
    double full = ps_json_num(json_object_get(doc, "time"), "median");
    for (int p = 0; p < 3 && full > 0; p++) {
        const json_t *o = json_object_get(parts, part[p].key);
        if (isfinite(ps_json_num(o, "value"))) part_conclusion(out, p, o, full);
    }
    model_conclusion(out, doc);
    return out;
}
