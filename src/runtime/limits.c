/* limits.c - a construct's arguments checked at run time (see limits.h). */
#include "runtime/limits.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parscope/loop.h"
#include "runtime/rt.h"
#include "runtime/structure.h"
#include "util/limits.h"

/* Where the construct being entered is written (loop.h's macros set it just
 * before the call; the construct takes it at its start, so a later direct
 * runtime call never borrows an old place). */
static const char *loc_file;
static int loc_line;

void ps_loop_at(const char *file, int line)
{
    loc_file = file;
    loc_line = line;
}

int ps__status_tell(const char *kind, const char *msg, int n)
{
    if (n < 0) n = 0;
    const char *sd = getenv("PARSCOPE_STATUS_DIR");
    if (!sd || !*sd) return 0;
    /* written aside and renamed: another rank's abort can kill this one
     * between the open and the write, and the launcher then found an empty
     * message (and printed none) */
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/rank.%d.%s", sd, ps__rt.job_rank, kind);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return 0;
    int told = write(fd, msg, (size_t)n) == n;
    told &= close(fd) == 0;
    return told && rename(tmp, path) == 0;
}

/* Tells msg (n bytes, ending in a newline) to the launching parscope
 * through its status directory, which says it once, else says it here; then
 * ends the job with the bad-input status. */
static _Noreturn void end_bad_input(const char *msg, int n)
{
    if (!ps__status_tell("bad", msg, n)) fprintf(stderr, "parscope: %s", msg);
    fflush(stderr);
    if (ps__rt.be && ps__rt.be->abort) ps__rt.be->abort(PS_EXIT_BAD_INPUT);
    exit(PS_EXIT_BAD_INPUT);
}

static int clip(int n, size_t cap) { return n < 0 ? 0 : (size_t)n >= cap ? (int)cap - 1 : n; }

void ps__bad_input(const char *construct, const char *fmt, ...)
{
    char why[512], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    char where[600] = "";
    if (loc_file) snprintf(where, sizeof where, "%s:%d: ", loc_file, loc_line);
    int n = snprintf(msg, sizeof msg, "%s\\%s: %s (rank %d)\n", where, construct, why, ps__rt.job_rank);
    end_bad_input(msg, clip(n, sizeof msg));
}

void ps_bad_input(const char *fmt, ...)
{
    char why[900], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    int n = snprintf(msg, sizeof msg, "%s (rank %d)\n", why, ps__rt.job_rank);
    end_bad_input(msg, clip(n, sizeof msg));
}

static void check(int construct, int kind, double v)
{
    char why[400];
    if (ps_value_check(kind, v, why, sizeof why)) ps__bad_input(ps_construct_name(construct), "%s", why);
}

void ps__check_value(int construct, int kind, double v)
{
    /* a message's size, checked at every send and receive, takes the short
     * way when it is one (a NaN fails both comparisons) */
    if (!(kind == PS_VALUE_BYTES && v >= 0 && v <= PS_MAX_MESSAGE_BYTES)) check(construct, kind, v);
    loc_file = NULL;
}

void ps__check_named(const char *construct, int kind, double v)
{
    char why[400];
    if (ps_value_check(kind, v, why, sizeof why)) ps__bad_input(construct, "%s", why);
    loc_file = NULL;
}

double ps__size_value(size_t bytes)
{
    /* (size_t)-500 is 2^64 - 500: the program meant -500 */
    return bytes > SIZE_MAX / 2 ? -(double)(SIZE_MAX - bytes) - 1 : (double)bytes;
}

void ps__check_args(int construct, int args, long a, long b, long c)
{
    switch (args) {
    case PS_ARGS_BYTES: check(construct, PS_VALUE_BYTES, (double)a); break;
    case PS_ARGS_PATTERN:
        check(construct, PS_VALUE_BYTES, (double)a);
        check(construct, construct == PS_C_EXCHANGE ? PS_VALUE_XPARTNERS : PS_VALUE_PARTNERS, (double)c);
        break;
    case PS_ARGS_N:
    case PS_ARGS_REDUCE: check(construct, PS_VALUE_LENGTH, (double)a); break;
    case PS_ARGS_ROWS_COLS:
        check(construct, PS_VALUE_LENGTH, (double)a);
        check(construct, PS_VALUE_LENGTH, (double)b);
        break;
    case PS_ARGS_MATPROD:
        check(construct, PS_VALUE_LENGTH, (double)a);
        check(construct, PS_VALUE_LENGTH, (double)b);
        check(construct, PS_VALUE_LENGTH, (double)c);
        break;
    default: break; /* words and flops are checked before they become a long */
    }
    loc_file = NULL;
}
