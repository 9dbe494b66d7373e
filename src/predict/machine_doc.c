/*
 * machine_doc.c - a machine model file as a document (kind "machine"), so
 * the report can set models side by side with results: the BSP seed's r, g,
 * l table and the estimator's keys (report/tables.h).
 */
#include <math.h>

#include "predict/predict.h"
#include "sim/machine.h"
#include "util/util.h"

json_t *ps_predict_machine_doc(const char *path, char *err, size_t errlen)
{
    ps_machine *m = ps_xmalloc(sizeof *m);
    if (ps_machine_load(path, m, err, errlen)) {
        free(m);
        return NULL;
    }
    json_t *d = json_object();
    json_object_set_new(d, "kind", json_string("machine"));
    json_object_set_new(d, "name", json_string(m->name[0] ? m->name : path));
    json_object_set_new(d, "file", json_string(path));
    if (m->source[0]) json_object_set_new(d, "source", json_string(m->source));
    json_object_set_new(d, "send_latency", json_real(m->send_latency));
    json_object_set_new(d, "recv_latency", json_real(m->recv_latency));
    json_object_set_new(d, "word_time", json_real(m->word_time));
    json_object_set_new(d, "flop_time", json_real(m->flop_time));
    json_object_set_new(d, "network", json_string(m->bus ? "bus" : "nobus"));
    if (m->bsp_r > 0) {
        json_t *b = json_object();
        json_object_set_new(b, "r", json_real(m->bsp_r));
        json_object_set_new(b, "g", json_real(m->bsp_g));
        json_object_set_new(b, "l", json_real(m->bsp_l));
        json_object_set_new(b, "g_us", json_real(m->bsp_g / m->bsp_r * 1e6));
        json_object_set_new(b, "l_us", json_real(m->bsp_l / m->bsp_r * 1e6));
        if (m->bsp_p > 0) json_object_set_new(b, "p", json_integer(m->bsp_p));
        json_object_set_new(d, "bsp", b);
    }
    free(m);
    if (!json_string_value(json_object_get(d, "name"))) {
        /* a name that is not UTF-8: jansson refuses it */
        json_object_set_new(d, "name", json_string("(unnamed model)"));
    }
    return d;
}
