/*
 * clue.c - the `clue` built-in workload: the CLUE cellular automaton
 * (seed chapter 3, Figure 3.5) on the parscope runtime.
 *
 * The ranks hold consecutive row blocks of one 2-D torus, stacked in ring
 * order of their positions (rank order, or a random permutation for the
 * nodeorder variation).  At the start of every iteration each rank trades
 * its first and last row with the ranks above and below (whole rows, kept
 * as ghost rows; one cell per message for cellwise), then sweeps its block.
 * Weak scaling (default): every rank holds a WxH block.  --strong: the
 * WxH grid is split by rows.
 *
 * Only the runtime API (parscope.h) and the pure automaton (ca.h) are used.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"
#include "workloads/ca.h"

#define TAG_DOWNWARD 1  /* a rank's last row, travelling to the rank below */
#define TAG_UPWARD   2  /* a rank's first row, travelling to the rank above */
#define TAG_DUMP     3
#define CELLWISE_CHUNK PS_CA_CELLWISE_CHUNK
#define TRACE_EVENTS_MAX (2L << 20)  /* 80 MiB of events per rank at most */

int ps_workload_clue_main(int argc, char **argv);

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clue [-i ITERS] [-s N] [--grid WxH] [--variation NAME] [--seed N] [--strong]\n"
            "            [--order-seed N | --perm LIST] [--dump FILE] [--verify]\n"
            "The CLUE cellular automaton: each cell becomes the mean of its neighbours on a torus.\n"
            "  --grid WxH       cells per rank (weak scaling; default -s N gives NxN, N = 1024);\n"
            "                   recorded as params.grid WxH, params.size = cells per rank\n"
            "  --strong         WxH is the whole grid, split by rows over the ranks\n"
            "  --variation V    base int double rearrange nodeorder vonneumann scatter cellwise\n"
            "  --seed N         initial grid (a function of seed and cell position)\n"
            "  --order-seed N   nodeorder: ranks at a random permutation of the ring (default seed)\n"
            "  --perm LIST      nodeorder: position of each rank, e.g. 2,0,3,1\n"
            "  --dump FILE      write the final grid (header line + raw cells, row order)\n"
            "  --verify         compare the final grid with a serial run on rank 0\n");
}

static int parse_long(const char *s, long *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || *end) return -1;
    *v = x;
    return 0;
}

/* Trades the border rows.  up / down: ranks above and below in the ring. */
static void exchange(ps_ca_grid *g, int up, int down, int cellwise, int construct)
{
    size_t rb = ps_ca_row_bytes(g);
    unsigned char *top = ps_ca_row(g, 0), *first = ps_ca_row(g, 1);
    unsigned char *last = ps_ca_row(g, g->h), *bottom = ps_ca_row(g, g->h + 1);
    if (!cellwise) {
        ps_irecv(top, rb, up, TAG_DOWNWARD, construct);
        ps_irecv(bottom, rb, down, TAG_UPWARD, construct);
        ps_isend(first, rb, up, TAG_UPWARD, construct);
        ps_isend(last, rb, down, TAG_DOWNWARD, construct);
        ps_waitall();
        return;
    }
    /* one cell per message, a chunk at a time (MPI's non-overtaking order
     * matches them) so the request table never fills */
    for (long x0 = 0; x0 < g->w; x0 += CELLWISE_CHUNK) {
        long x1 = x0 + CELLWISE_CHUNK < g->w ? x0 + CELLWISE_CHUNK : g->w;
        for (long x = x0; x < x1; x++) {
            ps_irecv(top + (size_t)x * g->cell, g->cell, up, TAG_DOWNWARD, construct);
            ps_irecv(bottom + (size_t)x * g->cell, g->cell, down, TAG_UPWARD, construct);
        }
        for (long x = x0; x < x1; x++) {
            ps_isend(first + (size_t)x * g->cell, g->cell, up, TAG_UPWARD, construct);
            ps_isend(last + (size_t)x * g->cell, g->cell, down, TAG_DOWNWARD, construct);
        }
        ps_waitall();
    }
}

