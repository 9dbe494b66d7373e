/* The CLUE automaton against an independent naive torus, and split over
 * "ranks" in one process against the serial grid (bit for bit). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/ca.h"

#include "check.h"

/* naive reference: whole torus as a plain array, modulo indexing */
static void naive_step(ps_ca_type t, ps_ca_hood hood, const void *in, void *out, long w, long h)
{
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++) {
            long l = (x + w - 1) % w, r = (x + 1) % w, u = (y + h - 1) % h, d = (y + 1) % h;
#define AT(T, yy, xx) (((const T *)in)[(yy) * w + (xx)])
#define RULE(T)                                                                                      \
    if (hood == PS_CA_MOORE)                                                                         \
        ((T *)out)[y * w + x] = (T)((T)(AT(T, u, l) + AT(T, u, x) + AT(T, u, r) + AT(T, y, l) +          \
                                       AT(T, y, r) + AT(T, d, l) + AT(T, d, x) + AT(T, d, r)) / (T)8); \
    else                                                                                             \
        ((T *)out)[y * w + x] = (T)((T)(AT(T, u, x) + AT(T, y, l) + AT(T, y, r) + AT(T, d, x)) / (T)4);
            if (t == PS_CA_FLOAT) { RULE(float) } else if (t == PS_CA_DOUBLE) { RULE(double) }
            else if (t == PS_CA_INT) { RULE(int32_t) } else { RULE(int64_t) }
        }
}

static void serial_grid(ps_ca_grid *g, long steps)
{
    for (long i = 0; i < steps; i++) {
        ps_ca_wrap_local(g);
        ps_ca_step_rows(g, 1, g->h);
        ps_ca_swap(g);
    }
}

static void naive(ps_ca_type t, ps_ca_hood hood)
{
    long w = 37, h = 9, steps = 5;
    ps_ca_grid g;
    CHECK(ps_ca_init(&g, t, hood, w, h, 0, 42) == 0, "init");
    size_t rb = ps_ca_row_bytes(&g);
    unsigned char *a = malloc(rb * h), *b = malloc(rb * h);
    memcpy(a, ps_ca_row(&g, 1), rb * h);
    for (long i = 0; i < steps; i++) {
        naive_step(t, hood, a, b, w, h);
        unsigned char *s = a; a = b; b = s;
    }
    serial_grid(&g, steps);
    CHECK(memcmp(a, ps_ca_row(&g, 1), rb * h) == 0, "%s hood %d: kernel differs from the naive torus",
          ps_ca_type_name(t), hood);
    free(a); free(b);
    ps_ca_free(&g);
}

/* hand-computed: int grid, values x + 10 y on a 6 x 4 torus */
TEST_IMPL(ca_hand)
{
    ps_ca_grid g;
    ps_ca_init(&g, PS_CA_INT, PS_CA_MOORE, 6, 4, 0, 1);
    for (long y = 1; y <= 4; y++) for (long x = 0; x < 6; x++) ((int32_t *)ps_ca_row(&g, y))[x] = (int32_t)(x + 10 * (y - 1));
    serial_grid(&g, 1);
    /* cell (1,1) = 11: neighbours 0,1,2,10,12,20,21,22 -> 88/8 = 11 */
    CHECK(((int32_t *)ps_ca_row(&g, 2))[1] == 11, "interior mean %d", ((int32_t *)ps_ca_row(&g, 2))[1]);
    /* cell (0,0): up row 30..: 35,30,31, own 5,1, down 15,10,11 -> 138/8 = 17 (truncated) */
    CHECK(((int32_t *)ps_ca_row(&g, 1))[0] == 17, "corner mean %d", ((int32_t *)ps_ca_row(&g, 1))[0]);
    ps_ca_free(&g);
    /* long: the same cells, twice the bytes */
    ps_ca_init(&g, PS_CA_LONG, PS_CA_MOORE, 6, 4, 0, 1);
    for (long y = 1; y <= 4; y++) for (long x = 0; x < 6; x++) ((int64_t *)ps_ca_row(&g, y))[x] = x + 10 * (y - 1);
    serial_grid(&g, 1);
    CHECK(((int64_t *)ps_ca_row(&g, 1))[0] == 17, "long corner mean %lld", (long long)((int64_t *)ps_ca_row(&g, 1))[0]);
    ps_ca_free(&g);
    ps_ca_init(&g, PS_CA_FLOAT, PS_CA_VONNEUMANN, 6, 4, 0, 1);
    for (long y = 1; y <= 4; y++) for (long x = 0; x < 6; x++) ((float *)ps_ca_row(&g, y))[x] = (float)(x + 10 * (y - 1));
    serial_grid(&g, 1);
    /* (5,3) = 35: up 25, left 34, right 30, down 5 -> 94/4 = 23.5 */
    CHECK(((float *)ps_ca_row(&g, 4))[5] == 23.5f, "von Neumann corner %g", ((float *)ps_ca_row(&g, 4))[5]);
    ps_ca_free(&g);
}

