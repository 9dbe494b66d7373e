/*
 * machine_find.c - machine models found by name (see machine.h).
 *
 * `-m sp2`, `-m sp2.ini` and `-m machines/sp2.ini` name the same model
 * wherever parscope runs: a path that exists is taken as it is; otherwise
 * the name (with ".ini" added when it has none, and a leading "machines/"
 * dropped, as the README writes it) is looked for in the machine folders:
 * $PARSCOPE_MACHINES (colon-separated), PREFIX/share/parscope/machines
 * beside the running program (an installed tree), the source tree's
 * machines/ (a build tree), and the configured install prefix's.  A
 * directory is never a model: one that is named and no model is said to be
 * a directory.
 */
#include "sim/machine.h"

#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#ifndef PS_SIM_SOURCE_DIR
#define PS_SIM_SOURCE_DIR ""
#endif
#ifndef PS_SIM_DATADIR
#define PS_SIM_DATADIR "share"
#endif
#ifndef PS_SIM_FULL_DATADIR
#define PS_SIM_FULL_DATADIR ""
#endif

#define MAX_DIRS 16

/* The machine folders, in search order; returns how many (each a malloc'd string). */
static int machine_dirs(char **dirs)
{
    int n = 0;
    const char *env = getenv("PARSCOPE_MACHINES");
    if (env && *env) {
        char *copy = ps_xstrdup(env), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d && n < MAX_DIRS - 3; d = strtok_r(NULL, ":", &save))
            if (*d) dirs[n++] = ps_xstrdup(d);
        free(copy);
    }
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = 0;
        char *bindir = dirname(self); /* PREFIX/bin */
        char *prefix = dirname(bindir);
        dirs[n++] = ps_xasprintf("%s/%s/parscope/machines", prefix, PS_SIM_DATADIR);
    }
    if (PS_SIM_SOURCE_DIR[0]) dirs[n++] = ps_xasprintf("%s/machines", PS_SIM_SOURCE_DIR);
    if (PS_SIM_FULL_DATADIR[0]) dirs[n++] = ps_xasprintf("%s/parscope/machines", PS_SIM_FULL_DATADIR);
    return n;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* The models of the machine folders, each name once, sorted ("origin, sp, sp2, t3e"). */
static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void list_models(char **dirs, int nd, char *list, size_t len)
{
    char *names[256];
    int n = 0;
    for (int i = 0; i < nd; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) && n < 256) {
            if (e->d_name[0] == '.' || !ends_with(e->d_name, ".ini")) continue;
            char *name = ps_xasprintf("%.*s", (int)(strlen(e->d_name) - 4), e->d_name);
            int seen = 0;
            for (int k = 0; k < n && !seen; k++) seen = !strcmp(names[k], name);
            if (seen) free(name);
            else names[n++] = name;
        }
        closedir(d);
    }
    if (n) qsort(names, (size_t)n, sizeof *names, name_cmp);
    size_t used = 0;
    list[0] = 0;
    for (int k = 0; k < n; k++) {
        if (used < len) {
            int w = snprintf(list + used, len - used, "%s%s", k ? ", " : "", names[k]);
            if (w > 0) used += (size_t)w;
        }
        free(names[k]);
    }
}

int ps_machine_find(const char *name, char *path, size_t len, char *err, size_t errlen)
{
    if (!name || !*name) {
        ps_seterr(err, errlen, "no machine model named");
        return -1;
    }
    if (ps_file_exists(name) && !ps_is_dir(name)) {
        snprintf(path, len, "%s", name);
        return 0;
    }
    /* a bare name, or the README's machines/NAME.ini */
    const char *base = name;
    if (!strncmp(base, "machines/", 9)) base += 9;
    else if (!strncmp(base, "./machines/", 11)) base += 11;
    int bare = !strchr(base, '/') && *base;
    char *dirs[MAX_DIRS];
    int nd = machine_dirs(dirs), found = 0;
    for (int i = 0; bare && i < nd && !found; i++) {
        char cand[4200];
        for (int k = 0; k < 2 && !found; k++) {
            if (k == 0) snprintf(cand, sizeof cand, "%.4000s/%.150s", dirs[i], base);
            else if (!ends_with(base, ".ini")) snprintf(cand, sizeof cand, "%.4000s/%.150s.ini", dirs[i], base);
            else continue;
            if (ps_file_exists(cand) && !ps_is_dir(cand)) {
                snprintf(path, len, "%s", cand);
                found = 1;
            }
        }
    }
    if (!found) {
        char list[1024];
        list_models(dirs, nd, list, sizeof list);
        /* a directory that is there is said to be one (a bare name was looked up first:
         * a folder ./sp2 does not hide the model sp2) */
        const char *what = ps_is_dir(name) ? "is a directory, not a machine model file" : "no such file";
        if (bare)
            ps_seterr(err, errlen, "%s: %s, and no machine model of that name (%s%s)", name, what,
                      list[0] ? "models: " : "no machine folder found", list);
        else
            ps_seterr(err, errlen, "%s: %s", name, what);
    }
    for (int i = 0; i < nd; i++) free(dirs[i]);
    return found ? 0 : -1;
}
