/* params.c - defaults, config file, options and automatic choices (see params.h). */
#include "scale/params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/meta.h"
#include "util/options.h"
#include "util/util.h"

static const char *const key_names[PS_K__COUNT] = {
    [PS_K_MAX_RANKS] = "max-ranks", [PS_K_RANKS] = "ranks", [PS_K_VARIATIONS] = "variations",
    [PS_K_TRIALS] = "trials", [PS_K_OUTPUT] = "output", [PS_K_STRONG] = "strong",
    [PS_K_GRID] = "grid", [PS_K_ITERATIONS] = "iterations", [PS_K_SIZE] = "size",
    [PS_K_TARGET_TIME] = "target-time", [PS_K_SEED] = "seed", [PS_K_TIMEOUT] = "timeout",
    [PS_K_EFF_THRESHOLD] = "efficiency-threshold", [PS_K_OVERSUBSCRIBE] = "oversubscribe",
    [PS_K_LAUNCHER] = "launcher", [PS_K_WORKLOAD_ARGS] = "workload-args",
    [PS_K_CACHE] = "cache", [PS_K_MEMORY] = "memory", [PS_K_CORES] = "cores",
    [PS_K_WORD_BITS] = "word-bits", [PS_K_SPREAD_TARGET] = "spread-target", [PS_K_TIME_BUDGET] = "time-budget"};

const char *ps_scale_key_name(int k) { return k >= 0 && k < PS_K__COUNT ? key_names[k] : "?"; }

int ps_scale_key_clue_only(int k)
{
    return k == PS_K_VARIATIONS || k == PS_K_GRID || k == PS_K_STRONG || k == PS_K_TARGET_TIME;
}

const char *ps_scale_source_name(int s)
{
    static const char *const n[] = {"default", "auto", "config", "option"};
    return s >= 0 && s <= PS_SRC_OPTION ? n[s] : "?";
}

int ps_scale_key_index(const char *key)
{
    char k[64];
    size_t n = strlen(key);
    if (n >= sizeof k) return -1;
    for (size_t i = 0; i <= n; i++) k[i] = key[i] == '_' ? '-' : (char)tolower((unsigned char)key[i]);
    for (int i = 0; i < PS_K__COUNT; i++)
        if (!strcmp(k, key_names[i])) return i;
    if (!strcmp(k, "o")) return PS_K_OUTPUT;
    return -1;
}

void ps_scale_params_defaults(ps_scale_params *p)
{
    memset(p, 0, sizeof *p);
    strcpy(p->workload, "clue");
    p->is_clue = 1;
    p->trials = PS_SCALE_TRIALS;
    p->spread_target = PS_SCALE_SPREAD_TARGET;
    p->iterations = 0;
    p->size = -1;
    p->target_time = PS_SCALE_TARGET_TIME;
    p->seed = 1;
    p->eff_threshold = PS_SCALE_EFF_THRESHOLD;
    p->word_bits = (int)(sizeof(void *) * 8);
    for (const ps_ca_variation *v = ps_ca_variations; v->name; v++)
        if (!v->extra) p->var[p->nvar++] = v;
}

static int parse_bool(const char *s, int *out)
{
    if (!strcmp(s, "1") || !strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcasecmp(s, "on")) *out = 1;
    else if (!strcmp(s, "0") || !strcasecmp(s, "no") || !strcasecmp(s, "false") || !strcasecmp(s, "off")) *out = 0;
    else return -1;
    return 0;
}

/* "64M", "2MiB", "1G", "512k" or plain bytes */
static int parse_bytes(const char *s, long *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v > 0)) return -1;
    double mul = 1;
    if (*end) {
        switch (toupper((unsigned char)*end)) {
        case 'K': mul = 1024.0; break;
        case 'M': mul = 1024.0 * 1024; break;
        case 'G': mul = 1024.0 * 1024 * 1024; break;
        default: return -1;
        }
        end++;
        if (!strcasecmp(end, "ib") || !strcasecmp(end, "b")) end += strlen(end);
        if (*end) return -1;
    }
    v *= mul;
    if (v < 1 || v > 9e18) return -1;
    *out = (long)v;
    return 0;
}

