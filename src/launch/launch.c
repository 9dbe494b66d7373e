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

#include "launch/meta.h"
#include "launch/template.h"
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

static int on_path(const char *name, char *out, size_t len) { return ps_find_program(name, out, len); }

int ps_launcher_check(const char *tmpl, char *err, size_t errlen)
{
    const char *src = "--launcher";
    if (!tmpl || !*tmpl) {
        tmpl = getenv("PARSCOPE_LAUNCHER");
        src = "PARSCOPE_LAUNCHER";
    }
    if (!tmpl || !*tmpl) return 0;
    return ps_template_check(tmpl, src, err, errlen);
}

int ps_launcher_resolve(const char *tmpl, int ranks, char ***words, int *nwords, char **hostfile, char *err,
                        size_t errlen)
{
    const char *src = "--launcher";
    *hostfile = NULL;
    if (!tmpl || !*tmpl) {
        tmpl = getenv("PARSCOPE_LAUNCHER");
        src = "PARSCOPE_LAUNCHER";
    }
    char found[PATH_MAX];
    char *t;
    if (!tmpl || !*tmpl) {
        /* a variable that names a program is obeyed or refused, never passed over */
        const char *def = getenv("PARSCOPE_MPIEXEC");
        if (def && *def && !on_path(def, found, sizeof found)) {
            ps_seterr(err, errlen, "PARSCOPE_MPIEXEC=%s: no such program (it names the MPI launcher, e.g. "
                                   "/usr/bin/mpiexec)", def);
            return -1;
        }
        /* a path is one word, whatever it holds */
        if (ps_default_mpiexec(found, sizeof found)) {
            ps_seterr(err, errlen,
                      "no MPI launcher found: neither mpiexec nor mpirun is on PATH (install Open MPI or MPICH, "
                      "or give --launcher 'srun -n {ranks}' or PARSCOPE_LAUNCHER)");
            return -1;
        }
        char **w = ps_xcalloc(4, sizeof *w);
        w[0] = ps_xstrdup(found);
        w[1] = ps_xstrdup("-n");
        w[2] = ps_xasprintf("%d", ranks);
        *words = w;
        *nwords = 3;
        return 0;
    }
    t = ps_xstrdup(tmpl);
    char **w;
    int n, has_ranks;
    if (ps_template_expand(t, src, ranks, &w, &n, &has_ranks, hostfile, err, errlen)) {
        free(t);
        return -1;
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
        if (*hostfile) {
            unlink(*hostfile);
            free(*hostfile);
            *hostfile = NULL;
        }
        return -1;
    }
    w = ps_xrealloc(w, (size_t)(n + 3) * sizeof *w);
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

/* Adds rank r to a list of ranks in buf (at *o; *n ranks so far). */
static void list_rank(char *buf, size_t len, size_t *o, int *n, int r)
{
    if (*o + 16 >= len) return;
    *o += (size_t)snprintf(buf + *o, len - *o, "%s%d", *n ? ", " : "", r);
    (*n)++;
}

/* Names the ranks that did not finish, from the markers the runtime keeps
 * (see mpi_backend.c, rt.c's ps_abort): ranks that died of a signal first;
 * else ranks that ended the job with an account of their own; else ranks
 * still marked alive that the launcher did not stop. */
static void dead_ranks(const char *dir, int ranks, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!dir) return;
    static const char *kinds[] = {"died", "failed", "alive"};
    static const char *says[] = {"died (killed by a signal)", "ended the job (%s account is above)", "did not finish"};
    char lists[3][512] = {"", "", ""};
    size_t o[3] = {0, 0, 0};
    int n[3] = {0, 0, 0};
    for (int r = 0; r < ranks; r++)
        for (int k = 0; k < 3; k++) {
            char f[PATH_MAX];
            snprintf(f, sizeof f, "%s/rank.%d.%s", dir, r, kinds[k]);
            if (ps_file_exists(f)) list_rank(lists[k], sizeof lists[k], &o[k], &n[k], r);
        }
    for (int k = 0; k < 3; k++)
        if (n[k]) {
            char say[64];
            snprintf(say, sizeof say, says[k], n[k] > 1 ? "their" : "its");
            snprintf(buf, len, "%s %.200s %s", n[k] > 1 ? "ranks" : "rank", lists[k], say);
            return;
        }
}

