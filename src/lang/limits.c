/* limits.c - constructs' literal arguments checked at generation (see limits.h). */
#include "lang/limits.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parser.h"
#include "util/limits.h"

/* Which value argument argi of a construct is, or -1 (not checked here). */
static int value_kind(int kind, int argi)
{
    switch (kind) {
    case PS_K_COMMUNICATE: return argi == 0 ? PS_VALUE_BYTES : argi == 2 ? PS_VALUE_PARTNERS : -1;
    case PS_K_EXCHANGE: return argi == 0 ? PS_VALUE_BYTES : argi == 2 ? PS_VALUE_XPARTNERS : -1;
    case PS_K_MULTIBCAST0:
    case PS_K_MULTIBCAST_ME:
    case PS_K_MULTIBCAST_ALTER: return argi == 0 ? PS_VALUE_BYTES : -1;
    case PS_K_TREE_BCAST: return argi == 1 ? PS_VALUE_BYTES : -1;
    case PS_K_SEND:
    case PS_K_RECEIVE:
    case PS_K_BSEND:
    case PS_K_BRECEIVE: return argi == 1 ? PS_VALUE_WORDS : -1;
    case PS_K_WORK: return argi == 0 ? PS_VALUE_FLOPS : -1;
    case PS_K_DATA_MOVE: return argi == 0 ? PS_VALUE_DATA : -1;
    default: return -1;
    }
}

/* A number as C writes it ("-500", "4294967304UL", "1e300", "0x10"), with
 * blanks and one pair of parentheses around: 0 and its value, else -1. */
static int literal(const char *text, double *v)
{
    char buf[128];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof buf; p++)
        if (!isspace((unsigned char)*p)) buf[n++] = *p;
    buf[n] = '\0';
    char *s = buf;
    if (n >= 2 && s[0] == '(' && s[n - 1] == ')') {
        s[n - 1] = '\0';
        s++;
    }
    if (!*s) return -1;
    const char *digits = s + (*s == '-' || *s == '+');
    if (!isdigit((unsigned char)*digits) && *digits != '.') return -1;
    errno = 0;
    char *end;
    double d = strtod(s, &end);
    if (end == s) return -1;
    /* C's suffixes: 10u, 10UL, 1.5f */
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L' || *end == 'f' || *end == 'F') end++;
    if (*end) return -1;
    *v = d; /* an overflow (ERANGE) is HUGE_VAL: refused as infinite */
    return 0;
}

int ps_lang_literal_check(int kind, int argi, const char *text, char *why, size_t len)
{
    int vk = value_kind(kind, argi);
    double v;
    if (vk < 0 || !text || literal(text, &v)) return 0;
    return ps_value_check(vk, v, why, len);
}
