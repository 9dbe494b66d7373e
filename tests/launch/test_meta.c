/* test_meta.c - the machine meta of results: one schema, the hardware as
 * the operating system tells it independently, and older results' keys. */
#include <jansson.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/meta.h"

#include "check.h"

/* every key a meta object may have (docs/OUTPUTS.md "The machine meta") */
static const char *const schema[] = {"host", "os", "cpu", "sockets", "cores", "pus", "memory_bytes",
                                     "caches", "mpi", "compiler", "date"};

static int in_schema(const char *key)
{
    for (size_t i = 0; i < sizeof schema / sizeof schema[0]; i++)
        if (strcmp(schema[i], key) == 0) return 1;
    return 0;
}

TEST_IMPL(meta_schema)
{
    const ps_hwinfo *hw = ps_hwinfo_get();
    json_t *m = ps_machine_meta_with("Test MPI 1.0");
    const char *k;
    json_t *v;
    json_object_foreach(m, k, v) CHECK(in_schema(k), "key %s is not in the schema", k);
    CHECK(strcmp(json_string_value(json_object_get(m, "mpi")), "Test MPI 1.0") == 0);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    CHECK(strcmp(json_string_value(json_object_get(m, "host")), host) == 0);
    CHECK(json_string_value(json_object_get(m, "compiler")) && json_string_value(json_object_get(m, "date")));
    CHECK(hw->topology, "hwloc gave no topology");
    if (hw->topology) {
        CHECK(json_integer_value(json_object_get(m, "cores")) == hw->cores && hw->cores >= 1);
        CHECK(json_integer_value(json_object_get(m, "pus")) == hw->pus && hw->pus >= hw->cores);
        CHECK(json_integer_value(json_object_get(m, "sockets")) == hw->sockets && hw->sockets >= 1);
        CHECK(json_integer_value(json_object_get(m, "memory_bytes")) == hw->memory_bytes);
        const json_t *caches = json_object_get(m, "caches");
        json_object_foreach((json_t *)caches, k, v) {
            int level = -1;
            for (int i = 0; i < PS_CACHE_LEVELS; i++)
                if (strcmp(k, ps_cache_level_names[i]) == 0) level = i;
            CHECK(level >= 0 && json_integer_value(v) == hw->cache[level].bytes, "cache %s", k);
        }
        CHECK(ps_meta_memory_bytes(m) == hw->memory_bytes && ps_meta_cache_bytes(m, 0) == hw->cache[0].bytes);
    }
    json_decref(m);
}

/* The kernel's size of cpu0's level-N data or unified cache (sysfs), -1 when
 * it does not say. */
static long long kernel_cache_bytes(int level)
{
    for (int idx = 0; idx < 16; idx++) {
        char path[128], lv[16] = "", type[32] = "", size[32] = "";
        const char *what[3] = {"level", "type", "size"};
        char *into[3] = {lv, type, size};
        for (int k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", idx, what[k]);
            FILE *f = fopen(path, "r");
            if (!f) return -1;
            if (!fgets(into[k], 16, f)) into[k][0] = 0;
            fclose(f);
        }
        if (atoi(lv) != level || strncmp(type, "Instruction", 11) == 0) continue;
        char *end;
        long long n = strtoll(size, &end, 10);
        return *end == 'K' ? n << 10 : *end == 'M' ? n << 20 : *end == 'G' ? n << 30 : n;
    }
    return -1;
}

/* what hwloc says against what the kernel says (and the C library where the
 * kernel does not: libc reads the processor's CPUID, which a VM may fill in
 * otherwise; one here gives an L3 of 256 MB there and of 32 MB to the kernel) */
TEST_IMPL(hwinfo_agrees)
{
    const ps_hwinfo *hw = ps_hwinfo_get();
    CHECK(ps_hwinfo_get() == hw, "loaded once, the same every time");
    if (!hw->topology) return;
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0);
    CHECK(hw->pus == CPU_COUNT(&set), "pus %d, this process may run on %d", hw->pus, CPU_COUNT(&set));
    long long phys = (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
    /* the machine's memory as the kernel counts it, within 2% either way (hwloc's NUMA nodes held a
     * quarter of one VM's 24 GB) */
    CHECK(hw->memory_bytes >= phys - phys / 50 && hw->memory_bytes <= phys + phys / 50, "memory %lld of %lld",
          hw->memory_bytes, phys);
    const int names[3] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE};
    for (int i = 0; i < 3; i++) {
        long long kernel = kernel_cache_bytes(i + 1);
        long libc = sysconf(names[i]);
        if (kernel > 0)
            CHECK(hw->cache[i].bytes == kernel, "%s: hwloc %lld, the kernel %lld", ps_cache_level_names[i],
                  hw->cache[i].bytes, kernel);
        else if (libc > 0)
            CHECK(hw->cache[i].bytes == libc, "%s: hwloc %lld, libc %ld", ps_cache_level_names[i], hw->cache[i].bytes,
                  libc);
    }
    for (int i = 0; i < PS_CACHE_LEVELS; i++)
        if (hw->cache[i].bytes > 0) CHECK(hw->cache[i].instances >= 1 && hw->cache[i].cores >= 1);
}

