/*
 * thread.h - the simulator's helper threads (the sheet's, the streams'
 * check): started with every signal blocked, so that the process's handlers
 * run on the thread they ran on before.
 */
#ifndef PS_SIM_THREAD_H
#define PS_SIM_THREAD_H

#include <pthread.h>
#include <sched.h>
#include <signal.h>

/* 0, or pthread_create's error (then no thread: do the work here) */
static inline int ps_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(th, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* fn(a) on a helper thread while fn(b) runs here; both done on return (fn(a)
 * here too when no thread could be started). */
static inline void ps_run_pair(void *(*fn)(void *), void *a, void *b)
{
    pthread_t th;
    int started = ps_thread_start(&th, fn, a) == 0;
    fn(b);
    if (started) pthread_join(th, NULL);
    else fn(a);
}

/* The processors this process may run on (1 when it cannot tell): a helper
 * thread pays off only with a second one. */
static inline int ps_cpus_usable(void)
{
    cpu_set_t cpus;
    return sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
}

#endif
