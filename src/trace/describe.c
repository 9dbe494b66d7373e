/* describe.c - the evaluated problem and the hardware of a run (see describe.h). */
#include "trace/describe.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

json_t *ps_trace_meta(const ps_trace *t)
{
    if (!t || !t->meta_json) return NULL;
    json_t *m = json_loads(t->meta_json, 0, NULL);
    if (m && !json_is_object(m)) {
        json_decref(m);
        m = NULL;
    }
    return m;
}

json_t *ps_trace_hardware(const ps_trace *t, const json_t *meta)
{
    json_t *hw = json_object_get(meta, "hardware");
    hw = json_is_object(hw) ? json_deep_copy(hw) : json_object();
    json_t *mpi = json_object_get(meta, "mpi");
    if (json_is_string(mpi) && !json_object_get(hw, "mpi")) json_object_set(hw, "mpi", mpi);
    if (t && t->nranks > 0 && t->rank[0].host[0]) {
        json_t *hosts = json_array();
        for (int r = 0; r < t->nranks; r++) {
            const char *h = t->rank[r].host;
            if (!h[0]) continue;
            int seen = 0;
            for (size_t k = 0; k < json_array_size(hosts) && !seen; k++)
                seen = !strcmp(json_string_value(json_array_get(hosts, k)), h);
            /* a host name that is not UTF-8 cannot be a JSON string: left out */
            json_t *s = seen ? NULL : json_string(h);
            if (s) json_array_append_new(hosts, s);
        }
        json_object_set_new(hw, "hosts", hosts);
    }
    return hw;
}

static void add_value(char *buf, size_t len, size_t *n, const json_t *v)
{
    if (json_is_integer(v)) ps_bufadd(buf, len, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_number(v)) ps_bufadd(buf, len, n, "%g", json_number_value(v));
    else if (json_is_string(v)) ps_bufadd(buf, len, n, "%s", json_string_value(v));
    else ps_bufadd(buf, len, n, "?");
}

#define PS_HEADLINE_SIZES 8

void ps_problem_text(const char *workload, const json_t *structure, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    ps_bufadd(buf, len, &n, "%s", workload && *workload ? workload : "-");
    if (!json_is_array(structure)) return;
    size_t shown = 0, more = 0, i;
    json_t *c;
    json_array_foreach((json_t *)structure, i, c)
    {
        /* communication constructs: their first argument is a message size */
        const char *a0 = json_string_value(json_array_get(json_object_get(c, "args"), 0));
        if (!a0 || strcmp(a0, "bytes")) continue;
        size_t k;
        json_t *call;
        json_array_foreach(json_object_get(c, "calls"), k, call)
        {
            if (shown == PS_HEADLINE_SIZES) {
                more++;
                continue;
            }
            ps_bufadd(buf, len, &n, "%s", shown ? "," : "(");
            add_value(buf, len, &n, json_array_get(json_object_get(call, "values"), 0));
            shown++;
        }
    }
    if (shown) ps_bufadd(buf, len, &n, "%s)", more ? ",..." : "");
}

void ps_structure_text(const json_t *structure, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    if (!json_is_array(structure) || !json_array_size(structure)) {
        ps_bufadd(buf, len, &n, "-");
        return;
    }
    size_t i;
    json_t *c;
    json_array_foreach((json_t *)structure, i, c)
    {
        const char *name = json_string_value(json_object_get(c, "construct"));
        ps_bufadd(buf, len, &n, "%s%s", i ? "; " : "", name ? name : "?");
        size_t k;
        json_t *call;
        json_array_foreach(json_object_get(c, "calls"), k, call)
        {
            ps_bufadd(buf, len, &n, "%s(", k ? ", " : "");
            size_t j;
            json_t *v;
            json_array_foreach(json_object_get(call, "values"), j, v)
            {
                if (j) ps_bufadd(buf, len, &n, ",");
                add_value(buf, len, &n, v);
            }
            ps_bufadd(buf, len, &n, ")");
            json_int_t cnt = json_integer_value(json_object_get(call, "count"));
            if (cnt > 1) ps_bufadd(buf, len, &n, " x%lld", (long long)cnt);
        }
        json_int_t more = json_integer_value(json_object_get(c, "more_calls"));
        if (more > 0) ps_bufadd(buf, len, &n, ", %lld more calls with other arguments", (long long)more);
    }
    if (n + 1 >= len && len > 4) memcpy(buf + len - 4, "...", 4);
}

static void set(char *dst, size_t len, const char *s) { snprintf(dst, len, "%s", s && *s ? s : "-"); }

void ps_hardware_text(const json_t *hw, int nranks, ps_hw_text *out)
{
    const json_t *hosts = json_object_get(hw, "hosts");
    size_t nh = json_array_size(hosts);
    const char *model = json_string_value(json_object_get(hw, "machine"));
    size_t n = 0;
    if (model && *model) {
        snprintf(out->machine, sizeof out->machine, "%s", model);
    } else if (nh) {
        out->machine[0] = '\0';
        for (size_t i = 0; i < nh && i < 4; i++)
            ps_bufadd(out->machine, sizeof out->machine, &n, "%s%s", i ? ", " : "",
                json_string_value(json_array_get(hosts, i)));
        if (nh > 4) ps_bufadd(out->machine, sizeof out->machine, &n, " and %zu more", nh - 4);
    } else {
        set(out->machine, sizeof out->machine, NULL);
    }

    n = 0;
    out->nodes[0] = '\0';
    if (nranks > 0) ps_bufadd(out->nodes, sizeof out->nodes, &n, "%d rank%s", nranks, nranks == 1 ? "" : "s");
    if (nh) ps_bufadd(out->nodes, sizeof out->nodes, &n, "%s%zu host%s", n ? " on " : "", nh, nh == 1 ? "" : "s");
    json_int_t cores = json_integer_value(json_object_get(hw, "cores"));
    if (cores > 0) ps_bufadd(out->nodes, sizeof out->nodes, &n, "%s(%lld core%s%s)", n ? " " : "", (long long)cores, cores == 1 ? "" : "s",
                       nh > 1 ? " each" : "");
    double mhz = json_number_value(json_object_get(hw, "cpu_mhz"));
    if (mhz > 0) ps_bufadd(out->nodes, sizeof out->nodes, &n, "%sat %.0f MHz", n ? " " : "", mhz);
    if (!n) set(out->nodes, sizeof out->nodes, NULL);

    set(out->cpu, sizeof out->cpu, json_string_value(json_object_get(hw, "cpu")));
    set(out->network, sizeof out->network,
        json_string_value(json_object_get(json_object_get(hw, "interconnect"), "type")));
    set(out->mpi, sizeof out->mpi, json_string_value(json_object_get(hw, "mpi")));
}