static int parse_ranks(ps_scale_params *p, const char *s, char *err, size_t errlen)
{
    int list[PS_SCALE_MAX_POINTS];
    int n = ps_parse_rank_list(s, list, PS_SCALE_MAX_POINTS, PS_SCALE_MAX_RANKS_LIMIT, err, errlen);
    if (n < 0) return -1;
    int kept = 0;
    for (int i = 0; i < n; i++) { /* each count once */
        int dup = 0;
        for (int j = 0; j < kept; j++) dup |= list[j] == list[i];
        if (!dup) list[kept++] = list[i];
    }
    n = kept;
    for (int i = 1; i < n; i++) /* ascending */
        for (int j = i; j > 0 && list[j - 1] > list[j]; j--) {
            int t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
    memcpy(p->ranks, list, sizeof(int) * (size_t)n);
    p->nranks = n;
    return 0;
}

static int parse_variations(ps_scale_params *p, const char *s, char *err, size_t errlen)
{
    const ps_ca_variation *list[16];
    int n = 0;
    const char *why;
    int empty = ps_list_empty_element(s, &why);
    if (empty) {
        ps_seterr(err, errlen, "element %d of '%s' is empty (%s)", empty, s, why);
        return -1;
    }
    if (!strcmp(s, "all")) {
        for (const ps_ca_variation *v = ps_ca_variations; v->name; v++) list[n++] = v;
    } else {
        char *copy = ps_xstrdup(s), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            const ps_ca_variation *v = ps_ca_variation_find(t);
            if (!v) {
                ps_seterr(err, errlen, "unknown variation '%s' (known: all, base, int, double, rearrange, "
                          "nodeorder, vonneumann, scatter, cellwise, long)", t);
                free(copy);
                return -1;
            }
            int dup = 0;
            for (int i = 0; i < n; i++) dup |= list[i] == v;
            if (!dup && n < 16) list[n++] = v;
        }
        free(copy);
    }
    if (n == 0) {
        ps_seterr(err, errlen, "empty variation list");
        return -1;
    }
    memcpy(p->var, list, sizeof(list[0]) * (size_t)n);
    p->nvar = n;
    return 0;
}

/* The kinds of value several keys take: each sets its field from value and
 * returns NULL, or returns what was expected and leaves the field alone. */
static const char *set_rank_count(const char *value, int *field)
{
    long l;
    if (ps_parse_long(value, 1, PS_SCALE_MAX_RANKS_LIMIT, &l)) return "an integer 1..4096";
    *field = (int)l;
    return NULL;
}

static const char *set_count(const char *value, long *field)
{
    long l;
    if (ps_parse_long(value, 1, 1L << 40, &l)) return "an integer >= 1";
    *field = l;
    return NULL;
}

static const char *set_fraction(const char *value, double *field)
{
    double d;
    if (ps_parse_double(value, &d) || !(d > 0 && d < 1)) return "a fraction in (0, 1)";
    *field = d;
    return NULL;
}

static const char *set_seconds(const char *value, double *field)
{
    double d;
    if (ps_parse_double(value, &d) || !(d > 0)) return "seconds > 0";
    *field = d;
    return NULL;
}

static const char *set_yes_no(const char *value, int *field)
{
    int b;
    if (parse_bool(value, &b)) return "yes or no";
    *field = b;
    return NULL;
}

