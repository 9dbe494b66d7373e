/*
 * kernels.c - the LOOP language's data structures and computational kernels
 * (loop.h).  Kernels time themselves and record one computation event with
 * their flop count (2 per multiply-add); in the recording back end the
 * arithmetic is skipped and only the flop count is kept.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/loop.h"
#include "runtime/limits.h"
#include "runtime/rt.h"
#include "runtime/structure.h"
#include "util/limits.h"

void ps_loop_open0(int *nodes, int *me, int *host, int *problem_size, long trace_capacity)
{
    if (ps_init(trace_capacity < 0 ? 0 : trace_capacity) != 0) {
        fprintf(stderr, "parscope: \\OPEN0 failed: %s\n", ps_strerror());
        exit(1);
    }
    *nodes = ps_size();
    *me = ps_rank();
    *host = ps_host();
    *problem_size = (int)ps_problem_size();
}

/* ---- arrays ------------------------------------------------------------------ */

#define ARR_MAGIC 0x4c4f4f5041525259LL   /* "LOOPARRY" */

typedef struct arr_hdr {
    long   rows, cols;
    size_t elem;
    void  *data;
    void  *block;     /* what malloc returned */
    long   magic;
} arr_hdr;            /* 48 bytes: keeps what follows 16-byte aligned */

static arr_hdr *hdr(const void *arr, const char *what)
{
    if (!arr) ps_abort("%s: array used before it has storage", what);
    arr_hdr *h = (arr_hdr *)arr - 1;
    if (h->magic != ARR_MAGIC) ps_abort("%s: not an array declared with \\VEC or \\MAT", what);
    return h;
}

/* Zeroed by writing, not by calloc: every page is touched here, where the
 * array is allocated (in every white-box variant alike), not on first use
 * inside the timed interval by some variants only. */
static void *alloc_or_die(size_t n, const char *what, long r, long c)
{
    void *p = malloc(n);
    if (!p) ps_abort("out of memory: %s of %ld x %ld elements", what, r, c);
    memset(p, 0, n);
    /* its pages' first use as a message's target, too (firsttouch.c);
     * a recorded rank sends nothing */
    if (!ps_recording()) ps__pin_for_messages(p, n);
    return p;
}

void *(ps_vec_alloc)(size_t elem, long n)
{
    ps__check_named("VEC", PS_VALUE_LENGTH, (double)n);
    arr_hdr *h = alloc_or_die(sizeof(arr_hdr) + elem * (size_t)n, "\\VEC", n, 1);
    *h = (arr_hdr){n, 1, elem, h + 1, h, ARR_MAGIC};
    return h + 1;
}

void *(ps_mat_alloc)(size_t elem, long rows, long cols)
{
    if (rows < 0 || cols < 0) ps__bad_input("MAT", "a matrix cannot have a negative size (%ld x %ld)", rows, cols);
    ps__check_named("MAT", PS_VALUE_LENGTH, (double)rows * (double)cols);
    size_t ptrs = ((size_t)rows * sizeof(void *) + 15) & ~(size_t)15;
    char *b = alloc_or_die(sizeof(arr_hdr) + ptrs + elem * (size_t)rows * (size_t)cols, "\\MAT", rows, cols);
    arr_hdr *h = (arr_hdr *)b;
    char **rowp = (char **)(h + 1);
    char *data = (char *)(h + 1) + ptrs;
    *h = (arr_hdr){rows, cols, elem, data, h, ARR_MAGIC};
    for (long i = 0; i < rows; i++) rowp[i] = data + (size_t)i * (size_t)cols * elem;
    return rowp;
}

void ps_arr_free(void *arr)
{
    if (arr) free(hdr(arr, "free")->block);
}

long ps_arr_rows(const void *arr) { return hdr(arr, "array")->rows; }
long ps_arr_cols(const void *arr) { return hdr(arr, "array")->cols; }
long ps_arr_len(const void *arr)
{
    arr_hdr *h = hdr(arr, "array");
    return h->rows * h->cols;
}
void *ps_arr_data(const void *arr) { return hdr(arr, "array")->data; }
int ps_arr_is_mat(const void *arr)
{
    arr_hdr *h = hdr(arr, "array");
    return h->data != (void *)(h + 1);
}

/* Bounds of a kernel's operands, when they are LOOP arrays. */
static int is_loop_arr(const void *arr)
{
    return arr && ((const arr_hdr *)arr - 1)->magic == ARR_MAGIC;
}

static void need(const void *arr, long rows, long cols, const char *what, const char *name)
{
    if (!is_loop_arr(arr)) return;
    const arr_hdr *h = (const arr_hdr *)arr - 1;
    int mat = h->data != (void *)(h + 1);
    if (mat ? (h->rows < rows || h->cols < cols) : h->rows * h->cols < rows * cols)
        ps_abort("%s: %s is %ld x %ld but %ld x %ld are needed", what, name, h->rows, h->cols, rows, cols);
}

/* ---- kernels ------------------------------------------------------------------- */

