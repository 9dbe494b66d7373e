/*
 * sample.c - what one trial of one white-box variant contributes, read from
 * its trace; order statistics of trials and of their differences.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sheet.h"
#include "util/util.h"
#include "whitebox/whitebox.h"

const char *ps_wb_variant_name(int v)
{
    static const char *const names[PS_WB_NVARIANTS] = {"comm", "data", "full", "sections"};
    return v >= 0 && v < PS_WB_NVARIANTS ? names[v] : "?";
}

void ps_wb_sample_failed(ps_wb_sample *s)
{
    memset(s, 0, sizeof *s);
    s->time = NAN;
}

void ps_wb_sample_free(ps_wb_sample *s)
{
    if (!s) return;
    free(s->lane);
    free(s->compute);
    free(s->data_move);
    free(s->messages);
    free(s->bytes);
    free(s->msg_table);
    free(s->minflt);
    free(s->majflt);
    free(s->cache_misses);
    free(s->setup_in_timed);
    for (int i = 0; i < s->nsections; i++) free(s->sections[i].name);
    free(s->sections);
    ps_wb_sample_failed(s);
}

void ps_wb_data_free(ps_wb_data *d)
{
    if (!d) return;
    for (int v = 0; v < PS_WB_NVARIANTS; v++) {
        for (int k = 0; k < d->ntrials[v]; k++) ps_wb_sample_free(&d->sample[v][k]);
        free(d->sample[v]);
    }
    memset(d, 0, sizeof *d);
}

/* Adds seconds to the (name, rank) entry, creating it. */
static int section_add(ps_wb_sample *s, const char *name, int rank, double seconds, int *cap)
{
    for (int i = 0; i < s->nsections; i++)
        if (s->sections[i].rank == rank && !strcmp(s->sections[i].name, name)) {
            s->sections[i].seconds += seconds;
            s->sections[i].count++;
            return 0;
        }
    if (s->nsections == *cap) {
        int nc = *cap ? *cap * 2 : 8;
        ps_wb_section *ns = realloc(s->sections, (size_t)nc * sizeof *ns);
        if (!ns) return -1;
        s->sections = ns;
        *cap = nc;
    }
    ps_wb_section *e = &s->sections[s->nsections];
    e->name = strdup(name);
    if (!e->name) return -1;
    e->rank = rank;
    e->seconds = seconds;
    e->count = 1;
    s->nsections++;
    return 0;
}