/* Rank 0 collects the global grid in position order (NULL elsewhere). */
static unsigned char *gather(ps_ca_grid *g, const int *rank_at, int P, const long *rows_of, int construct)
{
    int me = ps_rank();
    size_t rb = ps_ca_row_bytes(g);
    if (me != 0) {
        ps_send(ps_ca_row(g, 1), rb * (size_t)g->h, 0, TAG_DUMP, construct);
        return NULL;
    }
    size_t total = 0;
    for (int q = 0; q < P; q++) total += (size_t)rows_of[q];
    unsigned char *buf = malloc(rb * total), *at = buf;
    if (!buf) ps_abort("clue: out of memory for the whole grid (%zu rows)", total);
    for (int pos = 0; pos < P; pos++) {
        int r = rank_at[pos];
        size_t bytes = rb * (size_t)rows_of[pos];
        if (r == 0) memcpy(at, ps_ca_row(g, 1), bytes);
        else ps_recv(at, bytes, r, TAG_DUMP, construct);
        at += bytes;
    }
    return buf;
}

static int dump(const ps_ca_grid *g, const unsigned char *grid, const char *path, long gw, long gh)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "clue: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "clue-grid 1 %s %ld %ld\n", ps_ca_type_name(g->type), gw, gh);
    size_t bytes = ps_ca_row_bytes(g) * (size_t)gh;
    int rc = fwrite(grid, 1, bytes, f) == bytes ? 0 : -1;
    if (fclose(f) != 0) rc = -1;
    if (rc) fprintf(stderr, "clue: cannot write %s\n", path);
    return rc;
}

/* --verify: the same steps on one serial torus, compared bit for bit. */
static int verify(const ps_ca_grid *g, const unsigned char *grid, long gw, long gh, long iters, uint64_t seed)
{
    ps_ca_grid s;
    if (ps_ca_init(&s, g->type, g->hood, gw, gh, 0, seed) != 0) return 0;
    for (long i = 0; i < iters; i++) {
        ps_ca_wrap_local(&s);
        ps_ca_step_rows(&s, 1, s.h);
        ps_ca_swap(&s);
    }
    int ok = memcmp(ps_ca_row(&s, 1), grid, ps_ca_row_bytes(&s) * (size_t)gh) == 0;
    ps_ca_free(&s);
    return ok;
}

