/*
 * workloads.h - the built-in workloads compiled into the parscope binary.
 *
 * LOOP workloads (workloads/NAME.loop) are generated to C at build time; the
 * generator names their entry ps_workload_NAME_main and also emits the
 * .loop text as ps_workload_NAME_source (so gen, whitebox and predict can
 * work from the source).  C workloads (clue) define the entry by hand.
 */
#ifndef PS_WORKLOADS_H
#define PS_WORKLOADS_H

typedef int (*ps_workload_main)(int argc, char **argv);

typedef struct ps_workload {
    const char *name;
    const char *alias;          /* or NULL */
    ps_workload_main entry;     /* the rank-side main */
    const char *const *source;  /* pointer to the embedded .loop text, or NULL */
    long default_size;
    long default_iterations;
    const char *description;
} ps_workload;

extern const ps_workload ps_workloads[];

/* By name or alias; NULL if unknown. */
const ps_workload *ps_workload_find(const char *name);

#endif
