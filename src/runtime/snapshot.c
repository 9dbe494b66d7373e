/*
 * snapshot.c - a process's writable memory and descriptors, taken once and
 * put back (snapshot.h).
 *
 * Everything the restore itself uses lives in one private region mapped
 * here (the control region): the snapshot's ranges and page copies, the
 * text of /proc/self/maps, and the stack the restore runs on, since it
 * rewrites the process's own stack.  The restore calls no function that
 * allocates (the heap is among what it rewrites): system calls, memcmp and
 * memcpy only.
 *
 * The ranges are the private writable mappings of /proc/self/maps, less the
 * control region and the excluded one.  Of their pages, those present at
 * the snapshot (/proc/self/pagemap) are copied; the others held zeros or the
 * file's bytes, which MADV_DONTNEED gives back to a page touched since.
 */

#include "runtime/snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

/* under a sanitizer's shadow memory (terabytes of mappings) never taken */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SNAP_UNAVAILABLE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SNAP_UNAVAILABLE 1
#endif
#endif
#ifndef SNAP_UNAVAILABLE
#define SNAP_UNAVAILABLE 0
#endif

#define CTL_SIZE     (1UL << 30)  /* reserved, not committed: only touched pages cost */
#define MAPS_MAX     (1UL << 20)  /* the text of /proc/self/maps */
#define PM_ENTRIES   8192         /* pagemap entries read at once */
#define STACK_SIZE   (256UL << 10)
#define MAX_RANGES   4096
#define MAX_FDS      4096
#define MAX_ID_FDS   64           /* the snapshot's descriptors compared by identity */
#define MAX_PAGES    (1UL << 24)  /* 64 GiB of writable mappings at 4 KiB */

typedef struct {
    uintptr_t lo, hi;
    char      perm[4];   /* as /proc/self/maps gives them: rwxp */
    int       rwp;       /* private and writable: its pages are copied */
    int       stack;     /* [stack]: grows below lo; what it grew is left */
    int       heap;      /* [heap]: follows the program break */
    int       anon;      /* no file behind it: a page not present holds zeros */
    size_t    bit0;      /* its first page's bit in the present map */
} snap_range;

typedef struct {
    ucontext_t       start, back, rctx;
    volatile int     resumed;
    long             word;
    int              nm, nr, ncur, nunmap;
    snap_range       m[MAX_RANGES];      /* every mapping at the snapshot */
    snap_range       r[MAX_RANGES];      /* its private writable ones */
    snap_range       cur[MAX_RANGES];    /* every mapping now */
    uintptr_t        unmap_lo[MAX_RANGES], unmap_hi[MAX_RANGES];
    uintptr_t        zero_lo, zero_hi;   /* the heap beyond the snapshot's break */
    int              cur_anon;           /* the range drop_new is given */
    unsigned long long sigmask;          /* caught or ignored at the snapshot (/proc/self/status) */
    uintptr_t        ex_lo, ex_hi;       /* the caller's excluded region */
    void            *brk;
    unsigned char    fds[MAX_FDS / 8];
    int              nfd;                /* the snapshot's descriptors, what each was */
    int              fd_no[MAX_ID_FDS];
    dev_t            fd_dev[MAX_ID_FDS];
    ino_t            fd_ino[MAX_ID_FDS];
    int              fd_fl[MAX_ID_FDS];
    struct sigaction sa[NSIG];
    unsigned char    sa_ok[NSIG];
    stack_t          altstack;
    mode_t           umask;
    struct rlimit    rl[RLIM_NLIMITS];
    char             cwd[4096];
    size_t           page;
    int              pagemap;
    int              query;              /* mappings by PROCMAP_QUERY: 0 not yet known, 1 yes, -1 no */
    unsigned char   *present;            /* a bit per page of r[] */
    unsigned char   *store;              /* the present pages, in order */
    char            *maps;
    uint64_t        *pm;
    char            *stack;
} snap_ctl;

static snap_ctl *ctl;
static uintptr_t ex_lo, ex_hi;

void ps__snap_exclude(void *p, size_t n)
{
    ex_lo = (uintptr_t)p;
    ex_hi = ex_lo + n;
}

long *ps__snap_word(void) { return ctl ? &ctl->word : NULL; }

