/* Sweep parameters: config file and option precedence, errors naming
 * file:line:col, automatic choices within their rules. */
#include <stdio.h>
#include <string.h>

#include "scale/params.h"

#include "check.h"

static void bad_file(const char *name, const char *expect)
{
    ps_scale_params p;
    char err[512] = "", path[512];
    snprintf(path, sizeof path, "%s/data/%s", PS_TEST_DATA, name);
    ps_scale_params_defaults(&p);
    CHECK(ps_scale_params_load(&p, path, err, sizeof err) == -1, "%s loaded", name);
    CHECK(strstr(err, expect) != NULL, "message '%s' lacks '%s'", err, expect);
}

/* defaults < config file < options; automatic choices never override */
TEST_IMPL(params_precedence)
{
    ps_scale_params p;
    char err[512], path[512], buf[256];
    ps_scale_params_defaults(&p);
    CHECK(p.trials == 3 && p.src[PS_K_TRIALS] == PS_SRC_DEFAULT, "default trials");
    /* config file over defaults */
    snprintf(path, sizeof path, "%s/data/good.conf", PS_TEST_DATA);
    CHECK(ps_scale_params_load(&p, path, err, sizeof err) == 0, "%s", err);
    CHECK(p.trials == 5 && p.src[PS_K_TRIALS] == PS_SRC_CONFIG, "trials %d", p.trials);
    CHECK(p.max_ranks == 4 && p.width == 128 && p.height == 64 && p.seed == 9, "values");
    CHECK(p.nvar == 2 && !strcmp(p.var[1]->name, "int"), "variations");
    /* the command line over the config file */
    CHECK(ps_scale_params_set(&p, "trials", "7", PS_SRC_OPTION, err, sizeof err) == 0, "%s", err);
    CHECK(p.trials == 7 && p.src[PS_K_TRIALS] == PS_SRC_OPTION, "option did not override");
    CHECK(p.src[PS_K_GRID] == PS_SRC_CONFIG, "grid source");
    /* automatic choices never override a config or option value */
    ps_scale_params_set(&p, "cores", "4", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "iterations", "3", PS_SRC_OPTION, err, sizeof err);
    CHECK(ps_scale_params_auto(&p, err, sizeof err) == 0, "%s", err);
    CHECK(p.width == 128 && p.height == 64 && p.iterations == 3 && p.max_ranks == 4, "auto overrode");
    CHECK(p.nranks == 3 && p.ranks[0] == 1 && p.ranks[2] == 4, "ranks 1,2,4 (%d)", p.nranks);
    CHECK(p.src[PS_K_RANKS] == PS_SRC_AUTO, "ranks source");
    ps_scale_params_value(&p, PS_K_RANKS, buf, sizeof buf);
    CHECK(!strcmp(buf, "1,2,4"), "ranks text %s", buf);
}

/* automatic grid and iterations from given machine facts */
TEST_IMPL(params_auto)
{
    ps_scale_params p;
    char err[512];
    ps_scale_params_defaults(&p);
    ps_scale_params_set(&p, "cache", "3M", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "memory", "64M", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "cores", "2", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "target-time", "0.05", PS_SRC_OPTION, err, sizeof err);
    CHECK(ps_scale_params_auto(&p, err, sizeof err) == 0, "%s", err);
    CHECK(p.width % 64 == 0 && p.width * 8 <= 3L * 1024 * 1024 / 3, "row %ld beyond a third of the cache", p.width);
    /* two grids of 8-byte cells for each of 2 ranks within half of 64 MiB */
    CHECK(2.0 * 16.0 * p.width * p.height <= 0.5 * 64 * 1024 * 1024 + 1, "footprint %ldx%ld", p.width, p.height);
    CHECK(p.height % 2 == 0 && p.iterations >= 1, "height %ld iterations %ld", p.height, p.iterations);
    CHECK(p.src[PS_K_GRID] == PS_SRC_AUTO && p.why[PS_K_GRID][0], "grid source/why");
    CHECK(p.timing_rate > 0, "no timing run");
    CHECK(p.nranks == 2 && p.ranks[1] == 2, "ranks from cores");
    /* a narrow cache bounds the row */
    ps_scale_params_defaults(&p);
    ps_scale_params_set(&p, "cache", "48K", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "cores", "1", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "target-time", "0.05", PS_SRC_OPTION, err, sizeof err);
    CHECK(ps_scale_params_auto(&p, err, sizeof err) == 0, "%s", err);
    CHECK(p.width <= 48 * 1024 / 3 / 8 && p.width % 64 == 0, "width %ld", p.width);
}

