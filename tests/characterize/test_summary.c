/* test_summary.c - the summary of a characterization whose probe's h-relation
 * fit failed (data/failed-fit: g and l null, r with a 22% uncertainty; the
 * fingerprint's overhead share missing): no "nan" and no invented zero in the
 * text or the HTML, "-" and the fit's failure said instead, and every figure
 * with the uncertainty its document holds. */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "characterize/characterize.h"

#include "check.h"

static json_t *failed_fit_summary(void)
{
    const ps_characterize_step steps[] = {{"probe", 0, 10, ""}, {"fingerprint", 0, 2, ""}};
    return ps_characterize_summary(PS_TEST_DATA "/data/failed-fit", 2, 30, 40, steps, 2, 0, NAN);
}

/* "nan" or "inf" standing as a word: a figure printed from a missing number. */
static int has_non_number(const char *s)
{
    static const char *const words[] = {"nan", "inf"};
    for (int k = 0; k < 2; k++)
        for (const char *p = s; (p = strstr(p, words[k])); p += 3)
            if ((p == s || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[3])) return 1;
    return 0;
}

/* The summary of a stored sweep alone (data/NAME/scale/scale.json). */
static json_t *sweep_summary(const char *name)
{
    const ps_characterize_step steps[] = {{"scale", 0, 20, ""}};
    char dir[512];
    snprintf(dir, sizeof dir, "%s/data/%s", PS_TEST_DATA, name);
    return ps_characterize_summary(dir, 2, 90, 60, steps, 1, 0, NAN);
}

/* The summary as `characterize` prints it (to be freed). */
static char *printed(json_t *s)
{
    char *text = NULL;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ps_characterize_print(s, f);
    fclose(f);
    return text;
}

TEST_IMPL(failed_fit_text)
{
    json_t *s = failed_fit_summary();
    const json_t *p = json_object_get(s, "probe");
    CHECK(json_is_null(json_object_get(p, "g_flops")) && json_is_null(json_object_get(p, "l_flops")));
    CHECK(fabs(json_number_value(json_object_get(p, "r_uncertainty")) - 0.22) < 1e-12);
    char *text;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ps_characterize_print(s, f);
    fclose(f);
    CHECK(!has_non_number(text), "%s", text);
    CHECK(strstr(text, "BSP (p = 2): r = 4619 Mflop/s +/- 22%, g = -, l = -; the h-relation fit failed: the median l, "
                       "-6460, is not positive"),
          "%s", text);
    CHECK(strstr(text, "latency 391 ns +/- 0.021%, bandwidth 24.84 GB/s +/- 2.8% best"), "%s", text);
    CHECK(strstr(text, "fingerprint on 2 ranks: 51.5 us +/- 3.2%; busy 61.0%, overhead -, idle 27.0%"), "%s", text);
    free(text);
    json_decref(s);
}

TEST_IMPL(failed_fit_html)
{
    json_t *s = failed_fit_summary();
    char *page;
    size_t n;
    FILE *f = open_memstream(&page, &n);
    CHECK(ps_characterize_report_html(f, s, NULL, NULL) == 0);
    fclose(f);
    CHECK(!has_non_number(page), "%s", page);
    CHECK(strstr(page, "<tr><th>BSP r</th><td>4619 Mflop/s +/- 22%</td></tr>"), "%s", page);
    CHECK(strstr(page, "<tr><th>BSP g</th><td>-</td></tr>") && strstr(page, "<tr><th>BSP l</th><td>-</td></tr>"),
          "%s", page);
    CHECK(strstr(page, "failed: the median l, -6460, is not positive"), "%s", page);
    CHECK(strstr(page, "51.5 \xc2\xb5s +/- 3.2% on 2 ranks (busy 61.0%, overhead -, idle 27.0%)"), "%s", page);
    free(page);
    json_decref(s);
}

/* A run that took more than a quarter beyond its budget says so, in the JSON, the text and the page;
 * within a quarter nothing is said. */
