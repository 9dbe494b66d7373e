/* diagram.c - the space-time diagram as SVG (see diagram.h). */
#include "report/diagram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/svg.h"
#include "util/util.h"

int ps_trace_construct_id(const ps_trace *t, const char *name)
{
    for (int i = 0; i < t->nconstructs; i++)
        if (t->constructs[i] && !strcmp(t->constructs[i], name)) return i;
    return -1;
}

static const char *construct_name(const ps_trace *t, int id)
{
    return (id >= 0 && id < t->nconstructs && t->constructs[id]) ? t->constructs[id] : "?";
}

typedef struct geom {
    double left, top, pw, lane, t0, span;
} geom;

/* x of time t, clamped to the plot (a window cuts what lies outside) */
static double gx(const geom *g, double t)
{
    double x = (t - g->t0) / g->span;
    return g->left + (x < 0 ? 0 : x > 1 ? 1 : x) * g->pw;
}

static int outside(const geom *g, double a, double b) { return b < g->t0 || a > g->t0 + g->span; }
static double gy(const geom *g, int r) { return g->top + r * g->lane; }

/* ---- lanes ---------------------------------------------------------------- */

static void lane_exact(FILE *f, const geom *g, const ps_timeline *tl, int r, double y, double h)
{
    for (size_t i = 0; i < tl->nseg[r]; i++) {
        const ps_segment *s = &tl->seg[r][i];
        if (s->act == PS_ACT_BUSY || outside(g, s->t0, s->t1)) continue;
        double x0 = gx(g, s->t0), x1 = gx(g, s->t1);
        double w = x1 - x0;
        if (w < 0.6) w = 0.6; /* keep short calls visible */
        ps_svg_rect(f, x0, y, w, h, ps_act_color[s->act], NULL);
    }
}

/* More segments than pixels: each pixel column is a small stacked bar of the
 * shares of the three classes (idle at the bottom, overhead above it, busy on
 * top), drawn as two step-shaped areas over the busy lane.  Shares are
 * quantised to eighths of the bar so steady stretches merge. */
static void step_path(FILE *f, const geom *g, int ncol, const unsigned char *lvl, double ybase, double h,
                      const char *color)
{
    int any = 0;
    for (int c = 0; c < ncol && !any; c++) any = lvl[c] > 0;
    if (!any) return;
    fprintf(f, "<path fill=\"%s\" d=\"M", color);
    ps_svg_num(f, g->left);
    fputc(',', f);
    ps_svg_num(f, ybase);
    int prev = -1;
    for (int c = 0; c < ncol; c++) {
        if (lvl[c] == prev) continue;
        double x = g->left + c * g->pw / ncol, y = ybase - lvl[c] * h / 8;
        fputc('H', f);
        ps_svg_num(f, x);
        fputc('V', f);
        ps_svg_num(f, y);
        prev = lvl[c];
    }
    fputc('H', f);
    ps_svg_num(f, g->left + g->pw);
    fputc('V', f);
    ps_svg_num(f, ybase);
    fputs("Z\"/>\n", f);
}

static void lane_binned(FILE *f, const geom *g, const ps_timeline *tl, int r, double y, double h)
{
    int ncol = (int)ceil(g->pw);
    double dt = g->span / ncol;
    const ps_segment *s = tl->seg[r];
    size_t n = tl->nseg[r], i = 0;
    unsigned char *comm = ps_xmalloc((size_t)ncol * 2), *idle = comm + ncol;
    for (int c = 0; c < ncol; c++) {
        double a = g->t0 + c * dt, b = a + dt, acc[PS_ACT__COUNT] = {0};
        while (i < n && s[i].t1 <= a) i++;
        for (size_t k = i; k < n && s[k].t0 < b; k++) {
            double x = s[k].t0 > a ? s[k].t0 : a, z = s[k].t1 < b ? s[k].t1 : b;
            if (z > x) acc[s[k].act] += z - x;
        }
        comm[c] = (unsigned char)lround(8 * (acc[PS_ACT_OVERHEAD] + acc[PS_ACT_IDLE]) / dt);
        idle[c] = (unsigned char)lround(8 * acc[PS_ACT_IDLE] / dt);
        if (comm[c] > 8) comm[c] = 8;
        if (idle[c] > comm[c]) idle[c] = comm[c];
    }
    step_path(f, g, ncol, comm, y + h, h, PS_COLOR_OVERHEAD);
    step_path(f, g, ncol, idle, y + h, h, PS_COLOR_IDLE);
    free(comm);
}

