/*
 * cmd_predict.c - 'parscope predict': a workload's run time on a machine
 * model, for a list of processor counts, by recording its instruction
 * streams and simulating them (docs/PREDICT.md).
 */
#include <errno.h>
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

#include "cli/cli.h"
#include "launch/run.h"
#include "workloads/workloads.h"
#include "report/result.h"
#include "predict/compare.h"
#include "sim/interchange.h"
#include "sim/sim.h"
#include "sim/stream.h"
#include "trace/sheet.h"
#include "util/util.h"

/* Above this many ranks the predicted trace is built only if --trace asks. */
#define PREDICT_TRACE_MAX_RANKS 65536
#define PREDICT_MAX_POINTS 4096

static const char predict_help[] =
    "usage: parscope predict WORKLOAD -m MACHINE.ini -n LIST [options]\n"
    "\n"
    "Predicts the execution time of WORKLOAD on the machine model for every processor\n"
    "count in LIST: the program is run once per rank without MPI, its messages and\n"
    "computation recorded as instruction streams (SEND, RECEIVE, BSEND, BRECEIVE, WORK,\n"
    "WAIT), and the streams are simulated on the model.  WORKLOAD is a built-in name, a\n"
    "FILE.loop, a program linked with the runtime, or recorded streams (a .pss file, a\n"
    "directory holding streams.pss, or a text stream file .txt).\n"
    "\n"
    "  -m, --machine FILE    machine model (parscope probe's machine.ini, machines/sp2.ini, ...)\n"
    "  -n, --ranks LIST      processor counts: 4 | 1,2,4,8 | 1-16 | 1,2,4,...,1024\n"
    "  -s, --size N          problem size (default: the workload's)\n"
    "  -i, --iterations N    iterations (default: the workload's)\n"
    "      --trace DIR       write the predicted trace(s): DIR/trace.pst, or DIR/pP/trace.pst\n"
    "  -o, --output FILE     result JSON (kind \"predict\"; several counts: {\"points\": [...]})\n"
    "      --force           replace an existing -o file\n"
    "      --streams DIR     keep the recorded streams (DIR/streams.pss or DIR/pP/streams.pss)\n"
    "      --eager BYTES     messages up to BYTES are buffered: their send does not wait for\n"
    "                        the receive (default 0, the estimator's blocking send)\n"
    "      --nodes N         nodes the ranks are spread over (default 1 when the model gives\n"
    "                        cores_per_node: more ranks than cores slow down)\n"
    "      --bus | --nobus   override the model's network type\n"
    "      --work-flop-time S  seconds per flop for \\WORK (default: the model's flop_time)\n"
    "      --export-simgrid DIR  also write SimGrid time-independent traces + platform\n"
    "      --export-goal FILE    also write a LogGOPSim GOAL schedule (one count only)\n"
    "      --compare         also run the workload under MPI and print the relative errors\n"
    "      --calibrate       price each construct's computation from a 1-rank MPI run\n"
    "                        (instead of the model's flop_time)\n"
    "  -k, --trials K        trials per count for --compare (default 3; the fastest counts)\n"
    "      --measured FILE   with --compare: write the measured results here\n"
    "      --timeout SEC     limit for recording one count (default 600)\n"
    "      --launcher T      launcher template for --compare\n"
    "  -q, --quiet           print only the table\n"
    "\n"
    "Exit status: 0 ok, 1 the program failed or deadlocked (the report names the ranks and\n"
    "what they wait on), 2 bad usage or input.\n";

/* Seconds per flop of each construct, measured in a 1-rank run (--calibrate). */
typedef struct calibration {
    int     n;
    char  **names;
    double *sec_per_flop;
    double  time, factor;
} calibration;

static calibration calib;

typedef struct predict_opts {
    const char *workload, *machine_path, *trace_dir, *output, *streams_dir, *simgrid_dir, *goal_path;
    const char *measured_path, *launcher;
    long        size, iterations;
    int         compare, calibrate, trials, quiet;
    double      timeout;
    ps_sim_opts sim;
    int         ranks[PREDICT_MAX_POINTS];
    int         nranks;
} predict_opts;

