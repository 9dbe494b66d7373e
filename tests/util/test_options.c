/*
 * test_options.c - the option parser every command uses: each common flag
 * in its spellings, the common limits, '-o -', grouped flags, '--', the
 * errors (unknown option, missing value, bad number: exit status 2 and one
 * message naming the option as written), --help from the table, and lists
 * of processor counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util/options.h"
#include "util/util.h"

typedef struct opts {
    int         ranks, trials, force, quiet, flag, bus, fast, slow;
    long        size, iterations;
    double      timeout;
    const char *output, *dir, *launcher, *kept;
} opts;

static opts o;
static const ps_opt table[] = {
    PS_OPT_RANKS(&o.ranks, "ranks"),
    PS_OPT_SIZE(&o.size, "size"),
    PS_OPT_ITERATIONS(&o.iterations, "iterations"),
    PS_OPT_TRIALS(&o.trials, "trials"),
    PS_OPT_OUTPUT(&o.output, "FILE", "a JSON file\nsecond line"),
    PS_OPT_FORCE(&o.force, "replace"),
    PS_OPT_TIMEOUT(&o.timeout, "seconds"),
    PS_OPT_LAUNCHER(&o.launcher, "template"),
    PS_OPT_QUIET(&o.quiet, "quiet"),
    {0, "dir", "DIR", PS_OPT_STRING, &o.dir, 0, 0, "a directory", "a directory", PS_OPT_NO_STDOUT, &o.kept, NULL},
    PS_OPT_BOOL(0, "hidden", &o.flag, NULL),
    PS_OPT_BOOL(0, "bus", &o.bus, NULL),
    {0, "nobus", NULL, PS_OPT_FLAG, &o.bus, 0, 0, NULL, NULL, PS_OPT_CLEARS, NULL, NULL},
    PS_OPT_BOOL(0, "fast", &o.fast, NULL),
    PS_OPT_BOOL(0, "slow", &o.slow, NULL),
    PS_OPT_TABLE_END};
static const char *const exclusive[] = {"fast slow", NULL};
static ps_opt_cmd cmd = {.name = "parscope test", .usage = "ARG [options]", .about = "About it.\n",
                         .notes = "Notes.\n", .opts = table, .max_args = -1,
                         .exclusive = exclusive};

static char args[32][64];
static char *argv[33];
static int nargs;
static char msg[1024];

/* Parses the words of line (argv[0] is "test"); the message in msg. */
static int parse(const char *line)
{
    memset(&o, 0, sizeof o);
    char copy[1024];
    snprintf(copy, sizeof copy, "test %s", line);
    int argc = 0;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        snprintf(args[argc], sizeof args[argc], "%s", w);
        argv[argc] = args[argc];
        argc++;
    }
    argv[argc] = NULL;
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int rc = ps_opt_parse(&cmd, argc, argv, &nargs);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(msg, 1, sizeof msg - 1, tmp);
    msg[n] = '\0';
    fclose(tmp);
    return rc;
}

TEST_IMPL(options_common_flags)
{
    CHECK(parse("-n 4 -s 100 -i 7 -k 3 -o r.json --force --timeout 2.5 --launcher srun -q") == PS_OPT_GO, "%s", msg);
    CHECK(o.ranks == 4 && o.size == 100 && o.iterations == 7 && o.trials == 3 && o.force && o.quiet);
    CHECK(o.timeout == 2.5 && !strcmp(o.output, "r.json") && !strcmp(o.launcher, "srun") && nargs == 0);
    CHECK(parse("--ranks=5 --size 6 --iterations=8 --trials 9 --output=x --timeout=1") == PS_OPT_GO, "%s", msg);
    CHECK(o.ranks == 5 && o.size == 6 && o.iterations == 8 && o.trials == 9 && !strcmp(o.output, "x"));
    CHECK(parse("-n6 -s7 -i8 -k2 -ox") == PS_OPT_GO && o.ranks == 6 && o.size == 7 && o.iterations == 8 && o.trials == 2);
    CHECK(!strcmp(o.output, "x"));
    /* grouped: a flag, then one that takes the rest as its value */
    CHECK(parse("-qk3") == PS_OPT_GO && o.quiet && o.trials == 3, "%s", msg);
    /* values that look like options are values */
    CHECK(parse("--launcher -x") == PS_OPT_GO && !strcmp(o.launcher, "-x"));
}

