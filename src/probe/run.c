/*
 * run.c - the probe from outside an MPI job (see probe.h): parscope launches
 * itself on the ranks in its rank-side mode, rank 0 writes the raw samples to
 * a file, and this process analyses them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "launch/meta.h"
#include "launch/noise.h"
#include "probe/probe.h"
#include "util/util.h"

int ps_probe_default_ranks(void)
{
    int cores = ps_hwinfo_get()->cores;
    return cores < 2 ? 2 : cores;
}

int ps_probe_run(const ps_probe_opts *o, json_t **doc, ps_machine *m, char *err, size_t errlen)
{
    *doc = NULL;
    char *tmp = ps_mktempdir("parscope-probe", err, errlen);
    if (!tmp) return 1;
    char *rawpath = ps_xasprintf("%s/raw.json", tmp);
    static const char *modes[] = {"--tiny", "--quick", NULL};
    char *av[10];
    int n = 0;
    av[n++] = (char *)ps_self_exe();
    av[n++] = "probe";
    av[n++] = "--rank-side";
    av[n++] = "--raw";
    av[n++] = rawpath;
    if (modes[o->mode]) av[n++] = (char *)modes[o->mode];
    /* the ranks learn the job's time limit: they start no round that would end past it (no limit:
     * one no round reaches, as the rank side would otherwise take its mode's default) */
    char limit[32];
    snprintf(limit, sizeof limit, "%.17g", o->timeout > 0 ? o->timeout : 1e9);
    av[n++] = "--timeout";
    av[n++] = limit;
    av[n] = NULL;
    ps_launch_opts lo = {.ranks = o->ranks > 0 ? o->ranks : ps_probe_default_ranks(), .launcher = o->launcher,
                         .timeout = o->timeout, .quiet = 1};
    ps_launch_result lr;
    /* how busy the machine was around the measurement */
    ps_noise_sample before, after;
    ps_noise_take(&before, 1);
    int rc = ps_launch(&lo, av, &lr);
    ps_noise_take(&after, 1);
    if (rc) {
        ps_seterr(err, errlen, "%s", lr.message);
        /* stopped (interrupted, at its time limit, a rank lost): the whole
         * rounds rank 0 wrote as it went are still a measurement */
        json_t *raw = rc == 1 ? json_load_file(rawpath, 0, NULL) : NULL;
        int done = (int)json_array_size(json_object_get(raw, "rounds"));
        if (done > 0) {
            char e2[512];
            *doc = ps_probe_analyze(raw, m, e2, sizeof e2);
            int planned = (int)json_integer_value(json_object_get(raw, "rounds_planned"));
            if (*doc && done >= planned) {
                /* every round was written before the job was stopped (in its ending): the
                 * measurement is whole, and says what happened after it */
                json_object_set_new(*doc, "stopped_after_the_rounds", json_string(lr.message));
                fprintf(stderr, "parscope probe: %s, after all %d rounds were measured: the model is whole\n",
                        lr.message, planned);
                rc = 0;
            } else if (*doc) {
                json_object_set_new(*doc, "interrupted", json_true());
                json_object_set_new(*doc, "complete", json_false());
                json_object_set_new(*doc, "rounds_planned", json_integer(planned));
                json_object_set_new(*doc, "stopped_because", json_string(lr.message));
                json_object_set_new(*doc, "missing",
                                    json_sprintf("rounds %d to %d of %d", done + 1, planned, planned));
                ps_seterr(err, errlen, "%s; %d of %d rounds measured, rounds %d to %d missing", lr.message, done,
                          planned, done + 1, planned);
                /* the model file says it too: a later predict -m reads only it */
                size_t l = strlen(m->source);
                if (l > 0 && m->source[l - 1] == ')') m->source[--l] = '\0';
                snprintf(m->source + l, sizeof m->source - l, "; INTERRUPTED: %d of %d rounds measured)", done,
                         planned);
                rc = PS_PROBE_PARTIAL;
            }
        }
        json_decref(raw);
    } else {
        json_error_t je;
        json_t *raw = json_load_file(rawpath, 0, &je);
        if (!raw) ps_seterr(err, errlen, "the ranks left no measurements (%s: %s)", rawpath, je.text);
        else {
            json_object_set_new(raw, "noise", ps_noise_json(&before, &after));
            *doc = ps_probe_analyze(raw, m, err, errlen);
        }
        rc = *doc ? 0 : 1;
        json_decref(raw);
    }
    free(rawpath);
    ps_rmtree(tmp);
    free(tmp);
    return rc;
}