/* "... the frame above N more times", for a recursion's repeated frame. */
static void say_repeats(int repeats)
{
    if (repeats) fprintf(stderr, "    ... the frame above %d more time%s\n", repeats, repeats > 1 ? "s" : "");
}

/* Shows where the ranks that died of a signal were struck, from what their
 * runtime appended to the died marker (mpi_backend.c: the signal, the
 * address, the stack), under a line naming the rank; at most
 * PS_LAUNCH_STACKS ranks. */
static void show_stacks(const char *dir, int ranks)
{
    if (!dir) return;
    int shown = 0;
    for (int r = 0; r < ranks && shown < PS_LAUNCH_STACKS; r++) {
        char f[PATH_MAX], e[64];
        snprintf(f, sizeof f, "%s/rank.%d.died", dir, r);
        if (!ps_file_exists(f)) continue;
        char *text = ps_read_file(f, NULL, e, sizeof e);
        /* its first line is the marker's own: the process and its host */
        char *first_end = text ? strchr(text, '\n') : NULL;
        if (first_end && first_end[1]) {
            *first_end = '\0';
            int pid = 0;
            char host[64] = "";
            (void)sscanf(text, "%d %63s", &pid, host);
            fprintf(stderr, "parscope: rank %d (process %d on %s) when it died: ", r, pid, host[0] ? host : "?");
            char *line = first_end + 1, *next, *prev = NULL;
            int prevlen = 0, repeats = 0;
            fprintf(stderr, "%.*s\n", (int)strcspn(line, "\n"), line);
            for (line += strcspn(line, "\n"); *line; line = next) {
                if (*line == '\n') line++;
                if (!*line) break;
                next = line + strcspn(line, "\n");
                int n = (int)(next - line);
                if (n == 0) continue;
                /* a recursion's frames once, with their count */
                if (prev && n == prevlen && !strncmp(line, prev, (size_t)n)) {
                    repeats++;
                    continue;
                }
                say_repeats(repeats);
                repeats = 0;
                fprintf(stderr, "    %.*s\n", n, line);
                prev = line;
                prevlen = n;
            }
            say_repeats(repeats);
            fprintf(stderr, "    (a frame's function and line: addr2line -f -e FILE OFFSET, its +OFFSET, or its [ADDRESS] where "
                            "none is shown)\n");
            shown++;
        }
        free(text);
    }
}

/* What passes through the launcher's standard error: shown as it comes,
 * except the launcher's own framed notices (Open MPI's boxes of dashes,
 * MPICH's of '=' signs), held until the job ends and shown then only if
 * parscope cannot say itself what happened (a rank named dead, a time
 * limit, an interruption, a rank's own "parscope: rank N: ..." line, a bad
 * value a rank reported).  Also remembers the first rank the launcher
 * reports dead: Open MPI "process rank N with PID P on node H exited on
 * signal S (Name)"; MPICH (hydra) "RANK N PID P RUNNING AT H" followed by
 * "KILLED BY SIGNAL: S (Name)" or "EXIT CODE: C"; Slurm "srun: error: H: task N:
 * Killed". */
typedef struct errscan {
    int    reported_rank;
    int    hydra_rank;
    char   hydra_host[64];
    char   reported_how[192];
    int    slow[64];       /* ranks that said they timed out */
    int    nslow;
    int    rank_said;      /* a rank explained itself ("parscope: rank N: ...") */
    unsigned char *said_by; /* [ranks]: which ranks' own lines were seen */
    int    ranks;
    char   frame;          /* inside a box framed by lines of this character, else 0 */
    char  *held;           /* the boxes held back */
    size_t nheld;
} errscan;