/* ---- reading the process's state (no allocation) -------------------------- */

static int read_text(const char *path, char *buf, size_t cap, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            close(fd);
            return -1;
        }
        ssize_t k = read(fd, buf + n, cap - 1 - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            close(fd);
            return -1;
        }
        if (k == 0) break;
        n += (size_t)k;
    }
    close(fd);
    buf[n] = '\0';
    *len = n;
    return 0;
}

static uintptr_t hex(const char **p)
{
    uintptr_t v = 0;
    for (;; (*p)++) {
        char c = **p;
        if (c >= '0' && c <= '9') v = v * 16 + (uintptr_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v = v * 16 + (uintptr_t)(c - 'a' + 10);
        else return v;
    }
}

/* Appends [lo, hi) to out (n in/out) less the control region and the
 * excluded one; -1 when out is full. */
static int add_less(snap_range *out, int *n, snap_range x)
{
    uintptr_t cut[2][2] = {{(uintptr_t)ctl, (uintptr_t)ctl + CTL_SIZE}, {ctl->ex_lo, ctl->ex_hi}};
    snap_range parts[3] = {x};
    int np = 1;
    for (int c = 0; c < 2; c++) {
        snap_range next[3];
        int nn = 0;
        for (int i = 0; i < np; i++) {
            snap_range p = parts[i];
            if (cut[c][1] <= p.lo || cut[c][0] >= p.hi || cut[c][0] == cut[c][1]) {
                next[nn++] = p;
                continue;
            }
            if (p.lo < cut[c][0]) {
                next[nn] = p;
                next[nn++].hi = cut[c][0];
            }
            if (cut[c][1] < p.hi) {
                next[nn] = p;
                next[nn++].lo = cut[c][1];
            }
        }
        np = nn;
        memcpy(parts, next, sizeof parts);
    }
    for (int i = 0; i < np; i++) {
        if (*n >= MAX_RANGES) return -1;
        out[(*n)++] = parts[i];
    }
    return 0;
}

/* The kernel's query of one mapping at a time (PROCMAP_QUERY, Linux 6.11;
 * its layout is the kernel's ABI, which these headers may predate): no text
 * to format and parse, and no file's path resolved, which took most of a
 * restore's reading of /proc/self/maps (docs/BENCHMARKS.md). */
extern void *__libc_stack_end;   /* glibc: the top of the first thread's stack */

struct snap_query {
    uint64_t size, flags, addr, lo, hi, vma_flags, page_size, offset, inode;
    uint32_t dev_major, dev_minor, name_size, build_id_size;
    uint64_t name_addr, build_id_addr;
};
_Static_assert(sizeof(struct snap_query) == 104, "the kernel's struct procmap_query");
#define SNAP_QUERY       _IOWR('f', 17, struct snap_query)
#define SNAP_Q_READ      0x01
#define SNAP_Q_WRITE     0x02
#define SNAP_Q_EXEC      0x04
#define SNAP_Q_SHARED    0x08
#define SNAP_Q_OR_NEXT   0x10

/* Every mapping by the query: 0, 1 when the kernel has no such query, -1
 * when the mappings cannot be read. */
static int query_ranges(snap_range *out, int *n)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = 0;
    *n = 0;
    /* the kernel names [heap] what covers the break's range and [stack]
     * what holds the first stack's top: only a mapping at or below the
     * break, or around that top, can be either */
    uintptr_t brk_now = (uintptr_t)syscall(SYS_brk, 0), top = (uintptr_t)__libc_stack_end;
    for (uint64_t a = 0;;) {
        struct snap_query q = {.size = sizeof q, .flags = SNAP_Q_OR_NEXT, .addr = a};
        if (ioctl(fd, SNAP_QUERY, &q) != 0) {
            rc = errno == ENOENT ? 0 : errno == ENOTTY || errno == EINVAL ? 1 : -1;
            break;
        }
        snap_range x = {.lo = (uintptr_t)q.lo, .hi = (uintptr_t)q.hi};
        x.perm[0] = q.vma_flags & SNAP_Q_READ ? 'r' : '-';
        x.perm[1] = q.vma_flags & SNAP_Q_WRITE ? 'w' : '-';
        x.perm[2] = q.vma_flags & SNAP_Q_EXEC ? 'x' : '-';
        x.perm[3] = q.vma_flags & SNAP_Q_SHARED ? 's' : 'p';
        x.rwp = x.perm[1] == 'w' && x.perm[3] == 'p';
        x.anon = q.inode == 0;   /* no file behind it (the maps text's inode 0) */
        if (x.anon && (x.lo <= brk_now || (x.lo <= top && top < x.hi))) {
            char name[16] = "";
            struct snap_query qn = {.size = sizeof qn, .addr = q.lo, .name_size = sizeof name,
                                    .name_addr = (uint64_t)(uintptr_t)name};
            if (ioctl(fd, SNAP_QUERY, &qn) != 0 && errno != ENAMETOOLONG) {
                rc = -1;
                break;
            }
            x.stack = !strcmp(name, "[stack]");
            x.heap = !strcmp(name, "[heap]");
        }
        if (add_less(out, n, x)) {
            rc = -1;
            break;
        }
        a = q.hi;
    }
    close(fd);
    return rc;
}