TEST_IMPL(options_limits)
{
    CHECK(parse("-n 1048576") == PS_OPT_GO && o.ranks == 1 << 20);
    CHECK(parse("-n 1048577") == 2 && strstr(msg, "parscope test: -n: '1048577' is not a rank count 1..1048576"), "%s", msg);
    CHECK(parse("-n 0") == 2 && strstr(msg, "-n: '0' is not a rank count"), "%s", msg);
    CHECK(parse("--ranks=abc") == 2 && strstr(msg, "--ranks: 'abc' is not a rank count"), "%s", msg);
    CHECK(parse("-s 1099511627776") == PS_OPT_GO && o.size == 1L << 40);
    CHECK(parse("-s 1099511627777") == 2 && strstr(msg, "-s: '1099511627777' is not a size 1..2^40"), "%s", msg);
    CHECK(parse("-i -3") == 2 && strstr(msg, "-i: '-3' is not an iteration count"), "%s", msg);
    CHECK(parse("-k 1000") == PS_OPT_GO && o.trials == 1000);
    CHECK(parse("-k 1001") == 2 && strstr(msg, "-k: '1001' is not a count 1..1000"), "%s", msg);
    CHECK(parse("--timeout 0") == 2 && strstr(msg, "--timeout: '0' is not a number of seconds > 0"), "%s", msg);
    CHECK(parse("--timeout nan") == 2 && parse("--timeout inf") == 2 && parse("--timeout 1e-3") == PS_OPT_GO);
    CHECK(parse("-n 4x") == 2 && parse("-n ''") == 2 && parse("-n 2.0") == 2);
}

TEST_IMPL(options_outputs)
{
    CHECK(parse("-o -") == PS_OPT_GO && !strcmp(o.output, "-"), "%s", msg);
    CHECK(parse("--dir -") == 2 && strstr(msg, "--dir -: a directory cannot go to standard output"), "%s", msg);
    CHECK(parse("--dir d") == PS_OPT_GO && !strcmp(o.dir, "d") && o.kept == o.dir);
    CHECK(parse("--hidden") == PS_OPT_GO && o.flag == 1);
}

TEST_IMPL(options_errors)
{
    CHECK(parse("--bogus") == 2 && strstr(msg, "parscope test: unknown option '--bogus'"), "%s", msg);
    CHECK(strstr(msg, "Try 'parscope test --help'."), "%s", msg);
    CHECK(parse("--bogus=3") == 2 && strstr(msg, "unknown option '--bogus'"), "%s", msg);
    CHECK(parse("-x") == 2 && strstr(msg, "unknown option '-x'"), "%s", msg);
    CHECK(parse("-qx") == 2 && strstr(msg, "unknown option '-x'"), "%s", msg);
    CHECK(parse("-n") == 2 && strstr(msg, "option '-n' needs a value"), "%s", msg);
    CHECK(parse("a --output") == 2 && strstr(msg, "option '--output' needs a value"), "%s", msg);
    CHECK(parse("--force=yes") == 2 && strstr(msg, "option '--force' takes no value"), "%s", msg);
    CHECK(parse("--ran 4") == 2, "abbreviations are not options");
    /* contradictions: refused naming both, whichever comes last */
    CHECK(parse("--bus --nobus") == 2 && strstr(msg, "parscope test: --bus and --nobus contradict each other"), "%s", msg);
    CHECK(parse("--nobus -q --bus") == 2 && strstr(msg, "--bus and --nobus contradict each other"), "%s", msg);
    CHECK(parse("--nobus --nobus") == PS_OPT_GO && o.bus == 0 && parse("--bus") == PS_OPT_GO && o.bus == 1);
    CHECK(parse("--slow --fast") == 2 && strstr(msg, "--fast and --slow cannot be given together"), "%s", msg);
    CHECK(parse("--fast") == PS_OPT_GO && parse("--slow -q") == PS_OPT_GO && o.slow);
}

TEST_IMPL(options_arguments)
{
    CHECK(parse("w1 -n 2 w2 -- -q --bogus") == PS_OPT_GO, "%s", msg);
    CHECK(nargs == 4 && !strcmp(argv[1], "w1") && !strcmp(argv[2], "w2") && !strcmp(argv[3], "-q") &&
          !strcmp(argv[4], "--bogus") && !o.quiet, "%d arguments", nargs);
    CHECK(parse("- x") == PS_OPT_GO && nargs == 2 && !strcmp(argv[1], "-"));
    CHECK(parse("--help") == 0 && parse("-h") == 0);
    /* how many: one workload, say */
    cmd.min_args = cmd.max_args = 1;
    cmd.missing = "no workload given";
    CHECK(parse("-n 2") == 2 && strstr(msg, "parscope test: no workload given"), "%s", msg);
    CHECK(parse("w x -n 2") == 2 && strstr(msg, "parscope test: unexpected argument 'x'"), "%s", msg);
    CHECK(parse("w -n 2") == PS_OPT_GO && nargs == 1);
    cmd.min_args = 0;
    cmd.max_args = -1;
    /* a COMMAND with options of its own: the first argument ends ours */
    cmd.args_end_options = 1;
    CHECK(parse("-q cmd -n 2 --bogus") == PS_OPT_GO, "%s", msg);
    CHECK(o.quiet && o.ranks == 0 && nargs == 4 && !strcmp(argv[1], "cmd") && !strcmp(argv[2], "-n") &&
          !strcmp(argv[4], "--bogus"), "%d arguments", nargs);
    CHECK(parse("-n 3 -- cmd -q") == PS_OPT_GO && o.ranks == 3 && !o.quiet && nargs == 2, "%s", msg);
    cmd.args_end_options = 0;
}

