/*
 * meta.c - the trace's metadata (docs/TRACE_FORMAT.md, "Metadata"): what ran
 * (workload, parameters, the arguments its constructs were called with), on
 * what (processor, interconnect, MPI library) and how its clocks were read.
 * Built with jansson, so any workload, host or library name stays valid JSON.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/rt.h"
#include "runtime/structure.h"

/* The processor of this host from /proc/cpuinfo (Linux): model and clock. */
static void cpu_info(json_t *hw)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    int have_model = 0, have_mhz = 0;
    while ((!have_model || !have_mhz) && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t') v++;
        v[strcspn(v, "\n")] = '\0';
        if (!have_model && !strncmp(line, "model name", 10)) {
            json_t *s = json_string(v);
            if (s) json_object_set_new(hw, "cpu", s);
            have_model = 1;
        } else if (!have_mhz && !strncmp(line, "cpu MHz", 7)) {
            double mhz = atof(v);
            if (mhz > 0) json_object_set_new(hw, "cpu_mhz", json_real(mhz));
            have_mhz = 1;
        }
    }
    fclose(f);
}

static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncmp(p, word, n)) return 1;
        p += k;
        if (*p) p++;
    }
    return 0;
}

static int infiniband_devices(void)
{
    DIR *d = opendir("/sys/class/infiniband");
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* The interconnect the messages used, as far as the environment tells: MPI
 * restricted to TCP (Open MPI's btl list, MPICH's NOLOCAL, as slownet sets
 * them), else shared memory on one host, else the hosts' network. */
static json_t *interconnect(int nhosts)
{
    const char *btl = getenv("OMPI_MCA_btl"), *ifs = getenv("OMPI_MCA_btl_tcp_if_include");
    const char *nolocal = getenv("MPIR_CVAR_NOLOCAL");
    int ompi_tcp = btl && btl[0] != '^' && in_list(btl, "tcp") && !in_list(btl, "vader") && !in_list(btl, "sm");
    int mpich_net = nolocal && !strcmp(nolocal, "1");
    int loopback = ifs && (!strcmp(ifs, "lo") || !strncmp(ifs, "127.", 4));
    char type[160], basis[320];
    if (ompi_tcp || mpich_net) {
        snprintf(type, sizeof type, "%s", nhosts > 1 ? "TCP/IP network"
                                          : loopback || !ompi_tcp ? "TCP/IP over the loopback (one host)"
                                                                  : "TCP/IP (one host)");
        if (ompi_tcp)
            snprintf(basis, sizeof basis, "OMPI_MCA_btl=%.100s: Open MPI sends every message over TCP%s%.40s", btl,
                     ifs ? " on " : "", ifs ? ifs : "");
        else
            snprintf(basis, sizeof basis, "MPIR_CVAR_NOLOCAL=1: MPICH sends every message through its network module");
    } else if (nhosts <= 1) {
        snprintf(type, sizeof type, "shared memory (one host)");
        snprintf(basis, sizeof basis, "every rank ran on one host, where MPI passes messages through shared memory");
    } else if (infiniband_devices()) {
        snprintf(type, sizeof type, "InfiniBand between %d hosts, shared memory within a host", nhosts);
        snprintf(basis, sizeof basis, "rank 0's host has InfiniBand devices (/sys/class/infiniband)");
    } else {
        snprintf(type, sizeof type, "TCP/IP network between %d hosts, shared memory within a host", nhosts);
        snprintf(basis, sizeof basis, "rank 0's host has no InfiniBand device (/sys/class/infiniband)");
    }
    return json_pack("{s:s, s:s}", "type", type, "basis", basis);
}

static int count_hosts(const ps_trace *t)
{
    int n = 0;
    for (int r = 0; r < t->nranks; r++) {
        int seen = 0;
        for (int k = 0; k < r && !seen; k++) seen = !strcmp(t->rank[k].host, t->rank[r].host);
        n += !seen;
    }
    return n;
}

/* A JSON string, or null for text that is not UTF-8 (a JSON string cannot hold it). */
static json_t *str_or_null(const char *s)
{
    json_t *j = json_string(s);
    return j ? j : json_null();
}

char *ps__trace_meta(const ps_trace *t, const char *mpi_library, int same_host, int clock_rounds)
{
    json_t *m = json_object();
    json_object_set_new(m, "workload", str_or_null(ps__rt.workload[0] ? ps__rt.workload : "program"));
    json_object_set_new(m, "params", ps__params_json(ps__rt.size));
    json_object_set_new(m, "mpi", str_or_null(mpi_library));
    /* the wall-clock time at one instant of the global timeline (rank 0's
     * CLOCK_MONOTONIC), so tools can show absolute times */
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    double mono = ps_now(), real = (double)rt.tv_sec + 1e-9 * (double)rt.tv_nsec;
    json_object_set_new(m, "clock", json_pack("{s:s, s:b, s:i, s:f, s:f}", "source", "CLOCK_MONOTONIC", "same_host",
                                              same_host, "rounds", clock_rounds, "monotonic_s", mono, "realtime_s",
                                              real));
    json_t *hw = json_object();
    cpu_info(hw);
    const char *nc = getenv(PS_ENV_NODE_CORES);
    long cores = nc && atol(nc) > 0 ? atol(nc) : sysconf(_SC_NPROCESSORS_ONLN);
    if (cores > 0) json_object_set_new(hw, "cores", json_integer(cores));
    json_object_set_new(hw, "interconnect", interconnect(count_hosts(t)));
    json_object_set_new(m, "hardware", hw);
    /* each rank's host, in rank order: a run may span nodes */
    json_t *hosts = json_array();
    for (int r = 0; r < t->nranks; r++) json_array_append_new(hosts, str_or_null(t->rank[r].host));
    json_object_set_new(m, "hosts", hosts);
    json_object_set_new(m, "structure", ps__structure_json());
    char *text = json_dumps(m, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(m);
    return text;
}
