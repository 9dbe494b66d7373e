/*
 * firsttouch.c - the first touch of the set-up's memory, before the timed
 * interval.  A buffer the set-up allocated but did not write (calloc, or a
 * malloc + memset(0) the compiler turned into calloc, or MPI buffers) gets
 * its pages on first use: in a VM about 10 us each, inside the timed
 * interval, and only in the kernels that use it.  At the end of the set-up
 * every private anonymous mapping (heap, malloc'd blocks, stacks) is
 * populated with MADV_POPULATE_WRITE, which maps the missing pages without
 * changing any content, so concurrent threads are safe.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "runtime/config.h"
#include "runtime/rt.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23   /* Linux 5.14 */
#endif

/* Populates the private anonymous mappings of this process, except those
 * larger than PS_FIRST_TOUCH_MAX_MAPPING (address space reserved, not
 * allocated: a sanitizer's shadow memory) and the one holding the trace
 * buffer (touched by its own window).  Nothing happens where the kernel
 * cannot populate (before Linux 5.14).  Returns the bytes populated. */
size_t ps__first_touch(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    uintptr_t ev = (uintptr_t)ps__rt.ev;
    size_t done = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b, off, ino;
        char perm[8], dev[32], path[256] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %31s %lu %255s", &a, &b, perm, &off, dev, &ino, path) < 6) continue;
        if (strcmp(perm, "rw-p") || ino != 0 || (path[0] && strcmp(path, "[heap]"))) continue;
        if (b - a > PS_FIRST_TOUCH_MAX_MAPPING || (ev >= a && ev < b)) continue;
        if (madvise((void *)a, b - a, MADV_POPULATE_WRITE) != 0) break;   /* not supported: nothing to do */
        done += b - a;
    }
    fclose(f);
    return done;
}