TEST_IMPL(budget_overrun)
{
    const ps_characterize_step steps[] = {{"probe", 0, 10, ""}, {"fingerprint", 0, 2, ""}};
    json_t *over = ps_characterize_summary(PS_TEST_DATA "/data/failed-fit", 2, 30, 40, steps, 2, 0, NAN);
    json_t *within = ps_characterize_summary(PS_TEST_DATA "/data/failed-fit", 2, 30, 37, steps, 2, 0, NAN);
    CHECK(!json_object_get(within, "budget_note"));
    const char *note = json_string_value(json_object_get(over, "budget_note"));
    CHECK(note && strstr(note, "took 40 s against a budget of 30 s"), "%s", note ? note : "(none)");
    char *text, *page;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ps_characterize_print(over, f);
    fclose(f);
    CHECK(strstr(text, "  budget: took 40 s against a budget of 30 s"), "%s", text);
    f = open_memstream(&page, &n);
    CHECK(ps_characterize_report_html(f, over, NULL, NULL) == 0);
    fclose(f);
    CHECK(strstr(page, "Budget: took 40 s against a budget of 30 s"), "%s", page);
    free(text);
    free(page);
    json_decref(over);
    json_decref(within);
}

/* The predict step of a characterization on this 2-core VM (data/shared-node,
 * `parscope characterize --steps probe,predict`; two of its four points above
 * P = 1 computed 1.1 times their price or more, the two ranks sharing the
 * node): the accuracy line names its worst point, and says of each point
 * whose error is not the model's alone why, each count being that of the
 * rows (above P = 1) that carry it. */
TEST_IMPL(prediction_flags)
{
    const ps_characterize_step steps[] = {{"predict", 0, 10, ""}};
    json_t *s = ps_characterize_summary(PS_TEST_DATA "/data/shared-node", 2, 90, 90, steps, 1, 0, NAN);
    const json_t *pr = json_object_get(s, "prediction");
    size_t i;
    const json_t *r, *worst = NULL;
    long long slowed = 0, faster = 0, doubt = 0, moved = 0, above = 0;
    json_array_foreach(json_object_get(pr, "rows"), i, r) {
        if (json_integer_value(json_object_get(r, "ranks")) < 2) continue;
        above++;
        double e = fabs(json_number_value(json_object_get(r, "error")));
        if (!worst || e >= fabs(json_number_value(json_object_get(worst, "error")))) worst = r;
        double c = json_number_value(json_object_get(r, "compute_measured_over_predicted"));
        CHECK(json_is_true(json_object_get(r, "compute_slowed")) == (c > 1.10), "compute %.3f", c);
        slowed += json_is_true(json_object_get(r, "compute_slowed"));
        /* every count here was priced by --calibrate: faster than 1/1.1 of the price is said */
        CHECK(json_is_true(json_object_get(r, "compute_faster")) == (c < 1 / 1.10), "compute %.3f", c);
        faster += json_is_true(json_object_get(r, "compute_faster"));
        doubt += json_is_true(json_object_get(r, "calibration_in_doubt"));
        moved += json_is_true(json_object_get(r, "speed_moved"));
    }
    CHECK(above == json_integer_value(json_object_get(pr, "points")));
    CHECK(slowed == json_integer_value(json_object_get(pr, "points_compute_slowed")));
    CHECK(faster == json_integer_value(json_object_get(pr, "points_compute_faster")));
    CHECK(doubt == json_integer_value(json_object_get(pr, "points_calibration_in_doubt")));
    CHECK(moved == json_integer_value(json_object_get(pr, "points_speed_moved")));
    char *text;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ps_characterize_print(s, f);
    fclose(f);
    char want[160];
    snprintf(want, sizeof want, "max %.1f%% (%s at P = %lld) over %lld points",
             100 * fabs(json_number_value(json_object_get(worst, "error"))),
             json_string_value(json_object_get(worst, "workload")),
             (long long)json_integer_value(json_object_get(worst, "ranks")), above);
    CHECK(strstr(text, want), "want '%s' in:\n%s", want, text);
    snprintf(want, sizeof want, "in %lld of them the computation took 1.1 times its priced time", slowed);
    CHECK(slowed == 2 && strstr(text, want), "want '%s' in:\n%s", want, text);
    free(text);
    /* the page's table marks the same rows */
    char *page;
    f = open_memstream(&page, &n);
    CHECK(ps_characterize_report_html(f, s, NULL, NULL) == 0);
    fclose(f);
    long long marked = 0;
    for (const char *p = page; (p = strstr(p, " times its price, ranks sharing a node)")); p++) marked++;
    CHECK(marked == slowed, "%lld rows marked, %lld slowed", marked, slowed);
    free(page);
    json_decref(s);
}

