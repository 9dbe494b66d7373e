/*
 * stream.h - instruction streams: one per rank, what the simulator replays.
 *
 * A stream set holds every rank's encoded stream (stream_format.h) plus the
 * construct names the instructions refer to and a small JSON meta string
 * (workload, size, iterations).  Streams are built in memory
 * (ps_streams_append), read from the recorder's file (ps_streams_load, which
 * maps it; instructions are decoded sequentially as the simulator goes), or
 * parsed from a readable text form (ps_streams_parse_text, for tests and
 * hand-written examples).
 *
 * On disk (little-endian): "PSSTRM01", u32 nranks, u32 nconstructs,
 * nconstructs x (u16 length, name bytes), u32 meta length, meta bytes,
 * nranks x u64 stream length, then the streams back to back.
 */
#ifndef PS_STREAM_H
#define PS_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/stream_format.h"

#define PS_STREAMS_FILE "streams.pss"

typedef struct ps_streams {
    int             nranks;
    int             nconstructs;
    char          **constructs;
    char           *meta;          /* JSON object text, or NULL */
    const uint8_t **data;          /* per rank */
    size_t         *len;
    /* ownership */
    void           *map;           /* mapped file, or NULL */
    size_t          maplen;
    struct ps_stream_build *build; /* per rank, when built in memory: its buffer and encoder */
} ps_streams;

/* An empty set of nranks streams whose construct table is the runtime's
 * built-in one.  NULL on out of memory. */
ps_streams *ps_streams_new(int nranks);
void        ps_streams_free(ps_streams *s);
/* Appends an instruction to rank r's stream. 0 or -1 (out of memory). */
int ps_streams_append(ps_streams *s, int r, const ps_insn *in);
/* Construct id by name, added if new; -1 on out of memory. */
int ps_streams_construct(ps_streams *s, const char *name);

/* path: the file or a directory holding streams.pss. */
int ps_streams_load(const char *path, ps_streams **out, char *err, size_t errlen);
int ps_streams_save(const ps_streams *s, const char *path, char *err, size_t errlen);

/* Totals, for reports and benchmarks. */
typedef struct ps_streams_stats {
    uint64_t instructions, messages, bytes, encoded_bytes;
    double   flops;
} ps_streams_stats;
int ps_streams_stats_get(const ps_streams *s, ps_streams_stats *st);

/* Decodes everything once: every instruction valid, every peer a rank (the
 * issuer itself too: a message to itself), every WAITONE naming an issued request.  err names the
 * rank and instruction number.  st (may be NULL): the totals, counted on
 * the way (ps_streams_stats_get's). */
int ps_streams_validate(const ps_streams *s, ps_streams_stats *st, char *err, size_t errlen);

/* What that check refuses in a decoded instruction of a rank of nranks, nreq nonblocking requests
 * issued before it: a partner that is no rank, a WAITONE of a request never issued, a construct
 * id not in the table of nconstructs; 0: none.  (The simulation in free order asks it of each
 * instruction as it takes it.) */
enum { PS_INSN_BAD_PARTNER = 1, PS_INSN_BAD_WAITONE, PS_INSN_BAD_CONSTRUCT };
static inline int ps_insn_fault(const ps_insn *in, int nranks, uint64_t nreq, int nconstructs)
{
    if (ps__is_message_op(in->op) && (in->peer < 0 || in->peer >= nranks)) return PS_INSN_BAD_PARTNER;
    if (in->op == PS_OP_WAITONE && in->n >= nreq) return PS_INSN_BAD_WAITONE;
    return in->construct >= nconstructs ? PS_INSN_BAD_CONSTRUCT : 0;
}

/* Text form: see docs/PREDICT.md ("Writing streams by hand").  name is used
 * in messages ("ring.txt:4:7: ..."). */
int  ps_streams_parse_text(const char *text, const char *name, ps_streams **out, char *err, size_t errlen);
void ps_streams_write_text(const ps_streams *s, FILE *f);

const char *ps_op_name(int op);

#endif
