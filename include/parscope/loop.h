/*
 * loop.h - what programs generated from LOOP (.loop) files include.
 *
 * The generator (parscope gen) turns each backslash construct into a call of
 * the functions below or of the runtime (parscope.h).  They are public so
 * hand-written programs can use the same patterns and kernels.  Messages of
 * a pattern carry the pattern's construct id (PS_C_*), so sheets and
 * diagrams group them; a node never sends to itself.
 */
#ifndef PARSCOPE_LOOP_H
#define PARSCOPE_LOOP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here, and only that, is exported from libparscope.so
 * (the library is built with hidden visibility). */
#pragma GCC visibility push(default)

/* ---- the LOOP seed's names --------------------------------------------------- */

/* The seed's figures use names they never define (Figure 3: TRACE_BUF_SIZE;
 * Figure 6: MY_TYPE, T_BUF and relax).  When a program uses one without
 * defining it, the generator defines it just before the program's main as
 * (docs/LANGUAGE.md, "The seed's names"):
 *   TRACE_BUF_SIZE, TRACE_BUF, T_BUF  PS_LOOP_TRACE_BUF: 0, the runtime's default
 *                                     capacity (2^20 events, or PARSCOPE_TRACE_CAPACITY)
 *   MY_TYPE                           PS_LOOP_MY_TYPE: double, as Figure 7 defines it
 *   relax(color, psize, psize_node)   ps_loop_relax below
 * A program's own #define (before main) or definition always wins. */
#define PS_LOOP_TRACE_BUF 0
#define PS_LOOP_MY_TYPE double

/* Figure 6's relax: one colour (0 red, 1 black) of a red-black relaxation,
 * each point of that colour becoming the mean of its four neighbours (the
 * seed's section 4.1.1.5), on psize_node rows of psize points.  The figure
 * never hands it the matrix, so it relaxes a grid of that shape of its own
 * (allocated at the first call, with reproducible values): the computation
 * Figure 6 describes, recorded as the construct "relax" with its flops. */
void ps_loop_relax(int color, long psize, long psize_node);

/* ---- \OPEN0 ---------------------------------------------------------------- */

/* Starts the runtime and fills LOOP's four ints (host is always -1). */
void ps_loop_open0(int *nodes, int *me, int *host, int *problem_size, long trace_capacity);

/* ---- \VEC / \MAT storage ---------------------------------------------------- */

/* A vector is a pointer to its elements; a matrix is a pointer to row
 * pointers into one contiguous block, so A[i][j] works and A[0] is the whole
 * block.  Both carry their shape in a hidden header.  Storage is zeroed. */
void *ps_vec_alloc(size_t elem_size, long n);
void *ps_mat_alloc(size_t elem_size, long rows, long cols);
void  ps_arr_free(void *arr);
long  ps_arr_rows(const void *arr);  /* vector: its length */
long  ps_arr_cols(const void *arr);  /* vector: 1 */
long  ps_arr_len(const void *arr);   /* rows * cols */
void *ps_arr_data(const void *arr);  /* first element */
int   ps_arr_is_mat(const void *arr);

/* \INIT_ARRAY(X): reproducible values in [0,1) (integers 0..999), seeded by
 * (rank, stream); \INIT_ARRAY(X, v): every element v. */
#define PS_INIT_RANDOM(T, arr, stream)                                              \
    do {                                                                           \
        double ps__t0 = ps_now();                                                  \
        T *ps__p = (T *)ps_arr_data(arr);                                          \
        long ps__n = ps_arr_len(arr);                                              \
        uint64_t ps__s = ps_random_seed(ps_rank(), (stream));                     \
        int ps__int = ((T)0.5 == (T)0);                                            \
        for (long ps__k = 0; ps__k < ps__n; ps__k++) {                             \
            double ps__v = ps_random(&ps__s);                                      \
            ps__p[ps__k] = (T)(ps__int ? floor(ps__v * 1000.0) : ps__v);          \
        }                                                                          \
        ps_compute(PS_C_INIT_ARRAY, ps__t0, ps_now(), 0);                          \
    } while (0)