/* Every mapping, in address order (less the control region and the
 * excluded one); -1 when they cannot be read.  By the kernel's query where
 * it has one (decided at the snapshot, kept for its restores), else from
 * the text of /proc/self/maps. */
static int read_ranges(snap_ctl *c, snap_range *out, int *n)
{
    if (c->query >= 0) {
        int q = query_ranges(out, n);
        if (q == 0) {
            c->query = 1;
            return 0;
        }
        if (q < 0 || c->query == 1) return -1;
        c->query = -1;   /* no such query: the text from now on */
    }
    size_t len;
    if (read_text("/proc/self/maps", c->maps, MAPS_MAX, &len)) return -1;
    *n = 0;
    for (const char *p = c->maps; *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol) eol = p + strlen(p);
        snap_range x = {0};
        x.lo = hex(&p);
        if (*p++ != '-') return -1;
        x.hi = hex(&p);
        if (*p++ != ' ' || eol - p < 5) return -1;
        memcpy(x.perm, p, 4);
        x.rwp = p[1] == 'w' && p[3] == 'p';
        /* the path: after perms, offset, device and inode */
        const char *f = p;
        for (int k = 0; k < 4 && f < eol; k++) {
            while (f < eol && *f != ' ') f++;
            while (f < eol && *f == ' ') f++;
        }
        size_t fl = (size_t)(eol - f);
        x.stack = fl == 7 && !memcmp(f, "[stack]", 7);
        x.heap = fl == 6 && !memcmp(f, "[heap]", 6);
        x.anon = fl == 0 || *f == '[';
        if (add_less(out, n, x)) return -1;
        p = *eol ? eol + 1 : eol;
    }
    return 0;
}

/* the private writable ones of m (n), into r (*nr) */
static void writable(const snap_range *m, int n, snap_range *r, int *nr)
{
    *nr = 0;
    for (int i = 0; i < n; i++)
        if (m[i].rwp) r[(*nr)++] = m[i];
}

/* /proc/self/pagemap, open only while it is read: a descriptor of the
 * snapshot's own would shift the numbers the program's open() returns.  Its
 * number is kept in the control region, as all the restore's state: the
 * program's own variables are among what it rewrites. */
static int pagemap_open(snap_ctl *c)
{
    c->pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    return c->pagemap < 0 ? -1 : 0;
}

static void pagemap_close(snap_ctl *c)
{
    close(c->pagemap);
    c->pagemap = -1;
}

/* Page b of the snapshot's ranges (its bit in c->present): present then. */
static inline int was_present(const snap_ctl *c, size_t b) { return c->present[b / 8] & (1u << (b % 8)); }

/* The pages of [lo, hi) as they are now, handed to fn chunk by chunk (at
 * address a, k pages, the first one's bit in c->present; c->pm holds their
 * pagemap entries); bit0 is the bit of lo. */
