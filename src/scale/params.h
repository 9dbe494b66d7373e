/*
 * params.h - the sweep's parameters: defaults, the keyword = value config
 * file, command-line options, and the automatic choices of CLUE's driver.
 *
 * Precedence (lowest first): built-in default < automatic choice (hwloc and
 * a short timing run) < config file < command line.  Every parameter
 * remembers where its value came from, and the results record it.
 */
#ifndef PS_SCALE_PARAMS_H
#define PS_SCALE_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "launch/run.h"
#include "workloads/ca.h"

/* ---- tunables (one place) ------------------------------------------------ */
#define PS_SCALE_TARGET_TIME      0.5    /* seconds of kernel time per run at P = 1 */
#define PS_SCALE_MIN_ITERATIONS   20     /* CLUE ran 20 iterations; the grid shrinks to allow them */
#define PS_SCALE_MEM_FRACTION     0.5    /* share of memory the grids may use ("room to spare") */
#define PS_SCALE_MAX_FOOTPRINT    (128L << 20) /* bytes per rank for both grids of 8-byte cells */
#define PS_SCALE_CACHE_SHARE      3      /* row width <= cache / 3 (seed 3.4) */
#define PS_SCALE_TIMING_CELLS     8000000L /* the automatic choice's serial timing run: at most
                                              this many cells, in at least 8 rows */
#define PS_SCALE_TRIALS           3
#define PS_SCALE_AUTO_MIN_TRIALS  3      /* --auto-trials: at least this many per point ... */
#define PS_SCALE_AUTO_MAX_TRIALS  PS_RUN_AUTO_MAX_TRIALS /* ... at most this many (10) ... */
#define PS_SCALE_SPREAD_TARGET    PS_RUN_SPREAD_TARGET   /* ... until the best two trials agree within this (5%) */
#define PS_SCALE_AUTO_BUDGET      600.0  /*   ... or this many seconds of sweep are spent */
#define PS_SCALE_EFF_THRESHOLD    0.80   /* "not cost effective" below this efficiency */
#define PS_SCALE_MAX_RANKS_LIMIT  4096
#define PS_SCALE_MAX_POINTS       64     /* processor counts in one sweep */
#define PS_SCALE_FIT_MIN_POINTS   3      /* Amdahl / Gustafson fits need this many points with P > 1 */
#define PS_SCALE_MIN_EFFECT       0.05   /* a difference smaller than this is not called a limit */
#define PS_SCALE_RUN_TIMEOUT_MIN  30.0   /* seconds; per run timeout floor */
#define PS_SCALE_TRACE_BUDGET     (256L << 10) /* trace events per rank per run: cellwise runs fewer
                                                  iterations to stay within it (ACT/s is per iteration) */

enum ps_scale_source { PS_SRC_DEFAULT = 0, PS_SRC_AUTO, PS_SRC_CONFIG, PS_SRC_OPTION };
const char *ps_scale_source_name(int src);

/* The keys (config-file keywords; the long options carry the same names). */
enum ps_scale_key {
    PS_K_MAX_RANKS, PS_K_RANKS, PS_K_VARIATIONS, PS_K_TRIALS, PS_K_OUTPUT, PS_K_STRONG,
    PS_K_GRID, PS_K_ITERATIONS, PS_K_SIZE, PS_K_TARGET_TIME, PS_K_SEED, PS_K_TIMEOUT,
    PS_K_EFF_THRESHOLD, PS_K_OVERSUBSCRIBE, PS_K_LAUNCHER, PS_K_WORKLOAD_ARGS,
    PS_K_CACHE, PS_K_MEMORY, PS_K_CORES, PS_K_WORD_BITS, PS_K_SPREAD_TARGET, PS_K_TIME_BUDGET,
    PS_K__COUNT
};

typedef struct ps_scale_params {
    char   workload[256];
    int    is_clue;
    int    max_ranks;
    int    ranks[PS_SCALE_MAX_POINTS];
    int    nranks;                           /* 0 = 1, 2, 4 .. max_ranks */
    const ps_ca_variation *var[16];
    int    nvar;
    int    trials;                           /* with trials_auto: the most a point gets */
    int    trials_auto;                      /* --auto-trials: more trials until the spread meets the target */
    double spread_target;                    /* relative gap of the best two trials */
    double time_budget;                      /* seconds for the whole sweep (auto trials), 0 = none */
    char   output[4096];
    int    strong;
    long   width, height;                    /* 0 = automatic */
    long   iterations;                       /* 0 = automatic (clue); -1 = workload default */
    long   size;                             /* -s for other workloads, -1 default */
    double target_time;
    uint64_t seed;
    double timeout;                          /* per run, 0 = automatic */
    double eff_threshold;
    int    oversubscribe;                    /* accepted for old plans; more ranks than cores always run,
                                                marked oversubscribed in the results */
    char   launcher[1024];
    char   workload_args[1024];
    /* the machine facts behind the automatic choices (overridable) */
    long   cache_bytes;                      /* the per-core cache the row must fit a third of */
    long   memory_bytes;
    int    cores;
    int    word_bits;
    double timing_rate;                      /* cells/s of the timing run, 0 if none */
    char   why[PS_K__COUNT][160];            /* how an automatic value was chosen */
    int    src[PS_K__COUNT];
} ps_scale_params;

void ps_scale_params_defaults(ps_scale_params *p);

/* Sets one key from text, recording its source.  0, or -1 with err (the
 * message names the key and what was expected; the caller adds where). */
int ps_scale_params_set(ps_scale_params *p, const char *key, const char *value, int src,
                        char *err, size_t errlen);
int ps_scale_key_index(const char *key);
const char *ps_scale_key_name(int k);
/* Key k shapes only the CLUE workload's runs (variations, grid, strong,
 * target-time): other workloads refuse it and their results leave it out. */
int ps_scale_key_clue_only(int k);

/* Reads a keyword = value file ('#' comments, blank lines).  Errors name
 * FILE:LINE:COL.  0 or -1. */
int ps_scale_params_load(ps_scale_params *p, const char *path, char *err, size_t errlen);

/* Reads the machine facts from hwloc (cache, memory, cores, word size) for
 * keys still at their default. */
void ps_scale_params_machine(ps_scale_params *p);

/* Fills every automatic parameter still unset: ranks list, grid (footprint
 * within memory with room to spare, row within a third of the cache),
 * iterations (a short timing run so one run takes target_time), timeout.
 * 0 or -1 with err (e.g. max_ranks beyond the cores without oversubscribe). */
int ps_scale_params_auto(ps_scale_params *p, char *err, size_t errlen);

/* Iterations for one variation: the plan's, fewer for cellwise when its
 * one-message-per-cell trace would pass PS_SCALE_TRACE_BUDGET. */
long ps_scale_iterations_for(const ps_scale_params *p, const ps_ca_variation *v);

/* The value of key k as text (for the results; "-" where it does not apply). */
void ps_scale_params_value(const ps_scale_params *p, int k, char *buf, size_t len);

#endif
