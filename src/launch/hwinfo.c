/*
 * hwinfo.c - this machine's hardware, from hwloc, loaded once per process
 * (see meta.h).  Loading a topology costs milliseconds and reads /sys, so the
 * probe, the scale planner and every result share one load.
 */
#include "launch/meta.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

double ps_meminfo_bytes(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return -1;
    char line[256];
    double v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ':') {
            v = atof(line + n + 1) * 1024;
            break;
        }
    fclose(f);
    return v;
}

static ps_hwinfo info;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void topology(hwloc_topology_t topo)
{
    info.topology = 1;
    info.sockets = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    info.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    info.pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    hwloc_obj_t root = hwloc_get_root_obj(topo);
    info.memory_bytes = root ? (long long)root->total_memory : 0;
    /* hwloc adds up its NUMA nodes' memory (/sys/devices/system/node); the kernel's MemTotal can be
     * larger: on one VM here node 0 held 6.2 GB of its 24 GB (the rest added to the machine outside
     * the node's accounting), and the machine was described, and its sweeps sized, at a quarter of
     * its memory.  The larger of the two is the machine's. */
    double total = ps_meminfo_bytes("MemTotal");
    if (total > (double)info.memory_bytes) info.memory_bytes = (long long)total;
    /* the model as the kernel names it (/proc/cpuinfo), which every rank's
     * runtime records for its host (runtime/meta.c): one page showed "AMD
     * EPYC" from the ranks and hwloc's "Oxide Virtual Turin-like Processor"
     * for the same VM; hwloc's where the kernel says nothing (on the root on
     * Linux, on the package elsewhere) */
    char kernel[sizeof info.cpu] = "";
    FILE *ci = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (ci && !kernel[0] && fgets(line, sizeof line, ci)) {
        char *colon = strchr(line, ':');
        if (!colon || strncmp(line, "model name", 10)) continue;
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t') v++;
        v[strcspn(v, "\n")] = '\0';
        snprintf(kernel, sizeof kernel, "%s", v);
    }
    if (ci) fclose(ci);
    const char *cpu = kernel[0] ? kernel : root ? hwloc_obj_get_info_by_name(root, "CPUModel") : NULL;
    hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    if (!cpu && pkg) cpu = hwloc_obj_get_info_by_name(pkg, "CPUModel");
    if (cpu) {
        snprintf(info.cpu, sizeof info.cpu, "%s", cpu);
        size_t n = strlen(info.cpu);   /* some models are padded with blanks */
        while (n > 0 && info.cpu[n - 1] == ' ') info.cpu[--n] = '\0';
    }
    /* HWLOC_OBJ_L1CACHE is the level-1 data (or unified) cache */
    static const hwloc_obj_type_t levels[PS_CACHE_LEVELS] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                                                HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE};
    for (int i = 0; i < PS_CACHE_LEVELS; i++) {
        int n = hwloc_get_nbobjs_by_type(topo, levels[i]);
        hwloc_obj_t c = n > 0 ? hwloc_get_obj_by_type(topo, levels[i], 0) : NULL;
        if (!c || !c->attr || c->attr->cache.size == 0) continue;
        info.cache[i].bytes = (long long)c->attr->cache.size;
        info.cache[i].instances = n;
        info.cache[i].cores = hwloc_get_nbobjs_inside_cpuset_by_type(topo, c->cpuset, HWLOC_OBJ_CORE);
    }
}

static void load(void)
{
    gethostname(info.host, sizeof info.host - 1);
    struct utsname u;
    if (uname(&u) == 0) snprintf(info.os, sizeof info.os, "%s %s %s", u.sysname, u.release, u.machine);
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) return;
    if (hwloc_topology_load(topo) == 0) topology(topo);
    hwloc_topology_destroy(topo);
}

const ps_hwinfo *ps_hwinfo_get(void)
{
    pthread_once(&once, load);
    return &info;
}