TEST_IMPL(options_help)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ps_opt_help(&cmd, f);
    fclose(f);
    static const char *lines[] = {"usage: parscope test ARG [options]\n\nAbout it.\n\n",
                                  "\n  -n, --ranks N       ranks\n",
                                  "\n  -o, --output FILE   a JSON file\n                      second line\n",
                                  "\n      --force         replace\n",
                                  "\n      --timeout SEC   seconds\n",
                                  "\n      --dir DIR       a directory\n\nNotes.\n"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) CHECK(strstr(text, lines[i]), "no '%s' in:\n%s", lines[i], text);
    CHECK(!strstr(text, "hidden"), "an internal option is listed");
    free(text);
}

/* a list parsed with predict's limits; the message in msg */
static int counts(const char *s, int *v, int max)
{
    msg[0] = '\0';
    return ps_parse_rank_list(s, v, max, PS_MAX_RANKS, msg, sizeof msg);
}

TEST_IMPL(options_rank_lists)
{
    int v[64];
    CHECK(counts("4", v, 64) == 1 && v[0] == 4);
    CHECK(counts("1,2,4,...,64", v, 64) == 7 && v[6] == 64 && v[3] == 8, "%s", msg);
    CHECK(counts("2,4,6,...,10", v, 64) == 5 && v[3] == 8 && v[4] == 10);
    CHECK(counts("1-16", v, 64) == 16 && v[15] == 16);
    CHECK(counts("4-2", v, 64) == -1 && strstr(msg, "the range '4-2' goes down"), "%s", msg);
    CHECK(counts("0", v, 64) == -1 && strstr(msg, "'0' is not a count 1..1048576"), "%s", msg);
    CHECK(counts("1048577", v, 64) == -1 && counts("1048576", v, 64) == 1);
    CHECK(counts("1-100", v, 64) == -1 && strstr(msg, "more than 64 counts"), "%s", msg);
    CHECK(counts("", v, 64) == -1 && counts("...,4", v, 64) == -1);
    CHECK(counts("1,2,...", v, 64) == -1 && strstr(msg, "'...' needs the last count after it"), "%s", msg);
    /* every element counts: an empty one is refused, not skipped */
    CHECK(counts("1,,2", v, 64) == -1 && strstr(msg, "element 2 is empty (two commas in a row)"), "%s", msg);
    CHECK(counts("1,2,", v, 64) == -1 && strstr(msg, "element 3 is empty (a trailing comma)"), "%s", msg);
    CHECK(counts(",1,2", v, 64) == -1 && strstr(msg, "element 1 is empty (a leading comma)"), "%s", msg);
    CHECK(counts(",", v, 64) == -1 && counts("1,2,,...,8", v, 64) == -1 && counts("1,2,...,,8", v, 64) == -1);
    CHECK(counts("1,x", v, 64) == -1 && strstr(msg, "'x' is not a count 1..1048576"), "%s", msg);
    CHECK(counts("1,-2", v, 64) == -1 && strstr(msg, "'-2' is not a count"), "%s", msg);
    CHECK(counts("2,1.5", v, 64) == -1 && counts("1-", v, 64) == -1 && counts("1-x", v, 64) == -1);
    /* "...": the step of the counts before it, up to an end on it (docs/PREDICT.md) */
    CHECK(counts("2,4,...,12", v, 64) == 6 && v[2] == 6 && v[5] == 12, "2,4,...,12 adds 2: %s", msg);
    CHECK(counts("2,4,...,16", v, 64) == 4 && v[2] == 8 && v[3] == 16, "2,4,...,16 doubles: %s", msg);
    CHECK(counts("1,2,...,5", v, 64) == 5 && v[2] == 3 && v[4] == 5, "1,2,...,5 adds 1: %s", msg);
    CHECK(counts("1,3,...,27", v, 64) == 4 && v[2] == 9, "1,3,...,27 triples: %s", msg);
    CHECK(counts("1,2,4,...,20", v, 64) == -1 && strstr(msg, "20 is not on the progression 2, 4, 8, ..."), "%s", msg);
    CHECK(strstr(msg, "end it at 16 or 32, or add 20 after the end: ...,16,20"), "%s", msg);
    CHECK(counts("1,2,4,...,16,20", v, 64) == 6 && v[4] == 16 && v[5] == 20, "%s", msg);
    CHECK(counts("2,4,6,...,11", v, 64) == -1 && strstr(msg, "end it at 10 or 12"), "%s", msg);
    CHECK(counts("4,2,...,16", v, 64) == -1 && strstr(msg, "'...' needs two counts that go up before it"), "%s", msg);
    CHECK(counts("1,2,...,2", v, 64) == -1 && strstr(msg, "'...' must end above 2"), "%s", msg);
    CHECK(counts("1,2,4,...,64", v, 6) == -1 && strstr(msg, "more than 6 counts"), "%s", msg);
    /* a smaller limit (scale's 4096) */
    CHECK(ps_parse_rank_list("4097", v, 64, 4096, msg, sizeof msg) == -1 && strstr(msg, "'4097' is not a count 1..4096"),
          "%s", msg);
}
