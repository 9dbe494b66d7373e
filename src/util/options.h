/*
 * options.h - one option table and parser for every command.
 *
 * A command declares its options as a table of ps_opt (the common ones with
 * the PS_OPT_* macros below, so -n, -s, -i, -o, -k, --force, --timeout,
 * --launcher and -q mean the same everywhere, with the same limits) and
 * parses with ps_opt_parse, which also writes --help from the table.
 *
 * Rules, for every command:
 *   -n N         ranks, 1 .. PS_MAX_RANKS (2^20); a list where a command takes
 *                several counts (predict), each in the same range
 *   -s N, -i N   problem size, iterations: 1 .. PS_MAX_COUNT (2^40)
 *   -k K         trials, 1 .. PS_MAX_TRIALS (1000)
 *   --timeout S  seconds > 0
 *   -o FILE      '-' is standard output where the output is text or JSON
 *   --opt=VALUE and --opt VALUE, -nVALUE and -n VALUE; flags may be grouped
 *   (-qf); '--' ends the options.  An unknown option, a missing value or a
 *   bad number gives one message naming the option as written, and exit 2.
 *   So do two options that contradict each other, naming both: a flag and
 *   its opposite (--bus --nobus: two flags on one dest, one of them
 *   PS_OPT_CLEARS), or two of a group the command lists as exclusive.
 */
#ifndef PS_OPTIONS_H
#define PS_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#define PS_MAX_RANKS  (1 << 20)
#define PS_MAX_COUNT  (1L << 40)
#define PS_MAX_TRIALS 1000

typedef enum ps_opt_type {
    PS_OPT_END = 0,
    PS_OPT_FLAG,    /* no value: *(int *)dest = 1 (0 with PS_OPT_CLEARS) */
    PS_OPT_STRING,  /* *(const char **)dest = value */
    PS_OPT_INT,     /* *(int *)dest, an integer in [min, max] */
    PS_OPT_LONG,    /* *(long *)dest, an integer in [min, max] */
    PS_OPT_DOUBLE,  /* *(double *)dest, a number in [min, max] (above min with PS_OPT_ABOVE_MIN) */
    PS_OPT_CALL     /* call(value, dest, err, errlen): 0, or -1 with what is wrong in err */
} ps_opt_type;

enum ps_opt_flags {
    PS_OPT_ABOVE_MIN = 1,  /* DOUBLE: strictly above min */
    PS_OPT_NO_STDOUT = 2,  /* '-' is refused: the output is not text (a directory, a program) */
    PS_OPT_CLEARS = 4,     /* FLAG: stores 0 (--nobus beside --bus) */
};

typedef struct ps_opt {
    char         short_name;  /* 'n', or 0 */
    const char  *long_name;   /* "ranks" */
    const char  *arg;         /* the value's name in --help ("N"); NULL for a flag */
    ps_opt_type  type;
    void        *dest;        /* may be NULL: the value is only checked (and kept in text) */
    double       min, max;
    const char  *what;        /* "a rank count": "-n: 'x' is not a rank count 1..1048576" */
    const char  *help;        /* one line, '\n' continues it; NULL: not listed (internal) */
    int          flags;
    const char **text;        /* if set: also the value as written ("yes" for a flag) */
    int        (*call)(const char *value, void *dest, char *err, size_t errlen);
} ps_opt;

/* A command: its name for messages ("parscope run"), the usage line after
 * "usage: NAME ", text before and after the option list, the table (ended
 * by an entry with type PS_OPT_END), and how many arguments that are not
 * options it takes. */
typedef struct ps_opt_cmd {
    const char   *name;
    const char   *usage;
    const char   *about;
    const char   *notes;
    const ps_opt *opts;
    int           min_args;  /* fewer: the message `missing` */
    int           max_args;  /* more: "unexpected argument 'X'"; -1: any number */
    const char   *missing;   /* "no workload given" */
    int           args_end_options;  /* the first argument ends the options: a COMMAND
                                        with options of its own follows (emulate) */
    const char *const *exclusive;    /* groups of options that exclude each other, each
                                        its long names ("quick tiny"); NULL-ended */
} ps_opt_cmd;

/* What ps_opt_parse returns when the command goes on. */
#define PS_OPT_GO (-1)