#define SCALPROD(suffix, T)                                                      \
    double ps_scalprod_##suffix(const T *x, const T *y, long n)                   \
    {                                                                            \
        ps__structure(PS_C_SCALPROD, PS_ARGS_N, n, 0, 0);                        \
        need(x, n, 1, "\\SCALPROD", "x");                                         \
        need(y, n, 1, "\\SCALPROD", "y");                                         \
        double t0 = ps_now(), s = 0;                                             \
        if (!ps_recording())                                                     \
            for (long i = 0; i < n; i++) s += (double)x[i] * (double)y[i];       \
        ps_compute(PS_C_SCALPROD, t0, ps_now(), 2.0 * (double)n);                \
        return s;                                                                \
    }

#define MATVECPROD(suffix, T)                                                            \
    void ps_matvecprod_##suffix(T *y, T *const *A, const T *x, long rows, long cols)       \
    {                                                                                    \
        ps__structure(PS_C_MATVECPROD, PS_ARGS_ROWS_COLS, rows, cols, 0);                \
        need(A, rows, cols, "\\MATVECPROD", "A");                                          \
        need(x, cols, 1, "\\MATVECPROD", "x");                                             \
        need(y, rows, 1, "\\MATVECPROD", "y");                                             \
        double t0 = ps_now();                                                            \
        if (!ps_recording())                                                             \
            for (long i = 0; i < rows; i++) {                                            \
                T s = 0;                                                                 \
                const T *a = A[i];                                                       \
                for (long j = 0; j < cols; j++) s += a[j] * x[j];                        \
                y[i] = s;                                                                \
            }                                                                            \
        ps_compute(PS_C_MATVECPROD, t0, ps_now(), 2.0 * (double)rows * (double)cols);    \
    }

/* i-k-j order: the inner loop runs along rows of B and C */
#define MATPROD(suffix, T)                                                                       \
    void ps_matprod_##suffix(T **C, T *const *A, T *const *B, long rows, long inner, long cols)   \
    {                                                                                            \
        ps__structure(PS_C_MATPROD, PS_ARGS_MATPROD, rows, inner, cols);                         \
        need(A, rows, inner, "\\MATPROD", "A");                                                   \
        need(B, inner, cols, "\\MATPROD", "B");                                                   \
        need(C, rows, cols, "\\MATPROD", "C");                                                    \
        double t0 = ps_now();                                                                    \
        if (!ps_recording())                                                                     \
            for (long i = 0; i < rows; i++) {                                                    \
                T *c = C[i];                                                                     \
                for (long j = 0; j < cols; j++) c[j] = 0;                                        \
                for (long k = 0; k < inner; k++) {                                               \
                    T a = A[i][k];                                                               \
                    const T *b = B[k];                                                           \
                    for (long j = 0; j < cols; j++) c[j] += a * b[j];                            \
                }                                                                                \
            }                                                                                    \
        ps_compute(PS_C_MATPROD, t0, ps_now(), 2.0 * (double)rows * (double)inner * (double)cols); \
    }

SCALPROD(d, double)
SCALPROD(f, float)
SCALPROD(i, int)
SCALPROD(l, long)
MATVECPROD(d, double)
MATVECPROD(f, float)
MATVECPROD(i, int)
MATVECPROD(l, long)
MATPROD(d, double)
MATPROD(f, float)
MATPROD(i, int)
MATPROD(l, long)

/* ---- Figure 6's relax ------------------------------------------------------------ */

static double *relax_grid;
static long relax_rows, relax_cols;

void ps_loop_relax(int color, long psize, long psize_node)
{
    static int construct = -1;
    if (construct < 0) construct = ps_construct("relax");
    if (psize <= 0 || psize_node <= 0) return;
    ps__structure(construct, PS_ARGS_ROWS_COLS, psize_node, psize, 0);
    long rows = psize_node + 2, cols = psize; /* rows 0 and psize_node+1: the shared points */
    double t0 = ps_now();
    if (!ps_recording()) {
        if (rows != relax_rows || cols != relax_cols) {
            free(relax_grid);
            relax_grid = malloc((size_t)rows * (size_t)cols * sizeof *relax_grid);
            if (!relax_grid) ps_abort("relax: out of memory for a grid of %ld x %ld", rows, cols);
            uint64_t st = ps_random_seed(ps_rank(), 0x7e1a);
            for (long k = 0; k < rows * cols; k++) relax_grid[k] = ps_random(&st);
            relax_rows = rows;
            relax_cols = cols;
            t0 = ps_now(); /* the set-up is not the relaxation */
        }
        double *u = relax_grid;
        for (long i = 1; i <= psize_node; i++)
            for (long j = (i + color) % 2; j < cols; j += 2)
                u[i * cols + j] = 0.25 * (u[(i - 1) * cols + j] + u[(i + 1) * cols + j] +
                                          u[i * cols + (j + cols - 1) % cols] + u[i * cols + (j + 1) % cols]);
    }
    /* 3 additions and a multiplication per point of the colour, half the points */
    ps_compute(construct, t0, ps_now(), 4.0 * (double)psize_node * (double)cols / 2);
}