static int int_order(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A line of one repeated '-' or '=': a box's frame. */
static char frame_of(const char *line)
{
    size_t n = strlen(line);
    if (n < 20 || (line[0] != '-' && line[0] != '=')) return 0;
    for (size_t i = 1; i < n; i++)
        if (line[i] != line[0]) return 0;
    return line[0];
}

static void hold(errscan *es, const char *line)
{
    size_t n = strlen(line);
    es->held = ps_xrealloc(es->held, es->nheld + n + 2);
    memcpy(es->held + es->nheld, line, n);
    es->nheld += n;
    es->held[es->nheld++] = '\n';
    es->held[es->nheld] = '\0';
}

static void scan_line(const char *line, void *ctx)
{
    errscan *es = ctx;
    const char *p;
    int rank;
    char host[64], how[64];
    char f = frame_of(line);
    /* Open MPI's footnotes to its boxes: "[host:pid] 1 more process has sent
     * help message ...", "Set MCA parameter "orte_base_help_aggregate" ...",
     * and its launcher's note that a box it was to show was lost as the job
     * aborted: "[host:pid] [[job,0],0] ORTE_ERROR_LOG: Out of resource in file
     * ../../../orte/util/show_help.c at line 501" */
    int footnote = line[0] == '[' && (strstr(line, "sent help message") || strstr(line, "orte_base_help_aggregate") ||
                                      strstr(line, "] ORTE_ERROR_LOG: "));
    if (footnote) {
        hold(es, line);
    } else if (f || es->frame) {
        hold(es, line);
        if (f && es->frame == f) es->frame = 0;
        else if (f && !es->frame) es->frame = f;
    } else {
        fprintf(stderr, "%s\n", line);
        if (!strncmp(line, "parscope: rank ", 15)) {
            es->rank_said = 1;
            if (sscanf(line + 15, "%d", &rank) == 1 && rank >= 0 && rank < es->ranks) es->said_by[rank] = 1;
        }
    }
    /* the ranks' own lines (runtime/mpi_backend.c, rt.c), which reach the
     * launcher from any host: "parscope: rank R on HOST: killed by SIGSEGV",
     * "parscope: rank R: timed out after ..." */
    if ((p = strstr(line, "parscope: rank ")) && sscanf(p, "parscope: rank %d: timed out", &rank) == 1 &&
        strstr(p, ": timed out") && es->nslow < (int)(sizeof es->slow / sizeof es->slow[0])) {
        es->slow[es->nslow++] = rank;
        return;
    }
    if (es->reported_rank >= 0) return;
    if (p && sscanf(p, "parscope: rank %d on %63[^:]: killed by %31s", &rank, host, how) == 3) {
        es->reported_rank = rank;
        snprintf(es->reported_how, sizeof es->reported_how, "died on %s (killed by %s)", host, how);
    } else if ((p = strstr(line, "srun: error: ")) && sscanf(p, "srun: error: %63[^:]: task %d: %63[^\n]", host, &rank,
                                                                 how) == 3) {
        /* Slurm: "srun: error: HOST: task R: Segmentation fault (core dumped)" */
        es->reported_rank = rank;
        snprintf(es->reported_how, sizeof es->reported_how, "died on %s (%s)", host, how);
    } else if ((p = strstr(line, "process rank ")) && sscanf(p, "process rank %d", &rank) == 1) {
        const char *sig = strstr(p, "exited on signal ");
        const char *on = strstr(p, " on node ");
        es->reported_rank = rank;
        if (!on || sscanf(on, " on node %63s", host) != 1) host[0] = '\0';
        char how[104] = "";
        if (sig) {
            snprintf(how, sizeof how, "%.100s", sig + 10);
            how[strcspn(how, "\n")] = '\0';
            size_t l = strlen(how);
            if (l && how[l - 1] == '.') how[l - 1] = '\0';
        }
        if (sig)
            snprintf(es->reported_how, sizeof es->reported_how, "died%s%.63s (%.100s)", host[0] ? " on " : "", host,
                     how);
        else snprintf(es->reported_how, sizeof es->reported_how, "failed%s%s", host[0] ? " on " : "", host);
    } else if ((p = strstr(line, "RANK ")) && strstr(line, " PID ") && sscanf(p, "RANK %d", &rank) == 1) {
        es->hydra_rank = rank + 1; /* +1: 0 means none */
        const char *at = strstr(p, " RUNNING AT ");
        if (!at || sscanf(at, " RUNNING AT %63s", es->hydra_host) != 1) es->hydra_host[0] = '\0';
    } else if (es->hydra_rank && (p = strstr(line, "KILLED BY SIGNAL: "))) {
        es->reported_rank = es->hydra_rank - 1;
        snprintf(es->reported_how, sizeof es->reported_how, "died%s%.64s (killed by signal %.40s)",
                 es->hydra_host[0] ? " on " : "", es->hydra_host, p + 18);
        es->reported_how[strcspn(es->reported_how, "\n")] = '\0';
    }
}

/* The first line of rank r's status file of this kind in dir (rank.R.KIND),
 * or NULL when there is none, or it is empty.  Free it. */
static char *status_line(const char *dir, int r, const char *kind)
{
    char f[PATH_MAX], e[64];
    snprintf(f, sizeof f, "%s/rank.%d.%s", dir, r, kind);
    if (!ps_file_exists(f)) return NULL;
    char *text = ps_read_file(f, NULL, e, sizeof e);
    if (text) text[strcspn(text, "\n")] = '\0';
    if (text && !text[0]) {
        free(text);
        text = NULL;
    }
    return text;
}

/* Shows the lines of ranks that ended the job (runtime ps_abort: "parscope:
 * rank N: MPI failed ...") that did not reach the launcher's stderr: an MPI's
 * abort can end the job before a rank's output is forwarded.  The runtime
 * also writes the line to rank.N.failed.  Returns how many were shown. */
static int show_lost_lines(const char *dir, const errscan *es)
{
    if (!dir) return 0;
    int shown = 0;
    for (int r = 0; r < es->ranks; r++) {
        if (es->said_by[r]) continue;
        char *text = status_line(dir, r, "failed");
        if (text) {
            fprintf(stderr, "%s\n", text);
            shown++;
        }
        free(text);
    }
    return shown;
}

int ps_launch_bad_input(const char *dir, int ranks, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!dir) return 0;
    int found = 0;
    for (int r = 0; r < ranks; r++) {
        char f[PATH_MAX];
        snprintf(f, sizeof f, "%s/rank.%d.bad", dir, r);
        if (!ps_file_exists(f)) continue;
        /* the first rank's message that says something */
        if (!buf[0]) {
            char *text = status_line(dir, r, "bad");
            if (text) snprintf(buf, len, "%s", text);
            free(text);
        }
        found++;
    }
    if (found > 1 && strlen(buf) + 40 < len)
        snprintf(buf + strlen(buf), len - strlen(buf), " (%d other rank%s said so too before the job ended)", found - 1,
                 found > 2 ? "s" : "");
    return found;
}

