/*
 * stream_format.h - the instruction stream encoding (header-only).
 *
 * Shared by the recording back end (src/runtime/record.c, which writes
 * streams from inside a program) and the simulator (src/sim/stream.c, which
 * reads them), so the byte layout is defined exactly once.
 *
 * One rank's stream is a sequence of instructions, the estimator seed's six
 * (SEND, RECEIVE, BSEND, BRECEIVE, WORK, WAIT) plus WAITONE (complete one
 * nonblocking request, as ps_wait does) and MARK (an instant mark).  Each
 * instruction is one opcode byte and LEB128 varints:
 *
 *   opcode byte: bits 0-3 op, bit 4 "tag follows", bit 5 "construct follows",
 *                bit 6 "a construct call's first instruction", bit 7 (SEND and
 *                BSEND only) "written bytes follow"
 *   SEND/RECEIVE/BSEND/BRECEIVE: zigzag(peer - rank), bytes [, written] [, zigzag(tag)] [, construct]
 *   WORK:    flops (rounded to an integer)             [, construct]
 *   WAIT:    -                                           [, construct]
 *   WAITONE: back distance d: the request issued d+1 nonblocking
 *            operations ago on this rank (0 = the latest)  [, construct]
 *   MARK:    -                                           [, construct]
 *
 * Tag and construct are omitted when equal to the previous instruction's
 * (both start at 0), so a typical message costs 3 to 6 bytes.
 */
#ifndef PS_STREAM_FORMAT_H
#define PS_STREAM_FORMAT_H

#include <stdint.h>
#include <string.h>

#include "util/assert.h"

enum ps_op {
    PS_OP_SEND = 1,     /* nonblocking send: completes at WAIT / WAITONE */
    PS_OP_RECV,         /* nonblocking receive */
    PS_OP_BSEND,        /* blocking send */
    PS_OP_BRECV,        /* blocking receive */
    PS_OP_WORK,         /* computation of n flops */
    PS_OP_WAIT,         /* complete every outstanding nonblocking request */
    PS_OP_WAITONE,      /* complete one nonblocking request */
    PS_OP_MARK,         /* an instant mark */
    PS_OP__COUNT
};

#define PS_OPF_TAG       0x10
#define PS_OPF_CONSTRUCT 0x20
/* the first instruction after a construct call began (its own code ran before it: the simulator's
 * o_construct); streams recorded before this flag existed have none */
#define PS_OPF_BEGINS    0x40
/* a send of data its sender has written (computed or received) since it last sent them, written
 * bytes of them (1 to the message's bytes) follow: the simulator adds that share of the model's
 * [written] cost; none for the runtime's scratch area, which nothing writes, and in streams
 * recorded before this flag existed */
#define PS_OPF_WRITTEN   0x80

/* Longest encoded instruction: 1 + 4 varints of at most 10 bytes. */
#define PS_INSN_MAX 41

/* File framing: a stream set (all ranks) and one rank's part file. */
#define PS_STREAMS_MAGIC "PSSTRM01"
#define PS_PART_MAGIC    "PSPART01"

typedef struct ps_insn {
    uint8_t  op;
    int32_t  peer;       /* absolute rank */
    int32_t  tag;
    uint16_t construct;
    uint8_t  begins;     /* PS_OPF_BEGINS: a construct call's first instruction */
    uint64_t n;          /* bytes (messages), flops (WORK), back distance (WAITONE) */
    uint64_t written;    /* (SEND, BSEND) of the n bytes, those written since they were last sent */
} ps_insn;

/* The running state of an encoder or decoder (tag/construct compression). */
typedef struct ps_insn_ctx {
    int32_t  rank;
    int32_t  tag;
    uint16_t construct;
} ps_insn_ctx;

static inline uint8_t *ps__put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t ps__zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t ps__unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

static inline int ps__is_message_op(int op)
{
    return op == PS_OP_SEND || op == PS_OP_RECV || op == PS_OP_BSEND || op == PS_OP_BRECV;
}

static inline int ps__is_send_op(int op) { return op == PS_OP_SEND || op == PS_OP_BSEND; }

/* Encodes one instruction into buf (>= PS_INSN_MAX bytes); returns its length. */
static inline size_t ps_insn_encode(ps_insn_ctx *c, const ps_insn *in, uint8_t *buf)
{
    uint8_t *p = buf + 1;
    uint8_t op = in->op;
    if (ps__is_message_op(in->op)) {
        p = ps__put_varint(p, ps__zigzag((int64_t)in->peer - c->rank));
        p = ps__put_varint(p, in->n);
        if (in->written && ps__is_send_op(in->op)) {
            op |= PS_OPF_WRITTEN;
            p = ps__put_varint(p, in->written < in->n ? in->written : in->n);
        }
        if (in->tag != c->tag) {
            op |= PS_OPF_TAG;
            p = ps__put_varint(p, ps__zigzag(in->tag));
            c->tag = in->tag;
        }
    } else if (in->op == PS_OP_WORK || in->op == PS_OP_WAITONE) {
        p = ps__put_varint(p, in->n);
    }
    if (in->construct != c->construct) {
        op |= PS_OPF_CONSTRUCT;
        p = ps__put_varint(p, in->construct);
        c->construct = in->construct;
    }
    if (in->begins) op |= PS_OPF_BEGINS;
    buf[0] = op;
    PS_ASSERT(p - buf <= PS_INSN_MAX);
    return (size_t)(p - buf);
}

static inline const uint8_t *ps__get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    int shift = 0;
    while (p < end && shift < 64) {
        uint8_t b = *p++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return p;
        }
        shift += 7;
    }
    return NULL;
}

/* Decodes one instruction at p (< end).  Returns the position after it, or
 * NULL if the bytes are not a valid instruction. */
static inline const uint8_t *ps_insn_decode(ps_insn_ctx *c, const uint8_t *p, const uint8_t *end,
                                            ps_insn *out)
{
    uint8_t b = *p++;
    uint8_t op = b & 0x0f;
    uint64_t v;
    if (op < PS_OP_SEND || op >= PS_OP__COUNT || ((b & PS_OPF_WRITTEN) && !ps__is_send_op(op)))
        return NULL;
    out->op = op;
    out->begins = (b & PS_OPF_BEGINS) != 0;
    out->written = 0;
    out->n = 0;
    out->peer = -1;
    if (ps__is_message_op(op)) {
        if (!(p = ps__get_varint(p, end, &v)))
            return NULL;
        int64_t peer = (int64_t)c->rank + ps__unzigzag(v);
        if (peer < 0 || peer > INT32_MAX)
            return NULL;
        out->peer = (int32_t)peer;
        if (!(p = ps__get_varint(p, end, &out->n)))
            return NULL;
        if ((b & PS_OPF_WRITTEN) &&
            (!(p = ps__get_varint(p, end, &out->written)) || out->written == 0 || out->written > out->n))
            return NULL;
        if (b & PS_OPF_TAG) {
            if (!(p = ps__get_varint(p, end, &v)))
                return NULL;
            c->tag = (int32_t)ps__unzigzag(v);
        }
    } else {
        if (b & PS_OPF_TAG)
            return NULL;
        if ((op == PS_OP_WORK || op == PS_OP_WAITONE) && !(p = ps__get_varint(p, end, &out->n)))
            return NULL;
    }
    if (b & PS_OPF_CONSTRUCT) {
        if (!(p = ps__get_varint(p, end, &v)) || v > UINT16_MAX)
            return NULL;
        c->construct = (uint16_t)v;
    }
    out->tag = c->tag;
    out->construct = c->construct;
    return p;
}

#endif