/* ---- messages ------------------------------------------------------------- */

typedef struct bucket {
    uint64_t key; /* src:16 dst:16 send column:16 recv column:16 */
    uint32_t n;
} bucket;

static int bucket_cmp(const void *a, const void *b)
{
    const bucket *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static size_t merge_buckets(bucket *v, size_t n)
{
    if (!n) return 0;
    if (n) qsort(v, n, sizeof *v, bucket_cmp);
    size_t m = 0;
    for (size_t i = 1; i < n; i++) {
        if (v[i].key == v[m].key) v[m].n += v[i].n;
        else v[++m] = v[i];
    }
    return m + 1;
}

static void arrow(FILE *f, double x1, double y1, double x2, double y2, uint32_t n, double width)
{
    fprintf(f, "<line class=\"msg\" data-n=\"%u\" ", n);
    ps_svg_endpoints(f, x1, y1, x2, y2);
    if (width > 0) {
        fputs(" stroke-width=\"", f);
        ps_svg_num(f, width);
        fputc('"', f);
    }
}

/* Messages whose arrow lies (partly) in the window. */
static size_t messages_in(const geom *g, const ps_trace *t, const ps_match *m)
{
    size_t n = 0;
    for (int r = 0; r < t->nranks; r++)
        for (size_t i = 0; i < t->rank[r].n; i++) {
            /* the runtime's own messages (a predicted barrier's tree) are not the workload's: the
             * lanes show their time, as a measured MPI_Barrier's */
            if (t->rank[r].ev[i].kind != PS_EV_SEND || ps_tag_runtime(t->rank[r].ev[i].tag)) continue;
            ps_evref v = ps_match_recv(m, r, i);
            if (v.rank >= 0 && !outside(g, t->rank[r].ev[i].t0, t->rank[v.rank].ev[v.index].t1)) n++;
        }
    return n;
}

static size_t draw_messages(FILE *f, const geom *g, const ps_trace *t, const ps_timeline *tl, size_t max_arrows,
                            int uid, size_t nmsg)
{
    const ps_match *m = &tl->match;
    if (!nmsg) return 0;
    fprintf(f, "<g class=\"messages\" stroke=\"%s\" stroke-width=\"0.8\" stroke-opacity=\"0.75\" "
               "marker-end=\"url(#ps-arrow-%d)\">\n",
            PS_COLOR_MESSAGE, uid);
    size_t drawn = 0;
    if (nmsg <= max_arrows) {
        for (int r = 0; r < t->nranks; r++) {
            const ps_rank_trace *rt = &t->rank[r];
            for (size_t i = 0; i < rt->n; i++) {
                if (rt->ev[i].kind != PS_EV_SEND || ps_tag_runtime(rt->ev[i].tag)) continue;
                ps_evref v = ps_match_recv(m, r, i);
                if (v.rank < 0) continue;
                const ps_event *se = &rt->ev[i], *re = &t->rank[v.rank].ev[v.index];
                /* send start to receive end; a receive the clock correction leaves
                 * ending earlier (a clock error) is drawn vertical, never backwards */
                double end = re->t1 < se->t0 ? se->t0 : re->t1;
                if (outside(g, se->t0, end)) continue;
                arrow(f, gx(g, se->t0), gy(g, r) + g->lane / 2, gx(g, end), gy(g, v.rank) + g->lane / 2, 1, 0);
                char bytes[32];
                ps_fmt_bytes(bytes, sizeof bytes, (double)se->bytes);
                fputs(">", f);
                ps_svg_title(f, "%d \xe2\x86\x92 %d: %s, tag %d, %s", r, v.rank, bytes, se->tag,
                             construct_name(t, se->construct));
                fputs("</line>\n", f);
                drawn++;
            }
        }
    } else {
        /* thin out: one arrow per (sender, receiver, send column, receive column) */
        bucket *b = ps_xmalloc(nmsg * sizeof *b);
        size_t nb = 0;
        for (int r = 0; r < t->nranks; r++) {
            const ps_rank_trace *rt = &t->rank[r];
            for (size_t i = 0; i < rt->n; i++) {
                if (rt->ev[i].kind != PS_EV_SEND || ps_tag_runtime(rt->ev[i].tag)) continue;
                ps_evref v = ps_match_recv(m, r, i);
                if (v.rank < 0 || nb == nmsg || outside(g, rt->ev[i].t0, t->rank[v.rank].ev[v.index].t1)) continue;
                double cs = floor(gx(g, rt->ev[i].t0) - g->left), cr = floor(gx(g, t->rank[v.rank].ev[v.index].t1) - g->left);
                uint64_t s16 = (uint64_t)(cs < 0 ? 0 : cs > 65535 ? 65535 : cs);
                uint64_t r16 = (uint64_t)(cr < 0 ? 0 : cr > 65535 ? 65535 : cr);
                b[nb++] = (bucket){((uint64_t)(r & 0xffff) << 48) | ((uint64_t)(v.rank & 0xffff) << 32) | (s16 << 16) | r16, 1};
            }
        }
        nb = merge_buckets(b, nb);
        int shift = 0;
        while (nb > max_arrows && shift < 16) { /* coarser columns until it fits */
            for (size_t i = 0; i < nb; i++) {
                uint64_t k = b[i].key, s16 = (k >> 16 & 0xffff) >> 1, r16 = (k & 0xffff) >> 1;
                b[i].key = (k & 0xffffffff00000000ull) | (s16 << 16) | r16;
            }
            shift++;
            nb = merge_buckets(b, nb);
        }
        fputs("<g marker-end=\"none\" stroke-opacity=\"0.4\">\n", f);
        double colw = (double)(1u << shift);
        for (size_t i = 0; i < nb; i++) {
            int src = (int)(b[i].key >> 48), dst = (int)(b[i].key >> 32 & 0xffff);
            double xs = g->left + ((double)(b[i].key >> 16 & 0xffff) + 0.5) * colw;
            double xr = g->left + ((double)(b[i].key & 0xffff) + 0.5) * colw;
            if (xs > g->left + g->pw) xs = g->left + g->pw;
            if (xr > g->left + g->pw) xr = g->left + g->pw;
            double w = 0.4 + 0.25 * log2((double)b[i].n);
            if (w > 2.5) w = 2.5;
            arrow(f, xs, gy(g, src) + g->lane / 2, xr, gy(g, dst) + g->lane / 2, b[i].n, w);
            fputs(">", f);
            ps_svg_title(f, "%d \xe2\x86\x92 %d: %u messages", src, dst, b[i].n);
            fputs("</line>\n", f);
        }
        fputs("</g>\n", f);
        drawn = nb;
        free(b);
    }
    fputs("</g>\n", f);
    return drawn;
}

/* ---- syncs and phases ----------------------------------------------------- */

/* Times of the k-th VISIBLE_SYNC mark per rank: sync[k * nranks + r]. */
static size_t find_syncs(const ps_trace *t, double **out)
{
    *out = NULL;
    int id = ps_trace_construct_id(t, "VISIBLE_SYNC");
    if (id < 0) return 0;
    size_t nsync = SIZE_MAX;
    for (int r = 0; r < t->nranks; r++) {
        size_t k = 0;
        for (size_t i = 0; i < t->rank[r].n; i++)
            if (t->rank[r].ev[i].kind == PS_EV_MARK && t->rank[r].ev[i].construct == id) k++;
        if (k < nsync) nsync = k;
    }
    if (nsync == 0 || nsync == SIZE_MAX) return 0;
    double *v = ps_xmalloc(nsync * (size_t)t->nranks * sizeof *v);
    for (int r = 0; r < t->nranks; r++) {
        size_t k = 0;
        for (size_t i = 0; i < t->rank[r].n && k < nsync; i++)
            if (t->rank[r].ev[i].kind == PS_EV_MARK && t->rank[r].ev[i].construct == id)
                v[k++ * (size_t)t->nranks + r] = t->rank[r].ev[i].t0;
    }
    *out = v;
    return nsync;
}

int ps_diagram_sync_span(const ps_trace *t, double *from, double *to)
{
    double *sync;
    size_t n = find_syncs(t, &sync);
    if (n < 2) {
        free(sync);
        return 0;
    }
    double a = INFINITY, b = -INFINITY;
    for (int r = 0; r < t->nranks; r++) {
        if (sync[r] < a) a = sync[r];
        if (sync[(n - 1) * (size_t)t->nranks + r] > b) b = sync[(n - 1) * (size_t)t->nranks + r];
    }
    free(sync);
    *from = a;
    *to = b;
    return b > a;
}

static int label_worthy(const ps_trace *t, int c)
{
    const char *n = construct_name(t, c);
    return strcmp(n, "VISIBLE_SYNC") && strcmp(n, "CLOCKSYNC") && strcmp(n, "NONE") && strcmp(n, "BARRIER") &&
           strcmp(n, "?");
}

/* Labels each phase between sync lines with the construct that took most of
 * its time, and the message size when its messages have one size. */
static void label_phases(FILE *f, const geom *g, const ps_trace *t, const double *bounds, size_t nb)
{
    int nc = t->nconstructs > 0 ? t->nconstructs : 1;
    size_t nph = nb + 1;
    double *tm = ps_xcalloc(nph * (size_t)nc, sizeof *tm);
    uint64_t *bmin = ps_xmalloc(nph * (size_t)nc * sizeof *bmin), *bmax = ps_xcalloc(nph * (size_t)nc, sizeof *bmax);
    uint64_t *nmsg = ps_xcalloc(nph * (size_t)nc, sizeof *nmsg);
    for (size_t i = 0; i < nph * (size_t)nc; i++) bmin[i] = UINT64_MAX;
    for (int r = 0; r < t->nranks; r++) {
        for (size_t i = 0; i < t->rank[r].n; i++) {
            const ps_event *e = &t->rank[r].ev[i];
            if (e->kind == PS_EV_MARK || e->kind == PS_EV_SECTION || e->kind == PS_EV_COLLECTIVE || e->construct >= nc)
                continue; /* instants, and spans whose own events count already */
            double mid = 0.5 * (e->t0 + e->t1);
            size_t lo = 0, hi = nb; /* phase = number of bounds <= mid */
            while (lo < hi) {
                size_t m = (lo + hi) / 2;
                if (bounds[m] <= mid) lo = m + 1;
                else hi = m;
            }
            size_t k = lo * (size_t)nc + e->construct;
            tm[k] += e->t1 - e->t0;
            if (e->kind == PS_EV_SEND) {
                nmsg[k]++;
                if (e->bytes < bmin[k]) bmin[k] = e->bytes;
                if (e->bytes > bmax[k]) bmax[k] = e->bytes;
            }
        }
    }
    for (size_t p = 0; p < nph; p++) {
        double a = p == 0 ? g->t0 : bounds[p - 1], b = p == nb ? g->t0 + g->span : bounds[p];
        double xa = gx(g, a), xb = gx(g, b);
        if (xb - xa < 36) continue;
        int best = -1;
        for (int c = 0; c < nc; c++)
            if (label_worthy(t, c) && tm[p * nc + c] > 0 && (best < 0 || tm[p * nc + c] > tm[p * nc + best])) best = c;
        if (best < 0) continue;
        size_t k = p * (size_t)nc + best;
        char label[160], sz[32];
        if (nmsg[k] && bmin[k] == bmax[k]) {
            ps_fmt_bytes(sz, sizeof sz, (double)bmin[k]);
            snprintf(label, sizeof label, "%s %s", construct_name(t, best), sz);
        } else if (nmsg[k]) {
            char s2[32];
            ps_fmt_bytes(sz, sizeof sz, (double)bmin[k]);
            ps_fmt_bytes(s2, sizeof s2, (double)bmax[k]);
            snprintf(label, sizeof label, "%s %s-%s", construct_name(t, best), sz, s2);
        } else {
            snprintf(label, sizeof label, "%s", construct_name(t, best));
        }
        size_t fit = (size_t)((xb - xa) / 6.2);
        if (strlen(label) > fit) {
            snprintf(label, sizeof label, "%s", construct_name(t, best));
            if (strlen(label) > fit) label[fit > 1 ? fit - 1 : 1] = 0;
        }
        ps_svg_text(f, 0.5 * (xa + xb), g->top - 6, "middle", 11, "#222", 0, "%s", label);
    }
    free(tm);
    free(bmin);
    free(bmax);
    free(nmsg);
}

/* ---- the picture ---------------------------------------------------------- */

void ps_diagram_svg(FILE *f, const ps_trace *t, const ps_timeline *tl, const ps_diagram_opts *o,
                    ps_diagram_info *info)
{
    ps_diagram_opts d = {0};
    if (o) d = *o;
    if (d.width <= 0) d.width = PS_DIAGRAM_WIDTH;
    if (d.max_arrows == 0) d.max_arrows = PS_DIAGRAM_MAX_ARROWS;
    ps_diagram_info inf = {0};

    int P = t->nranks;
    geom g;
    g.left = 64;
    g.top = 44;
    g.pw = floor(d.width - g.left - 24);
    g.lane = 560.0 / P;
    if (g.lane > 26) g.lane = 26;
    if (g.lane < 4) g.lane = 4;
    int zoom = d.to > d.from;
    g.t0 = zoom ? d.from : tl->t0;
    g.span = zoom ? d.to - d.from : tl->t1 - tl->t0;
    if (!(g.span > 0)) g.span = 1e-9;
    inf.messages = zoom ? messages_in(&g, t, &tl->match) : tl->match.nmessages;
    double ph = g.lane * P;
    double H = g.top + ph + 70;
    int uid = ps_svg_uid();

    ps_svg_begin(f, d.width, H, d.title ? d.title : "space-time diagram");
    fprintf(f, "<defs><marker id=\"ps-arrow-%d\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"5\" "
               "markerHeight=\"5\" orient=\"auto\" markerUnits=\"strokeWidth\"><path d=\"M0,0L10,5L0,10z\" "
               "fill=\"%s\"/></marker></defs>\n",
            uid, PS_COLOR_MESSAGE);

    /* time axis and grid */
    double scale;
    const char *unit;
    ps_svg_time_unit(g.span, &scale, &unit);
    double ticks[32];
    int nt = ps_svg_ticks(0, g.span / scale, 10, ticks, 32);
    double step = nt > 1 ? ticks[1] - ticks[0] : 1;
    fputs("<g class=\"axis\">\n", f);
    for (int i = 0; i < nt; i++) {
        double x = gx(&g, g.t0 + ticks[i] * scale);
        char lab[32];
        ps_svg_fmt_tick(lab, sizeof lab, ticks[i], step);
        ps_svg_line(f, x, g.top, x, g.top + ph + 4, "#e2e2e2", 1, NULL);
        ps_svg_text(f, x, g.top + ph + 17, "middle", 11, "#333", 0, "%s", lab);
    }
    if (zoom) {
        char off[32];
        ps_html_fmt_time(off, sizeof off, g.t0 - tl->t0);
        ps_svg_text(f, g.left + g.pw / 2, g.top + ph + 34, "middle", 12, "#222", 0, "time since %s after the start (%s)",
                    off, unit);
    } else {
        ps_svg_text(f, g.left + g.pw / 2, g.top + ph + 34, "middle", 12, "#222", 0, "time since start (%s)", unit);
    }
    fputs("</g>\n", f);

    /* lanes */
    int every = (int)ceil(12.0 / g.lane); /* rank labels at least 12 px apart, none below 10 px */
    double bar = g.lane > 6 ? g.lane * 0.72 : g.lane;
    fputs("<g class=\"lanes\">\n", f);
    for (int r = 0; r < P; r++) {
        double y = gy(&g, r) + (g.lane - bar) / 2;
        if (ps_svg_show_label(r, P, every))
            ps_svg_text(f, g.left - 6, gy(&g, r) + g.lane / 2 + 4, "end", g.lane < 12 ? 10 : 11, "#333", 0, "%d", r);
        if (tl->nseg[r] == 0) continue;
        const double *tot = &tl->total[(size_t)r * PS_ACT__COUNT];
        double all = tot[0] + tot[1] + tot[2];
        char tip[160];
        snprintf(tip, sizeof tip, "rank %d: busy %.1f%%, overhead %.1f%%, idle %.1f%%", r,
                 all > 0 ? 100 * tot[0] / all : 0, all > 0 ? 100 * tot[1] / all : 0, all > 0 ? 100 * tot[2] / all : 0);
        ps_svg_rect(f, g.left, y, g.pw, bar, PS_COLOR_BUSY, tip);
        size_t nvis = 0;
        for (size_t i = 0; i < tl->nseg[r] && nvis <= (size_t)g.pw; i++)
            nvis += !outside(&g, tl->seg[r][i].t0, tl->seg[r][i].t1);
        if (nvis > (size_t)g.pw) {
            lane_binned(f, &g, tl, r, y, bar);
            inf.binned_ranks++;
        } else {
            lane_exact(f, &g, tl, r, y, bar);
        }
    }
    fputs("</g>\n", f);

    /* sync lines: the k-th VISIBLE_SYNC of each rank joined across the lanes */
    double *sync;
    size_t nsync = find_syncs(t, &sync);
    double *bounds = nsync ? ps_xmalloc(nsync * sizeof *bounds) : NULL;
    if (nsync) {
        fprintf(f, "<g class=\"syncs\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\">\n", PS_COLOR_SYNC);
        for (size_t k = 0; k < nsync; k++) {
            fputs("<polyline class=\"sync\" points=\"", f);
            double mx = -INFINITY;
            for (int r = 0; r < P; r++) {
                double x = gx(&g, sync[k * P + r]);
                if (sync[k * P + r] > mx) mx = sync[k * P + r];
                ps_svg_num(f, x);
                fputc(',', f);
                ps_svg_num(f, gy(&g, r));
                fputc(' ', f);
                ps_svg_num(f, x);
                fputc(',', f);
                ps_svg_num(f, gy(&g, r) + g.lane);
                fputc(r + 1 < P ? ' ' : '"', f);
            }
            fprintf(f, "><title>VISIBLE_SYNC %zu</title></polyline>\n", k + 1);
            bounds[k] = mx;
        }
        fputs("</g>\n", f);
        double last_label = -1e9;
        for (size_t k = 0; k < nsync; k++) {
            double x = gx(&g, sync[k * P]);
            if (x - last_label < 46 || outside(&g, sync[k * P], sync[k * P])) continue; /* no overlapping labels */
            ps_svg_text(f, x, g.top - 22, "middle", 10, PS_COLOR_SYNC, 0, "sync %zu", k + 1);
            last_label = x;
        }
        for (size_t k = 1; k < nsync; k++) /* bounds must be sorted for the phase search */
            if (bounds[k] < bounds[k - 1]) bounds[k] = bounds[k - 1];
    }
    label_phases(f, &g, t, bounds, nsync);
    free(bounds);
    free(sync);
    inf.syncs = nsync;

    /* messages on top */
    inf.arrows = draw_messages(f, &g, t, tl, d.max_arrows, uid, inf.messages);

    /* legend and caption */
    static const char *const colors[] = {PS_COLOR_BUSY, PS_COLOR_OVERHEAD, PS_COLOR_IDLE, PS_COLOR_MESSAGE,
                                         PS_COLOR_SYNC};
    static const char *const names[] = {"busy", "overhead", "idle", "message", "VISIBLE_SYNC"};
    double lw = ps_svg_legend(f, g.left, H - 10, 5, colors, names);
    char cap[200];
    int n = snprintf(cap, sizeof cap, "%d rank%s, %zu message%s", P, P == 1 ? "" : "s", inf.messages,
                     inf.messages == 1 ? "" : "s");
    if (inf.arrows != inf.messages && inf.messages)
        n += snprintf(cap + n, sizeof cap - (size_t)n, " drawn as %zu arrows", inf.arrows);
    if (inf.binned_ranks) snprintf(cap + n, sizeof cap - (size_t)n, "; lanes show each pixel column's shares");
    ps_svg_text(f, g.left + lw + 20, H - 10, "start", 11, "#555", 0, "%s", cap);
    ps_svg_text(f, 14, g.top + ph / 2, "middle", 12, "#222", -90, "rank");
    ps_svg_end(f);
    if (info) *info = inf;
}