/* "1,2,4,...,1024" (the step of the two before "..." continues: a ratio when
 * they double, a difference otherwise), "1-16", "4". */
static int parse_rank_list(const char *s, int *out, int max)
{
    int n = 0;
    char *copy = ps_xstrdup(s), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        long a, b;
        char *dash = strchr(tok, '-');
        if (!strcmp(tok, "...")) {
            char *next = strtok_r(NULL, ",", &save);
            if (n < 2 || !next || ps_parse_long(next, 1, 1 << 24, &b)) { rc = -1; break; }
            long x0 = out[n - 2], x1 = out[n - 1];
            int geometric = x0 > 0 && x1 % x0 == 0 && x1 / x0 > 1 && x1 - x0 != x1 / x0;
            if (x1 <= x0) { rc = -1; break; }
            if (x0 * 2 == x1) geometric = 1;
            long x = x1;
            for (;;) {
                x = geometric ? x * (x1 / x0) : x + (x1 - x0);
                if (x > b) break;
                if (n >= max) { rc = -1; break; }
                out[n++] = (int)x;
            }
            if (!rc && out[n - 1] != b) {
                if (n >= max) { rc = -1; break; }
                out[n++] = (int)b;
            }
        } else if (dash && dash != tok) {
            *dash = 0;
            if (ps_parse_long(tok, 1, 1 << 24, &a) || ps_parse_long(dash + 1, 1, 1 << 24, &b) || b < a ||
                b - a >= max - n) { rc = -1; break; }
            for (long x = a; x <= b; x++) out[n++] = (int)x;
        } else {
            if (ps_parse_long(tok, 1, 1 << 24, &a) || n >= max) { rc = -1; break; }
            out[n++] = (int)a;
        }
    }
    free(copy);
    return rc ? -1 : n;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int is_stream_input(const char *w)
{
    char p[PATH_MAX];
    if (ends_with(w, ".pss") || ends_with(w, ".txt")) return 1;
    snprintf(p, sizeof p, "%s/%s", w, PS_STREAMS_FILE);
    return ps_is_dir(w) && ps_file_exists(p);
}

/* Runs the workload in the recording back end: PARSCOPE_RECORD=P. */
static int record_streams(const predict_opts *o, int P, const char *dir, char *err, size_t errlen)
{
    ps_run_spec spec = {0};
    spec.workload = o->workload;
    spec.ranks = P;
    spec.size = o->size;
    spec.iterations = o->iterations;
    spec.trials = 1;
    char *extra[] = {"--quiet", NULL};
    spec.extra_args = extra;
    char **argv;
    int rc = ps_workload_argv(&spec, &argv, err, errlen);
    if (rc) return rc;
    char pbuf[32];
    snprintf(pbuf, sizeof pbuf, "%d", P);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        ps_seterr(err, errlen, "cannot fork: %s", strerror(errno));
        ps_argv_free(argv);
        return 1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        setenv("PARSCOPE_RECORD", pbuf, 1);
        setenv("PARSCOPE_RECORD_DIR", dir, 1);
        FILE *devnull = freopen("/dev/null", "w", stdout);
        (void)devnull;
        execvp(argv[0], argv);
        fprintf(stderr, "parscope: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    ps_argv_free(argv);
    double t0 = ps_clock();
    int status;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            ps_seterr(err, errlen, "waitpid: %s", strerror(errno));
            return 1;
        }
        if (o->timeout > 0 && ps_clock() - t0 > o->timeout) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            ps_seterr(err, errlen, "recording %s at %d ranks took longer than %g s (--timeout)", o->workload, P,
                      o->timeout);
            return 1;
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        ps_seterr(err, errlen, "recording %s at %d ranks failed (%s %d)", o->workload, P,
                  WIFEXITED(status) ? "exit status" : "signal",
                  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return 1;
    }
    return 0;
}