int ps_workload_clue_main(int argc, char **argv)
{
    ps_set_defaults(1024, 100);
    ps_set_args(&argc, &argv);
    const char *vname = "base", *dump_path = NULL, *perm_list = NULL;
    long gw = 0, gh = 0, seed = 1, order_seed = -1, kill_rank = -1, kill_at = 0;
    int strong = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--strong")) {
            strong = 1;
            continue;
        }
        if (!v) bad = 1;
        else if (!strcmp(a, "--variation")) vname = v;
        else if (!strcmp(a, "--grid")) {
            if (sscanf(v, "%ldx%ld", &gw, &gh) != 2 || gw < 6 || gh < 2) bad = 1;
        } else if (!strcmp(a, "--seed")) bad = parse_long(v, &seed) || seed < 0;
        else if (!strcmp(a, "--order-seed")) bad = parse_long(v, &order_seed) || order_seed < 0;
        else if (!strcmp(a, "--perm")) perm_list = v;
        else if (!strcmp(a, "--dump")) dump_path = v;
        else if (!strcmp(a, "--kill-rank")) bad = parse_long(v, &kill_rank);  /* failure tests */
        else if (!strcmp(a, "--kill-at")) bad = parse_long(v, &kill_at);
        else {
            fprintf(stderr, "clue: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "clue: bad or missing value for %s\n", a);
            return 2;
        }
        i++;
    }
    const ps_ca_variation *var = ps_ca_variation_find(vname);
    if (!var) {
        fprintf(stderr, "clue: unknown variation '%s'\n", vname);
        return 2;
    }
    if (gw == 0) gw = gh = ps_problem_size();
    if (gw < 6 || gh < 2) {
        fprintf(stderr, "clue: grid %ldx%ld too small (width >= 6, height >= 2)\n", gw, gh);
        return 2;
    }
    if (var->rearrange) {
        if (gh % 2) {
            fprintf(stderr, "clue: rearrange needs an even grid height (%ld)\n", gh);
            return 2;
        }
        gw *= 2; /* X x Y becomes 2X x Y/2 (seed 4.1) */
        gh /= 2;
    }
    long iters = ps_iterations();
    if (iters < 1) iters = 1;

    /* Trace capacity: the events one iteration records (posts, sends,
     * receives, waits, the sweep), with room, capped. */
    long per_iter = ps_ca_events_per_iteration(var, var->rearrange ? gw / 2 : gw);
    long cap = per_iter * iters + 4096;
    if (cap > TRACE_EVENTS_MAX) cap = TRACE_EVENTS_MAX;
    if (ps_init(cap) != 0) {
        fprintf(stderr, "clue: %s\n", ps_strerror());
        return 1;
    }
    int me = ps_rank(), P = ps_size();
    /* what is recorded as the problem: the grid computed (rearranged, it is
     * 2W x H/2), per rank or in all, not the -s size */
    ps_set_grid(gw, gh, !strong);
    int c_border = ps_construct("CLUE_BORDER"), c_sweep = ps_construct("CLUE_SWEEP"),
        c_dump = ps_construct("CLUE_DUMP");

    /* positions: pos_of[rank], rank_at[position] */
    int *pos_of = malloc(sizeof(int) * (size_t)P), *rank_at = malloc(sizeof(int) * (size_t)P);
    long *rows_of = malloc(sizeof(long) * (size_t)P);
    if (!pos_of || !rank_at || !rows_of) ps_abort("clue: out of memory");
    for (int r = 0; r < P; r++) pos_of[r] = r;
    if (perm_list) {
        const char *s = perm_list;
        int n = 0, seen_ok = 1;
        char *end;
        for (; n < P && *s; n++) {
            long v = strtol(s, &end, 10);
            if (end == s || v < 0 || v >= P) break;
            pos_of[n] = (int)v;
            s = *end == ',' ? end + 1 : end;
        }
        int *seen = calloc((size_t)P, sizeof(int));
        for (int r = 0; r < n && seen; r++) seen_ok &= !seen[pos_of[r]]++;
        free(seen);
        if (n != P || *s || !seen_ok) ps_bad_input("clue: --perm needs a permutation of 0..%d", P - 1);
    } else if (var->nodeorder) {
        ps_ca_permutation(P, (uint64_t)(order_seed >= 0 ? order_seed : seed), pos_of);
    }
    for (int r = 0; r < P; r++) rank_at[pos_of[r]] = r;
    int pos = pos_of[me];
    int up = rank_at[(pos - 1 + P) % P], down = rank_at[(pos + 1) % P];

    /* rows per position */
    long total_rows = strong ? gh : gh * P;
    for (int q = 0; q < P; q++) rows_of[q] = strong ? gh / P + (q < gh % P ? 1 : 0) : gh;
    long row0 = 0;
    for (int q = 0; q < pos; q++) row0 += rows_of[q];
    if (rows_of[pos] < 1) ps_bad_input("clue: %d ranks need at least %d grid rows (have %ld)", P, P, gh);

    ps_ca_grid g;
    if (ps_ca_init(&g, var->type, var->hood, gw, rows_of[pos], row0, (uint64_t)seed) != 0)
        ps_abort("clue: cannot allocate a %ldx%ld grid", gw, rows_of[pos]);
    double ops = ps_ca_ops_per_cell(&g) * (double)gw * (double)g.h;
    /* Timer.Start (seed Figure 3.5, line 3): the grid is generated, the
     * iterations and the process metrics are timed from here */
    ps_setup_end();

    for (long it = 0; it < iters; it++) {
        if (kill_rank == me && it >= kill_at) raise(SIGKILL);
        if (P == 1) ps_ca_wrap_local(&g);
        else exchange(&g, up, down, var->cellwise, c_border);
        double t0 = ps_now();
        ps_ca_step_rows(&g, 1, g.h);
        ps_compute(c_sweep, t0, ps_now(), ops);
        ps_ca_swap(&g);
    }
    int rc = 0;
    if (dump_path || ps_verify_requested()) {
        unsigned char *grid = gather(&g, rank_at, P, rows_of, c_dump);
        if (grid && dump_path) rc = dump(&g, grid, dump_path, gw, total_rows);
        if (ps_verify_requested())
            ps_verify_report(me != 0 || verify(&g, grid, gw, total_rows, iters, (uint64_t)seed),
                             "the grid equals the serial grid bit for bit");
        free(grid);
    }
    if (me == 0 && !rc)
        printf("clue: variation %s, %s cells, %ldx%ld per rank (%ld rows in all), %ld iterations, %d ranks\n",
               var->name, ps_ca_type_name(var->type), gw, rows_of[pos], total_rows, iters, P);
    ps_ca_free(&g);
    free(pos_of);
    free(rank_at);
    free(rows_of);
    ps_finalize();
    return rc ? 1 : 0;
}
