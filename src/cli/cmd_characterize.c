/*
 * cmd_characterize.c - 'parscope characterize': the main job.
 *
 * Probe the machine, run the fingerprint with its trace, sweep clue, predict
 * the predefined workloads on the probed model and compare with measured
 * runs, then write one report that opens with a summary.  Each step is
 * parscope itself run as a child process with its own time limit, output
 * and log, so a failing step is recorded and the others go on; every step's
 * outcome is appended to DIR/steps.ndjson as it ends, and DIR/summary.json
 * and the report are written from whatever was measured, also after SIGINT.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "characterize/characterize.h"
#include "cli/cli.h"
#include "launch/launch.h"
#include "report/result.h"
#include "util/progress.h"
#include "util/util.h"

static const char help[] =
    "usage: parscope characterize [-n RANKS] [-o DIR] [--budget SECONDS] [--force]\n"
    "\n"
    "The main job: what is this machine like for message-passing programs, and what\n"
    "would the predefined workloads do on it.  Runs, each into DIR:\n"
    "  1. probe          ping-pong latency and bandwidth, BSP r, g, l -> machine.ini\n"
    "  2. fingerprint    the LOOP fingerprint with its trace and space-time diagram\n"
    "  3. scale          a CLUE sweep over 1, 2, 4 .. RANKS with its conclusions\n"
    "  4. predict        fingerprint, cg, mmm_s and red_black predicted on machine.ini\n"
    "                    (computation calibrated by a 1-rank run) and measured at\n"
    "                    1 .. RANKS, with the relative errors (accuracy counts P > 1)\n"
    "  5. report         DIR/report.html, opening with a one-minute summary\n"
    "\n"
    "  -n, --ranks N       processes (default: the cores, at least 2)\n"
    "  -o, --output DIR    where everything goes (default: characterize-DATE)\n"
    "      --budget SEC    time budget that chooses sizes and repetitions (default 90)\n"
    "      --force         replace what DIR holds (default: refuse a non-empty DIR)\n"
    "      --steps LIST    only these of probe,fingerprint,scale,predict (the report is always written)\n"
    "      --launcher T    launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)\n"
    "  -q, --quiet         print only the summary\n"
    "\n"
    "SIGINT or SIGTERM stops the running step, writes the summary and report from what\n"
    "was measured, says what is missing, and exits 130.  A failed step is recorded and\n"
    "the others go on; the exit status is then 1.\n";

typedef struct step {
    const char *name;
    double      share;      /* of the budget */
    int         status;     /* -1 not run, 0 ok, else failed */
    double      seconds;
    char        message[512];
} step;

static volatile sig_atomic_t stop_requested;
static pid_t child_pid;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
    if (child_pid > 0) kill(-child_pid, SIGINT);
}

/* Runs parscope with argv (argv[0] = subcommand) as a child, its output to
 * log, killed past limit seconds.  Returns its exit status (124 timeout). */
static int run_self(char **argv, const char *log, double limit, double *seconds)
{
    int n = 0;
    while (argv[n]) n++;
    char **full = ps_xcalloc((size_t)n + 2, sizeof *full);
    full[0] = (char *)ps_self_exe();
    for (int i = 0; i < n; i++) full[i + 1] = argv[i];
    double t0 = ps_clock();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execv(full[0], full);
        _exit(127);
    }
    free(full);
    if (pid < 0) return 127;
    setpgid(pid, pid);
    child_pid = pid;
    int st = 0, killed = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) break;
        if (!killed && limit > 0 && ps_clock() - t0 > limit) {
            kill(-pid, SIGTERM);
            killed = 1;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    child_pid = 0;
    *seconds = ps_clock() - t0;
    if (killed) return 124;
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void tail_message(const char *log, char *buf, size_t len)
{
    /* the last line that starts with "parscope" is the child's own diagnosis */
    buf[0] = '\0';
    FILE *f = fopen(log, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "parscope", 8)) snprintf(buf, len, "%.500s", line);
    }
    fclose(f);
}

static int list_has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

