/*
 * run.c - the characterization's steps (see characterize.h).
 *
 * Probe the machine, run the fingerprint with its trace, sweep clue, predict
 * the predefined workloads on the probed model and compare with measured
 * runs, then write one report that opens with a summary.  Each step is
 * parscope itself run as a child process with its own time limit, output
 * and log, so a failing step is recorded and the others go on; every step's
 * outcome is appended to DIR/steps.ndjson as it ends, and DIR/summary.json
 * and the report are written from whatever was measured, also after SIGINT
 * (passed on to the running step, which then writes what it has).
 */
#include "characterize/characterize.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "launch/launch.h"
#include "report/result.h"
#include "util/output.h"
#include "util/proc.h"
#include "util/progress.h"
#include "util/util.h"

/* Seconds a step past its limit has, after SIGTERM, to write what it measured. */
#define PS_STEP_KILL_GRACE 30.0

typedef struct step {
    const char *name;
    double      share;      /* of the budget */
    int         status;     /* -1 not run, 0 ok, else failed */
    double      seconds;
    char        message[512];
} step;

/* The run's state: the options, the paths, the child's argv being built. */
typedef struct job {
    const ps_characterize_opts *o;
    char  dir[PATH_MAX], logs[PATH_MAX + 8];
    char  rs[16];       /* the rank count as text */
    char *av[48];
    int   n;
} job;

static void arg(job *j, const char *a) { j->av[j->n++] = (char *)a; }

/* The launcher option every step passes on. */
static void end_args(job *j)
{
    if (j->o->launcher) {
        arg(j, "--launcher");
        arg(j, j->o->launcher);
    }
    j->av[j->n] = NULL;
}

/* Runs parscope with j->av (av[0] = subcommand) as a child, its output to
 * log, stopped past limit seconds.  Returns its exit status (124: stopped at
 * the limit). */
static int run_self(job *j, const char *log, double limit, double *seconds)
{
    char **full = ps_xcalloc((size_t)j->n + 2, sizeof *full);
    full[0] = (char *)ps_self_exe();
    for (int i = 0; i < j->n; i++) full[i + 1] = j->av[i];
    ps_proc_opts po = {.timeout = limit, .kill_grace = PS_STEP_KILL_GRACE, .out = log, .err = PS_PROC_ERR_TO_OUT,
                       .forward = 1};
    ps_proc_result r;
    ps_proc_run(full, &po, &r);
    free(full);
    *seconds = r.elapsed;
    int st = r.timed_out ? 124 : r.status;
    ps_proc_result_free(&r);
    j->n = 0;
    return st;
}

/* The last line that starts with "parscope": the child's own diagnosis. */
static void tail_message(const char *log, char *buf, size_t len)
{
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

int ps_characterize_check_steps(const char *list, char *err, size_t errlen)
{
    const char *why;
    int empty = ps_list_empty_element(list, &why);
    if (empty) {
        ps_seterr(err, errlen, "element %d of '%s' is empty (%s)", empty, list, why);
        return -1;
    }
    char *copy = ps_xstrdup(list), *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
        if (strcmp(t, "probe") && strcmp(t, "fingerprint") && strcmp(t, "scale") && strcmp(t, "predict")) {
            ps_seterr(err, errlen, "unknown step '%s' (probe, fingerprint, scale, predict)", t);
            rc = -1;
        }
    free(copy);
    return rc;
}

static int step_probe(job *j, const char *log, double limit, step *s)
{
    char ini[PATH_MAX + 16], json[PATH_MAX + 16];
    snprintf(ini, sizeof ini, "%s/machine.ini", j->dir);
    snprintf(json, sizeof json, "%s/probe.json", j->dir);
    const char *a[] = {"probe", "-n", j->rs, "-o", ini, "--json", json, "-q"};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) arg(j, a[i]);
    if (j->o->budget < 240) arg(j, "--quick");
    end_args(j);
    return run_self(j, log, limit, &s->seconds);
}

static int step_fingerprint(job *j, const char *log, double limit, step *s)
{
    char trace[PATH_MAX + 16], json[PATH_MAX + 32];
    snprintf(trace, sizeof trace, "%s/fingerprint", j->dir);
    snprintf(json, sizeof json, "%s/fingerprint.json", j->dir);
    const char *a[] = {"run", "fingerprint", "-n", j->rs, "--trials", j->o->budget >= 180 ? "5" : "3",
                       "--trace", trace, "-o", json};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) arg(j, a[i]);
    end_args(j);
    return run_self(j, log, limit, &s->seconds);
}