/* results written before the one schema: memory, caches {L1: {bytes, instances}} */
TEST_IMPL(meta_old_keys)
{
    json_t *old = json_pack("{sIs{s{sIsi}s{sIsi}}}", "memory", (json_int_t)7073931264, "caches", "L1", "bytes",
                            (json_int_t)49152, "instances", 2, "L3", "bytes", (json_int_t)272629760, "instances", 1);
    CHECK(ps_meta_memory_bytes(old) == 7073931264LL);
    CHECK(ps_meta_cache_bytes(old, 0) == 49152 && ps_meta_cache_bytes(old, 1) == 0 &&
          ps_meta_cache_bytes(old, 2) == 272629760);
    json_t *now = json_pack("{sIs{sIsI}}", "memory_bytes", (json_int_t)1 << 33, "caches", "L1d", (json_int_t)32768,
                            "L2", (json_int_t)1 << 20);
    CHECK(ps_meta_memory_bytes(now) == 1LL << 33);
    CHECK(ps_meta_cache_bytes(now, 0) == 32768 && ps_meta_cache_bytes(now, 1) == 1 << 20 &&
          ps_meta_cache_bytes(now, 3) == 0 && ps_meta_cache_bytes(now, 4) == 0 && ps_meta_cache_bytes(now, -1) == 0);
    CHECK(ps_meta_memory_bytes(NULL) == 0 && ps_meta_cache_bytes(NULL, 0) == 0);
    json_decref(old);
    json_decref(now);
}

TEST_IMPL(mpi_library_name)
{
    char b[128];
    ps_mpi_library_name("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022", b,
                        sizeof b);
    CHECK(strcmp(b, "Open MPI 4.1.4") == 0, "%s", b);
    ps_mpi_library_name("MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n", b, sizeof b);
    CHECK(strcmp(b, "MPICH 4.0.2") == 0, "%s", b);
    ps_mpi_library_name("Some MPI 2.0\nmore\n", b, sizeof b);
    CHECK(strcmp(b, "Some MPI 2.0") == 0, "%s", b);
    ps_mpi_library_name("", b, sizeof b);
    CHECK(strcmp(b, "") == 0, "%s", b);
}

/* A run's result names the library its ranks said they ran with (the trace's
 * metadata, MPI_Get_library_version's first line), whatever the default
 * mpiexec would say; a trace that does not say falls back to asking. */
TEST_IMPL(machine_meta_for_trace)
{
    ps_trace *t = ps_trace_new(1);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(ps_trace_set_meta(t, "{\"mpi\": \"MPICH Version:\\t9.9.9\"}") == 0);
    json_t *m = ps_machine_meta_for(t);
    CHECK(strcmp(json_string_value(json_object_get(m, "mpi")), "MPICH 9.9.9") == 0, "%s",
          json_string_value(json_object_get(m, "mpi")));
    json_decref(m);
    CHECK(ps_trace_set_meta(t, "{\"mpi\": \"Open MPI v7.0.1\"}") == 0);
    m = ps_machine_meta_for(t);
    CHECK(strcmp(json_string_value(json_object_get(m, "mpi")), "Open MPI 7.0.1") == 0, "%s",
          json_string_value(json_object_get(m, "mpi")));
    json_decref(m);
    /* silent trace: the launcher's answer, as ps_machine_meta gives it */
    CHECK(ps_trace_set_meta(t, "{}") == 0);
    json_t *a = ps_machine_meta_for(t), *b = ps_machine_meta();
    CHECK(json_equal(json_object_get(a, "mpi"), json_object_get(b, "mpi")));
    json_decref(a);
    json_decref(b);
    ps_trace_free(t);
}