#define PS_INIT_VALUE(T, arr, value)                                                \
    do {                                                                           \
        double ps__t0 = ps_now();                                                  \
        T *ps__p = (T *)ps_arr_data(arr);                                          \
        long ps__n = ps_arr_len(arr);                                              \
        T ps__v = (T)(value);                                                      \
        for (long ps__k = 0; ps__k < ps__n; ps__k++) ps__p[ps__k] = ps__v;         \
        ps_compute(PS_C_INIT_ARRAY, ps__t0, ps_now(), 0);                          \
    } while (0)

/* ---- computational kernels (flops: 2 per multiply-add) ----------------------- */

double ps_scalprod_d(const double *x, const double *y, long n);
double ps_scalprod_f(const float *x, const float *y, long n);
double ps_scalprod_i(const int *x, const int *y, long n);
double ps_scalprod_l(const long *x, const long *y, long n);
void ps_matvecprod_d(double *y, double *const *A, const double *x, long rows, long cols);
void ps_matvecprod_f(float *y, float *const *A, const float *x, long rows, long cols);
void ps_matvecprod_i(int *y, int *const *A, const int *x, long rows, long cols);
void ps_matvecprod_l(long *y, long *const *A, const long *x, long rows, long cols);
void ps_matprod_d(double **C, double *const *A, double *const *B, long rows, long inner, long cols);
void ps_matprod_f(float **C, float *const *A, float *const *B, long rows, long inner, long cols);
void ps_matprod_i(int **C, int *const *A, int *const *B, long rows, long inner, long cols);
void ps_matprod_l(long **C, long *const *A, long *const *B, long rows, long inner, long cols);

#define PS_SCALPROD(x, y, n)                                                                  \
    _Generic((x), double *: ps_scalprod_d, float *: ps_scalprod_f, int *: ps_scalprod_i,       \
             long *: ps_scalprod_l)((x), (y), (n))
#define PS_MATVECPROD(y, A, x, r, c)                                                          \
    _Generic((A), double **: ps_matvecprod_d, float **: ps_matvecprod_f, int **: ps_matvecprod_i, \
             long **: ps_matvecprod_l)((y), (A), (x), (r), (c))
#define PS_MATPROD(C, A, B, r, k, c)                                                          \
    _Generic((A), double **: ps_matprod_d, float **: ps_matprod_f, int **: ps_matprod_i,       \
             long **: ps_matprod_l)((C), (A), (B), (r), (k), (c))

/* ---- communication patterns --------------------------------------------------- */

/* The optional buffers of \COMMUNICATE and \EXCHANGE (NULL: content does not
 * matter) hold one block of `bytes` per partner position, in this order:
 *   COMMUNICATE: send block k-1 goes to me+k*d, recv block k-1 comes from me-k*d
 *   EXCHANGE 2j: block 2(k-1) is the +k*d side, block 2(k-1)+1 the -k*d side
 *   EXCHANGE 1 : block 0, partner me XOR d
 * A position that lands on the node itself is not sent: with buffers, the
 * block is copied locally to where the message would have arrived. */
void ps_communicate(size_t bytes, int distance, int partners, const void *sendbuf, void *recvbuf);

/* The compound form \COMMUNICATE(...) { block }: sends and receives posted
 * before the block, completed after it. */
typedef struct ps_comm {
    ps_request *req;
    int         nreq;
    size_t      bytes;
    int         distance, partners;
    const void *sendbuf;
    void       *recvbuf;
} ps_comm;
void ps_communicate_begin(ps_comm *c, size_t bytes, int distance, int partners, const void *sendbuf,
                          void *recvbuf);
void ps_communicate_end(ps_comm *c);

void ps_exchange(size_t bytes, int distance, int partners, const void *sendbuf, void *recvbuf);