/* ---- how many ranks this machine can start ---------------------------------- */

static long read_long(const char *path)
{
    FILE *f = fopen(path, "r");
    long v = -1;
    if (f && fscanf(f, "%ld", &v) != 1) v = -1;
    if (f) fclose(f);
    return v;
}

/* Whether the job starts on this machine only: the default launcher, no
 * batch allocation, no host file. */
static int local_launch(const ps_launch_opts *o)
{
    const char *tmpl = getenv("PARSCOPE_LAUNCHER");
    if ((o->launcher && *o->launcher) || (tmpl && *tmpl)) return 0;
    static const char *batch[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "PE_HOSTFILE", "COBALT_JOBID",
                                  "FLUX_JOB_ID", "OMPI_MCA_orte_default_hostfile", "OMPI_MCA_orte_default_dash_host",
                                  "OMPI_MCA_rmaps_base_mapping_policy", "HYDRA_HOST_FILE", NULL};
    for (int i = 0; batch[i]; i++) {
        const char *v = getenv(batch[i]);
        if (v && *v) return 0;
    }
    return 1;
}

int ps_launch_capacity(const ps_launch_opts *o, char *msg, size_t len)
{
    if (!local_launch(o)) return -1;
    /* memory: PS_LAUNCH_RANK_MEMORY per rank at least; tasks: a free pid
     * for each of a rank's threads */
    double avail = ps_meminfo_bytes("MemAvailable");
    long pid_max = read_long("/proc/sys/kernel/pid_max"), tmax = read_long("/proc/sys/kernel/threads-max");
    long limit = pid_max > 0 && tmax > 0 ? (pid_max < tmax ? pid_max : tmax) : (pid_max > 0 ? pid_max : tmax);
    long tasks = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        double a, b, c;
        long running;
        if (fscanf(f, "%lf %lf %lf %ld/%ld", &a, &b, &c, &running, &tasks) != 5) tasks = -1;
        fclose(f);
    }
    long by_mem = avail > 0 ? (long)(avail / PS_LAUNCH_RANK_MEMORY) : -1;
    long by_tasks = limit > 0 && tasks >= 0 ? (limit - tasks) / PS_LAUNCH_RANK_TASKS : -1;
    long cap = by_mem >= 0 && (by_tasks < 0 || by_mem <= by_tasks) ? by_mem : by_tasks;
    if (cap < 0) return -1;
    if (cap < 1) cap = 1;
    if (msg)
        snprintf(msg, len, "this machine can start about %ld ranks (%.1f GiB of memory available at %d MiB per rank; "
                 "%ld free process ids at %d per rank)", cap, avail / (1 << 30), PS_LAUNCH_RANK_MEMORY >> 20,
                 limit > 0 && tasks >= 0 ? limit - tasks : -1L, PS_LAUNCH_RANK_TASKS);
    return cap > INT_MAX ? INT_MAX : (int)cap;
}

