/*
 * ca.h - the CLUE cellular automaton: grid, rule and variations.
 *
 * The automaton of the CLUE seed (chapter 3): a 2-D torus of cells, each
 * step "cell := mean of its neighbours" computed in the cell's own type
 * (formula (14)).  A rank holds h consecutive rows of the global torus plus
 * one ghost row above and one below, filled by the border exchange (the
 * driver in clue.c) or, on one rank, from its own opposite rows.
 *
 * This module is pure computation (no MPI, no runtime) so the serial
 * reference, the timing run of the automatic parameters and the unit tests
 * use exactly the code the parallel kernel runs.  The initial grid is a
 * function of (seed, global row, column) only, so a grid split over any
 * number of ranks starts, and after N steps ends, bit for bit equal to the
 * serial one.
 */
#ifndef PS_SCALE_CA_H
#define PS_SCALE_CA_H

#include <stddef.h>
#include <stdint.h>

/* float and int are 4 bytes (the base line's width), double and long 8 */
typedef enum ps_ca_type { PS_CA_FLOAT, PS_CA_INT, PS_CA_DOUBLE, PS_CA_LONG } ps_ca_type;
typedef enum ps_ca_hood { PS_CA_MOORE, PS_CA_VONNEUMANN, PS_CA_SCATTER } ps_ca_hood;

/* A CLUE variation: one change against the base line (seed 2.5, 4.1, 5.2.2). */
typedef struct ps_ca_variation {
    const char *name;
    ps_ca_type  type;
    ps_ca_hood  hood;
    int         rearrange;  /* each rank's X x Y grid as 2X x Y/2 */
    int         nodeorder;  /* ranks at a random permutation of the positions */
    int         cellwise;   /* borders sent one cell per message */
    const char *what;       /* one line for reports */
    int         extra;      /* 1: only when asked for by name (or "all"), not in the default set */
} ps_ca_variation;

/* base, int, double, rearrange, nodeorder, vonneumann, scatter, cellwise
 * (the default set), long; terminated by a NULL name. */
extern const ps_ca_variation ps_ca_variations[];
const ps_ca_variation *ps_ca_variation_find(const char *name);

size_t      ps_ca_cell_bytes(ps_ca_type t);
const char *ps_ca_type_name(ps_ca_type t);
int         ps_ca_neighbours(ps_ca_hood h);

typedef struct ps_ca_grid {
    ps_ca_type type;
    ps_ca_hood hood;
    long       w, h;      /* row width (cells) and own rows */
    long       row0;      /* global index of own row 1 */
    size_t     cell;      /* bytes per cell */
    unsigned char *cur, *next;  /* (h + 2) rows each: 0 and h+1 are ghost rows */
    int32_t   *scatter;   /* 8 * w neighbour columns (PS_CA_SCATTER only) */
} ps_ca_grid;

/* Allocates the two buffers; fills own rows from (seed, row0 + r, x).
 * Needs w >= 6 (scatter: non-adjacent columns) and h >= 1.  0, or -1 on
 * bad sizes / out of memory. */
int  ps_ca_init(ps_ca_grid *g, ps_ca_type type, ps_ca_hood hood, long w, long h, long row0,
                uint64_t seed);
void ps_ca_free(ps_ca_grid *g);

/* Row r (0 .. h+1) of the current generation. */
static inline void *ps_ca_row(const ps_ca_grid *g, long r)
{ return g->cur + (size_t)r * (size_t)g->w * g->cell; }
static inline size_t ps_ca_row_bytes(const ps_ca_grid *g) { return (size_t)g->w * g->cell; }

/* One rank owns the whole torus height: ghost rows are its own last / first row. */
void ps_ca_wrap_local(ps_ca_grid *g);
/* Computes own rows r0..r1 (1-based, inclusive) of the next generation from
 * the current one (ghost rows must be filled). */
void ps_ca_step_rows(ps_ca_grid *g, long r0, long r1);
/* The next generation becomes the current one. */
void ps_ca_swap(ps_ca_grid *g);

/* Operations per cell update counted as flops: neighbours - 1 additions and
 * one division. */
double ps_ca_ops_per_cell(const ps_ca_grid *g);

/* Trace events one iteration of the clue kernel records per rank (posts,
 * sends, receives, waits and the sweep), for sizing the trace. */
long ps_ca_events_per_iteration(const ps_ca_variation *v, long row_width);
#define PS_CA_CELLWISE_CHUNK 64   /* cells in flight per direction at once (cellwise) */

/* A rank permutation for the nodeorder variation: pos[r] = logical position
 * of rank r (Fisher-Yates from seed; identical on every rank). */
void ps_ca_permutation(int nranks, uint64_t seed, int *pos);

/* Runs the serial automaton on a whole w x h torus for `steps` steps and
 * returns the cells' wall-clock update rate (cells per second). */
double ps_ca_time_serial(ps_ca_type type, ps_ca_hood hood, long w, long h, long steps, uint64_t seed);

/* STREAM-like copy b[i] = a[i] over two arrays of `bytes` each: best of
 * `reps`, returned as bytes per second counted as STREAM does (2 x bytes
 * moved per copy). */
double ps_ca_stream_copy(size_t bytes, int reps);

#endif