static int pages_present(snap_ctl *c, uintptr_t lo, uintptr_t hi, size_t bit0,
                         int (*fn)(snap_ctl *, uintptr_t, size_t, size_t))
{
    size_t np = (hi - lo) / c->page;
    for (size_t i = 0; i < np;) {
        size_t k = np - i < PM_ENTRIES ? np - i : PM_ENTRIES;
        off_t off = (off_t)((lo / c->page + i) * 8);
        size_t want = k * 8, got = 0;
        while (got < want) {
            ssize_t r = pread(c->pagemap, (char *)c->pm + got, want - got, off + (off_t)got);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return -1;
            got += (size_t)r;
        }
        if (fn(c, lo + i * c->page, k, bit0 + i)) return -1;
        i += k;
    }
    return 0;
}

static int list_fds(snap_ctl *c, unsigned char *bits, int *extra, int *nextra)
{
    int d = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d < 0) return -1;
    char buf[4096];
    if (bits) memset(bits, 0, MAX_FDS / 8);
    if (nextra) *nextra = 0;
    int rc = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, d, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            rc = n < 0 ? -1 : 0;
            break;
        }
        for (long o = 0; o < n;) {
            struct {
                uint64_t ino;
                int64_t off;
                unsigned short reclen;
                unsigned char type;
                char name[];
            } *e = (void *)(buf + o);
            o += e->reclen;
            if (e->name[0] < '0' || e->name[0] > '9') continue;
            long fd = 0;
            for (const char *q = e->name; *q; q++) fd = fd * 10 + (*q - '0');
            if (fd == d) continue;
            if (fd >= MAX_FDS) {
                rc = -1;
                continue;
            }
            if (bits) bits[fd / 8] |= (unsigned char)(1u << (fd % 8));
            if (extra && !(c->fds[fd / 8] & (1u << (fd % 8)))) {
                if (*nextra >= 256) rc = -1;
                else extra[(*nextra)++] = (int)fd;
            }
        }
    }
    close(d);
    return rc;
}

/* The snapshot's descriptors are the same files with the same flags
 * (a rank that closed one and opened another in its place changed what the
 * next would read or write): 0, or -1. */
static int fds_identity(snap_ctl *c, int check)
{
    int n = 0;
    for (int fd = 0; fd < MAX_FDS; fd++) {
        if (!(c->fds[fd / 8] & (1u << (fd % 8)))) continue;
        if (n >= MAX_ID_FDS) return -1;
        struct stat st;
        int fl = fcntl(fd, F_GETFL);
        if (fstat(fd, &st) || fl < 0) return -1;
        if (check && (c->fd_no[n] != fd || c->fd_dev[n] != st.st_dev || c->fd_ino[n] != st.st_ino ||
                      c->fd_fl[n] != fl))
            return -1;
        c->fd_no[n] = fd;
        c->fd_dev[n] = st.st_dev;
        c->fd_ino[n] = st.st_ino;
        c->fd_fl[n] = fl;
        n++;
    }
    if (check && n != c->nfd) return -1;
    c->nfd = n;
    return 0;
}

/* The signals caught or ignored now, a bit each (bit s - 1), from
 * /proc/self/status; all of them when it cannot be read. */
static unsigned long long handled_signals(void)
{
    char buf[4096];
    size_t len;
    if (read_text("/proc/self/status", buf, sizeof buf, &len)) return ~0ULL;
    unsigned long long m = 0;
    static const char *const keys[] = {"\nSigIgn:", "\nSigCgt:"};
    for (int k = 0; k < 2; k++) {
        const char *p = strstr(buf, keys[k]);
        if (!p) return ~0ULL;
        p += strlen(keys[k]);
        while (*p == ' ' || *p == '\t') p++;
        m |= (unsigned long long)hex(&p);
    }
    return m;
}

/* ---- taking it --------------------------------------------------------------- */

/* a chunk of pages of a snapshot range (pages_present): those present now
 * marked in c->present */
static int mark_present(snap_ctl *c, uintptr_t a, size_t k, size_t bit)
{
    (void)a;
    for (size_t j = 0; j < k; j++)
        if (c->pm[j] >> 62) c->present[(bit + j) / 8] |= (unsigned char)(1u << ((bit + j) % 8));
    return 0;
}

