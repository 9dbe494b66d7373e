/*
 * fork_cost.c - the floor under recording a rank per process: what creating,
 * ending and reaping a process that runs nothing costs on this machine.
 *
 * usage: bench_fork_cost [N]   (default 1024, as many as fingerprint's ranks)
 *
 * Forks N children one after the other; each calls _exit(0) at once and is
 * reaped before the next.  Prints the processor time of the forking process
 * and of its children (getrusage), and their sum per process.  The recording
 * (src/runtime/record.c) pays this for every rank before the rank's program
 * does anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static double cpu(int who)
{
    struct rusage u;
    getrusage(who, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1024;
    if (argc > 2 || n < 1 || n > 1000000) {
        fprintf(stderr, "usage: %s [N (1..1000000)]\n", argv[0]);
        return 2;
    }
    for (long i = 0; i < n; i++) {
        pid_t p = fork();
        if (p < 0) {
            perror("fork");
            return 1;
        }
        if (p == 0) _exit(0);
        int st;
        if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "%s: child %ld did not exit cleanly\n", argv[0], i);
            return 1;
        }
    }
    double self = cpu(RUSAGE_SELF), kids = cpu(RUSAGE_CHILDREN);
    printf("processes=%ld parent_cpu_s=%.3f children_cpu_s=%.3f per_process_us=%.0f\n", n, self, kids,
           1e6 * (self + kids) / (double)n);
    return 0;
}
