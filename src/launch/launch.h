/*
 * launch.h - finding and running the MPI launcher, timeouts, dead ranks.
 *
 * Outside an MPI job parscope runs programs (itself, or a built LOOP
 * program) through a launcher template: --launcher, else PARSCOPE_LAUNCHER,
 * else mpiexec or mpirun found on PATH.  "{ranks}" in the template is
 * replaced by the rank count; without it "-n RANKS" is appended.
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

typedef struct ps_launch_opts {
    int         ranks;
    const char *launcher;   /* template, or NULL for the default search */
    double      timeout;    /* seconds; 0 = none.  The job is killed past it. */
    const char *status_dir; /* if set, ranks leave markers there (PARSCOPE_STATUS_DIR)
                               so a dead rank can be named */
    int         quiet;      /* send the program's stdout to /dev/null */
} ps_launch_opts;

typedef struct ps_launch_result {
    int    exit_code;       /* launcher's exit status, or 128+signal */
    int    timed_out;
    double elapsed;         /* seconds, launch to exit */
    char   message[1024];   /* what went wrong, naming ranks where known */
} ps_launch_result;

/* Finds the launcher; fills argv-style words into buf.  0, or -1 with err
 * ("no MPI launcher found: ..."). */
int ps_launcher_resolve(const char *tmpl, int ranks, char ***words, int *nwords,
                        char *err, size_t errlen);

/* Runs argv on o->ranks ranks and waits.  Returns 0 success, 1 the program
 * failed / died / timed out (r->message names the ranks), 2 no launcher. */
int ps_launch(const ps_launch_opts *o, char *const argv[], ps_launch_result *r);

/* Identifies the MPI library ("Open MPI 4.1.4", "MPICH 4.0.2") by asking the
 * launcher; "" if unknown. */
void ps_mpi_library(char *buf, size_t len);


#endif