static int take(snap_ctl *c)
{
    c->ex_lo = ex_lo;
    c->ex_hi = ex_hi;
    if (read_ranges(c, c->m, &c->nm)) return -1;
    writable(c->m, c->nm, c->r, &c->nr);
    size_t pages = 0;
    for (int i = 0; i < c->nr; i++) {
        c->r[i].bit0 = pages;
        pages += (c->r[i].hi - c->r[i].lo) / c->page;
    }
    if (pages > MAX_PAGES) return -1;
    c->present = (unsigned char *)c->stack + STACK_SIZE;
    size_t bits = (pages / 8 + c->page) & ~(c->page - 1);
    c->store = c->present + bits;
    memset(c->present, 0, pages / 8 + 1);
    if (pagemap_open(c)) return -1;
    for (int i = 0; i < c->nr; i++)
        if (pages_present(c, c->r[i].lo, c->r[i].hi, c->r[i].bit0, mark_present)) {
            pagemap_close(c);
            return -1;
        }
    pagemap_close(c);
    size_t n = 0;
    for (int i = 0; i < c->nr; i++)
        for (uintptr_t a = c->r[i].lo; a < c->r[i].hi; a += c->page) {
            size_t b = c->r[i].bit0 + (a - c->r[i].lo) / c->page;
            if (!was_present(c, b)) continue;
            if ((size_t)(c->store - (unsigned char *)c) + (n + 1) * c->page > CTL_SIZE) return -1;
            memcpy(c->store + n * c->page, (void *)a, c->page);
            n++;
        }
    c->brk = sbrk(0);
    if (list_fds(c, c->fds, NULL, NULL) || fds_identity(c, 0)) return -1;
    if (sigaltstack(NULL, &c->altstack) || !getcwd(c->cwd, sizeof c->cwd)) return -1;
    c->umask = umask(022);
    umask(c->umask);
    for (int k = 0; k < RLIM_NLIMITS; k++)
        if (getrlimit(k, &c->rl[k])) return -1;
    for (int s = 1; s < NSIG; s++) c->sa_ok[s] = sigaction(s, NULL, &c->sa[s]) == 0;
    c->sigmask = handled_signals();
    return 0;
}

int ps__snap_take(void)
{
    if (SNAP_UNAVAILABLE) return -1;
    /* under valgrind the maps hold the tool's own memory too */
    const char *pre = getenv("LD_PRELOAD");
    if (pre && strstr(pre, "vgpreload")) return -1;
    /* symbols bound lazily would be bound again through the dynamic
     * linker's data in the middle of putting it back: only with every
     * symbol bound at start (predict runs the recording so) */
    const char *now = getenv("LD_BIND_NOW");
    if (!now || !*now) return -1;
    /* the control region is reserved address space: with a limit on it,
     * a program could fail to allocate what it would get alone */
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) || as.rlim_cur != RLIM_INFINITY) return -1;
    if (!ctl) {
        void *m = mmap(NULL, CTL_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) return -1;
        ctl = m;
        ctl->page = (size_t)sysconf(_SC_PAGESIZE);
        size_t hdr = (sizeof *ctl + ctl->page - 1) & ~(ctl->page - 1);
        ctl->maps = (char *)ctl + hdr;
        ctl->pm = (uint64_t *)(ctl->maps + MAPS_MAX);
        ctl->stack = (char *)(ctl->pm + PM_ENTRIES);
        /* PARSCOPE_SNAP_MAPS_TEXT=1: the mappings from the text even where
         * the kernel has the query (tests put both ways to work) */
        const char *text = getenv("PARSCOPE_SNAP_MAPS_TEXT");
        if (text && *text == '1') ctl->query = -1;
    }
    ctl->resumed = 0;
    getcontext(&ctl->start);
    if (ctl->resumed) return 1;
    if (take(ctl)) {
        munmap(ctl, CTL_SIZE);
        ctl = NULL;
        return -1;
    }
    return 0;
}

/* ---- putting it back ----------------------------------------------------------- */

/* a chunk of pages of the heap beyond the snapshot's break: those present
 * zeroed (kept mapped: the next rank's heap grows into them without a fault,
 * and the allocator takes memory from the break as zeros) */
static int zero_present(snap_ctl *c, uintptr_t a, size_t k, size_t bit)
{
    (void)bit;
    for (size_t j = 0; j < k; j++)
        if (c->pm[j] >> 62) memset((void *)(a + j * c->page), 0, c->page);
    return 0;
}

