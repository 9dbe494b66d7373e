/*
 * meta.c - the machine meta object of every result, and its readers (see meta.h).
 */
#include "launch/meta.h"

#include <stdio.h>
#include <string.h>

#include "launch/launch.h"
#include "trace/describe.h"
#include "util/util.h"

json_t *ps_machine_meta_with(const char *mpi)
{
    const ps_hwinfo *hw = ps_hwinfo_get();
    json_t *m = json_object();
    json_object_set_new(m, "host", json_string(hw->host));
    if (hw->os[0]) json_object_set_new(m, "os", json_string(hw->os));
    if (hw->cpu[0]) json_object_set_new(m, "cpu", json_string(hw->cpu));
    if (hw->topology) {
        json_object_set_new(m, "sockets", json_integer(hw->sockets));
        json_object_set_new(m, "cores", json_integer(hw->cores));
        json_object_set_new(m, "pus", json_integer(hw->pus));
        json_object_set_new(m, "memory_bytes", json_integer(hw->memory_bytes));
        json_t *caches = json_object();
        for (int i = 0; i < PS_CACHE_LEVELS; i++)
            if (hw->cache[i].bytes > 0)
                json_object_set_new(caches, ps_cache_level_names[i], json_integer(hw->cache[i].bytes));
        json_object_set_new(m, "caches", caches);
    }
    char lib[128];
    if (!mpi) {
        ps_mpi_library(lib, sizeof lib);
        mpi = lib;
    }
    json_object_set_new(m, "mpi", json_string(mpi));
#if defined(__clang__)
    json_object_set_new(m, "compiler", json_string("clang " __clang_version__));
#elif defined(__GNUC__)
    json_object_set_new(m, "compiler", json_string("GCC " __VERSION__));
#endif
    char date[64];
    ps_iso_time(date, sizeof date);
    json_object_set_new(m, "date", json_string(date));
    return m;
}

json_t *ps_machine_meta(void)
{
    return ps_machine_meta_with(NULL);
}

json_t *ps_machine_meta_for(const ps_trace *t)
{
    json_t *meta = ps_trace_meta(t);
    const char *said = json_string_value(json_object_get(meta, "mpi"));
    char lib[128];
    if (said && said[0]) ps_mpi_library_name(said, lib, sizeof lib);
    json_t *m = ps_machine_meta_with(said && said[0] ? lib : NULL);
    json_decref(meta);
    return m;
}

void ps_mpi_library_name(const char *text, char *buf, size_t len)
{
    size_t n = strcspn(text, "\n");
    const char *v;
    if (strncmp(text, "Open MPI v", 10) == 0) {
        v = text + 10;
        snprintf(buf, len, "Open MPI %.*s", (int)strcspn(v, ",\n"), v);
    } else if (strncmp(text, "MPICH Version:", 14) == 0) {
        v = text + 14;
        v += strspn(v, " \t");
        snprintf(buf, len, "MPICH %.*s", (int)strcspn(v, " \t\n"), v);
    } else {
        snprintf(buf, len, "%.*s", (int)n, text);
    }
}

static long long integer(const json_t *v)
{
    return json_is_number(v) ? (long long)json_number_value(v) : 0;
}

long long ps_meta_memory_bytes(const json_t *meta)
{
    const json_t *v = json_object_get(meta, "memory_bytes");
    return integer(v ? v : json_object_get(meta, "memory"));
}

long long ps_meta_cache_bytes(const json_t *meta, int level)
{
    if (level < 0 || level >= PS_CACHE_LEVELS) return 0;
    const json_t *caches = json_object_get(meta, "caches");
    const json_t *v = json_object_get(caches, ps_cache_level_names[level]);
    if (!v) {
        char old[4];   /* the probe's old "L1" for L1d */
        snprintf(old, sizeof old, "L%d", level + 1);
        v = json_object_get(caches, old);
    }
    if (json_is_object(v)) v = json_object_get(v, "bytes");   /* old: {"bytes": N, "instances": K} */
    return integer(v);
}