/* The value of KEY in Open MPI's params files, the user's (~/.openmpi/mca-params.conf) before the
 * system's (Debian's /etc/openmpi/openmpi-mca-params.conf), as Open MPI reads them: the first
 * "KEY = VALUE" line, blanks around the value removed.  1 and the value in buf, or 0. */
static int ompi_param_file_value(const char *key, char *buf, size_t len)
{
    const char *home = getenv("HOME");
    char user[PATH_MAX];
    snprintf(user, sizeof user, "%s/.openmpi/mca-params.conf", home ? home : "/nonexistent");
    const char *files[] = {user, "/etc/openmpi/openmpi-mca-params.conf", NULL};
    size_t n = strlen(key);
    for (int f = 0; files[f]; f++) {
        FILE *fp = fopen(files[f], "r");
        if (!fp) continue;
        char line[512];
        int found = 0;
        while (!found && fgets(line, sizeof line, fp)) {
            const char *p = line + strspn(line, " \t");
            if (strncmp(p, key, n) || !strchr(" \t=", p[n])) continue;
            p += n + strspn(p + n, " \t");
            if (*p != '=') continue;
            p += 1 + strspn(p + 1, " \t");
            size_t v = strcspn(p, "\r\n#");
            while (v && strchr(" \t", p[v - 1])) v--;
            snprintf(buf, len, "%.*s", (int)v, p);
            found = 1;
        }
        fclose(fp);
        if (found) return 1;
    }
    return 0;
}

/* Whether the user placed Open MPI's session directory already: Open MPI
 * refuses orte_tmpdir_base beside orte_local_tmpdir_base or
 * orte_remote_tmpdir_base (it exits), and the environment would override a
 * params file's choice.  The variables, or a line of the user's or the
 * system's mca-params.conf. */
static int session_dir_chosen(void)
{
    static const char *keys[] = {"orte_tmpdir_base", "orte_local_tmpdir_base", "orte_remote_tmpdir_base",
                                 "orte_top_session_dir", NULL};
    char v[256];
    for (int i = 0; keys[i]; i++) {
        char var[64];
        snprintf(var, sizeof var, "OMPI_MCA_%s", keys[i]);
        if (getenv(var) || ompi_param_file_value(keys[i], v, sizeof v)) return 1;
    }
    return 0;
}

/* Open MPI's cm PML opens the PSM and PSM2 MTLs at every process's start, and their libraries
 * (libpsm_infinipath, libpsm2) first calibrate a timer, asleep for about 100 ms each, before they
 * find no TrueScale or Omni-Path adapter and close: 0.2 s of every rank's start and of every
 * launch on Debian 12's Open MPI (a 3-trial run of 2 ranks: 1.39 s, 0.77 s without them;
 * docs/BENCHMARKS.md).  Where the machine has no such adapter (no qib or hfi1 device in
 * /sys/class/infiniband) a job's environment excludes them, with the exclusions the params files
 * already make (Debian's "mtl = ^ofi"): the PML Open MPI chooses is the one it chose anyway.  A
 * choice of the MTLs or the PMLs, in the environment or a params file, is left as it is.
 * 1 and OMPI_MCA_mtl=VALUE in buf, or 0. */
static int psm_exclusion(char *buf, size_t len)
{
    if (getenv("OMPI_MCA_mtl") || getenv("OMPI_MCA_pml") || getenv("OMPI_MCA_mca_param_files")) return 0;
    char pml[256], mtl[256];
    /* a list of PMLs to use (not one to exclude) never opens cm unless it names it */
    if (ompi_param_file_value("pml", pml, sizeof pml) && pml[0] != '^') return 0;
    int have = ompi_param_file_value("mtl", mtl, sizeof mtl);
    if (have && mtl[0] != '^') return 0;
    DIR *d = opendir("/sys/class/infiniband");
    struct dirent *e;
    int adapter = 0;
    while (d && (e = readdir(d)))
        adapter |= !strncmp(e->d_name, "qib", 3) || !strncmp(e->d_name, "hfi1", 4);
    if (d) closedir(d);
    if (adapter) return 0;
    if (have && mtl[1]) snprintf(buf, len, "OMPI_MCA_mtl=%s,psm,psm2", mtl);
    else snprintf(buf, len, "OMPI_MCA_mtl=^psm,psm2");
    return 1;
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
    char mtl[300];
    if (psm_exclusion(mtl, sizeof mtl)) env[n++] = ps_xstrdup(mtl);
    DEFAULT_ENV("PARSCOPE_INSIDE_MPI", "1");
    /* every rank binds its libraries' functions at load: bound lazily, the
     * first call of each (fmod from the program, memcpy from inside MPI)
     * looks its symbol up through every library MPI loads, 20-60 us inside
     * the timed interval of whatever ran first; this covers the built-in
     * workloads, which run in this binary, and the libraries' own calls */
    DEFAULT_ENV("LD_BIND_NOW", "1");
#undef DEFAULT_ENV
    if (o->status_dir) env[n++] = ps_xasprintf("PARSCOPE_STATUS_DIR=%s", o->status_dir);
    env[n] = NULL;
    return n;
}