static json_t *model_json(const ps_machine *m, const char *path, const ps_sim_opts *so, double stretch)
{
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(m->name));
    json_object_set_new(j, "file", json_string(path));
    json_object_set_new(j, "host", json_string(m->host));
    json_object_set_new(j, "cpu", json_string(m->cpu));
    json_object_set_new(j, "mpi", json_string(m->mpi));
    json_object_set_new(j, "cores", json_integer(m->cores));
    json_object_set_new(j, "send_latency", json_real(m->send_latency));
    json_object_set_new(j, "recv_latency", json_real(m->recv_latency));
    json_object_set_new(j, "word_time", json_real(m->word_time));
    json_object_set_new(j, "flop_time", json_real(m->flop_time));
    json_object_set_new(j, "network", json_string((so->bus >= 0 ? so->bus : m->bus) ? "bus" : "nobus"));
    json_object_set_new(j, "cores_per_node", json_integer(m->cores_per_node));
    json_object_set_new(j, "pingpong_points", json_integer(m->npp));
    json_object_set_new(j, "eager_bytes", json_real(so->eager_bytes));
    json_object_set_new(j, "nodes", json_integer(so->nodes));
    json_object_set_new(j, "oversubscription", json_real(stretch));
    if (so->work_flop_time > 0) json_object_set_new(j, "work_flop_time", json_real(so->work_flop_time));
    return j;
}

static json_t *breakdown_json(const ps_sim_result *r)
{
    json_t *b = json_object();
    json_object_set_new(b, "work", json_real(r->work));
    json_object_set_new(b, "communication", json_real(r->comm));
    json_object_set_new(b, "waiting", json_real(r->wait));
    json_object_set_new(b, "unit", json_string("seconds per rank (average)"));
    if (r->nranks <= PREDICT_TRACE_MAX_RANKS) {
        json_t *a = json_array();
        for (int i = 0; i < r->nranks; i++) {
            json_t *x = json_object();
            json_object_set_new(x, "rank", json_integer(i));
            json_object_set_new(x, "end", json_real(r->rank[i].end));
            json_object_set_new(x, "work", json_real(r->rank[i].work));
            json_object_set_new(x, "communication", json_real(r->rank[i].comm));
            json_object_set_new(x, "waiting", json_real(r->rank[i].wait));
            json_array_append_new(a, x);
        }
        json_object_set_new(b, "ranks", a);
    }
    return b;
}

static void point_dir(char *buf, size_t n, const char *base, int P, int several)
{
    if (several) snprintf(buf, n, "%s/p%d", base, P);
    else snprintf(buf, n, "%s", base);
}

/* Runs the workload on one rank under MPI and takes, per construct, the
 * seconds per flop its computation events took; time in the timed interval
 * outside any measured computation (uninstrumented code) is spread over all
 * of them in proportion, so the 1-rank prediction reproduces the run. */
/* The measured run of the workload on `ranks` ranks, as the options say. */
static ps_run_spec measured_spec(const predict_opts *o, int ranks)
{
    ps_run_spec spec = {0};
    spec.workload = o->workload;
    spec.ranks = ranks;
    spec.size = o->size;
    spec.iterations = o->iterations;
    spec.trials = o->trials;
    spec.launch.launcher = o->launcher;
    spec.launch.timeout = o->timeout;
    spec.launch.quiet = 1;
    return spec;
}