int ps_scale_params_set(ps_scale_params *p, const char *key, const char *value, int src, char *err,
                        size_t errlen)
{
    int k = ps_scale_key_index(key);
    if (k < 0) {
        ps_seterr(err, errlen, "unknown keyword '%s'", key);
        return -1;
    }
    long l;
    double d;
    char why[256];
    const char *expect = NULL;
    switch (k) {
    case PS_K_MAX_RANKS:
        expect = set_rank_count(value, &p->max_ranks);
        break;
    case PS_K_RANKS:
        if (parse_ranks(p, value, why, sizeof why)) {
            ps_seterr(err, errlen, "bad value '%s' for %s: %s; expected a comma-separated list of rank counts "
                      "1..%d (1,2,4 | 1-4 | 1,2,4,...,64)", value, key_names[k], why, PS_SCALE_MAX_RANKS_LIMIT);
            return -1;
        }
        break;
    case PS_K_VARIATIONS:
        if (parse_variations(p, value, err, errlen)) return -1;
        break;
    case PS_K_TRIALS:
        if (!strcmp(value, "auto")) {
            p->trials_auto = 1;
            p->trials = PS_SCALE_AUTO_MAX_TRIALS;
        } else if (ps_parse_long(value, 1, 1000, &l)) {
            expect = "an integer 1..1000 or auto";
        } else {
            p->trials = (int)l;
            p->trials_auto = 0;
        }
        break;
    case PS_K_SPREAD_TARGET:
        expect = set_fraction(value, &p->spread_target);
        break;
    case PS_K_TIME_BUDGET:
        expect = set_seconds(value, &p->time_budget);
        break;
    case PS_K_OUTPUT:
        if (!*value || strlen(value) >= sizeof p->output) expect = "a directory";
        else snprintf(p->output, sizeof p->output, "%s", value);
        break;
    case PS_K_STRONG:
        expect = set_yes_no(value, &p->strong);
        break;
    case PS_K_GRID: {
        long w, h;
        char wb[32], *x = strchr(value, 'x');
        if (!x || (size_t)(x - value) >= sizeof wb) {
            expect = "WIDTHxHEIGHT (e.g. 1024x1024)";
            break;
        }
        memcpy(wb, value, (size_t)(x - value));
        wb[x - value] = 0;
        if (ps_parse_long(wb, 6, 1L << 30, &w) || ps_parse_long(x + 1, 2, 1L << 30, &h) || (h & 1))
            expect = "WIDTHxHEIGHT with width >= 6 and an even height >= 2";
        else {
            p->width = w;
            p->height = h;
        }
        break;
    }
    case PS_K_ITERATIONS:
        expect = set_count(value, &p->iterations);
        break;
    case PS_K_SIZE:
        expect = set_count(value, &p->size);
        break;
    case PS_K_TARGET_TIME:
        if (ps_parse_double(value, &d) || !(d > 0 && d <= 3600)) expect = "seconds in (0, 3600]";
        else p->target_time = d;
        break;
    case PS_K_SEED:
        if (ps_parse_long(value, 0, 0x7fffffffffffffffL, &l)) expect = "an integer >= 0";
        else p->seed = (uint64_t)l;
        break;
    case PS_K_TIMEOUT:
        expect = set_seconds(value, &p->timeout);
        break;
    case PS_K_EFF_THRESHOLD:
        expect = set_fraction(value, &p->eff_threshold);
        break;
    case PS_K_OVERSUBSCRIBE:
        expect = set_yes_no(value, &p->oversubscribe);
        break;
    case PS_K_LAUNCHER:
        if (strlen(value) >= sizeof p->launcher) expect = "a shorter launcher template";
        else snprintf(p->launcher, sizeof p->launcher, "%s", value);
        break;
    case PS_K_WORKLOAD_ARGS:
        if (strlen(value) >= sizeof p->workload_args) expect = "shorter arguments";
        else snprintf(p->workload_args, sizeof p->workload_args, "%s", value);
        break;
    case PS_K_CACHE:
        if (parse_bytes(value, &l) || l < 1024)
            expect = "a size in bytes, 1K or more: a number with K, M or G (KiB, MiB, GiB), e.g. 2M";
        else p->cache_bytes = l;
        break;
    case PS_K_MEMORY:
        if (parse_bytes(value, &l) || l < (1L << 20))
            expect = "a size in bytes, 1M or more: a number with K, M or G (KiB, MiB, GiB), e.g. 4G";
        else p->memory_bytes = l;
        break;
    case PS_K_CORES:
        expect = set_rank_count(value, &p->cores);
        break;
    case PS_K_WORD_BITS:
        if (ps_parse_long(value, 8, 256, &l) || (l & (l - 1))) expect = "a power of two 8..256";
        else p->word_bits = (int)l;
        break;
    }
    if (expect) {
        ps_seterr(err, errlen, "bad value '%s' for %s: expected %s", value, key_names[k], expect);
        return -1;
    }
    p->src[k] = src;
    p->why[k][0] = 0;
    return 0;
}

