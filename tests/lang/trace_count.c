/* trace_count.c - prints, from a trace, the messages sent per construct and
 * size ("CONSTRUCT BYTES COUNT", sorted) and how many sends found no
 * matching receive; the message-count tests compare it with the contract. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

typedef struct row { const char *name; unsigned long long bytes; long n; } row;

static int cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: trace_count TRACE\n");
        return 2;
    }
    ps_trace *t = NULL;
    char err[1024];
    if (ps_trace_read(argv[1], &t, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    row *rows = NULL;
    size_t nrows = 0;
    for (int r = 0; r < t->nranks; r++)
        for (size_t i = 0; i < t->rank[r].n; i++) {
            const ps_event *e = &t->rank[r].ev[i];
            if (e->kind != PS_EV_SEND) continue;
            if (e->peer == r) {
                printf("SELF-MESSAGE rank %d\n", r);
            }
            const char *name = e->construct < t->nconstructs ? t->constructs[e->construct] : "?";
            size_t k = 0;
            while (k < nrows && !(rows[k].bytes == e->bytes && !strcmp(rows[k].name, name))) k++;
            if (k == nrows) {
                rows = realloc(rows, (nrows + 1) * sizeof *rows);
                rows[nrows++] = (row){name, e->bytes, 0};
            }
            rows[k].n++;
        }
    if (nrows) qsort(rows, nrows, sizeof *rows, cmp);
    for (size_t k = 0; k < nrows; k++) printf("%s %llu %ld\n", rows[k].name, rows[k].bytes, rows[k].n);
    ps_match m;
    if (ps_trace_match(t, &m) == 0) {
        printf("unmatched %zu %zu\n", m.unmatched_sends, m.unmatched_recvs);
        ps_match_free(&m);
    }
    free(rows);
    ps_trace_free(t);
    return 0;
}