static void drop_hostfile(char *path)
{
    if (!path) return;
    unlink(path);
    free(path);
}

int ps_launch(const ps_launch_opts *o, char *const argv[], ps_launch_result *r)
{
    memset(r, 0, sizeof *r);
    /* a count this machine cannot start would only wait out the time limit */
    char cap_msg[512];
    int cap = ps_launch_capacity(o, cap_msg, sizeof cap_msg);
    if (cap > 0 && o->ranks > cap) {
        snprintf(r->message, sizeof r->message, "-n %d: %s, not %d; on a cluster give a launcher (--launcher 'srun -n {ranks}')",
                 o->ranks, cap_msg, o->ranks);
        return 2;
    }
    char **words;
    int nwords;
    char *hostfile;
    if (ps_launcher_resolve(o->launcher, o->ranks, &words, &nwords, &hostfile, r->message, sizeof r->message))
        return 2;
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
            static const char *kinds[] = {"alive", "died", "stopped", "bad", "failed"};
            for (int k = 0; k < 5; k++) {
                char f[PATH_MAX];
                snprintf(f, sizeof f, "%s/rank.%d.%s", o->status_dir, i, kinds[k]);
                unlink(f);
            }
        }

    /* the launcher's stderr passes through the runner and scan_line, which
     * shows it to the user and lets parscope read which rank it reports dead */
    char *env[16];
    int nenv = job_env(o, env);
    /* Open MPI 4 starts every job by making $TMPDIR/ompi.HOST.UID and ends it by
     * removing what it made there: two jobs started at once by one user can
     * race on it ("A call to mkdir was unable to create the desired
     * directory ... File exists", orte_init failed), as parscope's own test
     * suite, two jobs at a time, did.  A job on this machine alone gets a
     * session directory of its own (other launchers, and jobs in a batch
     * allocation, which may span nodes where the folder would be left
     * behind, keep theirs, as do users who placed it themselves). */
    char *session = NULL;
    if (local_launch(o) && !hostfile && !session_dir_chosen()) {
        char serr[256];
        session = ps_mktempdir("ps-ompi", serr, sizeof serr);
        if (session) env[nenv++] = ps_xasprintf("OMPI_MCA_orte_tmpdir_base=%s", session);
        env[nenv] = NULL;
    }
    errscan es = {.reported_rank = -1, .ranks = o->ranks, .said_by = ps_xcalloc((size_t)o->ranks + 1, 1)};
    /* a program that stops itself at its limit (the runtime's --timeout) is
     * given time to: its launcher then ends the job in its own way, and is
     * not signalled in the middle of doing so (Open MPI's mpiexec crashes) */
    double limit = o->timeout > 0 ? o->timeout + (o->self_stop ? PS_LAUNCH_STOP_MARGIN : 0) : 0;
    ps_proc_opts po = {.timeout = limit, .out = o->quiet ? "/dev/null" : NULL, .env = env, .on_line = scan_line,
                       .ctx = &es};
    ps_proc_result pr;
    ps_proc_run(full, &po, &pr);
    for (int i = 0; i < nenv; i++) free(env[i]);
    if (session) {
        ps_rmtree(session);
        free(session);
    }
    r->elapsed = pr.elapsed;
    r->exit_code = pr.status;
    r->timed_out = pr.timed_out;
    r->interrupted = pr.interrupted;
    /* ranks stop themselves at the limit (status 124) after saying what they
     * wait on: that is the job's timeout too */
    if (!r->timed_out && o->timeout > 0 && r->exit_code == 124) r->timed_out = 1;
    int rc = 0;
    char dead[300], bad[700];
    if (es.reported_rank >= 0)
        snprintf(dead, sizeof dead, "rank %d %s", es.reported_rank, es.reported_how);
    else if (es.nslow == 0)
        dead_ranks(o->status_dir, o->ranks, dead, sizeof dead);
    else
        dead[0] = '\0';
    if (!dead[0] && es.nslow > 0) {
        /* the ranks' own timeout lines: complete where markers are not (a
         * rank on another host leaves its marker there) */
        /* in rank order, whichever line came first */
        qsort(es.slow, (size_t)es.nslow, sizeof es.slow[0], int_order);
        size_t d = (size_t)snprintf(dead, sizeof dead, "%s ", es.nslow > 1 ? "ranks" : "rank");
        for (int i = 0; i < es.nslow && d + 16 < sizeof dead; i++)
            d += (size_t)snprintf(dead + d, sizeof dead - d, "%s%d", i ? ", " : "", es.slow[i]);
        snprintf(dead + d, sizeof dead - d, " did not finish");
    }
    int nbad = ps_launch_bad_input(o->status_dir, o->ranks, bad, sizeof bad);
    if (pr.started && r->exit_code != 0 && !r->interrupted) {
        if (show_lost_lines(o->status_dir, &es)) es.rank_said = 1;
        show_stacks(o->status_dir, o->ranks);
    }
    if (!pr.started) {
        ps_proc_describe(&pr, full[0], r->message, sizeof r->message);
        rc = 1;
    } else if (nbad) {
        /* a rank refused a value of the program (a negative size, ...): bad input */
        snprintf(r->message, sizeof r->message, "%s", bad);
        rc = 2;
    } else if (r->interrupted) {
        snprintf(r->message, sizeof r->message, "the job was stopped (parscope was interrupted)");
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
            snprintf(r->message, sizeof r->message, "the job failed (exit status %d)%s", r->exit_code,
                     es.nheld && !es.rank_said ? "; the launcher's account is above" : "");
        rc = 1;
    }
    /* the launcher's framed notices, unless parscope has said it better */
    int explained = r->timed_out || r->interrupted || nbad || dead[0] || es.rank_said;
    if (es.nheld && !explained) fputs(es.held, stderr);
    free(es.held);
    free(es.said_by);
    if (pr.orphans) ps_debug("the job left %d process(es) running; stopped", pr.orphans);
    ps_proc_result_free(&pr);
    for (int i = 0; i < nwords; i++) free(words[i]);
    free(words);
    free(full);
    drop_hostfile(hostfile);
    return rc;
}