static int run_calibration(const predict_opts *o, char *err, size_t errlen)
{
    ps_run_spec spec = measured_spec(o, 1);
    ps_run_result r;
    int rc = ps_run_workload(&spec, &r, NULL, NULL, err, errlen);
    if (rc == 2 || !r.best_trace) {
        if (rc != 2) ps_seterr(err, errlen, "--calibrate: the 1-rank run of %s failed", o->workload);
        ps_run_result_free(&r);
        return rc == 2 ? 2 : 1;
    }
    const ps_trace *t = r.best_trace;
    int nc = t->nconstructs;
    double *tm = ps_xcalloc((size_t)nc + 1, sizeof *tm), *fl = ps_xcalloc((size_t)nc + 1, sizeof *fl);
    const ps_rank_trace *rt = &t->rank[0];
    double sum = 0;
    for (size_t i = 0; i < rt->n; i++) {
        const ps_event *e = &rt->ev[i];
        if (e->kind != PS_EV_COMPUTE || e->construct >= nc || e->bytes == 0) continue;
        tm[e->construct] += e->t1 - e->t0;
        fl[e->construct] += (double)e->bytes;
        sum += e->t1 - e->t0;
    }
    calib.time = rt->t_end - rt->t_begin;
    calib.factor = sum > 0 ? calib.time / sum : 1;
    calib.names = ps_xcalloc((size_t)nc + 1, sizeof *calib.names);
    calib.sec_per_flop = ps_xcalloc((size_t)nc + 1, sizeof *calib.sec_per_flop);
    for (int c = 0; c < nc; c++)
        if (fl[c] > 0) {
            calib.names[calib.n] = ps_xstrdup(t->constructs[c]);
            calib.sec_per_flop[calib.n++] = tm[c] / fl[c] * calib.factor;
        }
    free(tm);
    free(fl);
    ps_run_result_free(&r);
    if (!calib.n) {
        ps_seterr(err, errlen, "--calibrate: the 1-rank run of %s reported no computation with flops", o->workload);
        return 1;
    }
    if (!o->quiet) {
        printf("Calibration: 1-rank run, best of %d: %.6g s, %.1f%% outside measured computation; seconds per flop:",
               o->trials, calib.time, 100 * (1 - 1 / calib.factor));
        for (int k = 0; k < calib.n; k++) printf("%s %s %.3g", k ? "," : "", calib.names[k], calib.sec_per_flop[k]);
        printf("\n");
    }
    return 0;
}

static json_t *calibration_json(void)
{
    json_t *j = json_object(), *rates = json_object();
    json_object_set_new(j, "from", json_string("1-rank run under MPI, fastest trial"));
    json_object_set_new(j, "time", json_real(calib.time));
    json_object_set_new(j, "uninstrumented_factor", json_real(calib.factor));
    for (int k = 0; k < calib.n; k++) json_object_set_new(rates, calib.names[k], json_real(calib.sec_per_flop[k]));
    json_object_set_new(j, "seconds_per_flop", rates);
    return j;
}

/* Records (or loads) and simulates one processor count; returns the exit
 * status and the point's document in *doc. */