int ps_cmd_characterize(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"ranks", required_argument, 0, 'n'}, {"output", required_argument, 0, 'o'},
        {"budget", required_argument, 0, 'b'}, {"force", no_argument, 0, 'f'},
        {"launcher", required_argument, 0, 'L'}, {"quiet", no_argument, 0, 'q'},
        {"steps", required_argument, 0, 'S'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int ranks = 0, force = 0, quiet = 0;
    double budget = 90;
    const char *dir = NULL, *launcher = NULL, *only = NULL;
    long v;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "n:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (ps_parse_long(optarg, 1, 4096, &v)) return ps_usage_error("characterize", "-n: '%s' is not a rank count >= 1", optarg);
            ranks = (int)v;
            break;
        case 'o': dir = optarg; break;
        case 'b':
            if (ps_parse_double(optarg, &budget) || budget < 20)
                return ps_usage_error("characterize", "--budget: '%s' is not a number of seconds >= 20", optarg);
            break;
        case 'f': force = 1; break;
        case 'L': launcher = optarg; break;
        case 'q': quiet = 1; break;
        case 'S': only = optarg; break;
        case 'h': fputs(help, stdout); return 0;
        default:
            fputs(help, stderr);
            return ps_usage_error("characterize", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return ps_usage_error("characterize", "unexpected argument '%s'", argv[optind]);
    if (only) {
        char *copy = ps_xstrdup(only), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
            if (strcmp(t, "probe") && strcmp(t, "fingerprint") && strcmp(t, "scale") && strcmp(t, "predict")) {
                int rc = ps_usage_error("characterize", "--steps: unknown step '%s' (probe, fingerprint, scale, predict)", t);
                free(copy);
                return rc;
            }
        free(copy);
    }
    if (ps_inside_mpi())
        return ps_usage_error("characterize", "run it outside an MPI job: it launches its own jobs");
    if (ranks <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        ranks = n >= 2 ? (int)n : 2;
    }
    char defdir[64];
    if (!dir) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        strftime(defdir, sizeof defdir, "characterize-%Y%m%d-%H%M%S", &tm);
        dir = defdir;
    }
    char err[1024];
    /* a second run into the same directory never mixes results silently */
    if (ps_is_dir(dir)) {
        int nonempty = 0;
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) nonempty = 1;
        if (d) closedir(d);
        if (nonempty && !force)
            return ps_usage_error("characterize",
                                  "%s: holds earlier results (use another -o, or --force to replace them)", dir);
        if (nonempty && force) ps_rmtree(dir);
    } else if (ps_file_exists(dir)) {
        return ps_usage_error("characterize", "%s: exists and is not a directory", dir);
    }
    if (ps_mkdirs(dir, err, sizeof err)) return ps_fail(2, "%s", err);
    char logs[PATH_MAX];
    snprintf(logs, sizeof logs, "%s/logs", dir);
    if (ps_mkdirs(logs, err, sizeof err)) return ps_fail(2, "%s", err);
    /* fail now, not after minutes of measurement, if DIR cannot take files */
    {
        char t[PATH_MAX];
        snprintf(t, sizeof t, "%s/steps.ndjson", dir);
        json_t *hello = json_pack("{s:s, s:i, s:f}", "event", "start", "ranks", ranks, "budget_s", budget);
        if (ps_result_append(t, hello, err, sizeof err)) {
            json_decref(hello);
            return ps_fail(2, "%s", err);
        }
        json_decref(hello);
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    step steps[] = {{"probe", 0.25, -1, 0, ""},   {"fingerprint", 0.06, -1, 0, ""},
                    {"scale", 0.34, -1, 0, ""},   {"predict", 0.30, -1, 0, ""},
                    {"report", 0.05, -1, 0, ""}};
    const int nsteps = (int)(sizeof steps / sizeof steps[0]);
    double start = ps_clock();
    double load_before = NAN;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load_before) != 1) load_before = NAN;
        fclose(la);
    }
    char rs[16], path[8][PATH_MAX], num[8][32];
    snprintf(rs, sizeof rs, "%d", ranks);
    static const char *predicted[] = {"fingerprint", "cg", "mmm_s", "red_black"};
    const int npredicted = 4;
    int failed = 0;

    ps_progress pr;
    ps_progress_begin(&pr, nsteps, quiet);
    pr.budget = budget;
    for (int k = 0; k < nsteps && !stop_requested; k++, ps_progress_step(&pr)) {
        step *s = &steps[k];
        if (only && strcmp(s->name, "report") && !list_has(only, s->name)) continue;
        double limit = budget * s->share * 3 + 30; /* a step may overrun its share, never hang */
        char log[PATH_MAX + 32];
        snprintf(log, sizeof log, "%s/%s.log", logs, s->name);
        ps_progress_show(&pr, "%s", s->name);
        char *av[48];
        int n = 0;
        int rc = 0;
        s->seconds = 0;
        if (!strcmp(s->name, "probe")) {
            snprintf(path[0], sizeof path[0], "%s/machine.ini", dir);
            snprintf(path[1], sizeof path[1], "%s/probe.json", dir);
            av[n++] = "probe";
            av[n++] = "-n";
            av[n++] = rs;
            av[n++] = "-o";
            av[n++] = path[0];
            av[n++] = "--json";
            av[n++] = path[1];
            if (budget < 240) av[n++] = "--quick";
            av[n++] = "-q";
            if (launcher) { av[n++] = "--launcher"; av[n++] = (char *)launcher; }
            av[n] = NULL;
            rc = run_self(av, log, limit, &s->seconds);
        } else if (!strcmp(s->name, "fingerprint")) {
            snprintf(path[0], sizeof path[0], "%s/fingerprint", dir);
            snprintf(path[1], sizeof path[1], "%s/fingerprint.json", dir);
            av[n++] = "run";
            av[n++] = "fingerprint";
            av[n++] = "-n";
            av[n++] = rs;
            av[n++] = "--trials";
            av[n++] = budget >= 180 ? "5" : "3";
            av[n++] = "--trace";
            av[n++] = path[0];
            av[n++] = "-o";
            av[n++] = path[1];
            if (launcher) { av[n++] = "--launcher"; av[n++] = (char *)launcher; }
            av[n] = NULL;
            rc = run_self(av, log, limit, &s->seconds);
        } else if (!strcmp(s->name, "scale")) {
            snprintf(path[0], sizeof path[0], "%s/scale", dir);
            /* runs: P counts x variations x trials, each about target + launch */
            double share = budget * s->share;
            snprintf(num[0], sizeof num[0], "%.2f", fmax(0.05, share / 60.0));
            av[n++] = "scale";
            av[n++] = "clue";
            av[n++] = "--max-ranks";
            av[n++] = rs;
            av[n++] = "--variations";
            av[n++] = budget >= 180 ? "all" : "base,int,double,rearrange,nodeorder";
            av[n++] = "--trials";
            av[n++] = budget >= 180 ? "3" : "2";
            av[n++] = "--target-time";
            av[n++] = num[0];
            av[n++] = "-o";
            av[n++] = path[0];
            if (ranks > sysconf(_SC_NPROCESSORS_ONLN)) av[n++] = "--oversubscribe";
            if (launcher) { av[n++] = "--launcher"; av[n++] = (char *)launcher; }
            av[n] = NULL;
            rc = run_self(av, log, limit, &s->seconds);
        } else if (!strcmp(s->name, "predict")) {
            snprintf(path[0], sizeof path[0], "%s/machine.ini", dir);
            snprintf(path[1], sizeof path[1], "%s/predict", dir);
            if (!ps_file_exists(path[0])) {
                s->status = 1;
                snprintf(s->message, sizeof s->message, "skipped: no machine model (the probe failed)");
                failed = 1;
                goto record;
            }
            ps_mkdirs(path[1], err, sizeof err);
            snprintf(num[0], sizeof num[0], "1-%d", ranks);
            for (int w = 0; w < npredicted && !stop_requested; w++) {
                char pj[PATH_MAX + 64], mj[PATH_MAX + 64], wlog[PATH_MAX + 64];
                snprintf(pj, sizeof pj, "%s/%s.json", path[1], predicted[w]);
                snprintf(mj, sizeof mj, "%s/%s.measured.json", path[1], predicted[w]);
                snprintf(wlog, sizeof wlog, "%s/predict-%s.log", logs, predicted[w]);
                n = 0;
                av[n++] = "predict";
                av[n++] = (char *)predicted[w];
                av[n++] = "-m";
                av[n++] = path[0];
                av[n++] = "-n";
                av[n++] = num[0];
                av[n++] = "--compare";
                av[n++] = "--calibrate"; /* WORK priced per construct from a 1-rank run */
                av[n++] = "--trials";
                av[n++] = "3";
                av[n++] = "-o";
                av[n++] = pj;
                av[n++] = "--measured";
                av[n++] = mj;
                if (launcher) { av[n++] = "--launcher"; av[n++] = (char *)launcher; }
                av[n] = NULL;
                double secs = 0;
                int wrc = run_self(av, wlog, limit / npredicted + 20, &secs);
                s->seconds += secs;
                if (wrc && !rc) {
                    rc = wrc;
                    tail_message(wlog, s->message, sizeof s->message);
                }
            }
        } else if (!strcmp(s->name, "report")) {
            /* written below, after the summary */
            s->status = 0;
            continue;
        }
        s->status = rc;
        if (rc) {
            failed = 1;
            if (!s->message[0]) tail_message(log, s->message, sizeof s->message);
            if (!s->message[0] && rc == 124)
                snprintf(s->message, sizeof s->message, "stopped at its time limit of %.0f s", limit);
            else if (!s->message[0])
                snprintf(s->message, sizeof s->message, "failed with exit status %d (see logs/)", rc);
        }
    record:;
        char t[PATH_MAX];
        snprintf(t, sizeof t, "%s/steps.ndjson", dir);
        json_t *ev = json_pack("{s:s, s:s, s:i, s:f, s:s}", "event", "step", "step", s->name, "status",
                               s->status, "seconds", s->seconds, "message", s->message);
        ps_result_append(t, ev, err, sizeof err);
        json_decref(ev);
    }
    ps_progress_end(&pr);

    /* the summary, from whatever exists */
    ps_characterize_step st[8];
    int nst = 0;
    for (int k = 0; k < nsteps; k++) {
        st[nst].name = steps[k].name;
        st[nst].status = steps[k].status;
        st[nst].seconds = steps[k].seconds;
        st[nst].message = steps[k].message;
        nst++;
    }
    json_t *summary = ps_characterize_summary(dir, ranks, budget, ps_clock() - start, st, nst,
                                              stop_requested != 0, load_before);
    char sp[PATH_MAX];
    snprintf(sp, sizeof sp, "%s/summary.json", dir);
    int rc = 0;
    if (ps_result_write(sp, summary, err, sizeof err)) {
        fprintf(stderr, "parscope: %s\n", err);
        rc = 1;
    }
    /* the report, always: also a partial one */
    {
        char rp[PATH_MAX + 16], log[PATH_MAX + 32];
        snprintf(rp, sizeof rp, "%s/report.html", dir);
        snprintf(log, sizeof log, "%s/report.log", logs);
        char *av[] = {"report", (char *)dir, "-o", rp, "-t", "parscope: machine characterization", "-q", NULL};
        double secs;
        int rrc = run_self(av, log, 120, &secs);
        if (rrc) {
            char m[512];
            tail_message(log, m, sizeof m);
            fprintf(stderr, "parscope: the report could not be written: %s\n", m[0] ? m : "see logs/report.log");
            rc = 1;
        }
    }
    ps_characterize_print(summary, stdout);
    printf("\nEverything is in %s/ (report: %s/report.html)\n", dir, dir);
    json_decref(summary);
    if (stop_requested) {
        fprintf(stderr, "parscope: interrupted; the summary and report hold what was measured\n");
        return 130;
    }
    if (failed) {
        for (int k = 0; k < nsteps; k++)
            if (steps[k].status > 0)
                fprintf(stderr, "parscope: step %s failed: %s\n", steps[k].name, steps[k].message);
        return 1;
    }
    return rc;
}
