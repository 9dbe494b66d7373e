/* gentrace.c - writes a synthetic ring trace of about N events (bench/export_report.sh). */
#include <stdio.h>
#include <stdlib.h>

#include "synth.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: report_gentrace RANKS EVENTS OUT.pst\n");
        return 2;
    }
    int P = atoi(argv[1]);
    long n = atol(argv[2]);
    if (P < 2 || n < 3L * P) {
        fprintf(stderr, "report_gentrace: need RANKS >= 2 and EVENTS >= 3 * RANKS\n");
        return 2;
    }
    long rounds = n / (3L * P);
    ps_trace *t = synth_ring(P, rounds, rounds / 4 > 0 ? rounds / 4 : 1, 1024);
    char err[512];
    if (ps_trace_write(t, argv[3], err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    size_t total = 0;
    for (int r = 0; r < P; r++) total += t->rank[r].n;
    printf("%zu\n", total);
    ps_trace_free(t);
    return 0;
}
