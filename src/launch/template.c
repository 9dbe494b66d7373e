/*
 * template.c - launcher templates: shell-like words, {ranks}, {hostfile}
 * (see template.h).  No shell is ever run.
 */
#include "launch/template.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

typedef struct wordv {
    char **v;
    int    n, cap;
} wordv;

static void wv_push(wordv *w, char *s)
{
    if (w->n + 2 > w->cap) {
        w->cap = w->cap ? w->cap * 2 : 16;
        w->v = ps_xrealloc(w->v, (size_t)w->cap * sizeof *w->v);
    }
    w->v[w->n++] = s;
    w->v[w->n] = NULL;
}

static void wv_free(wordv *w)
{
    for (int i = 0; i < w->n; i++) free(w->v[i]);
    free(w->v);
    memset(w, 0, sizeof *w);
}

int ps_split_words(const char *s, char ***words, int *nwords, char *err, size_t errlen)
{
    wordv w = {0};
    size_t len = strlen(s);
    char *cur = ps_xmalloc(len + 1);
    size_t n = 0;
    int in_word = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == ' ' || ch == '\t' || ch == '\n') {
            if (in_word) {
                cur[n] = '\0';
                wv_push(&w, ps_xstrdup(cur));
                n = 0;
                in_word = 0;
            }
            continue;
        }
        in_word = 1;
        if (ch == '\\') {
            if (i + 1 >= len) {
                ps_seterr(err, errlen, "column %zu: a backslash ends the template (nothing to escape)", i + 1);
                goto fail;
            }
            cur[n++] = s[++i];
        } else if (ch == '\'') {
            size_t start = i;
            while (++i < len && s[i] != '\'') cur[n++] = s[i];
            if (i >= len) {
                ps_seterr(err, errlen, "column %zu: the single quote is not closed", start + 1);
                goto fail;
            }
        } else if (ch == '"') {
            size_t start = i;
            while (++i < len && s[i] != '"') {
                if (s[i] == '\\' && i + 1 < len && strchr("\"\\$`", s[i + 1])) i++;
                cur[n++] = s[i];
            }
            if (i >= len) {
                ps_seterr(err, errlen, "column %zu: the double quote is not closed", start + 1);
                goto fail;
            }
        } else {
            cur[n++] = ch;
        }
    }
    if (in_word) {
        cur[n] = '\0';
        wv_push(&w, ps_xstrdup(cur));
    }
    free(cur);
    if (!w.v) w.v = ps_xcalloc(1, sizeof *w.v);
    *words = w.v;
    *nwords = w.n;
    return 0;
fail:
    free(cur);
    wv_free(&w);
    return -1;
}

int ps_rank_hosts(const char *hosts_spec, const char *map, int ranks, const char ***hosts, char **storage,
                  char *err, size_t errlen)
{
    int block;
    if (!map || !*map || !strcmp(map, "round-robin")) block = 0;
    else if (!strcmp(map, "block")) block = 1;
    else {
        ps_seterr(err, errlen, "PARSCOPE_MAP: '%s' is not round-robin or block", map);
        return -1;
    }
    char *copy = ps_xstrdup(hosts_spec ? hosts_spec : "");
    int cap = 16, nh = 0;
    char **name = ps_xcalloc((size_t)cap, sizeof *name);
    long *slots = ps_xcalloc((size_t)cap, sizeof *slots);
    char *save = NULL;
    for (char *e = strtok_r(copy, ", \t\n", &save); e; e = strtok_r(NULL, ", \t\n", &save)) {
        char *colon = strchr(e, ':');
        long s = 1;
        if (colon) {
            *colon = '\0';
            if (ps_parse_long(colon + 1, 1, 1 << 20, &s)) {
                ps_seterr(err, errlen, "PARSCOPE_HOSTS: '%s:%s' is not HOST or HOST:SLOTS (SLOTS >= 1)", e, colon + 1);
                goto fail;
            }
        }
        if (!*e) {
            ps_seterr(err, errlen, "PARSCOPE_HOSTS: an entry has no host name");
            goto fail;
        }
        if (nh == cap) {
            cap *= 2;
            name = ps_xrealloc(name, (size_t)cap * sizeof *name);
            slots = ps_xrealloc(slots, (size_t)cap * sizeof *slots);
        }
        name[nh] = e;
        slots[nh++] = s;
    }
    if (nh == 0) {
        ps_seterr(err, errlen, "{hostfile} needs the hosts in PARSCOPE_HOSTS (e.g. 'node0:2,node1:2'), which is %s",
                  hosts_spec ? "empty" : "not set");
        goto fail;
    }
    const char **h = ps_xcalloc((size_t)(ranks > 0 ? ranks : 1), sizeof *h);
    long total = 0;
    for (int i = 0; i < nh; i++) total += slots[i];
    for (int r = 0; r < ranks; r++) {
        if (!block) {
            h[r] = name[r % nh];
        } else {
            long pos = r % total;
            int i = 0;
            while (pos >= slots[i]) pos -= slots[i++];
            h[r] = name[i];
        }
    }
    free(name);
    free(slots);
    *hosts = h;
    *storage = copy;
    return 0;
fail:
    free(name);
    free(slots);
    free(copy);
    return -1;
}