/* Every node to every other (seed section 4.1.1.6):
 *   0:     sends to 0, 1, .., P-1 (skipping itself), then receives in the same order
 *   ME:    as 0, starting at me+1 (mod P)
 *   ALTER: send to me+k, receive from me-k, k = 1..P-1 */
void ps_multibcast0(size_t bytes);
void ps_multibcast_me(size_t bytes);
void ps_multibcast_alter(size_t bytes);

/* Binary tree rooted at node 0, ceil(log2 P) steps, P-1 messages.
 * Vectors are split into P contiguous parts, part r = [n*r/P, n*(r+1)/P). */
void ps_tree_bcast(void *data, size_t bytes);
void ps_tree_collect_vec(void *vec, size_t elem_size, long n);
void ps_tree_distrib_vec(void *vec, size_t elem_size, long n);

/* Barrier, one short message to the right ring neighbour, mark, barrier. */
void ps_visible_sync(void);

/* The estimator's instructions, on 8-byte words: non-blocking SEND and
 * RECEIVE (completed by \WAIT = ps_waitall), blocking BSEND and BRECEIVE. */
void ps_loop_send(int dest, double words);
void ps_loop_receive(int src, double words);
void ps_loop_bsend(int dest, double words);
void ps_loop_breceive(int src, double words);

/* ---- the types of count arguments ------------------------------------------------ */

/* The generator wraps every argument that is a size or a count, for
 * example \MULTIBCAST0(n) as
 *   ps_multibcast0((size_t)(PS_ARG_BYTES(5, 18, "\\MULTIBCAST0's argument (bytes)", (n))))
 * The cast alone would take a pointer ("abc", a buffer) as a number; these
 * refuse at compile time any argument that is not an integer (BYTES, INT)
 * or a number (NUM: integer or floating), with a message that starts
 * "ps-loop@LINE:COL: " (the argument's place in the .loop file: parscope
 * build prints the message there) and says what was given instead.  The
 * value is x itself, evaluated once (0 when refused, so that the cast around
 * it adds no error of its own).  Without GCC's or Clang's
 * __builtin_classify_type (or in C++) they are x unchecked.
 * Pointer arguments (\OPEN0's ints, arrays, \TREE_BCAST's data, the
 * buffers) are passed unwrapped: the generator refuses a literal there (a
 * string, a character, a number other than 0 where NULL is taken), and any
 * other expression meets the functions' prototypes above. */
#if defined(__GNUC__) && !defined(__cplusplus)
/* GCC's type classes: 1 integer, 2 char, 3 enum, 4 bool, 5 pointer (arrays,
 * strings and functions decay to it), 8 floating, 12 structure, 13 union */
