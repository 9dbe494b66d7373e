/* util.c - small shared helpers (see util.h). */
#include "util/util.h"

#include "util/assert.h"
#include "util/output.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void ps_oom(void)
{
    fputs("parscope: out of memory\n", stderr);
    exit(1);
}

void *ps_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) ps_oom();
    return p;
}

void *ps_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) ps_oom();
    return p;
}

void *ps_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) ps_oom();
    return q;
}

void *ps_grow(void *v, size_t *cap, size_t need, size_t size, size_t initial)
{
    if (need <= *cap) return v;
    size_t nc = *cap ? *cap * 2 : (initial ? initial : 1);
    while (nc < need) nc *= 2;
    if (nc > SIZE_MAX / size) return NULL;
    void *n = realloc(v, nc * size);
    if (n) *cap = nc;
    return n;
}

char *ps_xstrdup(const char *s)
{
    char *p = strdup(s ? s : "");
    if (!p) ps_oom();
    return p;
}

void ps_bufadd(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
    if (*n >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *n, len - *n, fmt, ap);
    va_end(ap);
    if (w > 0) *n += (size_t)w < len - *n ? (size_t)w : len - *n - 1;
}

char *ps_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) ps_oom();
    return s;
}

double ps_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double ps_epoch(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ps_iso_time(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void ps_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

int ps_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ps_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int ps_mkdirs(const char *path, char *err, size_t errlen)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        ps_seterr(err, errlen, "%s: path too long", path);
        return -1;
    }
    for (char *p = buf + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                ps_seterr(err, errlen, "%s: cannot create directory: %s", buf, strerror(errno));
                return -1;
            }
            if (c == '\0') break;
            *p = c;
        }
    }
    if (!ps_is_dir(path)) {
        ps_seterr(err, errlen, "%s: exists and is not a directory", path);
        return -1;
    }
    return 0;
}

char *ps_read_fd(int fd, size_t max, int stop_at_nul, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t want = cap - n - 1;
        if (want > max + 1 - n) want = max + 1 - n; /* one byte past max tells a file too large */
        ssize_t got = read(fd, buf + n, want);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            errno = e;
            return NULL;
        }
        if (got == 0) break;
        int nul = stop_at_nul && memchr(buf + n, '\0', (size_t)got) != NULL;
        n += (size_t)got;
        if (n > max) {
            free(buf);
            errno = E2BIG;
            return NULL;
        }
        if (nul) break;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

char *ps_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        ps_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = ps_read_fd(fd, SIZE_MAX / 2, 0, len);
    int e = errno;
    close(fd);
    if (!buf && e == ENOMEM) ps_seterr(err, errlen, "%s: out of memory", path);
    else if (!buf) ps_seterr(err, errlen, "%s: read error: %s", path, strerror(e));
    return buf;
}

char *ps_read_text(const char *path, size_t *len, char *err, size_t errlen)
{
    size_t n;
    char *text = ps_read_file(path, &n, err, errlen);
    if (!text) return NULL;
    /* a NUL would silently end the text for every reader after this */
    const char *nul = memchr(text, '\0', n);
    if (nul) {
        int line = 1;
        const char *bol = text;
        for (const char *p = text; p < nul; p++)
            if (*p == '\n') line++, bol = p + 1;
        ps_seterr(err, errlen, "%s:%d:%d: a NUL byte: not a text file", path, line, (int)(nul - bol) + 1);
        free(text);
        return NULL;
    }
    if (len) *len = n;
    return text;
}

int ps_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    ps_output o;
    if (ps_output_open(&o, path, 0, err, errlen)) return -1;
    if (len && fwrite(data, 1, len, o.f) != len) {
        ps_seterr(err, errlen, "%s: write failed: %s", path, strerror(errno));
        ps_output_abort(&o);
        return -1;
    }
    return ps_output_commit(&o, err, errlen);
}