int ps_wb_sample_from_trace(const ps_trace *t, const ps_machine *m, ps_wb_sample *s)
{
    ps_wb_sample_failed(s);
    int n = t->nranks;
    size_t nr = n > 0 ? (size_t)n : 1;
    s->nranks = n;
    s->time = ps_trace_time(t);
    s->lane = calloc(nr, sizeof *s->lane);
    s->compute = calloc(nr, sizeof *s->compute);
    s->data_move = calloc(nr, sizeof *s->data_move);
    s->messages = calloc(nr, sizeof *s->messages);
    s->bytes = calloc(nr, sizeof *s->bytes);
    s->msg_table = calloc(nr, sizeof *s->msg_table);
    s->minflt = calloc(nr, sizeof *s->minflt);
    s->majflt = calloc(nr, sizeof *s->majflt);
    s->cache_misses = calloc(nr, sizeof *s->cache_misses);
    s->setup_in_timed = calloc(nr, sizeof *s->setup_in_timed);
    if (!s->lane || !s->compute || !s->data_move || !s->messages || !s->bytes || !s->msg_table || !s->minflt ||
        !s->majflt || !s->cache_misses || !s->setup_in_timed)
        goto oom;
    /* the construct whose events are set-up: \INIT_ARRAY */
    int init_id = -1;
    for (int i = 0; i < t->nconstructs; i++)
        if (t->constructs[i] && !strcmp(t->constructs[i], "INIT_ARRAY")) init_id = i;
    ps_sheet sh;
    if (ps_sheet_compute(t, &sh)) goto oom;
    int cap = 0;
    for (int r = 0; r < n; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        s->lane[r] = rt->t_end - rt->t_begin;
        s->compute[r] = sh.rank[r].compute;
        s->data_move[r] = sh.rank[r].data_move;
        s->messages[r] = sh.rank[r].messages_sent;
        s->bytes[r] = sh.rank[r].bytes_sent;
        const ps_procstats *p = &rt->proc;
        s->minflt[r] = p->timed_minflt >= 0 ? (double)p->timed_minflt : NAN;
        s->majflt[r] = p->timed_majflt >= 0 ? (double)p->timed_majflt : NAN;
        s->cache_misses[r] = p->timed_cache_misses >= 0 ? (double)p->timed_cache_misses : NAN;
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            if (e->kind == PS_EV_COMPUTE && (int)e->construct == init_id) {
                double a = e->t0 > rt->t_begin ? e->t0 : rt->t_begin, b = e->t1 < rt->t_end ? e->t1 : rt->t_end;
                if (b > a) s->setup_in_timed[r] += b - a;
            }
            if (e->kind == PS_EV_SEND && m) s->msg_table[r] += ps_machine_msg_time(m, (double)e->bytes);
            if (e->kind == PS_EV_SECTION) {
                const char *name =
                    e->aux < (uint32_t)t->nconstructs && t->constructs[e->aux] ? t->constructs[e->aux] : "?";
                if (section_add(s, name, r, e->t1 - e->t0, &cap)) {
                    ps_sheet_free(&sh);
                    goto oom;
                }
            }
        }
    }
    ps_sheet_free(&sh);
    return 0;
oom:
    ps_wb_sample_free(s);
    return -1;
}

/* ---- order statistics ------------------------------------------------------ */

/* Linear interpolation between order statistics (type 7, as R and numpy). */
static double quantile(const double *sorted, int n, double q)
{
    if (n <= 0) return NAN;
    double h = (n - 1) * q;
    int lo = (int)floor(h);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

ps_wb_stat ps_wb_stat_of(const double *v, int n)
{
    ps_wb_stat st = {0, NAN, NAN, NAN, NAN, NAN};
    double *x = ps_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) x[m++] = v[i];
    if (m > 0) {
        ps_sort_doubles(x, (size_t)m);
        st.n = m;
        st.min = x[0];
        st.max = x[m - 1];
        st.median = quantile(x, m, 0.5);
        st.q1 = quantile(x, m, 0.25);
        st.q3 = quantile(x, m, 0.75);
    }
    free(x);
    return st;
}

ps_wb_stat ps_wb_diff_of(const double *a, int na, const double *b, int nb)
{
    size_t cap = (size_t)(na > 0 ? na : 1) * (size_t)(nb > 0 ? nb : 1);
    double *d = ps_xmalloc(cap * sizeof *d);
    int m = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (isfinite(a[i]) && isfinite(b[j])) d[m++] = a[i] - b[j];
    ps_wb_stat st = ps_wb_stat_of(d, m);
    free(d);
    return st;
}

/* ---- the simple model --------------------------------------------------- */

void ps_wb_model_params_of(const ps_machine *m, ps_wb_model_params *p)
{
    if (m->t0 > 0 && m->r_inf > 0) {
        p->latency = m->t0;
        p->bandwidth = m->r_inf;
        p->source = "Hockney fit of the ping-pong: latency t0, bandwidth r_inf";
    } else {
        p->latency = m->send_latency;
        p->bandwidth = m->word_time > 0 ? 8.0 / m->word_time : INFINITY;
        p->source = "estimator figures: latency send_latency, bandwidth 8 bytes / word_time";
    }
}

double ps_wb_model_time(const ps_wb_model_params *p, uint64_t messages, uint64_t bytes)
{
    double t = (double)messages * p->latency;
    if (isfinite(p->bandwidth) && p->bandwidth > 0) t += (double)bytes / p->bandwidth;
    return t;
}