static int write_hostfile(int ranks, char **path, char *err, size_t errlen)
{
    const char **hosts;
    char *storage;
    if (ps_rank_hosts(getenv("PARSCOPE_HOSTS"), getenv("PARSCOPE_MAP"), ranks, &hosts, &storage, err, errlen))
        return -1;
    const char *tmp = getenv("TMPDIR");
    char *p = ps_xasprintf("%s/parscope-hosts.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(p);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int rc = 0;
    if (!f) {
        ps_seterr(err, errlen, "cannot create the hostfile %s: %s", p, strerror(errno));
        if (fd >= 0) close(fd);
        rc = -1;
    } else {
        for (int r = 0; r < ranks; r++) fprintf(f, "%s\n", hosts[r]);
        if (fclose(f) != 0) {
            ps_seterr(err, errlen, "cannot write the hostfile %s: %s", p, strerror(errno));
            unlink(p);
            rc = -1;
        }
    }
    free(hosts);
    free(storage);
    if (rc) free(p);
    else *path = p;
    return rc;
}

/* Replaces every `key` in word by `value`; returns a new string. */
static char *replace_all(const char *word, const char *key, const char *value)
{
    size_t kl = strlen(key), vl = strlen(value), n = 0;
    for (const char *p = strstr(word, key); p; p = strstr(p + kl, key)) n++;
    char *out = ps_xmalloc(strlen(word) + n * vl + 1), *o = out;
    const char *p = word, *q;
    while ((q = strstr(p, key))) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, value, vl);
        o += vl;
        p = q + kl;
    }
    strcpy(o, p);
    return out;
}

/* The first {name} in word that is not a placeholder ({ranks}, {hostfile}):
 * its length, with *at where it starts; 0 when there is none.  A name is
 * letters, digits, '_' and '-', as a misspelt placeholder would be ({rank},
 * {np}, {host-file}); other text in braces is left alone. */
static size_t unknown_placeholder(const char *word, const char **at)
{
    for (const char *p = strchr(word, '{'); p; p = strchr(p + 1, '{')) {
        size_t k = 1;
        while (p[k] && (isalnum((unsigned char)p[k]) || p[k] == '_' || p[k] == '-')) k++;
        if (k == 1 || p[k] != '}') continue;
        k++;
        if ((k == 7 && !strncmp(p, "{ranks}", 7)) || (k == 10 && !strncmp(p, "{hostfile}", 10))) continue;
        *at = p;
        return k;
    }
    return 0;
}

/* Words split and every placeholder known; w and n kept for the caller. */
static int split_checked(const char *tmpl, const char *src, char ***w, int *n, char *err, size_t errlen)
{
    char msg[256];
    if (ps_split_words(tmpl, w, n, msg, sizeof msg)) {
        ps_seterr(err, errlen, "%s: %s: %s", src, tmpl, msg);
        return -1;
    }
    for (int i = 0; i < *n; i++) {
        const char *at;
        size_t k = unknown_placeholder((*w)[i], &at);
        if (!k) continue;
        ps_seterr(err, errlen, "%s: '%s': unknown placeholder '%.*s' (known: " PS_TEMPLATE_PLACEHOLDERS ")", src,
                  tmpl, (int)k, at);
        for (int j = 0; j < *n; j++) free((*w)[j]);
        free(*w);
        return -1;
    }
    return 0;
}

int ps_template_check(const char *tmpl, const char *src, char *err, size_t errlen)
{
    char **w;
    int n;
    if (split_checked(tmpl, src, &w, &n, err, errlen)) return -1;
    for (int i = 0; i < n; i++) free(w[i]);
    free(w);
    return 0;
}

int ps_template_expand(const char *tmpl, const char *src, int ranks, char ***words, int *nwords, int *has_ranks,
                       char **hostfile, char *err, size_t errlen)
{
    char **w;
    int n;
    char msg[256];
    *hostfile = NULL;
    *has_ranks = 0;
    if (split_checked(tmpl, src, &w, &n, err, errlen)) return -1;
    char num[32];
    snprintf(num, sizeof num, "%d", ranks);
    for (int i = 0; i < n; i++) {
        if (strstr(w[i], "{ranks}")) {
            char *r = replace_all(w[i], "{ranks}", num);
            free(w[i]);
            w[i] = r;
            *has_ranks = 1;
        }
        if (strstr(w[i], "{hostfile}")) {
            if (!*hostfile && write_hostfile(ranks, hostfile, msg, sizeof msg)) {
                ps_seterr(err, errlen, "%s: %s", src, msg);
                for (int j = 0; j < n; j++) free(w[j]);
                free(w);
                return -1;
            }
            char *r = replace_all(w[i], "{hostfile}", *hostfile);
            free(w[i]);
            w[i] = r;
        }
    }
    *words = w;
    *nwords = n;
    return 0;
}