static int predict_one(const predict_opts *o, const ps_machine *m, int P, int several, json_t **doc,
                       ps_sim_result *res, char *err, size_t errlen)
{
    ps_streams *s = NULL;
    char dir[PATH_MAX];
    char *tmp = NULL;
    int rc;
    *doc = NULL;
    const ps_workload *w = ps_workload_find(o->workload);
    const char *wname = w ? w->name : o->workload;
    long size = o->size > 0 ? o->size : (w ? w->default_size : 0);
    long iters = o->iterations > 0 ? o->iterations : (w ? w->default_iterations : 0);
    if (is_stream_input(o->workload)) {
        if (ends_with(o->workload, ".txt")) {
            char *text = ps_read_file(o->workload, NULL, err, errlen);
            if (!text) return 2;
            rc = ps_streams_parse_text(text, o->workload, &s, err, errlen);
            free(text);
        } else {
            rc = ps_streams_load(o->workload, &s, err, errlen);
        }
        if (rc) return 2;
        if (s->meta) {
            json_t *meta = json_loads(s->meta, 0, NULL);
            if (meta) {
                json_t *v;
                if ((v = json_object_get(meta, "size")) && json_is_integer(v)) size = (long)json_integer_value(v);
                if ((v = json_object_get(meta, "iterations")) && json_is_integer(v))
                    iters = (long)json_integer_value(v);
                json_decref(meta);
            }
        }
    } else {
        if (o->streams_dir) {
            point_dir(dir, sizeof dir, o->streams_dir, P, several);
            if (ps_mkdirs(dir, err, errlen)) return 2;
        } else {
            if (!(tmp = ps_mktempdir("parscope-record", err, errlen))) return 2;
            snprintf(dir, sizeof dir, "%s", tmp);
        }
        rc = record_streams(o, P, dir, err, errlen);
        if (rc == 0 && ps_streams_load(dir, &s, err, errlen)) rc = 1;
        if (tmp) {
            ps_rmtree(tmp);
            free(tmp);
        }
        if (rc) return rc;
    }
    if (o->simgrid_dir) {
        char sd[PATH_MAX];
        point_dir(sd, sizeof sd, o->simgrid_dir, s->nranks, several);
        if (ps_export_simgrid(s, m, sd, err, errlen)) {
            ps_streams_free(s);
            return 2;
        }
    }
    if (o->goal_path && ps_export_goal(s, m, o->goal_path, err, errlen)) {
        ps_streams_free(s);
        return 2;
    }
    ps_sim_opts so = o->sim;
    so.build_trace = o->trace_dir || s->nranks <= PREDICT_TRACE_MAX_RANKS;
    double *rates = NULL;
    if (calib.n) {
        rates = ps_xcalloc((size_t)s->nconstructs + 1, sizeof *rates);
        for (int c = 0; c < s->nconstructs; c++)
            for (int k = 0; k < calib.n; k++)
                if (!strcmp(s->constructs[c], calib.names[k])) rates[c] = calib.sec_per_flop[k];
        so.construct_flop_time = rates;
        so.nconstruct_flop_time = s->nconstructs;
    }
    double t0 = ps_clock();
    rc = ps_simulate(s, m, &so, res, err, errlen);
    double wall = ps_clock() - t0;
    free(rates);
    so.construct_flop_time = NULL;
    int Pactual = s->nranks;
    ps_streams_stats st;
    ps_streams_stats_get(s, &st);
    ps_streams_free(s);
    if (rc < 0) return 2;
    if (rc == 1) {
        ps_seterr(err, errlen, "the program deadlocks at %d ranks", Pactual);
        return 1;
    }
    char tracefile[PATH_MAX + 16] = "";
    if (res->trace) {
        char *meta = ps_xasprintf("{\"workload\": \"%s\", \"kind\": \"predict\", \"machine_model\": \"%s\", "
                                  "\"ranks\": %d, \"size\": %ld, \"iterations\": %ld}",
                                  wname, m->name, Pactual, size, iters);
        ps_trace_set_meta(res->trace, meta);
        free(meta);
        if (o->trace_dir) {
            char td[PATH_MAX];
            point_dir(td, sizeof td, o->trace_dir, Pactual, several);
            if (ps_mkdirs(td, err, errlen)) return 2;
            snprintf(tracefile, sizeof tracefile, "%s/trace.pst", td);
            if (ps_trace_write(res->trace, tracefile, err, errlen)) return 2;
        }
    }
    double sample = res->time;
    json_t *d = ps_result_run("predict", wname, NULL, Pactual, size, iters, &sample, 1, res->trace,
                              tracefile[0] ? tracefile : NULL);
    json_object_set_new(d, "machine", model_json(m, o->machine_path, &so, res->stretch));
    json_object_set_new(d, "breakdown", breakdown_json(res));
    if (calib.n) json_object_set_new(d, "calibration", calibration_json());
    json_t *sj = json_object();
    json_object_set_new(sj, "instructions", json_integer((json_int_t)st.instructions));
    json_object_set_new(sj, "messages", json_integer((json_int_t)res->messages));
    json_object_set_new(sj, "events", json_integer((json_int_t)res->events));
    json_object_set_new(sj, "stream_bytes", json_integer((json_int_t)st.encoded_bytes));
    json_object_set_new(sj, "peak_in_flight", json_integer((json_int_t)res->peak_in_flight));
    json_object_set_new(sj, "seconds", json_real(wall));
    json_object_set_new(d, "simulation", sj);
    *doc = d;
    return 0;
}

