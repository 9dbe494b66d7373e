/*
 * patterns.c - the LOOP language's communication patterns (loop.h), built on
 * the public runtime API only.  Orders follow the LOOP seed, section
 * 4.1.1.4-4.1.1.6; DESIGN.md fixes the open points (no self messages, two
 * messages when two partner positions land on one node).
 */
#include <stdlib.h>
#include <string.h>

#include "parscope/loop.h"
#include "runtime/limits.h"
#include "runtime/structure.h"
#include "util/limits.h"

/* Tags: the construct id in the high bits, the partner position below, so
 * every message of a pattern matches the receive meant for it. */
#define TAG(c, sub) (((c) << 8) | ((sub) & 0xff))

static int wrap(long x, int p)
{
    long r = x % p;
    return (int)(r < 0 ? r + p : r);
}

static const char *blk(const void *b, size_t bytes, long i)
{
    return b ? (const char *)b + (size_t)i * bytes : NULL;
}

static char *wblk(void *b, size_t bytes, long i)
{
    return b ? (char *)b + (size_t)i * bytes : NULL;
}

static ps_request *requests(int n)
{
    ps_request *r = malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
    if (!r) ps_abort("out of memory: %d requests", n);
    return r;
}

/* ---- \COMMUNICATE ------------------------------------------------------------ */

static void comm_post(ps_comm *c)
{
    int P = ps_size(), me = ps_rank();
    c->req = requests(2 * c->partners);
    c->nreq = 0;
    if (!c->sendbuf || !c->recvbuf) ps_scratch(c->bytes);  /* grown once, before any post */
    for (int k = 1; k <= c->partners; k++) {
        int src = wrap((long)me - (long)k * c->distance, P);
        if (src != me)
            c->req[c->nreq++] = ps_irecv(wblk(c->recvbuf, c->bytes, k - 1), c->bytes, src,
                                         TAG(PS_C_COMMUNICATE, k), PS_C_COMMUNICATE);
    }
    for (int k = 1; k <= c->partners; k++) {
        int dst = wrap((long)me + (long)k * c->distance, P);
        if (dst != me)
            c->req[c->nreq++] = ps_isend(blk(c->sendbuf, c->bytes, k - 1), c->bytes, dst,
                                         TAG(PS_C_COMMUNICATE, k), PS_C_COMMUNICATE);
    }
}

static void comm_complete(ps_comm *c)
{
    int P = ps_size(), me = ps_rank();
    for (int i = 0; i < c->nreq; i++) ps_wait(c->req[i]);
    /* positions landing on me: the block arrives from myself */
    if (c->sendbuf && c->recvbuf)
        for (int k = 1; k <= c->partners; k++)
            if (wrap((long)me + (long)k * c->distance, P) == me)
                memmove(wblk(c->recvbuf, c->bytes, k - 1), blk(c->sendbuf, c->bytes, k - 1), c->bytes);
    free(c->req);
    c->req = NULL;
    c->nreq = 0;
}

static void comm_init(ps_comm *c, size_t bytes, int distance, int partners, const void *sb, void *rb)
{
    if (partners < 0) ps_abort("\\COMMUNICATE: partners must be >= 0, got %d", partners);
    c->bytes = bytes;
    c->distance = distance;
    c->partners = partners;
    c->sendbuf = sb;
    c->recvbuf = rb;
}

void (ps_communicate)(size_t bytes, int distance, int partners, const void *sendbuf, void *recvbuf)
{
    ps__structure(PS_C_COMMUNICATE, PS_ARGS_PATTERN, (long)bytes, distance, partners);
    ps_comm c;
    comm_init(&c, bytes, distance, partners, sendbuf, recvbuf);
    comm_post(&c);
    comm_complete(&c);
}

void (ps_communicate_begin)(ps_comm *c, size_t bytes, int distance, int partners, const void *sendbuf,
                          void *recvbuf)
{
    ps__structure(PS_C_COMMUNICATE, PS_ARGS_PATTERN, (long)bytes, distance, partners);
    comm_init(c, bytes, distance, partners, sendbuf, recvbuf);
    comm_post(c);
}

void ps_communicate_end(ps_comm *c)
{
    comm_complete(c);
}

/* ---- \EXCHANGE ----------------------------------------------------------------- */

