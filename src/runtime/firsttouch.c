/*
 * firsttouch.c - the first touch of the set-up's memory, before the timed
 * interval.  A buffer the set-up allocated but did not write (calloc, or a
 * malloc + memset(0) the compiler turned into calloc) gets its pages on
 * first use: in a VM about 10 us each, inside the timed interval, and only
 * in the kernels that use it.  At the end of the set-up the private
 * anonymous mappings that appeared or changed since ps_init (the set-up's
 * malloc'd blocks, the grown heap) are populated with MADV_POPULATE_WRITE,
 * which maps the missing pages without changing any content.  What existed
 * at ps_init (MPI's memory, its threads' stacks, the trace buffer) is left
 * alone: populating it costs time and, on this VM, delayed the first
 * messages after the set-up by up to milliseconds.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

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

/* One line of /proc/self/maps. */
typedef struct mapping {
    unsigned long a, b, ino;
    char          perm[8], path[256];
} mapping;

/* Calls fn for every mapping that keep accepts; fn returns nonzero to stop. */
static void each_mapping(int (*keep)(const mapping *m), int (*fn)(const mapping *m, void *arg), void *arg)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        mapping m = {.path = ""};
        unsigned long off;
        char dev[32];
        if (sscanf(line, "%lx-%lx %7s %lx %31s %lu %255s", &m.a, &m.b, m.perm, &off, dev, &m.ino, m.path) < 6)
            continue;
        if (keep(&m) && fn(&m, arg)) break;
    }
    fclose(f);
}

/* private anonymous read-write memory: malloc's blocks and the heap */
static int is_anon(const mapping *m)
{
    return !strcmp(m->perm, "rw-p") && m->ino == 0 && (!m->path[0] || !strcmp(m->path, "[heap]"));
}

/* executable pages mapped from a file, not reservations */
static int is_code(const mapping *m)
{
    return !strcmp(m->perm, "r-xp") && m->ino != 0 && m->b - m->a <= PS_FIRST_TOUCH_MAX_MAPPING;
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

static int populate(const mapping *m, void *arg)
{
    size_t *done = arg;
    for (int i = 0; i < nknown; i++)
        if (known[i].a == m->a && known[i].b == m->b) return 0;   /* there before the set-up */
    if (m->b - m->a > PS_FIRST_TOUCH_MAX_MAPPING) return 0;          /* reserved, not allocated */
    if (madvise((void *)m->a, m->b - m->a, MADV_POPULATE_WRITE) == 0) *done += m->b - m->a;
    return 0;
}

/* The code: the program's and its libraries' executable pages, mapped from
 * the page cache now rather than on their first execution inside the timed
 * interval (a blocking receive's path, say, which the warm-up did not take). */
static int populate_code(const mapping *m, void *arg)
{
    (void)arg;
    return madvise((void *)m->a, m->b - m->a, MADV_POPULATE_READ) != 0;
}

size_t ps__first_touch(void)
{
    size_t done = 0;
    each_mapping(is_code, populate_code, NULL);
    /* without a snapshot (or a full one) nothing is known to be the set-up's */
    if (nknown < 0 || nknown >= PS_FIRST_TOUCH_KNOWN) return 0;
    each_mapping(is_anon, populate, &done);
    return done;
}
