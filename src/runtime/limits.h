/*
 * limits.h - a construct's arguments computed at run time, checked before
 * they reach MPI or an allocation (util/limits.h has the limits).
 *
 * A bad value is bad input, not a failure of the measured program: the rank
 * names the construct, the value and, for generated programs, the .loop
 * line (loop.h passes it with ps_loop_at), writes that into
 * PARSCOPE_STATUS_DIR/rank.R.bad for the parscope that launched it (which
 * then says it once and exits 2), or prints it when there is none, and
 * ends the job with exit status 2.
 */
#ifndef PS_RT_LIMITS_H
#define PS_RT_LIMITS_H

#include <stddef.h>

/* Exit status of a job a rank ended over a bad value. */
#define PS_EXIT_BAD_INPUT 2

/* Writes msg (n bytes) into PARSCOPE_STATUS_DIR/rank.R.KIND for the
 * parscope that launched the job ("bad": a bad value, said once, exit 2;
 * "failed": the line of a rank that ends the job, shown if its stderr was
 * lost).  Returns 1 if written, 0 if there is no status directory or the
 * file could not be written. */
int ps__status_tell(const char *kind, const char *msg, int n);

/* Ends the job over a bad value of the construct named ("MULTIBCAST0";
 * printf-style why). */
_Noreturn void ps__bad_input(const char *construct, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Checks v as a value of kind (PS_VALUE_*) for construct; ends the job if
 * it is not one.  Uses up the location ps_loop_at gave. */
void ps__check_value(int construct, int kind, double v);

/* The same for a construct that has no id (\VEC, \MAT). */
void ps__check_named(const char *construct, int kind, double v);

/* A message size as the API takes it: a negative count converted to size_t
 * comes back as the negative number it was. */
double ps__size_value(size_t bytes);

/* Checks a construct's arguments as ps__structure gets them (structure.h's
 * enum ps__args). */
void ps__check_args(int construct, int args, long a, long b, long c);

#endif
