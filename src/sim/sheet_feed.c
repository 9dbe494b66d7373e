/*
 * sheet_feed.c - the result sheet built on a thread of its own (sheet_feed.h).
 *
 * One producer (the simulation) and one consumer (the thread) share a ring
 * of events, one cache line each.  The producer tells the thread how far it
 * has written every PUBLISH events, the thread tells the producer how far it
 * has read as often: each side writes a shared line once per PUBLISH events,
 * not once per event.  The thread polls an empty ring a little and then
 * sleeps on a condition variable, and the producer wakes it every WAKE
 * events, when the ring is full and at the end, and only when it says it
 * sleeps: one system call per thousand events, and no processor spent
 * polling.  (The flag and the count are sequentially consistent on both
 * sides, so one of them sees the other's store and no wake-up is lost.)
 */
#include "sim/sheet_feed.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#define RING    2048u   /* events (128 KB): the thread is never far behind */
#define PUBLISH 32u     /* events between two stores to a shared count */
#define WAKE    (RING / 2)  /* events between two wake-ups of a sleeping thread */
#define SPIN    64      /* polls of an empty ring before the thread sleeps */
#define SPIN_FULL 4000  /* polls of a full ring before the producer yields */

typedef struct item {
    alignas(64) ps_event e;
    double   send_t0;
    int32_t  rank;
} item;

struct ps_sheet_feed {
    ps_sheet_acc   *acc;
    item           *ring;
    pthread_t       th;
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    /* the producer's own */
    alignas(64) size_t head;        /* events written */
    size_t          room_to;        /* head may reach this without reading consumed again */
    /* each written by one side, read by the other */
    alignas(64) atomic_size_t published;   /* events the thread may read */
    alignas(64) atomic_size_t consumed;    /* events the thread is done with */
    alignas(64) atomic_int    sleeping;
    atomic_int      done, failed;
};

static void *run(void *arg)
{
    ps_sheet_feed *f = arg;
    size_t t = 0;
    int spins = 0, failed = 0;
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
            pthread_mutex_lock(&f->mu);
            atomic_store(&f->sleeping, 1);
            while (atomic_load(&f->published) == t && !atomic_load(&f->done)) pthread_cond_wait(&f->cv, &f->mu);
            atomic_store(&f->sleeping, 0);
            pthread_mutex_unlock(&f->mu);
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
        atomic_store_explicit(&f->consumed, t, memory_order_release);
    }
    return NULL;
}

/* wake: whether to wake a sleeping thread (it sleeps whenever it has caught
 * up, so it is woken once every WAKE events, not at every PUBLISH) */
static void publish(ps_sheet_feed *f, int wake)
{
    atomic_store(&f->published, f->head);
    if (wake && atomic_load(&f->sleeping)) {
        pthread_mutex_lock(&f->mu);
        pthread_cond_signal(&f->cv);
        pthread_mutex_unlock(&f->mu);
    }
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
    atomic_init(&f->sleeping, 0);
    atomic_init(&f->done, 0);
    atomic_init(&f->failed, 0);
    f->ring = aligned_alloc(64, RING * sizeof *f->ring);
    if (!f->ring || pthread_mutex_init(&f->mu, NULL)) {
        free(f->ring);
        free(f);
        return NULL;
    }
    if (pthread_cond_init(&f->cv, NULL)) {
        pthread_mutex_destroy(&f->mu);
        free(f->ring);
        free(f);
        return NULL;
    }
    /* the thread takes no signal: the process's handlers run where they ran before */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&f->th, NULL, run, f);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        pthread_cond_destroy(&f->cv);
        pthread_mutex_destroy(&f->mu);
        free(f->ring);
        free(f);
        return NULL;
    }
    return f;
}

int ps_sheet_feed_event(ps_sheet_feed *f, int rank, const ps_event *e, double send_t0)
{
    if (f->head == f->room_to) {
        publish(f, 1);   /* the thread may be asleep with these to read */
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
    if ((++f->head & (PUBLISH - 1)) == 0) publish(f, (f->head & (WAKE - 1)) == 0);
    return atomic_load_explicit(&f->failed, memory_order_relaxed) ? -1 : 0;
}

int ps_sheet_feed_stop(ps_sheet_feed *f)
{
    if (!f) return 0;
    atomic_store(&f->published, f->head);
    atomic_store(&f->done, 1);
    pthread_mutex_lock(&f->mu);
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->th, NULL);
    int failed = atomic_load(&f->failed);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    free(f->ring);
    free(f);
    return failed ? -1 : 0;
}
