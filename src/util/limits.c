/* limits.c - the values a construct's argument may take (see limits.h). */
#include "util/limits.h"

#include <math.h>
#include <stdio.h>

/* A value as the program gave it: whole numbers exactly, others in short. */
static const char *num(double v, char *buf, size_t len)
{
    if (v == floor(v) && fabs(v) < 1e18) snprintf(buf, len, "%.0f", v);
    else snprintf(buf, len, "%.6g", v);
    return buf;
}

int ps_value_check(int kind, double v, char *why, size_t len)
{
    char b[64];
    static const char *const what[] = {"a message size", "a word count", "a flop count", "a byte count",
                                       "a partner count", "a partner count", "a length"};
    static const char *const unit[] = {"bytes", "words", "flops", "bytes", "partners", "partners", "elements"};
    if (kind < 0 || kind > PS_VALUE_LENGTH) kind = PS_VALUE_BYTES;
    if (isnan(v) || isinf(v)) {
        snprintf(why, len, "%s must be a finite number (got %g)", what[kind], v);
        return -1;
    }
    if (v < 0) {
        snprintf(why, len, "%s cannot be negative (%s %s)", what[kind], num(v, b, sizeof b), unit[kind]);
        return -1;
    }
    double bytes = kind == PS_VALUE_WORDS ? v * 8 : v;
    if ((kind == PS_VALUE_BYTES || kind == PS_VALUE_WORDS) && bytes > PS_MAX_MESSAGE_BYTES) {
        snprintf(why, len, "%s %s is more than one message carries (at most %.0f bytes, 2^31 - 1: MPI counts are int)",
                 num(v, b, sizeof b), unit[kind], PS_MAX_MESSAGE_BYTES);
        return -1;
    }
    if (kind == PS_VALUE_FLOPS && v > PS_MAX_WORK_FLOPS) {
        snprintf(why, len, "%s flops is more than one \\WORK does (at most 2^53 = %.0f)", num(v, b, sizeof b),
                 PS_MAX_WORK_FLOPS);
        return -1;
    }
    /* 2^62: beyond any memory and any count the trace holds */
    if ((kind == PS_VALUE_DATA || kind == PS_VALUE_LENGTH || kind == PS_VALUE_PARTNERS || kind == PS_VALUE_XPARTNERS) &&
        v > 4611686018427387904.0) {
        snprintf(why, len, "%s of %s %s is beyond any machine", what[kind], num(v, b, sizeof b), unit[kind]);
        return -1;
    }
    if (kind == PS_VALUE_XPARTNERS && v != 1 && fmod(v, 2) != 0) {
        snprintf(why, len, "the partner count must be 1 or even (got %s)", num(v, b, sizeof b));
        return -1;
    }
    return 0;
}