void (ps_exchange)(size_t bytes, int distance, int partners, const void *sb, void *rb)
{
    int P = ps_size(), me = ps_rank();
    ps__structure(PS_C_EXCHANGE, PS_ARGS_PATTERN, (long)bytes, distance, partners);
    if (partners != 1 && (partners < 0 || partners % 2))
        ps_abort("\\EXCHANGE: partners must be 1 or even, got %d", partners);
    if (!sb || !rb) ps_scratch(bytes);
    if (partners == 1) {
        long partner = (long)(me ^ distance);
        if (partner == me) {
            if (sb && rb) memmove(rb, sb, bytes);
        } else if (partner >= 0 && partner < P) {
            ps_request r[2];
            r[0] = ps_irecv(rb, bytes, (int)partner, TAG(PS_C_EXCHANGE, 1), PS_C_EXCHANGE);
            r[1] = ps_isend(sb, bytes, (int)partner, TAG(PS_C_EXCHANGE, 1), PS_C_EXCHANGE);
            ps_wait(r[0]);
            ps_wait(r[1]);
        }
        return;
    }
    int j = partners / 2;
    ps_request *req = requests(2 * partners);
    int n = 0;
    /* a message travelling up (to me+k*d) has tag 2k, down 2k+1; block 2(k-1)
     * is the +k side, 2(k-1)+1 the -k side */
    for (int k = 1; k <= j; k++) {
        int up = wrap((long)me + (long)k * distance, P), down = wrap((long)me - (long)k * distance, P);
        if (up != me) req[n++] = ps_irecv(wblk(rb, bytes, 2 * (k - 1)), bytes, up, TAG(PS_C_EXCHANGE, 2 * k + 1), PS_C_EXCHANGE);
        if (down != me) req[n++] = ps_irecv(wblk(rb, bytes, 2 * (k - 1) + 1), bytes, down, TAG(PS_C_EXCHANGE, 2 * k), PS_C_EXCHANGE);
    }
    for (int k = 1; k <= j; k++) {
        int up = wrap((long)me + (long)k * distance, P), down = wrap((long)me - (long)k * distance, P);
        if (up != me) req[n++] = ps_isend(blk(sb, bytes, 2 * (k - 1)), bytes, up, TAG(PS_C_EXCHANGE, 2 * k), PS_C_EXCHANGE);
        if (down != me) req[n++] = ps_isend(blk(sb, bytes, 2 * (k - 1) + 1), bytes, down, TAG(PS_C_EXCHANGE, 2 * k + 1), PS_C_EXCHANGE);
    }
    for (int i = 0; i < n; i++) ps_wait(req[i]);
    free(req);
    if (sb && rb)
        for (int k = 1; k <= j; k++)
            if (wrap((long)me + (long)k * distance, P) == me) {
                /* my +k neighbour is me: what it sends down arrives on my +k side */
                memmove(wblk(rb, bytes, 2 * (k - 1)), blk(sb, bytes, 2 * (k - 1) + 1), bytes);
                memmove(wblk(rb, bytes, 2 * (k - 1) + 1), blk(sb, bytes, 2 * (k - 1)), bytes);
            }
}

/* ---- multi-broadcasts ------------------------------------------------------------ */

static void multibcast(size_t bytes, int construct, int start)
{
    int P = ps_size(), me = ps_rank();
    ps__structure(construct, PS_ARGS_BYTES, (long)bytes, 0, 0);
    if (P < 2) return;
    ps_scratch(bytes);
    ps_request *req = requests(P);
    int n = 0;
    for (int i = 0; i < P; i++) {
        int to = (start + i) % P;
        if (to != me) req[n++] = ps_isend(NULL, bytes, to, TAG(construct, 0), construct);
    }
    for (int i = 0; i < P; i++) {
        int from = (start + i) % P;
        if (from != me) ps_recv(NULL, bytes, from, TAG(construct, 0), construct);
    }
    for (int i = 0; i < n; i++) ps_wait(req[i]);
    free(req);
}

void (ps_multibcast0)(size_t bytes) { multibcast(bytes, PS_C_MULTIBCAST0, 0); }

void (ps_multibcast_me)(size_t bytes) { multibcast(bytes, PS_C_MULTIBCAST_ME, (ps_rank() + 1) % ps_size()); }

void (ps_multibcast_alter)(size_t bytes)
{
    int P = ps_size(), me = ps_rank();
    ps__structure(PS_C_MULTIBCAST_ALTER, PS_ARGS_BYTES, (long)bytes, 0, 0);
    if (P < 2) return;
    ps_scratch(bytes);
    ps_request *req = requests(P);
    for (int k = 1; k < P; k++) {
        req[k - 1] = ps_isend(NULL, bytes, (me + k) % P, TAG(PS_C_MULTIBCAST_ALTER, 0), PS_C_MULTIBCAST_ALTER);
        ps_recv(NULL, bytes, wrap((long)me - k, P), TAG(PS_C_MULTIBCAST_ALTER, 0), PS_C_MULTIBCAST_ALTER);
    }
    for (int k = 1; k < P; k++) ps_wait(req[k - 1]);
    free(req);
}

