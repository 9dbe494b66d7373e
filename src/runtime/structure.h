/*
 * structure.h - the structural parameters of a run: every construct with the
 * distinct arguments it was called with (LOOP seed, section 6.2: the sheet's
 * "Fingerprint(1,500,1000)").  Kept per rank, cheap enough for a construct
 * called in an inner loop; rank 0's table goes into the trace's metadata.
 */
#ifndef PS_RT_STRUCTURE_H
#define PS_RT_STRUCTURE_H

#include <jansson.h>

/* The argument names of each kind of construct. */
enum ps__args {
    PS_ARGS_NONE,          /* VISIBLE_SYNC() */
    PS_ARGS_BYTES,         /* MULTIBCAST*(bytes), TREE_*(bytes) */
    PS_ARGS_PATTERN,       /* COMMUNICATE / EXCHANGE(bytes, distance, partners) */
    PS_ARGS_WORDS,         /* SEND, RECEIVE, BSEND, BRECEIVE(words) */
    PS_ARGS_N,             /* SCALPROD(n) */
    PS_ARGS_ROWS_COLS,     /* MATVECPROD(rows, cols) */
    PS_ARGS_MATPROD,       /* MATPROD(rows, inner, cols) */
    PS_ARGS_FLOPS,         /* WORK(flops) */
    PS_ARGS_REDUCE,        /* a reduction's (count) of doubles */
};

/* Notes one call of `construct` with up to three arguments. */
void ps__structure(int construct, enum ps__args args, long a, long b, long c);

/* The table as the metadata's "structure" array (docs/TRACE_FORMAT.md). */
json_t *ps__structure_json(void);

#endif
