/* ca.c - the CLUE cellular automaton (see ca.h). */

/* The kernel is the benchmark: it is compiled optimized even in Debug
 * builds, so the figures it produces do not depend on the build type. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include "workloads/ca.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* x86-64: also build the row kernels for AVX2 / AVX-512 and pick at load
 * time, so a generic binary still reaches the memory-bandwidth bound. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(PS_NO_TARGET_CLONES)
#define PS_CA_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PS_CA_CLONES
#endif

const ps_ca_variation ps_ca_variations[] = {
    {"base", PS_CA_FLOAT, PS_CA_MOORE, 0, 0, 0, "single-precision float, Moore neighbourhood, whole border rows", 0},
    {"int", PS_CA_INT, PS_CA_MOORE, 0, 0, 0, "32-bit integer cells, the float's width: only the arithmetic changes", 0},
    {"double", PS_CA_DOUBLE, PS_CA_MOORE, 0, 0, 0, "double-precision cells: twice the bytes computed and sent", 0},
    {"rearrange", PS_CA_FLOAT, PS_CA_MOORE, 1, 0, 0, "each rank's X x Y grid as 2X x Y/2: same memory, twice the border", 0},
    {"nodeorder", PS_CA_FLOAT, PS_CA_MOORE, 0, 1, 0, "ranks placed at a random permutation of the ring positions", 0},
    {"vonneumann", PS_CA_FLOAT, PS_CA_VONNEUMANN, 0, 0, 0, "4-neighbour (von Neumann) stencil", 0},
    {"scatter", PS_CA_FLOAT, PS_CA_SCATTER, 0, 0, 0, "8 random non-adjacent neighbours per cell (memory hierarchy)", 0},
    {"cellwise", PS_CA_FLOAT, PS_CA_MOORE, 0, 0, 1, "borders sent one cell per message (network stack)", 0},
    /* not in the default set: against int it changes the width alone */
    {"long", PS_CA_LONG, PS_CA_MOORE, 0, 0, 0, "64-bit integer cells: twice int's bytes, the same arithmetic", 1},
    {NULL, 0, 0, 0, 0, 0, NULL, 0}};

const ps_ca_variation *ps_ca_variation_find(const char *name)
{
    if (!name) return NULL;
    for (const ps_ca_variation *v = ps_ca_variations; v->name; v++)
        if (!strcmp(v->name, name)) return v;
    return NULL;
}

size_t ps_ca_cell_bytes(ps_ca_type t)
{
    switch (t) {
    case PS_CA_FLOAT: return sizeof(float);
    case PS_CA_INT: return sizeof(int32_t);
    case PS_CA_DOUBLE: return sizeof(double);
    case PS_CA_LONG: return sizeof(int64_t);
    }
    return 0;
}

const char *ps_ca_type_name(ps_ca_type t)
{
    switch (t) {
    case PS_CA_FLOAT: return "float";
    case PS_CA_INT: return "int32";
    case PS_CA_DOUBLE: return "double";
    case PS_CA_LONG: return "int64";
    }
    return "?";
}

int ps_ca_neighbours(ps_ca_hood h) { return h == PS_CA_VONNEUMANN ? 4 : 8; }

double ps_ca_ops_per_cell(const ps_ca_grid *g) { return (double)ps_ca_neighbours(g->hood); }

/* splitmix64: the cell value is a hash of its global position, so any
 * decomposition starts from the same grid. */
static inline uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void fill_row(ps_ca_grid *g, long r, uint64_t seed)
{
    uint64_t base = mix64(seed ^ mix64((uint64_t)(g->row0 + r - 1)));
    void *row = ps_ca_row(g, r);
    for (long x = 0; x < g->w; x++) {
        uint64_t z = mix64(base + (uint64_t)x);
        switch (g->type) {
        case PS_CA_FLOAT: ((float *)row)[x] = (float)(z >> 40) * (1.0f / 16777216.0f); break;
        case PS_CA_DOUBLE: ((double *)row)[x] = (double)(z >> 11) * (1.0 / 9007199254740992.0); break;
        /* [0, 2^20): sums of 8 never overflow, and int and long start alike */
        case PS_CA_INT: ((int32_t *)row)[x] = (int32_t)(z >> 44); break;
        case PS_CA_LONG: ((int64_t *)row)[x] = (int64_t)(z >> 44); break;
        }
    }
}

/* Column table of the scatter neighbourhood: 3 neighbours in the row above,
 * 2 in the own row, 3 below, each at a random column 2 .. w/2 away (never
 * adjacent), the same for every row so any decomposition computes alike. */