/* P blocks stacked on a torus, ghost rows copied as the exchange does */
static void split(ps_ca_type t, ps_ca_hood hood, int P)
{
    long w = 40, h = 5, steps = 7;
    ps_ca_grid s, b[8];
    ps_ca_init(&s, t, hood, w, h * P, 0, 9);
    for (int q = 0; q < P; q++) ps_ca_init(&b[q], t, hood, w, h, (long)q * h, 9);
    size_t rb = ps_ca_row_bytes(&s);
    for (long i = 0; i < steps; i++) {
        for (int q = 0; q < P; q++) {
            memcpy(ps_ca_row(&b[q], 0), ps_ca_row(&b[(q + P - 1) % P], h), rb);
            memcpy(ps_ca_row(&b[q], h + 1), ps_ca_row(&b[(q + 1) % P], 1), rb);
        }
        for (int q = 0; q < P; q++) { ps_ca_step_rows(&b[q], 1, h); }
        for (int q = 0; q < P; q++) ps_ca_swap(&b[q]);
    }
    serial_grid(&s, steps);
    for (int q = 0; q < P; q++)
        CHECK(memcmp(ps_ca_row(&b[q], 1), ps_ca_row(&s, 1 + q * h), rb * h) == 0,
              "%s hood %d P=%d block %d differs from the serial grid", ps_ca_type_name(t), hood, P, q);
    for (int q = 0; q < P; q++) ps_ca_free(&b[q]);
    ps_ca_free(&s);
}

TEST_IMPL(ca_scatter_table)
{
    ps_ca_grid g;
    ps_ca_init(&g, PS_CA_FLOAT, PS_CA_SCATTER, 50, 3, 0, 5);
    int adjacent = 0, distinct = 0;
    for (int k = 0; k < 8; k++)
        for (long x = 0; x < 50; x++) {
            long c = g.scatter[k * 50 + x];
            long d = labs(c - x); if (d > 25) d = 50 - d;
            adjacent += d < 2;
            distinct += c != (x + 2) % 50;
        }
    CHECK(adjacent == 0, "%d scatter neighbours adjacent or self", adjacent);
    CHECK(distinct > 300, "scatter table not random (%d)", distinct);
    ps_ca_free(&g);
}

TEST_IMPL(ca_permutation)
{
    int a[16], b[16], seen[16] = {0}, moved = 0;
    ps_ca_permutation(16, 3, a);
    ps_ca_permutation(16, 3, b);
    for (int i = 0; i < 16; i++) { seen[a[i]]++; moved += a[i] != i; }
    for (int i = 0; i < 16; i++) CHECK(seen[i] == 1 && a[i] == b[i], "not a reproducible permutation");
    CHECK(moved > 0, "identity permutation");
}

TEST_IMPL(ca_variations)
{
    const char *names[] = {"base", "int", "double", "rearrange", "nodeorder", "vonneumann", "scatter", "cellwise", "long"};
    for (int i = 0; i < 9; i++) CHECK(ps_ca_variation_find(names[i]) != NULL, "variation %s missing", names[i]);
    CHECK(ps_ca_variation_find("nope") == NULL, "unknown variation found");
    /* int changes the arithmetic only: the same width as base's float; long
     * and double are twice that */
    const ps_ca_variation *base = ps_ca_variation_find("base"), *in = ps_ca_variation_find("int");
    CHECK(ps_ca_cell_bytes(in->type) == ps_ca_cell_bytes(base->type) && ps_ca_cell_bytes(in->type) == 4,
          "int cell %zu bytes against float %zu", ps_ca_cell_bytes(in->type), ps_ca_cell_bytes(base->type));
    CHECK(ps_ca_cell_bytes(ps_ca_variation_find("long")->type) == 8 && ps_ca_cell_bytes(PS_CA_DOUBLE) == 8, "8-byte");
    CHECK(ps_ca_variation_find("long")->extra && !in->extra, "long is asked for by name only");
    CHECK(ps_ca_stream_copy(1 << 20, 3) > 1e8, "stream copy implausibly slow");
    CHECK(ps_ca_time_serial(PS_CA_FLOAT, PS_CA_MOORE, 64, 64, 2, 1) > 1e5, "timing run implausibly slow");
}

static const ps_ca_type types[] = {PS_CA_FLOAT, PS_CA_INT, PS_CA_DOUBLE, PS_CA_LONG};

/* every cell type and neighbourhood against the naive torus */
TEST_IMPL(ca_naive)
{
    for (int t = 0; t < 4; t++) {
        naive(types[t], PS_CA_MOORE);
        naive(types[t], PS_CA_VONNEUMANN);
    }
}

/* every cell type and neighbourhood split over 1 to 4 blocks */
TEST_IMPL(ca_split)
{
    for (int t = 0; t < 4; t++)
        for (int P = 1; P <= 4; P++) {
            split(types[t], PS_CA_MOORE, P);
            split(types[t], PS_CA_SCATTER, P);
            split(types[t], PS_CA_VONNEUMANN, P);
        }
}