/* The same step with fingerprint's prediction at P = 2 sending some of its
 * messages by rendezvous below the model's receive step, on a bus the probe
 * was not sure of (predict.c, protocol_doubt and network_doubt, put into a
 * copy of the data, the other network's time 0.9 times the bus's): that
 * row, and only it, is marked, counted, said in the text and on the page,
 * with the other network's error against the measured time. */
TEST_IMPL(prediction_model_doubts)
{
    char dir[] = "/tmp/ps_summary_doubts.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp -r '%s/data/shared-node/predict' '%s/'", PS_TEST_DATA, dir);
    CHECK(system(cmd) == 0);
    char path[300];
    snprintf(path, sizeof path, "%s/predict/fingerprint.json", dir);
    json_t *fp = json_load_file(path, 0, NULL);
    CHECK(fp != NULL);
    size_t i;
    json_t *pt;
    json_array_foreach(json_object_get(fp, "points"), i, pt)
        if (json_integer_value(json_object_get(json_object_get(pt, "params"), "ranks")) == 2)
        {
            double tp = json_number_value(json_object_get(json_object_get(pt, "time"), "min"));
            json_object_set_new(pt, "protocol_doubt", json_pack("{s:f, s:f, s:i, s:f}", "S", 256.0, "recv_step",
                                                                4040.0, "messages", 4, "share", 0.25));
            json_object_set_new(pt, "network_doubt", json_pack("{s:s, s:f, s:f, s:f}", "network", "bus", "bus_s", tp,
                                                               "nobus_s", 0.9 * tp, "nobus_contention", 1.4));
            json_object_set_new(pt, "wire_doubt", json_pack("{s:f, s:f, s:f}", "wire_bytes", 88.0, "alone_s", tp,
                                                            "coalesced_s", 0.8 * tp));
        }
    CHECK(json_dump_file(fp, path, 0) == 0);
    json_decref(fp);
    const ps_characterize_step steps[] = {{"predict", 0, 10, ""}};
    json_t *s = ps_characterize_summary(dir, 2, 90, 90, steps, 1, 0, NAN);
    const json_t *pr = json_object_get(s, "prediction"), *r;
    long long marked = 0;
    json_array_foreach(json_object_get(pr, "rows"), i, r) {
        int fp2 = !strcmp(json_string_value(json_object_get(r, "workload")), "fingerprint") &&
                  json_integer_value(json_object_get(r, "ranks")) == 2;
        CHECK(json_is_true(json_object_get(r, "protocol_in_doubt")) == fp2, "row %zu", i);
        double tm = json_number_value(json_object_get(r, "measured_s")), tp = json_number_value(json_object_get(r, "predicted_s"));
        const json_t *en = json_object_get(r, "error_if_other"), *on = json_object_get(r, "other_network");
        CHECK(fp2 ? json_is_number(en) && fabs(json_number_value(en) - (0.9 * tp - tm) / tm) < 1e-9 : json_is_null(en),
              "row %zu: error_if_other", i);
        CHECK(fp2 ? json_is_string(on) && !strcmp(json_string_value(on), "nobus") : json_is_null(on),
              "row %zu: other_network", i);
        const json_t *ec = json_object_get(r, "error_if_coalesced");
        CHECK(fp2 ? json_is_number(ec) && fabs(json_number_value(ec) - (0.8 * tp - tm) / tm) < 1e-9 : json_is_null(ec),
              "row %zu: error_if_coalesced", i);
        marked += fp2;
    }
    CHECK(marked == 1 && json_integer_value(json_object_get(pr, "points_protocol_in_doubt")) == 1);
    CHECK(json_integer_value(json_object_get(pr, "points_network_in_doubt")) == 1);
    CHECK(json_integer_value(json_object_get(pr, "points_wire_in_doubt")) == 1);
    char *text;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ps_characterize_print(s, f);
    fclose(f);
    CHECK(strstr(text, "; 1 of them with messages above the model's S but below the receive's protocol step"),
          "not said in:\n%s", text);
    CHECK(strstr(text, "; 1 of them on a link whose exchange the probe found neither clearly serial nor clearly free"),
          "the network not said in:\n%s", text);
    CHECK(strstr(text, "; 1 of them on a shaped link where the prediction moves by more than 5% if TCP coalesces"),
          "the coalescing not said in:\n%s", text);
    free(text);
    f = open_memstream(&text, &n);
    CHECK(ps_characterize_report_html(f, s, NULL, NULL) == 0);
    fclose(f);
    const char *p = strstr(text, " (protocol in doubt)");
    CHECK(p && !strstr(p + 1, " (protocol in doubt)"), "the page marks it once");
    p = strstr(text, " (side by side: ");
    CHECK(p && !strstr(p + 1, " (side by side: "), "the page gives the other network's error once");
    p = strstr(text, " (coalesced: ");
    CHECK(p && !strstr(p + 1, " (coalesced: "), "the page gives the coalesced error once");
    free(text);
    json_decref(s);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* A sweep whose efficiency loss is barely beyond its noise (data/near-noise: 25.4% +/- 24.6% at P = 2,
 * the kernel at 90% +/- 22% of the memory bound): the bottleneck it names is a finding, and its figures
 * say why, with the decimals that tell the loss from its noise, not "25% +/- 25%"; whole per cent where
 * they are told apart. */