static const int scatter_dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

static void fill_scatter(ps_ca_grid *g, uint64_t seed)
{
    uint64_t s = mix64(seed ^ 0x5ca77e4ULL);
    long span = g->w / 2 - 1; /* dx in [2, w/2] */
    for (int k = 0; k < 8; k++)
        for (long x = 0; x < g->w; x++) {
            s = mix64(s);
            long dx = 2 + (long)(s % (uint64_t)span);
            if (s >> 63) dx = -dx;
            g->scatter[(size_t)k * (size_t)g->w + (size_t)x] = (int32_t)(((x + dx) % g->w + g->w) % g->w);
        }
}

int ps_ca_init(ps_ca_grid *g, ps_ca_type type, ps_ca_hood hood, long w, long h, long row0, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    if (w < 6 || h < 1 || row0 < 0) return -1;
    g->type = type;
    g->hood = hood;
    g->w = w;
    g->h = h;
    g->row0 = row0;
    g->cell = ps_ca_cell_bytes(type);
    size_t bytes = (size_t)(h + 2) * (size_t)w * g->cell;
    /* 64-byte alignment keeps rows on cache lines for the vector loops */
    size_t rounded = (bytes + 63) & ~(size_t)63;
    g->cur = aligned_alloc(64, rounded);
    g->next = aligned_alloc(64, rounded);
    if (hood == PS_CA_SCATTER) g->scatter = malloc(sizeof(int32_t) * 8 * (size_t)w);
    if (!g->cur || !g->next || (hood == PS_CA_SCATTER && !g->scatter)) {
        ps_ca_free(g);
        return -1;
    }
    /* first touch of the next buffer now, not inside the timed steps */
    memset(g->next, 0, rounded);
    memset(g->cur, 0, (size_t)w * g->cell);
    memset(g->cur + (size_t)(h + 1) * (size_t)w * g->cell, 0, (size_t)w * g->cell);
    for (long r = 1; r <= h; r++) fill_row(g, r, seed);
    if (g->scatter) fill_scatter(g, seed);
    return 0;
}

void ps_ca_free(ps_ca_grid *g)
{
    free(g->cur);
    free(g->next);
    free(g->scatter);
    memset(g, 0, sizeof *g);
}

void ps_ca_wrap_local(ps_ca_grid *g)
{
    size_t rb = ps_ca_row_bytes(g);
    memcpy(ps_ca_row(g, 0), ps_ca_row(g, g->h), rb);
    memcpy(ps_ca_row(g, g->h + 1), ps_ca_row(g, 1), rb);
}

void ps_ca_swap(ps_ca_grid *g)
{
    unsigned char *t = g->cur;
    g->cur = g->next;
    g->next = t;
}

/* The rule, formula (14): the sum in a fixed order, then divided in the
 * cell's own type.  The same expression serves the wrapped edge columns and
 * the vectorized interior, so every cell is computed alike. */
#define MOORE(T, u, c, d, l, x, r)                                                              \
    (T)((T)(u[l] + u[x] + u[r] + c[l] + c[r] + d[l] + d[x] + d[r]) / (T)8)
#define VONNEUMANN(T, u, c, d, l, x, r) (T)((T)(u[x] + c[l] + c[r] + d[x]) / (T)4)

#define DEFINE_ROWS(T)                                                                              \
    PS_CA_CLONES static void moore_row_##T(T *restrict o, const T *restrict u, const T *restrict c,   \
                                           const T *restrict d, long w)                             \
    {                                                                                               \
        o[0] = MOORE(T, u, c, d, w - 1, 0, 1);                                                      \
        for (long x = 1; x < w - 1; x++) o[x] = MOORE(T, u, c, d, x - 1, x, x + 1);                 \
        o[w - 1] = MOORE(T, u, c, d, w - 2, w - 1, 0);                                              \
    }                                                                                               \
    PS_CA_CLONES static void vonneumann_row_##T(T *restrict o, const T *restrict u,                   \
                                                const T *restrict c, const T *restrict d, long w)   \
    {                                                                                               \
        o[0] = VONNEUMANN(T, u, c, d, w - 1, 0, 1);                                                 \
        for (long x = 1; x < w - 1; x++) o[x] = VONNEUMANN(T, u, c, d, x - 1, x, x + 1);            \
        o[w - 1] = VONNEUMANN(T, u, c, d, w - 2, w - 1, 0);                                         \
    }                                                                                               \
    static void scatter_row_##T(T *restrict o, const T *restrict u, const T *restrict c,              \
                                const T *restrict d, long w, const int32_t *restrict s)            \
    {                                                                                               \
        const T *rows[8] = {u, u, u, c, c, d, d, d};                                                \
        (void)scatter_dy;                                                                           \
        for (long x = 0; x < w; x++) {                                                              \
            T sum = rows[0][s[x]];                                                                  \
            for (int k = 1; k < 8; k++) sum = (T)(sum + rows[k][s[(size_t)k * (size_t)w + (size_t)x]]); \
            o[x] = (T)(sum / (T)8);                                                                 \
        }                                                                                           \
    }