#define PS_ARG_CLASS_(x) __builtin_classify_type(x)
#define PS_ARG_IS_INT_(x) (PS_ARG_CLASS_(x) >= 1 && PS_ARG_CLASS_(x) <= 4)
#define PS_ARG_CHECK_(L, C, what, must, ok, x)                                                              \
    ((void)sizeof(struct {                                                                                   \
         char ps__c;                                                                                         \
         _Static_assert((ok) || PS_ARG_CLASS_(x) != 5,                                                      \
                        "ps-loop@" #L ":" #C ": " what " must be " must ", not a pointer or a string");      \
         _Static_assert((ok) || PS_ARG_CLASS_(x) != 8,                                                      \
                        "ps-loop@" #L ":" #C ": " what " must be " must ", not a floating-point value");    \
         _Static_assert((ok) || (PS_ARG_CLASS_(x) != 12 && PS_ARG_CLASS_(x) != 13),                         \
                        "ps-loop@" #L ":" #C ": " what " must be " must ", not a structure or a union");     \
         _Static_assert((ok) || PS_ARG_CLASS_(x) == 5 || PS_ARG_CLASS_(x) == 8 || PS_ARG_CLASS_(x) == 12 ||  \
                            PS_ARG_CLASS_(x) == 13,                                                         \
                        "ps-loop@" #L ":" #C ": " what " must be " must);                                   \
     }),                                                                                                     \
     __builtin_choose_expr((ok), (x), 0))
#define PS_ARG_BYTES(L, C, what, x) PS_ARG_CHECK_(L, C, what, "a byte count (an integer)", PS_ARG_IS_INT_(x), x)
#define PS_ARG_INT(L, C, what, x) PS_ARG_CHECK_(L, C, what, "an integer", PS_ARG_IS_INT_(x), x)
#define PS_ARG_NUM(L, C, what, x) \
    PS_ARG_CHECK_(L, C, what, "a number", PS_ARG_IS_INT_(x) || PS_ARG_CLASS_(x) == 8, x)
#else
#define PS_ARG_BYTES(L, C, what, x) (x)
#define PS_ARG_INT(L, C, what, x) (x)
#define PS_ARG_NUM(L, C, what, x) (x)
#endif

/* ---- where a construct is written ------------------------------------------------ */

/* The source place of the construct about to run (the .loop file and line,
 * through the generator's #line directives), so that a bad argument the
 * runtime refuses (a negative size, more flops than \WORK does) is reported
 * where it is written.  The macros below pass it for every construct that
 * takes a size or a count; define PS_LOOP_NO_LOCATIONS before including
 * this header to call the functions plainly. */
void ps_loop_at(const char *file, int line);

#pragma GCC visibility pop

#ifndef PS_LOOP_NO_LOCATIONS
#define ps_communicate(...) (ps_loop_at(__FILE__, __LINE__), ps_communicate(__VA_ARGS__))
#define ps_communicate_begin(...) (ps_loop_at(__FILE__, __LINE__), ps_communicate_begin(__VA_ARGS__))
#define ps_exchange(...) (ps_loop_at(__FILE__, __LINE__), ps_exchange(__VA_ARGS__))
#define ps_multibcast0(...) (ps_loop_at(__FILE__, __LINE__), ps_multibcast0(__VA_ARGS__))
#define ps_multibcast_me(...) (ps_loop_at(__FILE__, __LINE__), ps_multibcast_me(__VA_ARGS__))
#define ps_multibcast_alter(...) (ps_loop_at(__FILE__, __LINE__), ps_multibcast_alter(__VA_ARGS__))
#define ps_tree_bcast(...) (ps_loop_at(__FILE__, __LINE__), ps_tree_bcast(__VA_ARGS__))
#define ps_tree_collect_vec(...) (ps_loop_at(__FILE__, __LINE__), ps_tree_collect_vec(__VA_ARGS__))
#define ps_tree_distrib_vec(...) (ps_loop_at(__FILE__, __LINE__), ps_tree_distrib_vec(__VA_ARGS__))
#define ps_loop_send(...) (ps_loop_at(__FILE__, __LINE__), ps_loop_send(__VA_ARGS__))
#define ps_loop_receive(...) (ps_loop_at(__FILE__, __LINE__), ps_loop_receive(__VA_ARGS__))
#define ps_loop_bsend(...) (ps_loop_at(__FILE__, __LINE__), ps_loop_bsend(__VA_ARGS__))
#define ps_loop_breceive(...) (ps_loop_at(__FILE__, __LINE__), ps_loop_breceive(__VA_ARGS__))
#define ps_vec_alloc(...) (ps_loop_at(__FILE__, __LINE__), ps_vec_alloc(__VA_ARGS__))
#define ps_mat_alloc(...) (ps_loop_at(__FILE__, __LINE__), ps_mat_alloc(__VA_ARGS__))
#define ps_work(...) (ps_loop_at(__FILE__, __LINE__), ps_work(__VA_ARGS__))
#define ps_data_move_end(...) (ps_loop_at(__FILE__, __LINE__), ps_data_move_end(__VA_ARGS__))
#endif

#ifdef __cplusplus
}
#endif
#endif /* PARSCOPE_LOOP_H */