int ps_write_formatted(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        ps_seterr(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int rc = fn(m, ctx);
    if (fclose(m) != 0 || rc != 0) {
        free(buf);
        ps_seterr(err, errlen, "%s: cannot format the contents", path);
        return -1;
    }
    rc = ps_write_file(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

char *ps_mktempdir(const char *prefix, char *err, size_t errlen)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    char *tmpl = ps_xasprintf("%s/%s.XXXXXX", base, prefix ? prefix : "parscope");
    if (!mkdtemp(tmpl)) {
        ps_seterr(err, errlen, "%s: cannot create temporary directory: %s", base, strerror(errno));
        free(tmpl);
        return NULL;
    }
    return tmpl;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

void ps_rmtree(const char *path)
{
    if (path && *path) nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int ps_find_program(const char *name, char *out, size_t len)
{
    struct stat st;
    if (!name || !*name) return 0;
    if (strchr(name, '/')) {
        if (stat(name, &st) != 0 || !S_ISREG(st.st_mode) || access(name, X_OK) != 0) return 0;
        snprintf(out, len, "%s", name);
        return 1;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/usr/local/bin:/usr/bin:/bin";
    char *copy = ps_xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char cand[PATH_MAX];
        snprintf(cand, sizeof cand, "%s/%s", *d ? d : ".", name);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
            snprintf(out, len, "%s", cand);
            found = 1;
        }
    }
    free(copy);
    return found;
}

int ps_parse_long(const char *s, long min, long max, long *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max) return -1;
    *out = v;
    return 0;
}

int ps_list_empty_element(const char *s, const char **why)
{
    int pos = 1;
    for (const char *e = s;; pos++) {
        const char *comma = strchr(e, ',');
        if (comma == e || (!comma && !*e)) {
            *why = pos == 1 && comma ? "a leading comma" : !comma && pos > 1 ? "a trailing comma"
                 : comma ? "two commas in a row" : "nothing given";
            return pos;
        }
        if (!comma) return 0;
        e = comma + 1;
    }
}

int ps_parse_double(const char *s, double *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

void ps_fmt_time(char *buf, size_t len, double s)
{
    /* the unit of the value as printed (3 digits): 999.6 us is 1 ms, not 1e+03 us */
    char r[32];
    snprintf(r, sizeof r, "%.2e", fabs(s));
    double a = strtod(r, NULL);
    if (a == 0) snprintf(buf, len, "0 s");
    else if (a < 1e-6) snprintf(buf, len, "%.3g ns", s * 1e9);
    else if (a < 1e-3) snprintf(buf, len, "%.3g us", s * 1e6);
    else if (a < 1) snprintf(buf, len, "%.3g ms", s * 1e3);
    else snprintf(buf, len, "%.3g s", s);
}

void ps_fmt_bytes(char *buf, size_t len, double b)
{
    if (b < 1024) snprintf(buf, len, "%.0f B", b);
    else if (b < 1024.0 * 1024) snprintf(buf, len, "%.4g KiB", b / 1024);
    else if (b < 1024.0 * 1024 * 1024) snprintf(buf, len, "%.4g MiB", b / (1024.0 * 1024));
    else snprintf(buf, len, "%.4g GiB", b / (1024.0 * 1024 * 1024));
}

void ps_debug(const char *fmt, ...)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("PARSCOPE_DEBUG");
        on = e && *e && strcmp(e, "0") != 0;
    }
    if (!on) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("parscope[debug]: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

_Noreturn void ps__assert_failed(const char *cond, const char *file, int line, const char *func)
{
    fprintf(stderr, "parscope: internal error at %s:%d (%s): %s does not hold\n", file, line, func, cond);
    abort();
}

const char *const ps_cache_level_names[PS_CACHE_LEVELS] = {"L1d", "L2", "L3", "L4"};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void *ps_map_huge(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (bytes >= ((size_t)2 << 20)) madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

void *ps_remap_huge(void *p, size_t old, size_t bytes)
{
    if (!p) return ps_map_huge(bytes);
    void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) return NULL;
    if (bytes >= ((size_t)2 << 20)) madvise(q, bytes, MADV_HUGEPAGE);
    return q;
}

uint64_t ps_double_key(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u >> 63) ? ~u : u | (1ULL << 63);
}

double ps_key_double(uint64_t k)
{
    uint64_t u = (k >> 63) ? k & ~(1ULL << 63) : ~k;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Sorts in the keys' order (so -0 before +0, whichever size; only the
 * fallback when memory runs out takes them as equal), by a
 * least-significant-byte-first radix sort of the keys: eight
 * counting passes at most, and none for a byte that all keys share (the
 * high bytes of times in one run mostly are).  A compared sort calls its
 * comparison n log n times; the simulator's sheet sorts millions. */
void ps_sort_doubles(double *v, size_t n)
{
    if (n < 64) {
        for (size_t i = 1; i < n; i++) {
            double x = v[i];
            size_t j = i;
            for (; j > 0 && ps_double_key(v[j - 1]) > ps_double_key(x); j--) v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    uint64_t *k = malloc(2 * n * sizeof *k);
    size_t (*count)[256] = calloc(8, sizeof *count);
    if (!k || !count) {
        free(k);
        free(count);
        qsort(v, n, sizeof *v, cmp_double);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        k[i] = ps_double_key(v[i]);
        for (int d = 0; d < 8; d++) count[d][(k[i] >> (8 * d)) & 0xff]++;
    }
    uint64_t *from = k, *to = k + n;
    for (int d = 0; d < 8; d++) {
        size_t *c = count[d];
        if (c[(from[0] >> (8 * d)) & 0xff] == n) continue;   /* one value of this byte */
        size_t pos = 0;
        for (int b = 0; b < 256; b++) {
            size_t m = c[b];
            c[b] = pos;
            pos += m;
        }
        for (size_t i = 0; i < n; i++) to[c[(from[i] >> (8 * d)) & 0xff]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    for (size_t i = 0; i < n; i++) v[i] = ps_key_double(from[i]);
    free(k);
    free(count);
}

static int cmp_count_step(const void *a, const void *b)
{
    const ps_count_step *x = a, *y = b;
    if (x->t != y->t) return (x->t > y->t) - (x->t < y->t);
    return x->d - y->d;
}

void ps_sort_count_steps(ps_count_step *v, size_t n)
{
    if (n) qsort(v, n, sizeof *v, cmp_count_step);
}

double ps_median(double *v, size_t n)
{
    if (n == 0) return NAN;
    ps_sort_doubles(v, n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

char *ps_relpath(const char *from_dir, const char *target)
{
    char a[PATH_MAX], b[PATH_MAX];
    if (!realpath(from_dir, a) || !realpath(target, b)) return ps_xstrdup(target);
    /* longest common prefix ending at a path separator */
    size_t i = 0, cut = 0;
    while (a[i] && a[i] == b[i]) {
        if (a[i] == '/') cut = i;
        i++;
    }
    if (a[i] == '\0' && b[i] == '/') cut = i;
    else if (a[i] == '\0' && b[i] == '\0') return ps_xstrdup(".");
    size_t ups = 0;
    for (const char *p = a + cut; *p; p++)
        if (*p == '/' && p[1]) ups++;
    if (a[cut] == '\0') ups = 0;
    size_t need = ups * 3 + strlen(b + cut) + 2;
    char *out = ps_xmalloc(need);
    out[0] = '\0';
    for (size_t k = 0; k < ups; k++) strcat(out, "../");
    strcat(out, b[cut] == '/' ? b + cut + 1 : b + cut);
    return out;
}

char *ps_relpath_beside(const char *file, const char *target)
{
    char *dir = ps_xstrdup(file), *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    char *rel = ps_relpath(slash ? (dir[0] ? dir : "/") : ".", target);
    free(dir);
    return rel;
}

void ps_workload_key(const char *workload, char *buf, size_t len)
{
    const char *base = strrchr(workload, '/');
    base = base ? base + 1 : workload;
    size_t n = strlen(base);
    if (n > 5 && !strcmp(base + n - 5, ".loop")) n -= 5;
    snprintf(buf, len, "%.*s", (int)n, base);
}
