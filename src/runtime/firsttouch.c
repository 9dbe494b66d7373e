/*
 * firsttouch.c - the first touch of the set-up's memory, before the timed
 * interval.  A buffer the set-up allocated but did not write (calloc, or a
 * malloc + memset(0) the compiler turned into calloc) gets its pages on
 * first use: in a VM about 10 us each, inside the timed interval, and only
 * in the kernels that use it.  At the end of the set-up the private
 * anonymous mappings that appeared or changed since ps_init (the set-up's
 * malloc'd blocks, the grown heap) are populated with MADV_POPULATE_WRITE,
 * which maps the missing pages without changing any content, and one byte
 * of each page is read (ps__touch_pages: a populated page's first access
 * can still trap to the hypervisor).  What existed at ps_init (MPI's
 * memory, its threads' stacks, the trace buffer) is left alone: populating
 * it costs time and, on this VM, delayed the first messages after the
 * set-up by up to milliseconds.  The static data of the program and its
 * libraries (.data and .bss) is made present and private too: a static
 * table first written inside the interval (the runtime's record of the
 * constructs, say) cost a fault there in every variant.  The runtime's own
 * memory (the trace buffer, the scratch areas) is made present when it is
 * mapped (ps__map_present).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runtime/config.h"
#include "runtime/rt.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22    /* Linux 5.14 */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23   /* Linux 5.14 */
#endif

typedef struct range { unsigned long a, b; } range;

static range known[PS_FIRST_TOUCH_KNOWN];
static int nknown = -1;   /* -1: no snapshot */

/* One line of /proc/self/maps, and whether the line before it was mapped
 * from a file and ended where this one begins (a .bss after its .data). */
typedef struct mapping {
    unsigned long a, b, ino;
    char          perm[8], path[256];
    int           follows_file;
} mapping;

/* Calls fn for every mapping that keep accepts; fn returns nonzero to stop. */
static void each_mapping(int (*keep)(const mapping *m), int (*fn)(const mapping *m, void *arg), void *arg)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    char line[512];
    unsigned long file_end = 0;   /* where the last mapping from a file ended */
    while (fgets(line, sizeof line, f)) {
        mapping m = {.path = ""};
        unsigned long off;
        char dev[32];
        if (sscanf(line, "%lx-%lx %7s %lx %31s %lu %255s", &m.a, &m.b, m.perm, &off, dev, &m.ino, m.path) < 6)
            continue;
        m.follows_file = file_end && m.a == file_end;
        file_end = m.ino != 0 ? m.b : 0;
        if (keep(&m) && fn(&m, arg)) break;
    }
    fclose(f);
}

/* private anonymous read-write memory: malloc's blocks and the heap */
static int is_anon(const mapping *m)
{
    return !strcmp(m->perm, "rw-p") && m->ino == 0 && (!m->path[0] || !strcmp(m->path, "[heap]"));
}

/* static data: the writable private part of a program or library image
 * (.data, mapped from its file) and its .bss (anonymous, right after it) */
static int is_static_data(const mapping *m)
{
    return !strcmp(m->perm, "rw-p") && (m->ino != 0 || (m->follows_file && !m->path[0])) &&
           m->b - m->a <= PS_FIRST_TOUCH_MAX_MAPPING;
}

/* executable pages mapped from a file, not reservations */
static int is_code(const mapping *m)
{
    return !strcmp(m->perm, "r-xp") && m->ino != 0 && m->b - m->a <= PS_FIRST_TOUCH_MAX_MAPPING;
}

/* The files that have code mapped: the program and its libraries (not a
 * data file some library mapped read-only, which may be large). */
static unsigned long image[PS_FIRST_TOUCH_IMAGES];
static volatile unsigned sink;
static int           nimage;

static int add_image(const mapping *m, void *arg)
{
    (void)arg;
    for (int i = 0; i < nimage; i++)
        if (image[i] == m->ino) return 0;
    if (nimage < PS_FIRST_TOUCH_IMAGES) image[nimage++] = m->ino;
    return 0;
}

/* an image's code and read-only data (constants, relocated tables) */
static int is_image_readonly(const mapping *m)
{
    if ((strcmp(m->perm, "r-xp") && strcmp(m->perm, "r--p")) || m->b - m->a > PS_FIRST_TOUCH_MAX_MAPPING) return 0;
    for (int i = 0; i < nimage; i++)
        if (image[i] == m->ino) return 1;
    return 0;
}

static int remember(const mapping *m, void *arg)
{
    (void)arg;
    if (nknown < PS_FIRST_TOUCH_KNOWN) known[nknown++] = (range){m->a, m->b};
    return 0;
}

void ps__first_touch_mark(void)
{
    nknown = 0;
    each_mapping(is_anon, remember, NULL);
}

/* A static variable written for the first time inside the timed interval
 * (the runtime's own tables, a program's globals) costs a copy-on-write or
 * zero-page fault there; present and private now, with its content kept. */
static int populate_static(const mapping *m, void *arg)
{
    size_t *done = arg;
    if (madvise((void *)m->a, m->b - m->a, MADV_POPULATE_WRITE) == 0) *done += m->b - m->a;
    return 0;
}

/* A page's first use as the target of a single-copy message (Open MPI's
 * shared-memory transport reads the sender's buffer straight into the
 * receiver's with process_vm_readv) cost 20-70 us more than later ones
 * here, even with the page present: the kernel's first pin of it.  One
 * byte of each page is copied onto itself the same way now, which leaves
 * the content as it was. */
