/*
 * limits.h - the values a construct's argument may take, checked in one
 * place for both times they can be: when a program is generated (a literal
 * argument, src/lang/) and when it runs (a computed one, src/runtime/).
 *
 * A message carries 0 .. PS_MAX_MESSAGE_BYTES bytes: MPI counts are int, so
 * one call moves at most 2^31 - 1 of them, and a larger count would be cut
 * (the sheet would report bytes that never moved).  \WORK asks for
 * 0 .. PS_MAX_WORK_FLOPS flops (2^53, every count exact in a double; at
 * 10 Gflop/s about ten days).  Negative, infinite and NaN values are never
 * a size.
 */
#ifndef PS_LIMITS_H
#define PS_LIMITS_H

#include <stddef.h>

#define PS_MAX_MESSAGE_BYTES 2147483647.0
#define PS_MAX_WORK_FLOPS    9007199254740992.0

enum ps_value_kind {
    PS_VALUE_BYTES,     /* a message size */
    PS_VALUE_WORDS,     /* a message of 8-byte words (\SEND, \RECEIVE, ...) */
    PS_VALUE_FLOPS,     /* \WORK */
    PS_VALUE_DATA,      /* \DATA_MOVE's bytes (moved in memory, not sent) */
    PS_VALUE_PARTNERS,  /* \COMMUNICATE's partner count */
    PS_VALUE_XPARTNERS, /* \EXCHANGE's: 1 or an even count */
    PS_VALUE_LENGTH     /* a vector's or matrix's length */
};

/* 0 when v is a value of that kind, else -1 with why ("a message size
 * cannot be negative (-500 bytes)"). */
int ps_value_check(int kind, double v, char *why, size_t len);

#endif