static int step_scale(job *j, const char *log, double limit, step *s)
{
    char out[PATH_MAX + 16], target[32];
    snprintf(out, sizeof out, "%s/scale", j->dir);
    /* runs: P counts x variations x trials, each about target + launch */
    snprintf(target, sizeof target, "%.2f", fmax(0.05, j->o->budget * s->share / 60.0));
    int full = j->o->budget >= 180;
    const char *a[] = {"scale", "clue", "--max-ranks", j->rs, "--variations",
                       full ? "all" : "base,int,double,rearrange,nodeorder", "--trials", full ? "3" : "2",
                       "--target-time", target, "-o", out};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) arg(j, a[i]);
    if (j->o->ranks > sysconf(_SC_NPROCESSORS_ONLN)) arg(j, "--oversubscribe");
    end_args(j);
    return run_self(j, log, limit, &s->seconds);
}

/* Each predefined workload predicted on the probed model (WORK priced per
 * construct from a 1-rank run) and measured at 1 .. RANKS.  Each at a size
 * whose run lasts milliseconds: at the seed's sizes fingerprint (100) and cg
 * (256) run 50 and 300 us here, so short that one launch's noise (a
 * scheduler tick, a cold cache) moved its best-of-3 time by 30% and more,
 * and the comparison measured the noise, not the prediction (fingerprint at
 * 2000 runs 2.5 ms, cg at 1024 5 ms; mmm_s and red_black run 7 and 23 ms at
 * their seed sizes). */
static int step_predict(job *j, double limit, step *s)
{
    static const char *predicted[] = {"fingerprint", "cg", "mmm_s", "red_black"};
    static const char *size[] = {"2000", "1024", "256", "1024"};
    const int np = (int)(sizeof predicted / sizeof predicted[0]);
    char ini[PATH_MAX + 16], dir[PATH_MAX + 16], counts[32], err[512];
    snprintf(ini, sizeof ini, "%s/machine.ini", j->dir);
    snprintf(dir, sizeof dir, "%s/predict", j->dir);
    if (!ps_file_exists(ini)) {
        snprintf(s->message, sizeof s->message, "skipped: no machine model (the probe failed)");
        return 1;
    }
    ps_mkdirs(dir, err, sizeof err);
    snprintf(counts, sizeof counts, "1-%d", j->o->ranks);
    int rc = 0;
    for (int w = 0; w < np && !ps_interrupted(); w++) {
        char pj[PATH_MAX + 64], mj[PATH_MAX + 64], log[PATH_MAX + 64];
        snprintf(pj, sizeof pj, "%s/%s.json", dir, predicted[w]);
        snprintf(mj, sizeof mj, "%s/%s.measured.json", dir, predicted[w]);
        snprintf(log, sizeof log, "%s/predict-%s.log", j->logs, predicted[w]);
        const char *a[] = {"predict", predicted[w], "-s", size[w], "-m", ini, "-n", counts, "--compare",
                           "--calibrate", "--trials", "3", "-o", pj, "--measured", mj};
        for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) arg(j, a[i]);
        end_args(j);
        double secs = 0;
        int wrc = run_self(j, log, limit / np + 20, &secs);
        s->seconds += secs;
        if (wrc && !rc) {
            rc = wrc;
            tail_message(log, s->message, sizeof s->message);
        }
    }
    return rc;
}

/* A second run into the same directory never mixes results silently:
 * 0, or 2 with err. */
static int prepare_dir(const ps_characterize_opts *o, const char *dir, char *err, size_t errlen)
{
    if (ps_file_exists(dir) && !ps_is_dir(dir)) {
        ps_seterr(err, errlen, "%s: exists and is not a directory", dir);
        return 2;
    }
    /* locked before anything in it is looked at or removed: a second
     * characterization into the same directory is refused, not mixed in */
    if (ps_mkdirs(dir, err, errlen) || ps_dir_lock(dir, err, errlen)) return 2;
    int nonempty = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !ps_is_dir_lock(e->d_name)) nonempty = 1;
    if (nonempty && !o->force) {
        if (d) closedir(d);
        ps_seterr(err, errlen, "%s: holds earlier results (use another -o, or --force to replace them)", dir);
        return 2;
    }
    /* --force: what it holds goes, the lock stays */
    if (d) rewinddir(d);
    while (nonempty && d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !ps_is_dir_lock(e->d_name)) {
            char *p = ps_xasprintf("%s/%s", dir, e->d_name);
            ps_rmtree(p);
            free(p);
        }
    if (d) closedir(d);
    char logs[PATH_MAX + 8];
    snprintf(logs, sizeof logs, "%s/logs", dir);
    if (ps_mkdirs(logs, err, errlen)) return 2;
    /* fail now, not after minutes of measurement, if DIR cannot take files */
    char t[PATH_MAX + 16];
    snprintf(t, sizeof t, "%s/steps.ndjson", dir);
    json_t *hello = json_pack("{s:s, s:i, s:f}", "event", "start", "ranks", o->ranks, "budget_s", o->budget);
    int rc = ps_result_append(t, hello, err, errlen) ? 2 : 0;
    json_decref(hello);
    return rc;
}

