/*
 * launch.c - finding the MPI launcher and running a job under it, with a
 * timeout, naming the ranks that did not finish.
 */
#include "launch/launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/proc.h"
#include "util/util.h"

/* TCP socket buffers (bytes) when MPI runs over TCP on the loopback only. */
#define PS_EMULATED_TCP_BUF "32768"

int ps_inside_mpi(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE", "PMIX_RANK",
                                 "MPI_LOCALNRANKS", "PARSCOPE_INSIDE_MPI", NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return 1;
    }
    return 0;
}

const char *ps_self_exe(void)
{
    static char buf[PATH_MAX];
    if (!buf[0]) {
        ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        if (n <= 0) snprintf(buf, sizeof buf, "parscope");
        else buf[n] = '\0';
    }
    return buf;
}

static int on_path(const char *name, char *out, size_t len)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) == 0) {
            snprintf(out, len, "%s", name);
            return 1;
        }
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/usr/local/bin:/usr/bin:/bin";
    char *copy = ps_xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char cand[PATH_MAX];
        snprintf(cand, sizeof cand, "%s/%s", *d ? d : ".", name);
        if (access(cand, X_OK) == 0) {
            snprintf(out, len, "%s", cand);
            found = 1;
        }
    }
    free(copy);
    return found;
}

int ps_launcher_resolve(const char *tmpl, int ranks, char ***words, int *nwords, char *err, size_t errlen)
{
    const char *src = "--launcher";
    if (!tmpl || !*tmpl) {
        tmpl = getenv("PARSCOPE_LAUNCHER");
        src = "PARSCOPE_LAUNCHER";
    }
    char found[PATH_MAX];
    char *t;
    if (!tmpl || !*tmpl) {
        /* PARSCOPE_MPIEXEC, else the launcher of the MPI library parscope was
         * built with, else PATH's */
        const char *def = getenv("PARSCOPE_MPIEXEC");
#ifdef PS_DEFAULT_MPIEXEC
        if (!def) def = PS_DEFAULT_MPIEXEC;
#endif
        if (def && def[0] && access(def, X_OK) == 0)
            t = ps_xasprintf("%s -n {ranks}", def);
        else if (on_path("mpiexec", found, sizeof found)) t = ps_xasprintf("%s -n {ranks}", found);
        else if (on_path("mpirun", found, sizeof found)) t = ps_xasprintf("%s -n {ranks}", found);
        else {
            ps_seterr(err, errlen,
                      "no MPI launcher found: neither mpiexec nor mpirun is on PATH (install Open MPI or MPICH, "
                      "or give --launcher 'srun -n {ranks}' or PARSCOPE_LAUNCHER)");
            return -1;
        }
    } else {
        t = ps_xstrdup(tmpl);
    }
    int cap = 16, n = 0, has_ranks = 0;
    char **w = ps_xcalloc((size_t)cap, sizeof *w);
    char *save = NULL;
    for (char *tok = strtok_r(t, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (n + 3 >= cap) {
            cap *= 2;
            w = ps_xrealloc(w, (size_t)cap * sizeof *w);
        }
        char *p = strstr(tok, "{ranks}");
        if (p) {
            has_ranks = 1;
            *p = '\0';
            w[n++] = ps_xasprintf("%s%d%s", tok, ranks, p + 7);
        } else {
            w[n++] = ps_xstrdup(tok);
        }
    }
    free(t);
    if (n == 0) {
        ps_seterr(err, errlen, "%s: the launcher template is empty", src);
        free(w);
        return -1;
    }
    if (!on_path(w[0], found, sizeof found)) {
        ps_seterr(err, errlen, "no MPI launcher found: '%s' (from %s) is not an executable on PATH", w[0], src);
        for (int i = 0; i < n; i++) free(w[i]);
        free(w);
        return -1;
    }
    if (!has_ranks) {
        w[n++] = ps_xstrdup("-n");
        w[n++] = ps_xasprintf("%d", ranks);
    }
    w[n] = NULL;
    *words = w;
    *nwords = n;
    return 0;
}

/* ---- running ------------------------------------------------------------- */

/* Names the ranks that did not finish, from the markers the runtime keeps
 * (see mpi_backend.c): a rank that died of a signal first; else ranks still
 * marked alive that the launcher did not stop. */
static void dead_ranks(const char *dir, int ranks, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!dir) return;
    size_t o = 0;
    int died = 0, alive = 0;
    char alive_list[512] = "";
    size_t ao = 0;
    for (int r = 0; r < ranks && o + 32 < len; r++) {
        char f[PATH_MAX];
        snprintf(f, sizeof f, "%s/rank.%d.died", dir, r);
        if (ps_file_exists(f)) {
            o += (size_t)snprintf(buf + o, len - o, "%s%d", died ? ", " : "", r);
            died++;
        }
        snprintf(f, sizeof f, "%s/rank.%d.alive", dir, r);
        if (ps_file_exists(f) && ao + 16 < sizeof alive_list) {
            ao += (size_t)snprintf(alive_list + ao, sizeof alive_list - ao, "%s%d", alive ? ", " : "", r);
            alive++;
        }
    }
    if (died) {
        char *list = ps_xstrdup(buf);
        snprintf(buf, len, "%s %.200s died (killed by a signal)", died > 1 ? "ranks" : "rank", list);
        free(list);
    } else if (alive) {
        snprintf(buf, len, "%s %.200s did not finish", alive > 1 ? "ranks" : "rank", alive_list);
    }
}

