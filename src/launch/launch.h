/*
 * launch.h - finding and running the MPI launcher, timeouts, dead ranks.
 *
 * Outside an MPI job parscope runs programs (itself, or a built LOOP
 * program) through a launcher template: --launcher, else PARSCOPE_LAUNCHER,
 * else mpiexec or mpirun found on PATH.  The template is split into words
 * as a shell would (quotes, backslashes; no shell runs); "{ranks}" is
 * replaced by the rank count (without it "-n RANKS" is appended) and
 * "{hostfile}" by a file naming each rank's host (launch/template.h).
 */
#ifndef PS_LAUNCH_H
#define PS_LAUNCH_H

#include <stddef.h>

#include <jansson.h>

#include "launch/meta.h"   /* ps_machine_meta */

/* Nonzero when this process is a rank of an MPI job (started by mpiexec,
 * srun, ...). */
int ps_inside_mpi(void);

/* Path of the running executable (for launching itself). */
const char *ps_self_exe(void);

/* Seconds past its limit a program that stops itself there (self_stop) has
 * before parscope stops the job: its launcher's own ending takes a moment. */
#define PS_LAUNCH_STOP_MARGIN 10.0
/* Ranks killed by a signal whose stack a failed job shows. */
#define PS_LAUNCH_STACKS 2
/* The least a rank needs on this machine: memory, and process ids (its
 * threads), for the count check of a local launch (ps_launch_capacity). */
#define PS_LAUNCH_RANK_MEMORY (8 << 20)
#define PS_LAUNCH_RANK_TASKS 4

typedef struct ps_launch_opts {
    int         ranks;
    const char *launcher;   /* template, or NULL for the default search */
    double      timeout;    /* seconds; 0 = none.  The job is killed past it. */
    int         self_stop;  /* the program stops itself at timeout (the runtime's --timeout):
                               parscope stops the job PS_LAUNCH_STOP_MARGIN s later */
    const char *status_dir; /* if set, ranks leave markers there (PARSCOPE_STATUS_DIR)
                               so a dead rank can be named */
    int         quiet;      /* send the program's stdout to /dev/null */
} ps_launch_opts;

typedef struct ps_launch_result {
    int    exit_code;       /* launcher's exit status, or 128+signal */
    int    timed_out;
    int    interrupted;     /* stopped because parscope was interrupted */
    double elapsed;         /* seconds, launch to exit */
    char   message[1024];   /* what went wrong, naming ranks where known */
} ps_launch_result;

/* Finds the launcher and expands its template (launch/template.h: quoted
 * words, {ranks}, {hostfile}); fills argv-style words.  *hostfile is the
 * path of the hostfile written for the job (the caller removes it and frees
 * the string), or NULL.  0, or -1 with err ("no MPI launcher found: ..."). */
int ps_launcher_resolve(const char *tmpl, int ranks, char ***words, int *nwords, char **hostfile,
                        char *err, size_t errlen);

/* Checks the launcher template a job would use (tmpl, the --launcher
 * option, else PARSCOPE_LAUNCHER) before anything runs: its words and
 * placeholders (template.h).  0 (also when there is no template), or -1
 * with err naming the option or variable. */
int ps_launcher_check(const char *tmpl, char *err, size_t errlen);

/* Runs argv on o->ranks ranks and waits.  Returns 0 success, 1 the program
 * failed / died / timed out / was interrupted (r->message names the ranks),
 * 2 bad input (r->message): no launcher, more ranks than this machine can
 * start, a value a rank refused (a negative message size, ...).  Nothing
 * the job started is left running (util/proc.h). */
int ps_launch(const ps_launch_opts *o, char *const argv[], ps_launch_result *r);

/* The launcher of the default template: PARSCOPE_MPIEXEC, else the one of
 * the MPI library parscope was built with, else mpiexec or mpirun on PATH.
 * 0 with its path in out, or -1 (none found). */
int ps_default_mpiexec(char *out, size_t len);

/* The ranks a local launch (the default launcher, no batch system, no host
 * file) can start on this machine, from its free memory and process ids
 * (msg, if given, says how); -1 when not a local launch or unknown. */
int ps_launch_capacity(const ps_launch_opts *o, char *msg, size_t len);

/* The bad values ranks reported in status directory dir (rank.N.bad,
 * written by the runtime): the lowest rank's message in buf; returns how
 * many ranks reported one. */
int ps_launch_bad_input(const char *dir, int ranks, char *buf, size_t len);

/* Identifies the MPI library ("Open MPI 4.1.4", "MPICH 4.0.2") by asking the
 * launcher; "unknown" if it cannot be told. */
void ps_mpi_library(char *buf, size_t len);

/* The same for a given launcher (its --version). */
void ps_mpiexec_library(const char *mpiexec, char *buf, size_t len);


#endif
