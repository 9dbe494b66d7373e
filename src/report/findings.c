/* findings.c - conclusions with their effect, noise and verdict (see findings.h). */
#include "report/findings.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "trace/json.h"

static void fmt(char *buf, size_t len, double v, const char *unit)
{
    if (!isfinite(v)) snprintf(buf, len, "unknown");
    else if (unit && !strcmp(unit, "efficiency")) snprintf(buf, len, "%.1f points", 100 * v);
    else snprintf(buf, len, "%.1f%%", 100 * v);
}

static int beyond(double effect, double noise)
{
    return isfinite(effect) && isfinite(noise) && fabs(effect) > noise;
}

static json_t *record(const char *id, double effect, double noise, const char *unit, json_t *numbers,
                      const char *text, int finding)
{
    json_t *c = json_object();
    json_object_set_new(c, "id", json_string(id));
    json_object_set_new(c, "text", json_string(text));
    json_object_set_new(c, "effect", ps_json_real_or_null(effect));
    json_object_set_new(c, "noise", ps_json_real_or_null(noise));
    json_object_set_new(c, "unit", json_string(unit ? unit : "relative"));
    json_object_set_new(c, "verdict", json_string(finding ? "finding" : "within-noise"));
    json_object_set_new(c, "numbers", numbers ? numbers : json_object());
    return c;
}

json_t *ps_finding_add(json_t *arr, const char *id, double effect, double noise, const char *unit, json_t *numbers,
                       const char *claim, const char *question, const char *how)
{
    int f = beyond(effect, noise);
    char text[1400];
    if (f) {
        snprintf(text, sizeof text, "%s", claim);
    } else {
        char e[32], n[32];
        /* signed: a negative effect is the other way round (a gain where a cost was asked about) */
        fmt(e, sizeof e, effect, unit);
        fmt(n, sizeof n, noise, unit);
        snprintf(text, sizeof text, "%s: cannot tell at this noise level (effect %s, noise %s); %s.", question, e,
                 isfinite(noise) ? n : "unknown (one trial)", how ? how : "run more trials (--trials) or on a quieter machine");
    }
    json_t *c = record(id, effect, noise, unit, numbers, text, f);
    json_array_append_new(arr, c);
    return c;
}

json_t *ps_finding_add_text(json_t *arr, const char *id, double effect, double noise, const char *unit,
                            json_t *numbers, const char *text_finding, const char *text_within)
{
    int f = beyond(effect, noise);
    json_t *c = record(id, effect, noise, unit, numbers, f ? text_finding : text_within, f);
    json_array_append_new(arr, c);
    return c;
}

int ps_finding_is(const json_t *rec)
{
    const char *v = json_string_value(json_object_get(rec, "verdict"));
    return v && !strcmp(v, "finding");
}

json_t *ps_finding_by_id(const json_t *arr, const char *id)
{
    size_t i;
    json_t *c;
    json_array_foreach(arr, i, c) {
        const char *x = json_string_value(json_object_get(c, "id"));
        if (x && !strcmp(x, id)) return c;
    }
    return NULL;
}

int ps_findings_reconcile(json_t *arr, const char *const (*ex)[2])
{
    int changed = 0;
    for (int k = 0; ex && ex[k][0]; k++) {
        json_t *a = ps_finding_by_id(arr, ex[k][0]), *b = ps_finding_by_id(arr, ex[k][1]);
        if (!a || !b || !ps_finding_is(a) || !ps_finding_is(b)) continue;
        json_t *pair[2] = {a, b};
        for (int i = 0; i < 2; i++) {
            char text[1600];
            snprintf(text, sizeof text,
                     "%s [contradicted by '%s' from the same run: cannot tell at this noise level; run more trials "
                     "or on a quieter machine]",
                     json_string_value(json_object_get(pair[i], "text")), ex[k][1 - i]);
            json_object_set_new(pair[i], "text", json_string(text));
            json_object_set_new(pair[i], "verdict", json_string("within-noise"));
            changed++;
        }
    }
    return changed;
}

int ps_findings_check(const json_t *arr, const char *const (*ex)[2], char *err, size_t errlen)
{
    size_t i;
    json_t *c;
    json_array_foreach(arr, i, c) {
        const char *id = json_string_value(json_object_get(c, "id"));
        const char *v = json_string_value(json_object_get(c, "verdict"));
        const char *text = json_string_value(json_object_get(c, "text"));
        json_t *e = json_object_get(c, "effect"), *n = json_object_get(c, "noise");
        if (!id || !v || !text || !json_object_get(c, "effect") || !json_object_get(c, "noise")) {
            ps_seterr(err, errlen, "conclusion %zu lacks id, text, effect, noise or verdict", i);
            return -1;
        }
        if (!strcmp(v, "finding")) {
            if (!json_is_number(e) || !json_is_number(n) || !(fabs(json_number_value(e)) > json_number_value(n))) {
                ps_seterr(err, errlen, "%s: a finding whose effect does not exceed its noise", id);
                return -1;
            }
        } else if (strcmp(v, "within-noise") && strcmp(v, "untestable")) {
            ps_seterr(err, errlen, "%s: verdict '%s'", id, v);
            return -1;
        } else if (!strstr(text, "cannot tell")) {
            ps_seterr(err, errlen, "%s: within the noise but the text does not say it cannot tell: %s", id, text);
            return -1;
        }
    }
    for (int k = 0; ex && ex[k][0]; k++) {
        json_t *a = ps_finding_by_id(arr, ex[k][0]), *b = ps_finding_by_id(arr, ex[k][1]);
        if (a && b && ps_finding_is(a) && ps_finding_is(b)) {
            ps_seterr(err, errlen, "%s and %s are both findings of one run", ex[k][0], ex[k][1]);
            return -1;
        }
    }
    return 0;
}

void ps_findings_print(const json_t *arr, FILE *out)
{
    size_t i;
    json_t *c;
    json_array_foreach(arr, i, c)
        fprintf(out, "  - [%s] %s\n", json_string_value(json_object_get(c, "verdict")),
                json_string_value(json_object_get(c, "text")));
}