/* Remembers the first rank the launcher reports dead, from its standard
 * error as it passes through: Open MPI "process rank N with PID P on node H
 * exited on signal S (Name)"; MPICH (hydra) "RANK N PID P RUNNING AT H"
 * followed by "KILLED BY SIGNAL: S (Name)" or "EXIT CODE: C". */
typedef struct errscan {
    int  reported_rank;
    int  hydra_rank;
    char reported_how[128];
} errscan;

static void scan_line(const char *line, void *ctx)
{
    errscan *es = ctx;
    const char *p;
    int rank;
    if (es->reported_rank >= 0) return;
    if ((p = strstr(line, "process rank ")) && sscanf(p, "process rank %d", &rank) == 1) {
        const char *sig = strstr(p, "exited on signal ");
        es->reported_rank = rank;
        char how[104] = "";
        if (sig) {
            snprintf(how, sizeof how, "%.100s", sig + 10);
            size_t l = strlen(how);
            if (l && how[l - 1] == '.') how[l - 1] = '\0';
        }
        if (sig) snprintf(es->reported_how, sizeof es->reported_how, "died (%s)", how);
        else snprintf(es->reported_how, sizeof es->reported_how, "failed");
    } else if ((p = strstr(line, "RANK ")) && strstr(line, " PID ") && sscanf(p, "RANK %d", &rank) == 1) {
        es->hydra_rank = rank + 1; /* +1: 0 means none */
    } else if (es->hydra_rank && (p = strstr(line, "KILLED BY SIGNAL: "))) {
        es->reported_rank = es->hydra_rank - 1;
        snprintf(es->reported_how, sizeof es->reported_how, "died (killed by signal %.80s)", p + 18);
    }
}

/* The environment of a job: what Open MPI needs to run here, unless the
 * user set it.  Returns the number of entries put in env (NAME=VALUE,
 * allocated). */