static int run_measured(const predict_opts *o, json_t **out, char *err, size_t errlen)
{
    json_t *pts = json_array();
    int rc = 0;
    for (int k = 0; k < o->nranks && !ps_interrupted(); k++) {
        ps_run_spec spec = measured_spec(o, o->ranks[k]);
        if (!o->quiet) fprintf(stderr, "measuring %s at %d ranks (%d trials)\n", o->workload, o->ranks[k], o->trials);
        ps_run_result r;
        int x = ps_run_workload(&spec, &r, NULL, NULL, err, errlen);
        if (x == 2) {
            ps_run_result_free(&r);
            json_decref(pts);
            return 2;
        }
        if (x) rc = 1;
        double samples[1024];
        int n = r.ntrials < 1024 ? r.ntrials : 1024;
        for (int i = 0; i < n; i++) samples[i] = r.trial[i].time;
        json_t *pt = ps_result_run("run", r.workload, ps_machine_meta(), o->ranks[k], r.size, r.iterations, samples, n,
                                   r.best_trace, NULL);
        ps_run_annotate(&r, pt);
        json_array_append_new(pts, pt);
        ps_run_result_free(&r);
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "kind", json_string("run"));
    json_object_set_new(doc, "workload", json_string(o->workload));
    json_object_set_new(doc, "points", pts);
    *out = doc;
    return rc;
}