#define PS_OPT_RANKS(d, h) \
    {'n', "ranks", "N", PS_OPT_INT, (d), 1, PS_MAX_RANKS, "a rank count", (h), 0, NULL, NULL}
#define PS_OPT_SIZE(d, h) \
    {'s', "size", "N", PS_OPT_LONG, (d), 1, (double)PS_MAX_COUNT, "a size", (h), 0, NULL, NULL}
#define PS_OPT_ITERATIONS(d, h) \
    {'i', "iterations", "N", PS_OPT_LONG, (d), 1, (double)PS_MAX_COUNT, "an iteration count", (h), 0, NULL, NULL}
#define PS_OPT_TRIALS(d, h) \
    {'k', "trials", "K", PS_OPT_INT, (d), 1, PS_MAX_TRIALS, "a count", (h), 0, NULL, NULL}
#define PS_OPT_OUTPUT(d, arg, h) \
    {'o', "output", (arg), PS_OPT_STRING, (d), 0, 0, NULL, (h), 0, NULL, NULL}
/* -o naming a directory or a program: '-' cannot be standard output */
#define PS_OPT_OUTPUT_NOT_TEXT(d, arg, what, h) \
    {'o', "output", (arg), PS_OPT_STRING, (d), 0, 0, (what), (h), PS_OPT_NO_STDOUT, NULL, NULL}
#define PS_OPT_FORCE(d, h) {0, "force", NULL, PS_OPT_FLAG, (d), 0, 0, NULL, (h), 0, NULL, NULL}
#define PS_OPT_TIMEOUT(d, h) \
    {0, "timeout", "SEC", PS_OPT_DOUBLE, (d), 0, 1e9, "a number of seconds", (h), PS_OPT_ABOVE_MIN, NULL, NULL}
#define PS_OPT_LAUNCHER(d, h) {0, "launcher", "T", PS_OPT_STRING, (d), 0, 0, NULL, (h), 0, NULL, NULL}
#define PS_OPT_QUIET(d, h) {'q', "quiet", NULL, PS_OPT_FLAG, (d), 0, 0, NULL, (h), 0, NULL, NULL}
/* options of one command */
#define PS_OPT_STR(s, l, arg, d, h) {(s), (l), (arg), PS_OPT_STRING, (d), 0, 0, NULL, (h), 0, NULL, NULL}
#define PS_OPT_BOOL(s, l, d, h) {(s), (l), NULL, PS_OPT_FLAG, (d), 0, 0, NULL, (h), 0, NULL, NULL}
#define PS_OPT_FN(s, l, arg, fn, d, h) {(s), (l), (arg), PS_OPT_CALL, (d), 0, 0, NULL, (h), 0, NULL, (fn)}
#define PS_OPT_TABLE_END {0, NULL, NULL, PS_OPT_END, NULL, 0, 0, NULL, NULL, 0, NULL, NULL}

/* Parses argv[1..argc-1] (argv[0] is the command).  The arguments that are
 * not options are moved, in order, to argv[1..*nargs] (after '--' everything
 * is one); their number is checked.  -h and --help print the help to
 * standard output.  Returns PS_OPT_GO to go on, else the exit status to end
 * with: 0 after --help, 2 after a usage error (the message is printed). */
int ps_opt_parse(const ps_opt_cmd *c, int argc, char **argv, int *nargs);

/* The help text (what --help prints). */
void ps_opt_help(const ps_opt_cmd *c, FILE *f);

/* "NAME: MESSAGE" and "Try 'NAME --help'." on standard error; returns 2. */
int ps_opt_error(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Processor counts: "4", "1,2,4", "1-16", "1,2,4,...,1024", each 1 .. limit.
 * "a,b,...,z" continues the step from a to b (a difference, or a ratio when
 * b is a multiple of a) up to z, which must be on it; a count before a says
 * which step it is (1,2,4: doubling; 2,4,6: adding 2), else z does (2,4,...,12
 * adds 2, 2,4,...,16 doubles: on both, the ratio).  Every element between
 * commas counts: an empty one (1,,2, a leading or trailing comma) is refused.
 * The count, or -1 with what is wrong in err (naming the element) when the
 * list is bad or holds more than max counts. */
int ps_parse_rank_list(const char *s, int *out, int max, int limit, char *err, size_t errlen);

#endif
