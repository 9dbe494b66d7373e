/*
 * noise.h - how busy the machine was before, during and after a measurement
 * (docs/OUTPUTS.md "Uncertainty, the machine's noise and oversubscription"), and where the ranks ran.
 *
 * A sample (before or after) holds the load average, the cumulative CPU
 * times of /proc/stat (busy, idle, steal where the kernel reports it) and
 * this process's own CPU time with its waited-for children's (the launcher
 * and the ranks), and, when asked, a calibration: a fixed loop of integer
 * work timed PS_NOISE_CALIB_REPS times.  On a quiet core every repetition
 * takes the same time; other work on the machine shows as repetitions that
 * take longer.  Between two samples, the busy time of the whole machine
 * minus our own is what other processes used: the noise during the run.
 *
 * The verdict: "quiet" when neither the calibration nor the other processes
 * show interference, "very busy" when others used more than half of the
 * machine or the calibration slowed by more than half, else "busy".
 */
#ifndef PS_NOISE_H
#define PS_NOISE_H

#include <jansson.h>

#include "trace/trace.h"

#define PS_NOISE_CALIB_REPS   40       /* repetitions of the calibration loop (PARSCOPE_NOISE_REPS: 1 to PS_NOISE_CALIB_REPS_MAX) */
#define PS_NOISE_CALIB_REPS_MAX 1000
#define PS_NOISE_CALIB_STEPS  1500000  /* integer steps per repetition (1.5 ms here): 60 ms in all, enough for /proc/stat's 10 ms ticks */
#define PS_NOISE_QUIET        0.05     /* slowdown / others' share below this: quiet */
#define PS_NOISE_VERY_BUSY    0.50     /* above this: very busy */

typedef struct ps_noise_sample {
    int    valid;                     /* 0: never taken */
    double when;                      /* ps_clock() */
    double load1;                     /* 1-minute load average, NAN unknown */
    int    have_stat;                 /* /proc/stat was read */
    unsigned long long total, idle, steal;   /* jiffies over all CPUs (USER_HZ) */
    double own_cpu;                   /* user + system seconds of this process and its waited children */
    int    calib_n;                   /* 0: no calibration */
    double calib_min, calib_median;   /* seconds per repetition */
    double calib_slowdown;            /* median / min - 1 */
    double calib_cv;                  /* sd / mean */
    double calib_others;              /* share of the machine others used during the calibration, NAN unknown */
} ps_noise_sample;

/* The calibration's repetitions: PARSCOPE_NOISE_REPS when it holds a whole number from 1 to
 * PS_NOISE_CALIB_REPS_MAX, else (unset or empty) PS_NOISE_CALIB_REPS.  ps_noise_reps_check says why a value set is
 * refused (0: unset or good; -1 and err: not such a number), for the commands to stop on (exit 2). */
int ps_noise_reps(void);
int ps_noise_reps_check(char *err, size_t errlen);

/* Takes a sample now; with calibrate, runs the calibration loop first (some
 * tens of milliseconds on a quiet machine). */
void ps_noise_take(ps_noise_sample *s, int calibrate);

/* The "noise" object of a result:
 *   {cpus, before {load1, calibration {n, min_s, median_s, slowdown, cv, others_pct}},
 *    during {seconds, others_busy_pct, steal_pct, own_cpu_s},
 *    after {...}, level: "quiet" | "busy" | "very busy", reason, method,
 *    summary: the one line every output shows}.
 * Either sample may be invalid (left out).  Never NULL. */
json_t *ps_noise_json(const ps_noise_sample *before, const ps_noise_sample *after);

/* Raises a noise object's verdict (ps_noise_json's) where another sign of interference was seen
 * (a probe's rounds that disagree): level and reason replaced, the summary line made again from the
 * object's own figures, as ps_noise_json makes it. */
void ps_noise_raise(json_t *noise, const char *level, const char *why);

/* The share of the machine other processes used between two samples (0..1),
 * and the stolen share; NAN when unknown. */
double ps_noise_others(const ps_noise_sample *a, const ps_noise_sample *b);
double ps_noise_steal(const ps_noise_sample *a, const ps_noise_sample *b);


/* ---- placement: ranks per node against cores -------------------------------- */

typedef struct ps_placement {
    int  ranks;
    int  nodes;                  /* distinct hosts */
    int  max_per_node;           /* ranks on the fullest host */
    char busiest[64];            /* that host */
    int  cores;                  /* cores per node (hwloc; the launcher's node) */
    int  node_cores;             /* 1: cores from PS_ENV_NODE_CORES (an emulated node's share), not hwloc */
    int  from_trace;             /* 1: hosts from the ranks themselves; 0: assumed on this host */
    int  shared;                 /* > 0: the nodes share this many processors (PS_ENV_SHARED_PROCESSORS) */
    int  oversubscribed;         /* max_per_node > cores, or more ranks than the shared processors */
} ps_placement;

/* Where the ranks of a run ran: the per-rank hosts of its trace (the
 * launcher's mapping as the ranks saw it), or, without a trace, all ranks on
 * this host (a local launch).  Cores from hwloc, or PS_ENV_NODE_CORES. */
void ps_placement_of(const ps_trace *t, int ranks, ps_placement *p);

/* Counts the nodes among the hosts of n ranks (host[r]: rank r's), the ranks
 * on the fullest and its name, into p. */
void ps_placement_count_hosts(ps_placement *p, const char *const *host, int n);

/* placement {ranks, nodes, ranks_per_node, cores, host, source}: source says
 * where the hosts and the cores came from. */
json_t *ps_placement_json(const ps_placement *p, const char *source);

/* Adds to a result document: "oversubscribed" (bool) and "placement"
 * {ranks, nodes, ranks_per_node, cores, host, source}; when oversubscribed,
 * marks the busy / idle figures: sheet.time_sliced = true with a note, and
 * time_sliced = true on each rank's entry. */
void ps_placement_annotate(json_t *doc, const ps_placement *p);

/* The warning for an oversubscribed run ("4 ranks share 2 cores on HOST:
 * ..."); "" when not oversubscribed. */
void ps_placement_warning(const ps_placement *p, char *buf, size_t len);

#endif
