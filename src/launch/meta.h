/*
 * meta.h - what parscope knows of the machine it runs on (hwloc, uname, the
 * host name), loaded once per process, and the machine meta object that
 * every result carries (docs/OUTPUTS.md "The machine meta"):
 *
 *   "machine": {"host", "os", "cpu", "sockets", "cores", "pus", "memory_bytes",
 *               "caches": {"L1d": bytes, "L2": bytes, "L3": bytes, "L4": bytes},
 *               "mpi", "compiler", "date"}
 *
 * Counts, memory and caches are there only when hwloc answered; a cache level
 * the machine lacks is left out.  Results written before this schema used
 * "memory" for memory_bytes and "caches": {"L1": {"bytes", "instances"}, ...}
 * (the probe); the readers below accept both.
 */
#ifndef PS_META_H
#define PS_META_H

#include <jansson.h>

#include "util/util.h"   /* PS_CACHE_LEVELS */
#include "trace/trace.h"

typedef struct ps_hw_cache {
    long long bytes;       /* one cache of this level; 0 = the machine has none */
    int       instances;   /* how many the machine has */
    int       cores;       /* cores sharing the first one */
} ps_hw_cache;

typedef struct ps_hwinfo {
    int         topology;  /* 1: hwloc answered, the fields below are known */
    char        host[256], os[256], cpu[256];
    int         sockets, cores, pus;
    long long   memory_bytes;
    ps_hw_cache cache[PS_CACHE_LEVELS];   /* ps_cache_level_names: L1d, L2, L3, L4 */
} ps_hwinfo;

/* This machine, loaded on the first call (hwloc's topology, uname, host
 * name) and kept for the life of the process.  Never NULL. */
const ps_hwinfo *ps_hwinfo_get(void);

/* A field of /proc/meminfo ("MemTotal", "MemAvailable") in bytes, or -1. */
double ps_meminfo_bytes(const char *key);

/* The machine meta object of a result, for this machine now.  mpi names the
 * MPI library ("Open MPI 4.1.4"); ps_machine_meta asks the launcher
 * (ps_mpi_library), a rank passes what its library says of itself. */
json_t *ps_machine_meta(void);
json_t *ps_machine_meta_with(const char *mpi);
/* The same for a run whose trace is t: the MPI library its ranks said they ran
 * with, not what the default mpiexec says of itself (a launcher template or
 * PARSCOPE_MPIEXEC may start another, and asking costs a process).  t NULL or
 * silent: ps_machine_meta(). */
json_t *ps_machine_meta_for(const ps_trace *t);

/* "Open MPI 4.1.4" or "MPICH 4.0.2" from MPI_Get_library_version's text
 * ("Open MPI v4.1.4, package: ...", "MPICH Version:\t4.0.2\n..."); other
 * libraries: their first line. */
void ps_mpi_library_name(const char *version_text, char *buf, size_t len);

/* Readers of a meta object, old keys included; 0 when absent. */
long long ps_meta_memory_bytes(const json_t *meta);
long long ps_meta_cache_bytes(const json_t *meta, int level);   /* ps_cache_level_names[level] */

#endif