TEST_IMPL(bottleneck_near_noise)
{
    json_t *s = sweep_summary("near-noise");
    const json_t *b = json_object_get(s, "bottleneck");
    const char *name = json_string_value(json_object_get(b, "name")), *why = json_string_value(json_object_get(b, "reason"));
    CHECK(name && !strcmp(name, "memory system"), "%s", name ? name : "(none)");
    CHECK(!strcmp(json_string_value(json_object_get(b, "verdict")), "finding"));
    CHECK(why && strstr(why, "loses 25.4% +/- 24.6% of its efficiency at P = 2"), "%s", why ? why : "(none)");
    CHECK(why && strstr(why, "runs at the memory-bandwidth bound within the noise (90% +/- 22% of it)"), "%s",
          why ? why : "(none)");
    /* the communication share is the predicted workloads', not the sweep's: named as theirs */
    CHECK(why && strstr(why, "; the share of their time cg, mmm_s and red_black communicate: not measured)"), "%s",
          why ? why : "(none)");
    char *text = printed(s);
    CHECK(strstr(text, "25.4% +/- 24.6%") && !strstr(text, "25% +/- 25%"), "%s", text);
    free(text);
    json_decref(s);
}

/* A sweep that finds its kernel below the memory-bandwidth bound beyond the noise (data/below-bound:
 * 92.4% +/- 5.0% of it at P = 1, "something other than memory bandwidth limits it") and loses 15% +/- 5%
 * of its efficiency: the summary does not blame the memory system the sweep has ruled out, and says it
 * cannot tell what limits it. */
TEST_IMPL(bottleneck_below_bound)
{
    json_t *s = sweep_summary("below-bound");
    const json_t *b = json_object_get(s, "bottleneck");
    const char *name = json_string_value(json_object_get(b, "name")), *why = json_string_value(json_object_get(b, "reason"));
    CHECK(name && !strcmp(name, "none beyond the noise"), "%s: %s", name ? name : "(none)", why ? why : "");
    CHECK(!strcmp(json_string_value(json_object_get(b, "verdict")), "within-noise"));
    CHECK(why && strstr(why, "the memory bound (92% +/- 5% of it reached)"), "%s", why ? why : "(none)");
    json_decref(s);
}