/* Runs one step into its log; its outcome in s and DIR/steps.ndjson. */
static void run_step(job *j, step *s)
{
    double limit = j->o->budget * s->share * 3 + 30; /* a step may overrun its share, never hang */
    char log[PATH_MAX + 32], err[512];
    snprintf(log, sizeof log, "%s/%s.log", j->logs, s->name);
    s->seconds = 0;
    int rc = !strcmp(s->name, "probe")         ? step_probe(j, log, limit, s)
             : !strcmp(s->name, "fingerprint") ? step_fingerprint(j, log, limit, s)
             : !strcmp(s->name, "scale")       ? step_scale(j, log, limit, s)
                                               : step_predict(j, limit, s);
    s->status = rc;
    if (rc && !s->message[0]) tail_message(log, s->message, sizeof s->message);
    if (rc && !s->message[0] && rc == 124)
        snprintf(s->message, sizeof s->message, "stopped at its time limit of %.0f s", limit);
    else if (rc && !s->message[0])
        snprintf(s->message, sizeof s->message, "failed with exit status %d (see logs/)", rc);
    char t[PATH_MAX + 16];
    snprintf(t, sizeof t, "%s/steps.ndjson", j->dir);
    json_t *ev = json_pack("{s:s, s:s, s:i, s:f, s:s}", "event", "step", "step", s->name, "status", s->status,
                           "seconds", s->seconds, "message", s->message);
    ps_result_append(t, ev, err, sizeof err);
    json_decref(ev);
}

/* The report, always: also a partial one.  0, or 1 (said on standard error). */
static int write_report(job *j)
{
    char rp[PATH_MAX + 16], log[PATH_MAX + 32];
    snprintf(rp, sizeof rp, "%s/report.html", j->dir);
    snprintf(log, sizeof log, "%s/report.log", j->logs);
    const char *a[] = {"report", j->dir, "-o", rp, "-t", "parscope: machine characterization", "-q", "--force"};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) arg(j, a[i]);
    j->av[j->n] = NULL;
    double secs;
    if (!run_self(j, log, 120, &secs)) return 0;
    char m[512];
    tail_message(log, m, sizeof m);
    fprintf(stderr, "parscope: the report could not be written: %s\n", m[0] ? m : "see logs/report.log");
    return 1;
}

static double load_average(void)
{
    double load = NAN;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load) != 1) load = NAN;
        fclose(la);
    }
    return load;
}

int ps_characterize_run(const ps_characterize_opts *o, json_t **summary, char *err, size_t errlen)
{
    *summary = NULL;
    job j = {.o = o};
    snprintf(j.dir, sizeof j.dir, "%s", o->dir);
    snprintf(j.logs, sizeof j.logs, "%s/logs", o->dir);
    snprintf(j.rs, sizeof j.rs, "%d", o->ranks);
    if (prepare_dir(o, j.dir, err, errlen)) return 2;
    ps_interrupt_install();
    step steps[] = {{"probe", 0.25, -1, 0, ""}, {"fingerprint", 0.06, -1, 0, ""}, {"scale", 0.34, -1, 0, ""},
                    {"predict", 0.30, -1, 0, ""}, {"report", 0.05, -1, 0, ""}};
    const int nsteps = (int)(sizeof steps / sizeof steps[0]);
    double start = ps_clock(), load_before = load_average();
    ps_progress pr;
    ps_progress_begin(&pr, nsteps, o->quiet);
    pr.budget = o->budget;
    int failed = 0;
    /* the report (the last step) is written below, after the summary */
    for (int k = 0; k < nsteps - 1 && !ps_interrupted(); k++, ps_progress_step(&pr)) {
        if (o->steps && !list_has(o->steps, steps[k].name)) continue;
        ps_progress_show(&pr, "%s", steps[k].name);
        run_step(&j, &steps[k]);
        failed |= steps[k].status != 0;
    }
    ps_progress_end(&pr);
    /* the report is written now, also after an interruption: the summary
     * it opens with counts it as written, and is corrected if it is not */
    steps[nsteps - 1].status = 0;
    int interrupted = ps_interrupted();
    char sp[PATH_MAX + 16], e[1024];
    snprintf(sp, sizeof sp, "%s/summary.json", j.dir);
    int rc = 0;
    for (int pass = 0; pass < 2; pass++) {
        ps_characterize_step st[8];
        for (int k = 0; k < nsteps; k++)
            st[k] = (ps_characterize_step){steps[k].name, steps[k].status, steps[k].seconds, steps[k].message};
        json_decref(*summary);
        *summary = ps_characterize_summary(j.dir, o->ranks, o->budget, ps_clock() - start, st, nsteps, interrupted,
                                           load_before);
        if (ps_result_write(sp, *summary, e, sizeof e)) {
            fprintf(stderr, "parscope: %s\n", e);
            rc = 1;
        }
        if (pass == 1 || !write_report(&j)) break;
        rc = 1;
        steps[nsteps - 1].status = 1;
        snprintf(steps[nsteps - 1].message, sizeof steps[nsteps - 1].message, "the report could not be written");
    }
    if (interrupted) return ps_interrupt_status();
    return failed ? 1 : rc;
}