static int job_env(const ps_launch_opts *o, char **env)
{
    int n = 0;
#define DEFAULT_ENV(name, value) if (!getenv(name)) env[n++] = ps_xstrdup(name "=" value)
    /* Open MPI refuses root and more ranks than cores unless told */
    if (geteuid() == 0) {
        DEFAULT_ENV("OMPI_ALLOW_RUN_AS_ROOT", "1");
        DEFAULT_ENV("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    DEFAULT_ENV("OMPI_MCA_rmaps_base_oversubscribe", "1");
    /* MPI forced onto TCP over the loopback is a network emulated on one
     * machine (../shared/tools/slownet): a shaping queue (tbf) drops any
     * packet larger than its burst, and loopback segments reach 64 KiB,
     * so large messages would stall until TCP gives up.  Small socket
     * buffers keep segments small there; real networks are untouched. */
    const char *ifs = getenv("OMPI_MCA_btl_tcp_if_include");
    if (ifs && !strcmp(ifs, "lo")) {
        DEFAULT_ENV("OMPI_MCA_btl_tcp_sndbuf", PS_EMULATED_TCP_BUF);
        DEFAULT_ENV("OMPI_MCA_btl_tcp_rcvbuf", PS_EMULATED_TCP_BUF);
    }
    const char *nolocal = getenv("MPIR_CVAR_NOLOCAL");
    if (nolocal && !strcmp(nolocal, "1")) {
        DEFAULT_ENV("UCX_TCP_SNDBUF", PS_EMULATED_TCP_BUF);
        DEFAULT_ENV("UCX_TCP_RCVBUF", PS_EMULATED_TCP_BUF);
    }
    DEFAULT_ENV("PARSCOPE_INSIDE_MPI", "1");
#undef DEFAULT_ENV
    if (o->status_dir) env[n++] = ps_xasprintf("PARSCOPE_STATUS_DIR=%s", o->status_dir);
    env[n] = NULL;
    return n;
}

int ps_launch(const ps_launch_opts *o, char *const argv[], ps_launch_result *r)
{
    memset(r, 0, sizeof *r);
    char **words;
    int nwords;
    if (ps_launcher_resolve(o->launcher, o->ranks, &words, &nwords, r->message, sizeof r->message)) return 2;
    int nargs = 0;
    while (argv[nargs]) nargs++;
    char **full = ps_xcalloc((size_t)(nwords + nargs + 1), sizeof *full);
    for (int i = 0; i < nwords; i++) full[i] = words[i];
    for (int i = 0; i < nargs; i++) full[nwords + i] = argv[i];
    if (getenv("PARSCOPE_DEBUG")) {
        fprintf(stderr, "parscope[debug]: launching:");
        for (int i = 0; full[i]; i++) fprintf(stderr, " %s", full[i]);
        fputc('\n', stderr);
    }

    /* clear markers of an earlier job in the same status directory */
    if (o->status_dir)
        for (int i = 0; i < o->ranks; i++) {
            static const char *kinds[] = {"alive", "died", "stopped"};
            for (int k = 0; k < 3; k++) {
                char f[PATH_MAX];
                snprintf(f, sizeof f, "%s/rank.%d.%s", o->status_dir, i, kinds[k]);
                unlink(f);
            }
        }

    /* the launcher's stderr passes through the runner, which shows it to the
     * user and lets parscope read which rank it reports dead */
    char *env[16];
    int nenv = job_env(o, env);
    errscan es = {.reported_rank = -1};
    ps_proc_opts po = {.timeout = o->timeout, .out = o->quiet ? "/dev/null" : NULL, .echo = 1, .env = env,
                       .on_line = scan_line, .ctx = &es};
    ps_proc_result pr;
    ps_proc_run(full, &po, &pr);
    for (int i = 0; i < nenv; i++) free(env[i]);
    r->elapsed = pr.elapsed;
    r->exit_code = pr.status;
    r->timed_out = pr.timed_out;
    /* ranks stop themselves just before the limit (status 124) after saying
     * what they wait on: that is the job's timeout too */
    if (!r->timed_out && o->timeout > 0 && r->exit_code == 124) r->timed_out = 1;
    int rc = 0;
    char dead[300];
    if (es.reported_rank >= 0)
        snprintf(dead, sizeof dead, "rank %d %s", es.reported_rank, es.reported_how);
    else
        dead_ranks(o->status_dir, o->ranks, dead, sizeof dead);
    if (!pr.started) {
        ps_proc_describe(&pr, full[0], r->message, sizeof r->message);
        rc = 1;
    } else if (r->timed_out) {
        snprintf(r->message, sizeof r->message, "the job exceeded its time limit of %g s and was stopped%s%s%s",
                 o->timeout, dead[0] ? " (" : "", dead, dead[0] ? ")" : "");
        rc = 1;
    } else if (r->exit_code == 127) {
        snprintf(r->message, sizeof r->message, "the launcher '%s' could not run the program", full[0]);
        rc = 1;
    } else if (r->exit_code != 0) {
        if (dead[0])
            snprintf(r->message, sizeof r->message, "the job failed (exit status %d): %s", r->exit_code, dead);
        else
            snprintf(r->message, sizeof r->message, "the job failed (exit status %d)", r->exit_code);
        rc = 1;
    }
    ps_proc_result_free(&pr);
    for (int i = 0; i < nwords; i++) free(words[i]);
    free(words);
    free(full);
    return rc;
}

void ps_mpi_library(char *buf, size_t len)
{
    static char cache[128];
    if (!cache[0]) {
        char path[PATH_MAX];
        snprintf(cache, sizeof cache, "unknown");
        int have = 0;
#ifdef PS_DEFAULT_MPIEXEC
        if (PS_DEFAULT_MPIEXEC[0] && access(PS_DEFAULT_MPIEXEC, X_OK) == 0) {
            snprintf(path, sizeof path, "%s", PS_DEFAULT_MPIEXEC);
            have = 1;
        }
#endif
        if (have || on_path("mpiexec", path, sizeof path) || on_path("mpirun", path, sizeof path)) {
            char *argv[] = {path, "--version", NULL};
            ps_proc_opts po = {.timeout = 10, .out_to_err = 1};
            ps_proc_result pr;
            ps_proc_run(argv, &po, &pr);
            for (char *line = pr.err, *next; line && *line; line = next) {
                next = line + strcspn(line, "\n");
                if (*next) *next++ = '\0';
                char *v;
                if ((v = strstr(line, "(OpenRTE)")) || (v = strstr(line, "(Open MPI)"))) {
                    v = strchr(v, ')') + 1;
                    while (*v == ' ') v++;
                    snprintf(cache, sizeof cache, "Open MPI %s", v);
                    break;
                }
                if ((v = strstr(line, "Version:"))) {
                    v += 8;
                    while (*v == ' ') v++;
                    snprintf(cache, sizeof cache, "MPICH %s", v);
                    break;
                }
            }
            ps_proc_result_free(&pr);
        }
    }
    snprintf(buf, len, "%s", cache);
}
