/*
 * meta.c - the machine meta object of every result (see launch.h).
 */
#include "launch/launch.h"

#include <hwloc.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/util.h"

json_t *ps_machine_meta(void)
{
    json_t *m = json_object();
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    json_object_set_new(m, "host", json_string(host));
    struct utsname u;
    if (uname(&u) == 0) {
        char os[600];
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
        json_object_set_new(m, "os", json_string(os));
    }
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
        json_object_set_new(m, "cores", json_integer(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE)));
        json_object_set_new(m, "pus", json_integer(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU)));
        json_object_set_new(m, "sockets", json_integer(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE)));
        hwloc_obj_t root = hwloc_get_root_obj(topo);
        json_object_set_new(m, "memory_bytes", json_integer((json_int_t)root->total_memory));
        const char *cpu = hwloc_obj_get_info_by_name(root, "CPUModel");
        if (!cpu) {
            hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
            if (pkg) cpu = hwloc_obj_get_info_by_name(pkg, "CPUModel");
        }
        if (cpu) json_object_set_new(m, "cpu", json_string(cpu));
        json_t *caches = json_object();
        static const hwloc_obj_type_t ct[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE};
        static const char *cn[] = {"L1d", "L2", "L3"};
        for (int i = 0; i < 3; i++) {
            hwloc_obj_t c = hwloc_get_obj_by_type(topo, ct[i], 0);
            if (c && c->attr) json_object_set_new(caches, cn[i], json_integer((json_int_t)c->attr->cache.size));
        }
        json_object_set_new(m, "caches", caches);
        hwloc_topology_destroy(topo);
    }
    char lib[128];
    ps_mpi_library(lib, sizeof lib);
    json_object_set_new(m, "mpi", json_string(lib));
#if defined(__clang__)
    json_object_set_new(m, "compiler", json_string("clang " __clang_version__));
#elif defined(__GNUC__)
    json_object_set_new(m, "compiler", json_string("gcc " __VERSION__));
#endif
    char date[64];
    ps_iso_time(date, sizeof date);
    json_object_set_new(m, "date", json_string(date));
    return m;
}