/* a chunk of pages of a snapshot range as they are now (c->pm): those
 * present now and not at the snapshot held zeros (an anonymous range: they
 * are zeroed, kept mapped, sparing the next rank a fault and this one a TLB
 * flush) or the file's bytes (dropped) */
static int drop_new(snap_ctl *c, uintptr_t a, size_t k, size_t bit)
{
    for (size_t j = 0; j < k;) {
        if (was_present(c, bit + j) || !(c->pm[j] >> 62)) {
            j++;
            continue;
        }
        size_t e = j + 1;
        while (e < k && (c->pm[e] >> 62) && !was_present(c, bit + e)) e++;
        if (c->cur_anon) memset((void *)(a + j * c->page), 0, (e - j) * c->page);
        else if (madvise((void *)(a + j * c->page), (e - j) * c->page, MADV_DONTNEED)) return -1;
        j = e;
    }
    return 0;
}

/* 0 when every mapping of the snapshot (the heap's once the break is back)
 * is mapped now with the same permissions; the pieces mapped since listed
 * to unmap, but for the stack's growth (left) and the heap's (zeroed). */
static int plan(snap_ctl *c)
{
    if (read_ranges(c, c->cur, &c->ncur)) return -1;
    c->zero_lo = c->zero_hi = 0;
    /* every snapshot mapping covered by mappings now, with its permissions */
    int j = 0;
    for (int i = 0; i < c->nm; i++) {
        uintptr_t a = c->m[i].lo;
        while (j < c->ncur && c->cur[j].hi <= a) j++;
        for (int k = j; a < c->m[i].hi; k++) {
            if (k >= c->ncur || c->cur[k].lo > a || memcmp(c->cur[k].perm, c->m[i].perm, 4)) return -1;
            a = c->cur[k].hi;
        }
    }
    /* the pieces of the mappings now outside the snapshot's */
    c->nunmap = 0;
    int i = 0;
    for (int k = 0; k < c->ncur; k++) {
        if (c->cur[k].stack) continue;
        if (c->cur[k].heap && (uintptr_t)c->brk < c->cur[k].hi) {
            uintptr_t z = ((uintptr_t)c->brk + c->page - 1) & ~(uintptr_t)(c->page - 1);
            c->zero_lo = z > c->cur[k].lo ? z : c->cur[k].lo;
            c->zero_hi = c->cur[k].hi;
            continue;
        }
        uintptr_t a = c->cur[k].lo;
        while (i < c->nm && c->m[i].hi <= a) i++;
        for (int q = i; a < c->cur[k].hi; q++) {
            uintptr_t e = q < c->nm && c->m[q].lo < c->cur[k].hi ? c->m[q].lo : c->cur[k].hi;
            if (e > a) {
                if (c->nunmap >= MAX_RANGES) return -1;
                c->unmap_lo[c->nunmap] = a;
                c->unmap_hi[c->nunmap++] = e;
            }
            if (q >= c->nm || c->m[q].lo >= c->cur[k].hi) break;
            a = c->m[q].hi;
        }
    }
    return 0;
}

/* 0 when the process has no thread but this one, no child, its snapshot's
 * descriptors as they were and no hard limit below the snapshot's */
static int can_put_back(snap_ctl *c, int *extra, int *nextra)
{
    int t = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (t < 0) return -1;
    char buf[1024];
    int tasks = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, t, buf, sizeof buf);
        if (n <= 0) break;
        for (long o = 0; o < n;) {
            unsigned short reclen;
            memcpy(&reclen, buf + o + 16, 2);
            if (buf[o + 19] != '.') tasks++;
            o += reclen;
        }
    }
    close(t);
    if (tasks != 1) return -1;
    /* a child, ended or not (one the next rank could wait for) */
    siginfo_t si;
    if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) == 0) return -1;
    unsigned char now[MAX_FDS / 8];
    if (list_fds(c, now, extra, nextra)) return -1;
    for (int b = 0; b < MAX_FDS / 8; b++)
        if (c->fds[b] & ~now[b]) return -1;
    if (fds_identity(c, 1)) return -1;
    for (int k = 0; k < RLIM_NLIMITS; k++) {
        struct rlimit l;
        if (getrlimit(k, &l) || l.rlim_max < c->rl[k].rlim_max) return -1;
    }
    return 0;
}