int ps_default_mpiexec(char *out, size_t len)
{
    const char *def = getenv("PARSCOPE_MPIEXEC");
#ifdef PS_DEFAULT_MPIEXEC
    if (!def) def = PS_DEFAULT_MPIEXEC;
#endif
    if (def && def[0] && access(def, X_OK) == 0) {
        snprintf(out, len, "%s", def);
        return 0;
    }
    return on_path("mpiexec", out, len) || on_path("mpirun", out, len) ? 0 : -1;
}

void ps_mpiexec_library(const char *mpiexec, char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    char *argv[] = {(char *)mpiexec, "--version", NULL};
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
            snprintf(buf, len, "Open MPI %s", v);
            break;
        }
        if ((v = strstr(line, "Version:"))) {
            v += 8;
            while (*v == ' ') v++;
            snprintf(buf, len, "MPICH %s", v);
            break;
        }
    }
    ps_proc_result_free(&pr);
}

void ps_mpi_library(char *buf, size_t len)
{
    static char cache[128];
    if (!cache[0]) {
        char path[PATH_MAX];
        int have = 0;
#ifdef PS_DEFAULT_MPIEXEC
        if (PS_DEFAULT_MPIEXEC[0] && access(PS_DEFAULT_MPIEXEC, X_OK) == 0) {
            snprintf(path, sizeof path, "%s", PS_DEFAULT_MPIEXEC);
            have = 1;
        }
#endif
        if (have || on_path("mpiexec", path, sizeof path) || on_path("mpirun", path, sizeof path))
            ps_mpiexec_library(path, cache, sizeof cache);
        else
            snprintf(cache, sizeof cache, "unknown");
    }
    snprintf(buf, len, "%s", cache);
}