void ps__pin_for_messages(const void *p, size_t n)
{
    enum { PER_CALL = 512 };
    struct iovec v[PER_CALL];
    unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
    unsigned long a = (unsigned long)p & ~(page - 1), b = (unsigned long)p + n;
    pid_t me = getpid();
    while (a < b) {
        int k = 0;
        for (; k < PER_CALL && a < b; k++, a += page) v[k] = (struct iovec){(void *)(a < (unsigned long)p ? (unsigned long)p : a), 1};
        /* the system call itself: a sanitizer's wrapper would check the
         * bytes of a mapping's pages that are no live object's */
        if (syscall(SYS_process_vm_readv, me, v, (unsigned long)k, v, (unsigned long)k, 0UL) < 0) return;
    }
}

/* A page present (populated) is not yet present for the process's own loads
 * and stores everywhere: on a paravirtualised VM the first access from user
 * space to each page still traps to the hypervisor, 4.9 us a page here after
 * 0.6 us to populate it (a page never populated: 10.3 us at its first touch;
 * 0.01 us once accessed).  One byte of each page read now pays for it; the
 * content stays as it was. */
/* (not checked by AddressSanitizer: a page may begin in no live object, or
 * inside a global's redzone; only the page is wanted, not the object) */
__attribute__((no_sanitize_address)) void ps__touch_pages(const void *p, size_t n)
{
    unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
    unsigned long a = (unsigned long)p & ~(page - 1), b = (unsigned long)p + n;
    unsigned sum = 0;
    if (n == 0) return;
    for (; a < b; a += page) sum += *(volatile const unsigned char *)(a < (unsigned long)p ? (unsigned long)p : a);
    sink += sum;
}

_Static_assert((PS_MAP_HUGE_MIN & (PS_MAP_HUGE_MIN - 1)) == 0, "PS_MAP_HUGE_MIN is the huge pages' alignment");

void *ps__map_present(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (bytes > SIZE_MAX - (size_t)PS_MAP_HUGE_MIN - page) return NULL;
    bytes = (bytes + page - 1) / page * page;
    /* in huge pages where the kernel offers them for the asking: a 2 MiB
     * area populated, touched and pinned (ps__pin_for_messages) took 0.25-0.38
     * ms here in huge pages, 6.8-7.4 ms in 4 KiB ones; a huge page needs an
     * aligned start, hence the larger mapping trimmed to it */
    size_t huge = bytes >= (size_t)PS_MAP_HUGE_MIN ? (size_t)PS_MAP_HUGE_MIN : 0, len = bytes + huge;
    char *r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED) return NULL;
    char *p = r;
    if (huge) {
        p = (char *)(((uintptr_t)r + huge - 1) & ~(uintptr_t)(huge - 1));
        if (p > r) munmap(r, (size_t)(p - r));
        if (r + len > p + bytes) munmap(p + bytes, (size_t)(r + len - (p + bytes)));
        (void)madvise(p, bytes, MADV_HUGEPAGE);
    }
    if (madvise(p, bytes, MADV_POPULATE_WRITE) != 0) {
        if (errno != EINVAL) {   /* out of memory, say: not written page by page into the OOM killer */
            munmap(p, bytes);
            return NULL;
        }
        /* (a kernel before 5.14) a fresh mapping's zeros written again */
        for (size_t o = 0; o < bytes; o += page) ((volatile char *)p)[o] = 0;
    }
    ps__touch_pages(p, bytes);
    return p;
}

static int populate(const mapping *m, void *arg)
{
    size_t *done = arg;
    for (int i = 0; i < nknown; i++)
        if (known[i].a == m->a && known[i].b == m->b) return 0;   /* there before the set-up */
    if (m->b - m->a > PS_FIRST_TOUCH_MAX_MAPPING) return 0;          /* reserved, not allocated */
    if (madvise((void *)m->a, m->b - m->a, MADV_POPULATE_WRITE) == 0) {
        *done += m->b - m->a;
        ps__touch_pages((void *)m->a, m->b - m->a);
        ps__pin_for_messages((void *)m->a, m->b - m->a);
    }
    return 0;
}

/* The code and constants: the program's and its libraries' executable and
 * read-only pages, mapped from the page cache now rather than on their
 * first use inside the timed interval (a blocking receive's path, say,
 * which the warm-up did not take, or the constants of the first fmod: 60-100
 * us, most of red_black's communication time at one iteration). */
static int populate_readonly(const mapping *m, void *arg)
{
    (void)arg;
    if (madvise((void *)m->a, m->b - m->a, MADV_POPULATE_READ) != 0) return 1;
    ps__touch_pages((const void *)m->a, m->b - m->a);
    return 0;
}

size_t ps__first_touch(void)
{
    size_t done = 0;
    nimage = 0;
    each_mapping(is_code, add_image, NULL);
    each_mapping(is_image_readonly, populate_readonly, NULL);
    each_mapping(is_static_data, populate_static, &done);
    /* without a snapshot (or a full one) nothing is known to be the set-up's */
    if (nknown < 0 || nknown >= PS_FIRST_TOUCH_KNOWN) return 0;
    each_mapping(is_anon, populate, &done);
    return done;
}
