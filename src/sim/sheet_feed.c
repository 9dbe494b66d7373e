/*
 * sheet_feed.c - the result sheet built on a thread of its own (sheet_feed.h).
 *
 * One producer (the simulation) and one consumer (the thread) share a ring
 * of events, one cache line each.  The producer tells the thread how far it
 * has written every PUBLISH events, the thread tells the producer how far it
 * has read as often: each side writes a shared line once per PUBLISH events,
 * not once per event.  The producer makes no system call while the ring has
 * room: a thread that finds the ring empty polls it a little, then sleeps
 * NAP and looks again, instead of waiting to be woken (a wake-up is a system
 * call for the producer and, in a VM, an interrupt between processors:
 * waking the thread every thousand events cost more than the sheet saved on
 * a ring of 1024 ranks).  The ring holds what the fastest simulation makes
 * in several NAPs (~40 ns an event), so the producer finds it full only if
 * the thread was kept from running; it then polls, and then yields the
 * processor.
 */
#include "sim/sheet_feed.h"

#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "sim/thread.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#define RING      8192u    /* events (512 KB): 330 us of the fastest simulation */
#define PUBLISH   32u      /* events between two stores to a shared count */
#define NAP_NS    30000L   /* the thread's sleep when the ring is empty */
#define SLACK_NS  10000L   /* ... and how late the kernel may wake it (the default is 50 us) */
#define SPIN      64       /* polls of an empty ring before the thread sleeps */
#define SPIN_FULL 4000     /* polls of a full ring before the producer yields */

typedef struct item {
    alignas(64) ps_event e;
    double   send_t0;
    int32_t  rank;
} item;

struct ps_sheet_feed {
    ps_sheet_acc *acc;
    item         *ring;
    pthread_t     th;
    /* the producer's own */
    alignas(64) size_t head;     /* events written */
    size_t        room_to;       /* head may reach this without reading consumed again */
    /* each written by one side, read by the other */
    alignas(64) atomic_size_t published;   /* events the thread may read */
    alignas(64) atomic_size_t consumed;    /* events the thread is done with */
    alignas(64) atomic_int    done, failed;
};

static void *run(void *arg)
{
    ps_sheet_feed *f = arg;
    size_t t = 0;
    int spins = 0, failed = 0;
    prctl(PR_SET_TIMERSLACK, SLACK_NS, 0, 0, 0);
    for (;;) {
        size_t h = atomic_load_explicit(&f->published, memory_order_acquire);
        if (h == t) {
            /* done is stored after the last events were published */
            if (atomic_load(&f->done)) {
                if (atomic_load(&f->published) == t) break;
                continue;
            }
            if (++spins < SPIN) {
                CPU_RELAX();
                continue;
            }
            struct timespec nap = {0, NAP_NS};
            nanosleep(&nap, NULL);
            spins = 0;
            continue;
        }
        spins = 0;
        for (; t != h; t++) {
            const item *it = &f->ring[t & (RING - 1)];
            if (!failed && ps_sheet_acc_event(f->acc, it->rank, &it->e, it->send_t0)) {
                failed = 1;
                atomic_store(&f->failed, 1);
            }
            if ((t & (PUBLISH - 1)) == PUBLISH - 1) atomic_store_explicit(&f->consumed, t + 1, memory_order_release);
        }
        if (t & (PUBLISH - 1)) atomic_store_explicit(&f->consumed, t, memory_order_release);
    }
    return NULL;
}

ps_sheet_feed *ps_sheet_feed_start(ps_sheet_acc *a)
{
    size_t size = (sizeof(ps_sheet_feed) + 63) & ~(size_t)63;
    ps_sheet_feed *f = aligned_alloc(64, size);
    if (!f) return NULL;
    memset(f, 0, sizeof *f);
    f->acc = a;
    f->room_to = RING;
    atomic_init(&f->published, 0);
    atomic_init(&f->consumed, 0);
    atomic_init(&f->done, 0);
    atomic_init(&f->failed, 0);
    f->ring = aligned_alloc(64, RING * sizeof *f->ring);
    if (!f->ring) {
        free(f);
        return NULL;
    }
    if (ps_thread_start(&f->th, run, f)) {
        free(f->ring);
        free(f);
        return NULL;
    }
    return f;
}

int ps_sheet_feed_event(ps_sheet_feed *f, int rank, const ps_event *e, double send_t0)
{
    if (f->head == f->room_to) {
        atomic_store_explicit(&f->published, f->head, memory_order_release);
        int spins = 0;
        for (;;) {
            size_t c = atomic_load_explicit(&f->consumed, memory_order_acquire);
            if (f->head - c < RING) {
                f->room_to = c + RING;
                break;
            }
            if (++spins < SPIN_FULL) CPU_RELAX();
            else sched_yield();
        }
    }
    item *it = &f->ring[f->head & (RING - 1)];
    it->e = *e;
    it->send_t0 = send_t0;
    it->rank = rank;
    if ((++f->head & (PUBLISH - 1)) == 0) atomic_store_explicit(&f->published, f->head, memory_order_release);
    return atomic_load_explicit(&f->failed, memory_order_relaxed) ? -1 : 0;
}

int ps_sheet_feed_stop(ps_sheet_feed *f)
{
    if (!f) return 0;
    atomic_store(&f->published, f->head);
    atomic_store(&f->done, 1);
    pthread_join(f->th, NULL);
    int failed = atomic_load(&f->failed);
    free(f->ring);
    free(f);
    return failed ? -1 : 0;
}

typedef struct qjob {
    ps_sheet_acc *a;
    int           r0, r1;
    const double *t_begin, *t_end;
} qjob;

static void *queues(void *arg)
{
    qjob *j = arg;
    ps_sheet_acc_queues(j->a, j->r0, j->r1, j->t_begin, j->t_end);
    return NULL;
}

void ps_sheet_feed_queues(ps_sheet_acc *a, int nranks, const double *t_begin, const double *t_end)
{
    int split = ps_sheet_acc_split(a);
    qjob lo = {.a = a, .r0 = 0, .r1 = split, .t_begin = t_begin, .t_end = t_end};
    qjob hi = {.a = a, .r0 = split, .r1 = nranks, .t_begin = t_begin, .t_end = t_end};
    ps_run_pair(queues, &lo, &hi);
}