/* ---- binary tree rooted at 0 ------------------------------------------------------- */

/* The tree is built on positions 0..P-1 (position 0 the root); the user may
 * map positions onto ranks in another order (ps_tree_rank, parscope.h), so
 * every partner below is ps_tree_rank(position). */

static int top_step(int P)
{
    int s = 1;
    while (s < P) s <<= 1;
    return s;
}

void (ps_tree_bcast)(void *data, size_t bytes)
{
    int P = ps_size(), me = ps_tree_position(ps_rank());
    ps__structure(PS_C_TREE_BCAST, PS_ARGS_BYTES, (long)bytes, 0, 0);
    if (!data) ps_scratch(bytes);
    ps_request req[64];
    int n = 0;
    for (int s = top_step(P) / 2; s >= 1; s /= 2) {
        if (me % (2 * s) == 0 && me + s < P)
            req[n++] = ps_isend(data, bytes, ps_tree_rank(me + s), TAG(PS_C_TREE_BCAST, 0), PS_C_TREE_BCAST);
        else if (me % (2 * s) == s)
            ps_recv(data, bytes, ps_tree_rank(me - s), TAG(PS_C_TREE_BCAST, 0), PS_C_TREE_BCAST);
    }
    for (int i = 0; i < n; i++) ps_wait(req[i]);
}

/* Byte range of parts [a, b) of a vector of n elements split into P parts. */
static void parts(long n, int P, int a, int b, size_t elem, size_t *off, size_t *len)
{
    long lo = n * a / P, hi = n * b / P;
    *off = (size_t)lo * elem;
    *len = (size_t)(hi - lo) * elem;
}

static int imin(int a, int b) { return a < b ? a : b; }

/* The parts of the ranks at tree positions [a, b) (part r is rank r's):
 * one piece of the vector when those ranks are consecutive (always with the
 * default order), else scattered, and then they travel packed in position
 * order (one message per tree edge either way).  Returns 1 and the piece,
 * or 0 and the packed length. */
static int piece(long n, int P, int a, int b, size_t elem, size_t *off, size_t *len)
{
    int r0 = ps_tree_rank(a), whole = 1;
    for (int k = a + 1; k < b && whole; k++) whole = ps_tree_rank(k) == r0 + (k - a);
    if (whole) {
        parts(n, P, r0, r0 + (b - a), elem, off, len);
        return 1;
    }
    *off = 0;
    *len = 0;
    for (int k = a; k < b; k++) {
        size_t o, l;
        parts(n, P, ps_tree_rank(k), ps_tree_rank(k) + 1, elem, &o, &l);
        *len += l;
    }
    return 0;
}

/* Copies the parts of positions [a, b) between the vector and a packed buffer. */
static void move_parts(char *v, char *packed, int to_packed, long n, int P, int a, int b, size_t elem)
{
    size_t at = 0;
    for (int k = a; k < b; k++) {
        size_t o, l;
        parts(n, P, ps_tree_rank(k), ps_tree_rank(k) + 1, elem, &o, &l);
        if (to_packed) memcpy(packed + at, v + o, l);
        else memcpy(v + o, packed + at, l);
        at += l;
    }
}

/* A buffer with the parts of positions [a, b) to send (*owned: free it after). */
static char *outgoing(char *v, long n, int P, int a, int b, size_t elem, size_t *len, char **owned)
{
    size_t off;
    *owned = NULL;
    if (piece(n, P, a, b, elem, &off, len)) return v ? v + off : NULL;
    if (!v) return NULL;
    *owned = malloc(*len ? *len : 1);
    if (!*owned) ps_abort("out of memory packing a vector's parts");
    move_parts(v, *owned, 1, n, P, a, b, elem);
    return *owned;
}

static void recv_parts(char *v, long n, int P, int a, int b, size_t elem, int from, int construct)
{
    size_t off, len;
    if (piece(n, P, a, b, elem, &off, &len) || !v) {
        ps_recv(v ? v + off : NULL, len, from, TAG(construct, 0), construct);
        return;
    }
    char *buf = malloc(len ? len : 1);
    if (!buf) ps_abort("out of memory unpacking a vector's parts");
    ps_recv(buf, len, from, TAG(construct, 0), construct);
    move_parts(v, buf, 0, n, P, a, b, elem);
    free(buf);
}