int ps_cmd_predict(int argc, char **argv)
{
    enum { O_TRACE = 256, O_STREAMS, O_EAGER, O_NODES, O_BUS, O_NOBUS, O_WFT, O_SG, O_GOAL, O_CMP, O_MEAS,
           O_TIMEOUT, O_LAUNCHER, O_CAL };
    static const struct option longopts[] = {
        {"machine", required_argument, 0, 'm'},    {"ranks", required_argument, 0, 'n'},
        {"size", required_argument, 0, 's'},       {"iterations", required_argument, 0, 'i'},
        {"trace", required_argument, 0, O_TRACE},  {"output", required_argument, 0, 'o'},
        {"streams", required_argument, 0, O_STREAMS}, {"eager", required_argument, 0, O_EAGER},
        {"nodes", required_argument, 0, O_NODES},  {"bus", no_argument, 0, O_BUS},
        {"nobus", no_argument, 0, O_NOBUS},        {"work-flop-time", required_argument, 0, O_WFT},
        {"export-simgrid", required_argument, 0, O_SG}, {"export-goal", required_argument, 0, O_GOAL},
        {"compare", no_argument, 0, O_CMP},        {"calibrate", no_argument, 0, O_CAL},        {"trials", required_argument, 0, 'k'},
        {"measured", required_argument, 0, O_MEAS}, {"timeout", required_argument, 0, O_TIMEOUT},
        {"launcher", required_argument, 0, O_LAUNCHER}, {"quiet", no_argument, 0, 'q'},
        {"force", no_argument, 0, 'F'},            {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    static predict_opts o;
    int force = 0;
    memset(&o, 0, sizeof o);
    o.size = o.iterations = -1;
    o.trials = 3;
    o.timeout = 600;
    ps_sim_defaults(&o.sim);
    const char *list = NULL;
    long v;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "m:n:s:i:o:k:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': o.machine_path = optarg; break;
        case 'n': list = optarg; break;
        case 's':
            if (ps_parse_long(optarg, 1, LONG_MAX, &o.size)) return ps_usage_error("predict", "-s: '%s' is not a size >= 1", optarg);
            break;
        case 'i':
            if (ps_parse_long(optarg, 1, LONG_MAX, &o.iterations))
                return ps_usage_error("predict", "-i: '%s' is not an iteration count >= 1", optarg);
            break;
        case O_TRACE: o.trace_dir = optarg; break;
        case 'o': o.output = optarg; break;
        case O_STREAMS: o.streams_dir = optarg; break;
        case O_EAGER:
            if (ps_parse_double(optarg, &o.sim.eager_bytes) || o.sim.eager_bytes < 0)
                return ps_usage_error("predict", "--eager: '%s' is not a byte count >= 0", optarg);
            break;
        case O_NODES:
            if (ps_parse_long(optarg, 1, 1 << 24, &v)) return ps_usage_error("predict", "--nodes: '%s' is not a count >= 1", optarg);
            o.sim.nodes = (int)v;
            break;
        case O_BUS: o.sim.bus = 1; break;
        case O_NOBUS: o.sim.bus = 0; break;
        case O_WFT:
            if (ps_parse_double(optarg, &o.sim.work_flop_time) || o.sim.work_flop_time <= 0)
                return ps_usage_error("predict", "--work-flop-time: '%s' is not a number of seconds > 0", optarg);
            break;
        case O_SG: o.simgrid_dir = optarg; break;
        case O_GOAL: o.goal_path = optarg; break;
        case O_CMP: o.compare = 1; break;
        case O_CAL: o.calibrate = 1; break;
        case 'k':
            if (ps_parse_long(optarg, 1, 1000, &v)) return ps_usage_error("predict", "--trials: '%s' is not a count 1..1000", optarg);
            o.trials = (int)v;
            break;
        case O_MEAS: o.measured_path = optarg; break;
        case O_TIMEOUT:
            if (ps_parse_double(optarg, &o.timeout) || o.timeout <= 0)
                return ps_usage_error("predict", "--timeout: '%s' is not a number of seconds > 0", optarg);
            break;
        case O_LAUNCHER: o.launcher = optarg; break;
        case 'q': o.quiet = 1; break;
        case 'F': force = 1; break;
        case 'h': fputs(predict_help, stdout); return 0;
        default:
            fputs(predict_help, stderr);
            return ps_usage_error("predict", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) {
        fputs(predict_help, stderr);
        return ps_usage_error("predict", "no workload given");
    }
    if (argc - optind > 1) return ps_usage_error("predict", "unexpected argument '%s'", argv[optind + 1]);
    o.workload = argv[optind];
    if (!o.machine_path) return ps_usage_error("predict", "-m MACHINE.ini is required (parscope probe writes one)");
    if (ps_check_new_output("predict", "-o", o.output, force)) return 2;
    int streams_in = is_stream_input(o.workload);
    if (list) {
        o.nranks = parse_rank_list(list, o.ranks, PREDICT_MAX_POINTS);
        if (o.nranks <= 0)
            return ps_usage_error("predict", "-n: '%s' is not a list of processor counts (4, 1,2,4, 1-16, 1,2,4,...,64)", list);
    } else if (streams_in) {
        o.nranks = 1;
        o.ranks[0] = 0; /* whatever the streams hold */
    } else {
        return ps_usage_error("predict", "-n LIST is required");
    }
    if (streams_in && o.nranks > 1) return ps_usage_error("predict", "-n: recorded streams have one processor count");
    if (o.goal_path && o.nranks > 1) return ps_usage_error("predict", "--export-goal: give a single processor count");
    if (o.compare && streams_in) return ps_usage_error("predict", "--compare needs a workload to run, not streams");
    if (o.calibrate && streams_in) return ps_usage_error("predict", "--calibrate needs a workload to run, not streams");
    if (o.measured_path && !o.compare) return ps_usage_error("predict", "--measured needs --compare");

    char err[1024];
    ps_machine m;
    if (ps_machine_load(o.machine_path, &m, err, sizeof err)) return ps_fail(2, "%s", err);
    if (m.bsp_fit_note[0] && !o.quiet)
        fprintf(stderr, "parscope predict: %s has no BSP g and l (its h-relation fit failed: %s); the prediction uses "
                        "the estimator's latency, word time and flop time only\n",
                o.machine_path, m.bsp_fit_note);
    if (!streams_in && !ps_workload_find(o.workload) && !ends_with(o.workload, ".loop") &&
        !(strchr(o.workload, '/') && ps_file_exists(o.workload)))
        return ps_fail(2, "predict: unknown workload '%s' (a built-in name, FILE.loop, a program, or streams)", o.workload);
    ps_interrupt_install();

    if (o.calibrate) {
        int x = run_calibration(&o, err, sizeof err);
        if (x) return ps_fail(x, "predict: %s", err);
    }
    int several = o.nranks > 1;
    json_t *points = json_array();
    int rc = 0;
    double t1 = NAN;
    const ps_workload *w = ps_workload_find(o.workload);
    if (!o.quiet) {
        printf("Prediction: %s on %s (%s)\n", w ? w->name : o.workload, m.name[0] ? m.name : "machine", o.machine_path);
        printf("%7s  %12s  %8s  %12s  %12s  %12s  %10s  %8s\n", "P", "time (s)", "speedup", "work (s)", "comm (s)",
               "wait (s)", "messages", "sim (s)");
    }
    for (int k = 0; k < o.nranks; k++) {
        if (ps_interrupted()) {
            fprintf(stderr, "parscope: interrupted; %d of %d counts predicted\n", k, o.nranks);
            rc = 1;
            break;
        }
        json_t *doc;
        ps_sim_result res;
        memset(&res, 0, sizeof res);
        int x = predict_one(&o, &m, o.ranks[k], several, &doc, &res, err, sizeof err);
        if (x) {
            if (res.report) fputs(res.report, stderr);
            fprintf(stderr, "parscope: predict: %s\n", err);
            ps_sim_result_free(&res);
            rc = x;
            break;
        }
        double sim_s = json_real_value(json_object_get(json_object_get(doc, "simulation"), "seconds"));
        if (k == 0 || res.nranks == 1) t1 = res.time;
        printf("%7d  %12.6g  %8.3g  %12.6g  %12.6g  %12.6g  %10llu  %8.3f\n", res.nranks, res.time,
                   (isfinite(t1) && res.time > 0) ? t1 / res.time : NAN, res.work, res.comm, res.wait,
                   (unsigned long long)res.messages, sim_s);
        fflush(stdout);
        json_array_append_new(points, doc);
        ps_sim_result_free(&res);
    }
    if (!o.quiet && json_array_size(points))
        printf("(speedup against the first count; work / comm / wait: the simulator's breakdown, seconds per "
               "rank on average)\n");

    json_t *out = NULL;
    if (json_array_size(points) == 1 && !several) {
        out = json_incref(json_array_get(points, 0));
    } else {
        out = json_object();
        json_object_set_new(out, "kind", json_string("predict"));
        json_object_set_new(out, "workload", json_string(w ? w->name : o.workload));
        json_object_set_new(out, "machine_model", json_string(o.machine_path));
        json_object_set(out, "points", points);
    }
    if (o.output && json_array_size(points) && ps_result_write(o.output, out, err, sizeof err)) {
        fprintf(stderr, "parscope: %s\n", err);
        rc = rc ? rc : 2;
    }
    if (rc == 0 && o.compare) {
        json_t *meas = NULL;
        int x = run_measured(&o, &meas, err, sizeof err);
        if (x == 2) {
            rc = ps_fail(2, "predict --compare: %s", err);
        } else {
            if (x) {
                fprintf(stderr, "parscope: predict --compare: some measured runs failed\n");
                rc = 1;
            }
            if (o.measured_path && ps_result_write(o.measured_path, meas, err, sizeof err)) {
                fprintf(stderr, "parscope: %s\n", err);
                rc = rc ? rc : 2;
            }
            printf("\nPredicted against measured (%d trials per count, fastest):\n", o.trials);
            json_t *cmp = ps_compare_results(meas, out, stdout, err, sizeof err);
            if (!cmp) {
                fprintf(stderr, "parscope: predict --compare: %s\n", err);
                rc = rc ? rc : 1;
            }
            json_decref(cmp);
        }
        json_decref(meas);
    }
    json_decref(out);
    json_decref(points);
    return rc;
}