int ps_scale_params_load(ps_scale_params *p, const char *path, char *err, size_t errlen)
{
    char e[512];
    char *text = ps_read_text(path, NULL, e, sizeof e);
    if (!text) {
        ps_seterr(err, errlen, "%s", e);
        return -1;
    }
    int lineno = 0, rc = 0;
    char *save = NULL;
    /* strtok_r would merge blank lines: walk lines by hand to count them */
    (void)save;
    for (char *line = text; line && !rc;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        lineno++;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        char *hash = strchr(s, '#');
        if (hash) *hash = 0;
        size_t n = strlen(s);
        while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
        if (*s) {
            int col = (int)(s - line) + 1;
            char *eq = strchr(s, '=');
            if (!eq) {
                ps_seterr(err, errlen, "%s:%d:%d: expected 'keyword = value'", path, lineno, col);
                rc = -1;
                break;
            }
            char *kend = eq;
            while (kend > s && isspace((unsigned char)kend[-1])) kend--;
            *kend = 0;
            char *v = eq + 1;
            while (*v == ' ' || *v == '\t') v++;
            int vcol = (int)(v - line) + 1;
            if (ps_scale_key_index(s) < 0) {
                ps_seterr(err, errlen, "%s:%d:%d: unknown keyword '%s'", path, lineno, col, s);
                rc = -1;
            } else if (!*v) {
                ps_seterr(err, errlen, "%s:%d:%d: missing value for '%s'", path, lineno, vcol, s);
                rc = -1;
            } else if (ps_scale_params_set(p, s, v, PS_SRC_CONFIG, e, sizeof e) != 0) {
                ps_seterr(err, errlen, "%s:%d:%d: %s", path, lineno, vcol, e);
                rc = -1;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return rc;
}

void ps_scale_params_machine(ps_scale_params *p)
{
    const ps_hwinfo *hw = ps_hwinfo_get();
    if (!hw->topology) return;
    if (p->src[PS_K_CORES] == PS_SRC_DEFAULT) {
        int n = hw->cores > 0 ? hw->cores : hw->pus;
        p->cores = n > 0 ? n : 1;
        p->src[PS_K_CORES] = PS_SRC_AUTO;
        snprintf(p->why[PS_K_CORES], sizeof p->why[0], "hwloc: %d cores", p->cores);
    }
    if (p->src[PS_K_CACHE] == PS_SRC_DEFAULT) {
        /* the largest cache private to one core (CLUE's "processor cache")
         * among L1d, L2, L3 */
        long best = 0;
        const char *which = "none";
        for (int i = 0; i < 3; i++) {
            const ps_hw_cache *c = &hw->cache[i];
            if (c->bytes <= 0) continue;
            long share = (long)c->bytes / (c->cores > 0 ? c->cores : 1);
            if (c->cores <= 1 && share > best) {
                best = share;
                which = ps_cache_level_names[i];
            }
        }
        p->cache_bytes = best > 0 ? best : 256 * 1024;
        p->src[PS_K_CACHE] = PS_SRC_AUTO;
        snprintf(p->why[PS_K_CACHE], sizeof p->why[0], "hwloc: %s, %ld KiB per core", which,
                 p->cache_bytes / 1024);
    }
    if (p->src[PS_K_MEMORY] == PS_SRC_DEFAULT) {
        long total = (long)hw->memory_bytes;
        double mav = ps_meminfo_bytes("MemAvailable");
        long avail = mav > 0 ? (long)mav : 0;
        long m = total > 0 && avail > 0 ? (total < avail ? total : avail) : (total > 0 ? total : avail);
        p->memory_bytes = m > 0 ? m : (1L << 30);
        p->src[PS_K_MEMORY] = PS_SRC_AUTO;
        snprintf(p->why[PS_K_MEMORY], sizeof p->why[0], "total %ld MiB, available %ld MiB",
                 total >> 20, avail >> 20);
    }
    if (p->src[PS_K_WORD_BITS] == PS_SRC_DEFAULT) {
        p->src[PS_K_WORD_BITS] = PS_SRC_AUTO;
        snprintf(p->why[PS_K_WORD_BITS], sizeof p->why[0], "pointer width");
    }
}

static void set_why(ps_scale_params *p, int k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_why(ps_scale_params *p, int k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->why[k], sizeof p->why[k], fmt, ap);
    va_end(ap);
    p->src[k] = PS_SRC_AUTO;
}

int ps_scale_params_auto(ps_scale_params *p, char *err, size_t errlen)
{
    ps_scale_params_machine(p);
    if (p->src[PS_K_MAX_RANKS] == PS_SRC_DEFAULT) {
        p->max_ranks = p->nranks ? p->ranks[p->nranks - 1] : p->cores;
        set_why(p, PS_K_MAX_RANKS, p->nranks ? "largest of the ranks list" : "the machine's cores");
    }
    if (p->nranks == 0) {
        for (int r = 1; r < p->max_ranks && p->nranks < PS_SCALE_MAX_POINTS - 1; r *= 2) p->ranks[p->nranks++] = r;
        p->ranks[p->nranks++] = p->max_ranks;
        set_why(p, PS_K_RANKS, "1, 2, 4 .. max-ranks");
    }
    int top = p->ranks[p->nranks - 1];
    if (p->src[PS_K_RANKS] != PS_SRC_DEFAULT && p->src[PS_K_MAX_RANKS] != PS_SRC_DEFAULT &&
        p->src[PS_K_MAX_RANKS] != PS_SRC_AUTO && top > p->max_ranks) {
        ps_seterr(err, errlen, "the ranks list goes to %d, beyond --max-ranks %d", top, p->max_ranks);
        return -1;
    }
    /* more ranks than cores run, as with every command: each run's result
     * says so (oversubscribed) and its busy / idle figures are marked */
    if (p->trials_auto && p->time_budget <= 0) {
        p->time_budget = PS_SCALE_AUTO_BUDGET;
        set_why(p, PS_K_TIME_BUDGET, "default budget of automatic trials");
    }
    if (!p->is_clue) {
        if (p->timeout <= 0) {
            p->timeout = 300;
            set_why(p, PS_K_TIMEOUT, "default for other workloads");
        }
        return 0;
    }
    /* Grid (seed 3.4): the row of the widest cells (8 bytes: int, double;
     * rearrange's 2X floats) within a third of the per-core cache; both
     * grids within the memory share with room to spare; the cells so many
     * that PS_SCALE_MIN_ITERATIONS fit the target time. */
    int ranks_here = top < p->cores ? p->cores : top;
    long wmax = p->cache_bytes / PS_SCALE_CACHE_SHARE / 8;
    wmax -= wmax % 64;
    if (wmax < 64) wmax = 64;
    double mem_cells = PS_SCALE_MEM_FRACTION * (double)p->memory_bytes / ranks_here / 16.0;
    double cap_cells = (double)PS_SCALE_MAX_FOOTPRINT / 16.0;
    double cells = mem_cells < cap_cells ? mem_cells : cap_cells;
    if (p->width == 0 || p->iterations == 0) {
        /* the short timing run: base variation, serial, in this process */
        /* rows as wide as the cache allows, but no wider than the cells
         * allowed leave for 8 rows: a cache hwloc reports as hundreds of MB
         * (seen on virtual machines) would otherwise make a row of tens of
         * millions of cells and a timing run of gigabytes */
        long tw = p->width ? p->width : wmax;
        if (!p->width && tw > PS_SCALE_TIMING_CELLS / 8) tw = PS_SCALE_TIMING_CELLS / 8;
        long th = (long)(cells / (double)tw);
        if (p->height) th = p->height;
        if (th > PS_SCALE_TIMING_CELLS / tw) th = PS_SCALE_TIMING_CELLS / tw; /* a few ms */
        if (th < 8) th = 8;
        p->timing_rate = ps_ca_time_serial(PS_CA_FLOAT, PS_CA_MOORE, tw, th, 3, p->seed);
        if (!(p->timing_rate > 0)) {
            ps_seterr(err, errlen, "the timing run failed (out of memory for a %ldx%ld grid?)", tw, th);
            return -1;
        }
    }
    if (p->width == 0) {
        double time_cells = p->timing_rate * p->target_time / PS_SCALE_MIN_ITERATIONS;
        const char *bound = "memory";
        if (cap_cells < mem_cells) bound = "footprint cap";
        if (time_cells < cells) {
            cells = time_cells;
            bound = "target time";
        }
        long w = (long)sqrt(cells);
        w -= w % 64;
        if (w > wmax) w = wmax;
        if (w < 64) w = 64;
        long h = (long)(cells / (double)w);
        h -= h % 2;
        if (h < 2) h = 2;
        p->width = w;
        p->height = h;
        set_why(p, PS_K_GRID,
                "square-ish, %ld bytes of 8-byte row <= cache/%d = %ld; %.0f cells bounded by %s "
                "(memory share %.0f, cap %.0f)",
                w * 8, PS_SCALE_CACHE_SHARE, p->cache_bytes / PS_SCALE_CACHE_SHARE, cells, bound, mem_cells,
                cap_cells);
    }
    if (p->iterations == 0) {
        double it = p->timing_rate * p->target_time / ((double)p->width * (double)p->height);
        p->iterations = it < 1 ? 1 : (long)(it + 0.5);
        set_why(p, PS_K_ITERATIONS, "timing run %.3g cells/s x target %.3g s / %ldx%ld cells",
                p->timing_rate, p->target_time, p->width, p->height);
    }
    if (p->timeout <= 0) {
        /* generous: the slowest variation on a slow network may take many
         * times the target; a hang still ends */
        p->timeout = 20.0 * p->target_time + PS_SCALE_RUN_TIMEOUT_MIN;
        if (p->timing_rate > 0) {
            double est = (double)p->width * p->height * p->iterations / p->timing_rate;
            if (20.0 * est + PS_SCALE_RUN_TIMEOUT_MIN > p->timeout) p->timeout = 20.0 * est + PS_SCALE_RUN_TIMEOUT_MIN;
        }
        set_why(p, PS_K_TIMEOUT, "20 x the expected run time + %.0f s", PS_SCALE_RUN_TIMEOUT_MIN);
    }
    return 0;
}

void ps_scale_params_value(const ps_scale_params *p, int k, char *buf, size_t len)
{
    if (!p->is_clue && ps_scale_key_clue_only(k)) {
        snprintf(buf, len, "-");
        return;
    }
    switch (k) {
    case PS_K_MAX_RANKS: snprintf(buf, len, "%d", p->max_ranks); break;
    case PS_K_RANKS: {
        size_t o = 0;
        buf[0] = 0;
        for (int i = 0; i < p->nranks && o < len; i++)
            o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "", p->ranks[i]);
        break;
    }
    case PS_K_VARIATIONS: {
        size_t o = 0;
        buf[0] = 0;
        for (int i = 0; i < p->nvar && o < len; i++)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? "," : "", p->var[i]->name);
        break;
    }
    case PS_K_TRIALS:
        if (p->trials_auto) snprintf(buf, len, "auto");
        else snprintf(buf, len, "%d", p->trials);
        break;
    case PS_K_SPREAD_TARGET: snprintf(buf, len, "%g", p->spread_target); break;
    case PS_K_TIME_BUDGET: snprintf(buf, len, "%g", p->time_budget); break;
    case PS_K_OUTPUT: snprintf(buf, len, "%s", p->output); break;
    case PS_K_STRONG: snprintf(buf, len, "%s", p->strong ? "yes" : "no"); break;
    case PS_K_GRID: snprintf(buf, len, "%ldx%ld", p->width, p->height); break;
    case PS_K_ITERATIONS: snprintf(buf, len, "%ld", p->iterations); break;
    case PS_K_SIZE: snprintf(buf, len, "%ld", p->size); break;
    case PS_K_TARGET_TIME: snprintf(buf, len, "%g", p->target_time); break;
    case PS_K_SEED: snprintf(buf, len, "%llu", (unsigned long long)p->seed); break;
    case PS_K_TIMEOUT: snprintf(buf, len, "%g", p->timeout); break;
    case PS_K_EFF_THRESHOLD: snprintf(buf, len, "%g", p->eff_threshold); break;
    case PS_K_OVERSUBSCRIBE: snprintf(buf, len, "%s", p->oversubscribe ? "yes" : "no"); break;
    case PS_K_LAUNCHER: snprintf(buf, len, "%s", p->launcher); break;
    case PS_K_WORKLOAD_ARGS: snprintf(buf, len, "%s", p->workload_args); break;
    case PS_K_CACHE: snprintf(buf, len, "%ld", p->cache_bytes); break;
    case PS_K_MEMORY: snprintf(buf, len, "%ld", p->memory_bytes); break;
    case PS_K_CORES: snprintf(buf, len, "%d", p->cores); break;
    case PS_K_WORD_BITS: snprintf(buf, len, "%d", p->word_bits); break;
    default: snprintf(buf, len, "?");
    }
}

long ps_scale_iterations_for(const ps_scale_params *p, const ps_ca_variation *v)
{
    long it = p->iterations;
    if (!v || it < 1) return it;
    long per = ps_ca_events_per_iteration(v, p->width);
    long fit = (PS_SCALE_TRACE_BUDGET - 4096) / per;
    if (fit < 1) fit = 1;
    return it < fit ? it : fit;
}