/* oversubscription only when asked */
TEST_IMPL(params_oversubscribe)
{
    ps_scale_params p;
    char err[512];
    ps_scale_params_defaults(&p);
    ps_scale_params_set(&p, "cores", "2", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "max-ranks", "4", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "grid", "64x64", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "iterations", "2", PS_SRC_OPTION, err, sizeof err);
    /* one rule with run and whitebox: more ranks than cores run, and the
     * results mark them oversubscribed (the option is accepted, not needed) */
    CHECK(ps_scale_params_auto(&p, err, sizeof err) == 0 && p.ranks[p.nranks - 1] == 4, "%s", err);
    CHECK(ps_scale_params_set(&p, "oversubscribe", "yes", PS_SRC_OPTION, err, sizeof err) == 0, "%s", err);
}

/* trials = auto (--auto-trials): 3 to 10 trials, the spread target and the time budget */
TEST_IMPL(params_auto_trials)
{
    ps_scale_params p;
    char err[512], buf[64];
    ps_scale_params_defaults(&p);
    CHECK(!p.trials_auto && p.trials == 3, "default");
    CHECK(ps_scale_params_set(&p, "trials", "auto", PS_SRC_OPTION, err, sizeof err) == 0 && p.trials_auto &&
              p.trials == PS_SCALE_AUTO_MAX_TRIALS, "%s", err);
    ps_scale_params_value(&p, PS_K_TRIALS, buf, sizeof buf);
    CHECK(!strcmp(buf, "auto"), "value %s", buf);
    CHECK(ps_scale_params_set(&p, "spread-target", "0.1", PS_SRC_OPTION, err, sizeof err) == 0 &&
              p.spread_target == 0.1, "%s", err);
    CHECK(ps_scale_params_set(&p, "spread-target", "2", PS_SRC_OPTION, err, sizeof err) == -1 &&
              strstr(err, "spread-target"), "%s", err);
    CHECK(ps_scale_params_set(&p, "time-budget", "-1", PS_SRC_OPTION, err, sizeof err) == -1, "negative budget");
    CHECK(ps_scale_params_set(&p, "trials", "many", PS_SRC_OPTION, err, sizeof err) == -1 && strstr(err, "auto"),
          "%s", err);
    ps_scale_params_set(&p, "grid", "64x64", PS_SRC_OPTION, err, sizeof err);
    ps_scale_params_set(&p, "iterations", "2", PS_SRC_OPTION, err, sizeof err);
    CHECK(ps_scale_params_auto(&p, err, sizeof err) == 0 && p.time_budget == PS_SCALE_AUTO_BUDGET, "budget %g",
          p.time_budget);
    CHECK(ps_scale_params_set(&p, "trials", "4", PS_SRC_OPTION, err, sizeof err) == 0 && !p.trials_auto, "back");
}

/* bad values name the key and what is expected */
TEST_IMPL(params_bad_values)
{
    ps_scale_params p;
    char err[512];
    ps_scale_params_defaults(&p);
    CHECK(ps_scale_params_set(&p, "trials", "0", PS_SRC_OPTION, err, sizeof err) == -1 && strstr(err, "trials"), "%s", err);
    CHECK(ps_scale_params_set(&p, "grid", "100x33", PS_SRC_OPTION, err, sizeof err) == -1, "odd height accepted");
    CHECK(ps_scale_params_set(&p, "ranks", "1,x", PS_SRC_OPTION, err, sizeof err) == -1, "bad ranks accepted");
    CHECK(ps_scale_params_set(&p, "variations", "base,nope", PS_SRC_OPTION, err, sizeof err) == -1 &&
          strstr(err, "nope"), "%s", err);
    CHECK(ps_scale_params_set(&p, "efficiency-threshold", "1.5", PS_SRC_OPTION, err, sizeof err) == -1, "threshold");
    CHECK(ps_scale_params_set(&p, "ranks", "4,1,2,2", PS_SRC_OPTION, err, sizeof err) == 0 && p.nranks == 3 &&
          p.ranks[0] == 1 && p.ranks[2] == 4, "ranks not sorted/deduplicated");
}

/* config errors: FILE:LINE:COL */
TEST_IMPL(params_bad_files)
{
    bad_file("unknown_key.conf", "unknown_key.conf:2:1: unknown keyword 'bogus'");
    bad_file("bad_grid.conf", "bad_grid.conf:3:10: bad value '12x7' for grid");
    bad_file("no_equals.conf", "no_equals.conf:2:1: expected 'keyword = value'");
    bad_file("bad_variation.conf", "bad_variation.conf:1:14: unknown variation 'warp'");
    bad_file("missing.conf", "missing.conf");
}