void (ps_tree_collect_vec)(void *vec, size_t elem, long n)
{
    int P = ps_size(), me = ps_tree_position(ps_rank());
    ps__structure(PS_C_TREE_COLLECT, PS_ARGS_BYTES, (long)elem * n, 0, 0);
    char *v = vec;
    for (int s = 1; s < P; s *= 2) {
        if (me % (2 * s) == s) {
            size_t len;
            char *owned, *out = outgoing(v, n, P, me, imin(me + s, P), elem, &len, &owned);
            ps_send(out, len, ps_tree_rank(me - s), TAG(PS_C_TREE_COLLECT, 0), PS_C_TREE_COLLECT);
            free(owned);
            break;
        }
        if (me + s < P)
            recv_parts(v, n, P, me + s, imin(me + 2 * s, P), elem, ps_tree_rank(me + s), PS_C_TREE_COLLECT);
    }
}

void (ps_tree_distrib_vec)(void *vec, size_t elem, long n)
{
    int P = ps_size(), me = ps_tree_position(ps_rank());
    ps__structure(PS_C_TREE_DISTRIB, PS_ARGS_BYTES, (long)elem * n, 0, 0);
    char *v = vec;
    ps_request req[64];
    char *owned[64];
    int nr = 0;
    for (int s = top_step(P) / 2; s >= 1; s /= 2) {
        if (me % (2 * s) == 0 && me + s < P) {
            size_t len;
            char *out = outgoing(v, n, P, me + s, imin(me + 2 * s, P), elem, &len, &owned[nr]);
            req[nr] = ps_isend(out, len, ps_tree_rank(me + s), TAG(PS_C_TREE_DISTRIB, 0), PS_C_TREE_DISTRIB);
            nr++;
        } else if (me % (2 * s) == s) {
            recv_parts(v, n, P, me, imin(me + s, P), elem, ps_tree_rank(me - s), PS_C_TREE_DISTRIB);
        }
    }
    for (int i = 0; i < nr; i++) {
        ps_wait(req[i]);
        free(owned[i]);
    }
}

/* ---- \VISIBLE_SYNC ------------------------------------------------------------------ */

void ps_visible_sync(void)
{
    int P = ps_size(), me = ps_rank();
    ps__structure(PS_C_VISIBLE_SYNC, PS_ARGS_NONE, 0, 0, 0);
    ps_barrier(PS_C_VISIBLE_SYNC);
    if (P > 1) {
        char out = 1, in = 0;
        ps_request r = ps_isend(&out, 1, (me + 1) % P, TAG(PS_C_VISIBLE_SYNC, 0), PS_C_VISIBLE_SYNC);
        ps_recv(&in, 1, (me + P - 1) % P, TAG(PS_C_VISIBLE_SYNC, 0), PS_C_VISIBLE_SYNC);
        ps_wait(r);
    }
    ps_mark(PS_C_VISIBLE_SYNC);
    ps_barrier(PS_C_VISIBLE_SYNC);
}

/* ---- the estimator's six instructions ----------------------------------------------- */

/* One tag for all four, so a SEND may be received by a BRECEIVE and the
 * other way round, as in the estimator seed. */
#define P2P_TAG TAG(PS_C_SEND, 0)

/* The bytes of a message of `words` 8-byte words to or from `peer`; a bad
 * count or partner ends the job as bad input (runtime/limits.h), before it
 * becomes a size, and while the construct's place in the .loop file is
 * known (the first check forgets it). */
static size_t word_bytes(double words, int construct, int peer)
{
    if (peer < 0 || peer >= ps_size())
        ps__bad_input(ps_construct_name(construct), "partner rank %d is outside 0..%d", peer, ps_size() - 1);
    ps__check_value(construct, PS_VALUE_WORDS, words);
    ps__structure(construct, PS_ARGS_WORDS, (long)(words + 0.5), 0, 0);
    return (size_t)(words + 0.5) * 8;
}

void (ps_loop_send)(int dest, double words)
{
    size_t b = word_bytes(words, PS_C_SEND, dest);
    ps_scratch(b);
    (void)ps_isend(NULL, b, dest, P2P_TAG, PS_C_SEND);
}

void (ps_loop_receive)(int src, double words)
{
    size_t b = word_bytes(words, PS_C_RECEIVE, src);
    ps_scratch(b);
    (void)ps_irecv(NULL, b, src, P2P_TAG, PS_C_RECEIVE);
}

void (ps_loop_bsend)(int dest, double words)
{
    ps_send(NULL, word_bytes(words, PS_C_BSEND, dest), dest, P2P_TAG, PS_C_BSEND);
}

void (ps_loop_breceive)(int src, double words)
{
    ps_recv(NULL, word_bytes(words, PS_C_BRECEIVE, src), src, P2P_TAG, PS_C_BRECEIVE);
}