static void restore_main(void)
{
    snap_ctl *c = ctl;
    int extra[256], nextra = 0;
    /* signals blocked (this context's mask): none is delivered until the
     * snapshot's mask is back, and the itimers stopped first */
    struct itimerval zero = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &zero, NULL);
    setitimer(ITIMER_VIRTUAL, &zero, NULL);
    setitimer(ITIMER_PROF, &zero, NULL);
    /* nothing is changed until all is known to be put back */
    if (can_put_back(c, extra, &nextra)) setcontext(&c->back);
    /* a break below the snapshot's is raised back to it; one above is left
     * there (plan: its pages zeroed), the allocator's own idea of it being
     * the snapshot's */
    if ((uintptr_t)syscall(SYS_brk, 0) < (uintptr_t)c->brk && brk(c->brk) != 0) setcontext(&c->back);
    if (plan(c)) setcontext(&c->back);

    /* from here on, no way back: the process is the snapshot's or ends
     * (PS_SNAP_EXIT: the caller's parent runs the ranks left elsewhere) */
    for (int k = 0; k < c->nunmap; k++)
        if (munmap((void *)c->unmap_lo[k], c->unmap_hi[k] - c->unmap_lo[k])) _exit(PS_SNAP_EXIT);
    if (pagemap_open(c)) _exit(PS_SNAP_EXIT);
    size_t n = 0;
    for (int i = 0; i < c->nr; i++) {
        for (uintptr_t a = c->r[i].lo; a < c->r[i].hi; a += c->page) {
            size_t b = c->r[i].bit0 + (a - c->r[i].lo) / c->page;
            if (!was_present(c, b)) continue;
            const unsigned char *s = c->store + n++ * c->page;
            if (memcmp((void *)a, s, c->page)) memcpy((void *)a, s, c->page);
        }
        c->cur_anon = c->r[i].anon;
        if (pages_present(c, c->r[i].lo, c->r[i].hi, c->r[i].bit0, drop_new)) _exit(PS_SNAP_EXIT);
    }
    if (c->zero_hi > c->zero_lo && pages_present(c, c->zero_lo, c->zero_hi, 0, zero_present))
        _exit(PS_SNAP_EXIT);
    pagemap_close(c);
    for (int k = 0; k < nextra; k++) close(extra[k]);
    /* a disposition that is the default now and was at the snapshot is as it was */
    unsigned long long sigs = c->sigmask | handled_signals();
    for (int s = 1; s < NSIG; s++)
        if ((s > 64 || (sigs >> (s - 1) & 1)) && c->sa_ok[s] && s != SIGKILL && s != SIGSTOP)
            sigaction(s, &c->sa[s], NULL);
    /* signals still pending were the rank's: ignoring a signal discards it */
    sigset_t pend;
    if (sigpending(&pend) == 0)
        for (int s = 1; s < NSIG; s++) {
            if (s == SIGKILL || s == SIGSTOP || sigismember(&pend, s) != 1) continue;
            struct sigaction ign = {.sa_handler = SIG_IGN};
            sigaction(s, &ign, NULL);
            if (c->sa_ok[s]) sigaction(s, &c->sa[s], NULL);
        }
    stack_t alt = c->altstack;
    if (alt.ss_flags & SS_ONSTACK) alt.ss_flags &= ~SS_ONSTACK;
    sigaltstack(&alt, NULL);
    umask(c->umask);
    if (chdir(c->cwd) != 0) _exit(PS_SNAP_EXIT);
    for (int k = 0; k < RLIM_NLIMITS; k++) setrlimit(k, &c->rl[k]);
    c->resumed = 1;
    setcontext(&c->start);
    _exit(PS_SNAP_EXIT);
}

int ps__snap_restore(void)
{
    snap_ctl *c = ctl;
    if (!c) return -1;
    getcontext(&c->rctx);
    sigfillset(&c->rctx.uc_sigmask);
    c->rctx.uc_stack.ss_sp = c->stack;
    c->rctx.uc_stack.ss_size = STACK_SIZE;
    c->rctx.uc_link = NULL;
    makecontext(&c->rctx, restore_main, 0);
    /* back here only when it cannot put the process back */
    swapcontext(&c->back, &c->rctx);
    return -1;
}
