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

/* Calls fn for every private anonymous read-write mapping. */
static void each_anon(void (*fn)(unsigned long a, unsigned long b, void *arg), void *arg)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b, off, ino;
        char perm[8], dev[32], path[256] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %31s %lu %255s", &a, &b, perm, &off, dev, &ino, path) < 6) continue;
        if (strcmp(perm, "rw-p") || ino != 0 || (path[0] && strcmp(path, "[heap]"))) continue;
        fn(a, b, arg);
    }
    fclose(f);
}

static void remember(unsigned long a, unsigned long b, void *arg)
{
    (void)arg;
    if (nknown < PS_FIRST_TOUCH_KNOWN) known[nknown++] = (range){a, b};
}

void ps__first_touch_mark(void)
{
    nknown = 0;
    each_anon(remember, NULL);
}

static void populate(unsigned long a, unsigned long b, void *arg)
{
    size_t *done = arg;
    for (int i = 0; i < nknown; i++)
        if (known[i].a == a && known[i].b == b) return;   /* there before the set-up */
    if (b - a > PS_FIRST_TOUCH_MAX_MAPPING) return;          /* reserved, not allocated */
    if (madvise((void *)a, b - a, MADV_POPULATE_WRITE) == 0) *done += b - a;
}

/* The code: the program's and its libraries' executable pages, mapped from
 * the page cache now rather than on their first execution inside the timed
 * interval (a blocking receive's path, say, which the warm-up did not take). */
static void populate_code(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b, off, ino;
        char perm[8], dev[32], path[256] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %31s %lu %255s", &a, &b, perm, &off, dev, &ino, path) < 7) continue;
        if (strcmp(perm, "r-xp") || ino == 0 || b - a > PS_FIRST_TOUCH_MAX_MAPPING) continue;
        if (madvise((void *)a, b - a, MADV_POPULATE_READ) != 0) break;
    }
    fclose(f);
}

size_t ps__first_touch(void)
{
    size_t done = 0;
    populate_code();
    /* without a snapshot (or a full one) nothing is known to be the set-up's */
    if (nknown < 0 || nknown >= PS_FIRST_TOUCH_KNOWN) return 0;
    each_anon(populate, &done);
    return done;
}
