/* rt_program.c - an MPI program on the parscope runtime with a known
 * message pattern, for the runtime tests (see CMakeLists.txt). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "parscope/parscope.h"

/* a recursion that ends far beyond any stack's size: the rank's stack overflows */
static int deeper(volatile char *up, long depth)
{
    volatile char frame[1024];
    frame[0] = up ? up[0] : 1;
    if (depth <= 0) return frame[0];
    return deeper(frame, depth - 1) + frame[1023];
}

/* a page the program maps on its first touch, from its own SIGSEGV handler */
static char *guard_page;
static long page_size;

static void map_on_touch(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    char *a = si->si_addr;
    if (a >= guard_page && a < guard_page + page_size && mprotect(guard_page, (size_t)page_size, PROT_READ | PROT_WRITE) == 0)
        return;
    signal(sig, SIG_DFL);
}

int main(int argc, char **argv)
{
    ps_set_args(&argc, &argv);
    int deadlock = argc > 1 && !strcmp(argv[1], "--deadlock");
    int flood = argc > 1 && !strcmp(argv[1], "--flood");
    int die = argc > 1 && !strcmp(argv[1], "--die");
    int segv = argc > 1 && !strcmp(argv[1], "--segv");
    int overflow = argc > 1 && !strcmp(argv[1], "--overflow");
    int guard = argc > 1 && !strcmp(argv[1], "--guard");
    if (guard) {
        /* installed before the runtime starts, as a program's own */
        page_size = sysconf(_SC_PAGESIZE);
        guard_page = mmap(NULL, (size_t)page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = map_on_touch;
        sa.sa_flags = SA_SIGINFO;
        if (guard_page == MAP_FAILED || sigaction(SIGSEGV, &sa, NULL)) return 3;
    }
    ps_init(0);
    int me = ps_rank(), p = ps_size();
    if (deadlock) ps_recv(NULL, 8, (me + 1) % p, 1, PS_C_BRECEIVE); /* everyone receives first */
    if (die && me == p - 1) abort();
    if (segv && me == p - 1) {
        volatile uintptr_t never_mapped = 0x10;
        *(volatile int *)never_mapped = 1;
    }
    if (overflow && me == p - 1) {
        /* a stack of 8 MiB at most, whatever the shell's limit: it overflows, not the memory */
        struct rlimit rl = {8L << 20, 8L << 20};
        if (setrlimit(RLIMIT_STACK, &rl)) ps_abort("setrlimit: stack");
        (void)deeper(NULL, 1L << 30);
    }
    if (guard) {
        ((volatile char *)guard_page)[0] = 1;   /* the program's handler maps it: no fault remains */
        if (guard_page[0] != 1) ps_abort("the guard page was not mapped by the program's handler");
    }
    char sbuf[1024], rbuf[1024];
    memset(sbuf, me, sizeof sbuf);
    if (p >= 2) {
        int right = (me + 1) % p, left = (me + p - 1) % p;
        for (int k = 0; k < 10; k++) {
            ps_irecv(rbuf, sizeof rbuf, left, 5, PS_C_USER);
            ps_isend(sbuf, sizeof sbuf, right, 5, PS_C_USER);
            ps_waitall();
            if (rbuf[0] != (char)left) ps_abort("ring: wrong data from rank %d", left);
        }
        /* without buffers, a receive does not write where sends read from: a rank's send and
         * receive on the same memory would move its lines between the processors' caches (and
         * through a single-copy transfer, the peer's) as both copy them, which real programs,
         * sending and receiving in arrays of their own, do not pay */
        enum { BIG = 16384 };
        unsigned char *out = ps_scratch(BIG);
        memset(out, me + 1, BIG);
        ps_irecv(NULL, BIG, left, 7, PS_C_USER);
        ps_isend(NULL, BIG, right, 7, PS_C_USER);
        ps_waitall();
        for (int i = 0; i < BIG; i++)
            if (out[i] != (unsigned char)(me + 1))
                ps_abort("a receive without a buffer wrote into the sends' scratch memory (byte %d: %d)", i, out[i]);
        for (int k = 0; k < 5; k++) {
            if (me == 0) {
                ps_send(sbuf, 64, 1, 6, PS_C_BSEND);
                ps_recv(rbuf, 64, 1, 6, PS_C_BRECEIVE);
            } else if (me == 1) {
                ps_recv(rbuf, 64, 0, 6, PS_C_BRECEIVE);
                ps_send(sbuf, 64, 0, 6, PS_C_BSEND);
            }
        }
    }
    double t0 = ps_now();
    volatile double x = 0;
    for (int i = 0; i < 100000; i++) x = x + i * 0.5;
    ps_compute(PS_C_USER, t0, ps_now(), 200000 + 0 * x);
    ps_work(1e5);
    if (flood)
        for (int i = 0; i < 100; i++) ps_mark(PS_C_VISIBLE_SYNC);
    ps_barrier(PS_C_BARRIER);
    ps_mark(PS_C_VISIBLE_SYNC);
    double v = me + 1;
    ps_allreduce_sum(&v, 1, PS_C_REDUCE);
    if (v != p * (p + 1) / 2.0) ps_abort("allreduce: %g, expected %g", v, p * (p + 1) / 2.0);
    ps_finalize();
    return 0;
}
