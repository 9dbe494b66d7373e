/*
 * memcount.c - memory-system counters over the timed interval: minor and
 * major page faults (getrusage deltas) and, where perf_event_open is
 * allowed, hardware cache misses.  Two runs of one program that start from
 * different memory states (a buffer touched for the first time inside the
 * interval in one of them) differ here even when their events look alike;
 * the white-box analysis compares them (docs/WHITEBOX.md).
 * The same two getrusage snapshots give the process metrics of CLUE's timer
 * class over the interval (user and system time, context switches): the
 * CLUE seed takes them at Timer.Start and Timer.Stop, around the iterations
 * only, which `parscope scale` reports (docs/SCALE.md).
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/rt.h"

static long minflt0, majflt0, nvcsw0, nivcsw0, scratch0;
static int64_t user0_us, sys0_us;
static int perf_fd = -2;   /* -2: not tried yet, -1: not available */

static int64_t tv_us(struct timeval t) { return (int64_t)t.tv_sec * 1000000 + (int64_t)t.tv_usec; }

static int open_cache_misses(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_CACHE_MISSES;
    a.disabled = 1;
    /* user space only: allowed at perf_event_paranoid <= 2 */
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    return fd < 0 ? -1 : (int)fd;
}

void ps__memcount_begin(void)
{
    if (perf_fd == -2) perf_fd = open_cache_misses();
    if (perf_fd >= 0) {
        ioctl(perf_fd, PERF_EVENT_IOC_DISABLE, 0);
        ioctl(perf_fd, PERF_EVENT_IOC_RESET, 0);
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        minflt0 = ru.ru_minflt;
        scratch0 = ps__scratch_faults();
        majflt0 = ru.ru_majflt;
        nvcsw0 = ru.ru_nvcsw;
        nivcsw0 = ru.ru_nivcsw;
        user0_us = tv_us(ru.ru_utime);
        sys0_us = tv_us(ru.ru_stime);
    } else {
        minflt0 = majflt0 = -1;
    }
    if (perf_fd >= 0) ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0);
}

void ps__memcount_end(void)
{
    if (perf_fd >= 0) ioctl(perf_fd, PERF_EVENT_IOC_DISABLE, 0);
    struct rusage ru;
    if (minflt0 >= 0 && getrusage(RUSAGE_SELF, &ru) == 0) {
        ps__rt.timed_minflt = ru.ru_minflt - minflt0 - (ps__scratch_faults() - scratch0);
        ps__rt.timed_majflt = ru.ru_majflt - majflt0;
        ps__rt.timed_nvcsw = ru.ru_nvcsw - nvcsw0;
        ps__rt.timed_nivcsw = ru.ru_nivcsw - nivcsw0;
        ps__rt.timed_user_us = tv_us(ru.ru_utime) - user0_us;
        ps__rt.timed_sys_us = tv_us(ru.ru_stime) - sys0_us;
    }
    uint64_t v;
    if (perf_fd >= 0 && read(perf_fd, &v, sizeof v) == (ssize_t)sizeof v) ps__rt.timed_cache_misses = (int64_t)v;
    if (perf_fd >= 0) close(perf_fd);
    perf_fd = -1;
}