DEFINE_ROWS(float)
DEFINE_ROWS(double)
DEFINE_ROWS(int32_t)
DEFINE_ROWS(int64_t)

#define STEP(T)                                                                                     \
    for (long r = r0; r <= r1; r++) {                                                               \
        T *o = (T *)(g->next + (size_t)r * rb);                                                     \
        const T *u = (const T *)ps_ca_row(g, r - 1), *c = (const T *)ps_ca_row(g, r),               \
                *d = (const T *)ps_ca_row(g, r + 1);                                                \
        switch (g->hood) {                                                                          \
        case PS_CA_MOORE: moore_row_##T(o, u, c, d, g->w); break;                                   \
        case PS_CA_VONNEUMANN: vonneumann_row_##T(o, u, c, d, g->w); break;                         \
        case PS_CA_SCATTER: scatter_row_##T(o, u, c, d, g->w, g->scatter); break;                   \
        }                                                                                           \
    }

void ps_ca_step_rows(ps_ca_grid *g, long r0, long r1)
{
    size_t rb = ps_ca_row_bytes(g);
    switch (g->type) {
    case PS_CA_FLOAT: STEP(float) break;
    case PS_CA_DOUBLE: STEP(double) break;
    case PS_CA_INT: STEP(int32_t) break;
    case PS_CA_LONG: STEP(int64_t) break;
    }
}

long ps_ca_events_per_iteration(const ps_ca_variation *v, long w)
{
    if (v && v->rearrange) w *= 2;
    if (v && v->cellwise) return 8 * w + 4 * (w / PS_CA_CELLWISE_CHUNK + 1) + 8;
    return 16;
}

void ps_ca_permutation(int nranks, uint64_t seed, int *pos)
{
    for (int i = 0; i < nranks; i++) pos[i] = i;
    uint64_t s = mix64(seed ^ 0x0dde7ULL);
    for (int i = nranks - 1; i > 0; i--) {
        s = mix64(s);
        int j = (int)(s % (uint64_t)(i + 1));
        int t = pos[i];
        pos[i] = pos[j];
        pos[j] = t;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double ps_ca_time_serial(ps_ca_type type, ps_ca_hood hood, long w, long h, long steps, uint64_t seed)
{
    ps_ca_grid g;
    if (ps_ca_init(&g, type, hood, w, h, 0, seed) != 0 || steps < 1) return 0.0;
    double t0 = now();
    for (long i = 0; i < steps; i++) {
        ps_ca_wrap_local(&g);
        ps_ca_step_rows(&g, 1, g.h);
        ps_ca_swap(&g);
    }
    double t = now() - t0;
    ps_ca_free(&g);
    return t > 0 ? (double)w * (double)h * (double)steps / t : 0.0;
}

PS_CA_CLONES static void copy_doubles(double *restrict b, const double *restrict a, size_t n)
{
    for (size_t i = 0; i < n; i++) b[i] = a[i];
}

double ps_ca_stream_copy(size_t bytes, int reps)
{
    size_t n = bytes / sizeof(double);
    if (n < 1024) n = 1024;
    double *a = aligned_alloc(64, n * sizeof(double)), *b = aligned_alloc(64, n * sizeof(double));
    if (!a || !b) {
        free(a);
        free(b);
        return 0.0;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = (double)i;
        b[i] = 0.0;
    }
    double best = 0;
    for (int k = 0; k < (reps > 0 ? reps : 1); k++) {
        double t0 = now();
        copy_doubles(b, a, n);
        double t = now() - t0;
        if (k == 0 || t < best) best = t;
        a[k % n] += b[(k * 7) % n]; /* keep the copies observable */
    }
    free(a);
    free(b);
    return best > 0 ? 2.0 * (double)n * sizeof(double) / best : 0.0;
}
