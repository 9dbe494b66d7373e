/*
 * test_template.c - launcher templates: shell-like words (quotes, escapes,
 * errors with their column), {ranks}, {hostfile} and the rank placement
 * behind it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/template.h"
#include "util/util.h"

#include "check.h"

static void free_words(char **w, int n)
{
    for (int i = 0; i < n; i++) free(w[i]);
    free(w);
}

/* Splits s and checks the words against want (NULL-terminated). */
static void split_is(const char *s, const char *const *want)
{
    char **w;
    int n;
    char err[256];
    int rc = ps_split_words(s, &w, &n, err, sizeof err);
    CHECK(rc == 0, "'%s': %s", s, err);
    if (rc) return;
    int k = 0;
    while (want[k]) k++;
    CHECK(n == k, "'%s': %d words, want %d", s, n, k);
    for (int i = 0; i < n && i < k; i++) CHECK(!strcmp(w[i], want[i]), "'%s': word %d is '%s', want '%s'", s, i, w[i], want[i]);
    CHECK(w[n] == NULL, "'%s': the array is NULL-terminated", s);
    free_words(w, n);
}

static void split_fails(const char *s, const char *msg)
{
    char **w;
    int n;
    char err[256] = "";
    CHECK(ps_split_words(s, &w, &n, err, sizeof err) == -1, "'%s' should not split", s);
    CHECK(strstr(err, msg) != NULL, "'%s': message '%s' lacks '%s'", s, err, msg);
}

static void hosts_are(const char *spec, const char *map, int ranks, const char *want)
{
    const char **h;
    char *storage, err[256];
    int rc = ps_rank_hosts(spec, map, ranks, &h, &storage, err, sizeof err);
    CHECK(rc == 0, "%s/%s: %s", spec, map ? map : "-", err);
    if (rc) return;
    char got[512] = "";
    for (int r = 0; r < ranks; r++) {
        strcat(got, r ? " " : "");
        strcat(got, h[r]);
    }
    CHECK(!strcmp(got, want), "%s/%s x%d: '%s', want '%s'", spec, map ? map : "-", ranks, got, want);
    free(h);
    free(storage);
}

static void hosts_fail(const char *spec, const char *map, const char *msg)
{
    const char **h;
    char *storage, err[256] = "";
    CHECK(ps_rank_hosts(spec, map, 4, &h, &storage, err, sizeof err) == -1, "%s/%s should fail", spec ? spec : "NULL",
          map ? map : "-");
    CHECK(strstr(err, msg) != NULL, "message '%s' lacks '%s'", err, msg);
}

TEST_IMPL(template_words)
{
    split_is("srun -n {ranks}", (const char *[]){"srun", "-n", "{ranks}", NULL});
    split_is("  mpiexec\t-n  4  ", (const char *[]){"mpiexec", "-n", "4", NULL});
    split_is("", (const char *[]){NULL});
    split_is("   ", (const char *[]){NULL});
    /* single quotes keep everything, double quotes all but \" \\ \$ \` */
    split_is("srun --export='ALL,A=b c' -n {ranks}", (const char *[]){"srun", "--export=ALL,A=b c", "-n", "{ranks}", NULL});
    split_is("a 'x\\y' \"p\\\"q\\\\r\\n\"", (const char *[]){"a", "x\\y", "p\"q\\r\\n", NULL});
    split_is("'/opt/my mpi/bin/mpiexec' -n {ranks}", (const char *[]){"/opt/my mpi/bin/mpiexec", "-n", "{ranks}", NULL});
    split_is("a\\ b c\\'d", (const char *[]){"a b", "c'd", NULL});
    split_is("''", (const char *[]){"", NULL});
    split_is("x\"\"y 'it'\\''s'", (const char *[]){"xy", "it's", NULL});
    split_fails("srun 'unclosed", "column 6: the single quote is not closed");
    split_fails("a \"b", "column 3: the double quote is not closed");
    split_fails("mpiexec \\", "column 9: a backslash ends the template");
}

/* rank placement: round robin, block by slots, wrapping */
TEST_IMPL(template_rank_hosts)
{
    hosts_are("node0,node1", NULL, 5, "node0 node1 node0 node1 node0");
    hosts_are("node0:2,node1:2", "round-robin", 4, "node0 node1 node0 node1");
    hosts_are("node0:2,node1:2", "block", 5, "node0 node0 node1 node1 node0");
    hosts_are("a:1 b:3\tc", "block", 6, "a b b b c a");
    hosts_fail(NULL, NULL, "PARSCOPE_HOSTS");
    hosts_fail("", NULL, "which is empty");
    hosts_fail("node0:x", NULL, "'node0:x' is not HOST or HOST:SLOTS");
    hosts_fail("node0:0", NULL, "is not HOST or HOST:SLOTS");
    hosts_fail(":2", NULL, "no host name");
    hosts_fail("node0", "spiral", "PARSCOPE_MAP: 'spiral'");
}

/* expansion: {ranks} anywhere in a word, {hostfile} written once */
TEST_IMPL(template_expand)
{
    char dir[] = "/tmp/ps-template-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    setenv("TMPDIR", dir, 1);
    setenv("PARSCOPE_HOSTS", "h0:2,h1:2", 1);
    setenv("PARSCOPE_MAP", "block", 1);
    char **w, *hostfile, err[256];
    int n, has_ranks;
    CHECK(ps_template_expand("env SLURM_HOSTFILE={hostfile} srun --ntasks={ranks} -m arbitrary -w {hostfile}", "--launcher",
                             3, &w, &n, &has_ranks, &hostfile, err, sizeof err) == 0, "%s", err);
    CHECK(n == 8 && has_ranks, "%d words", n);
    CHECK(hostfile && !strncmp(hostfile, dir, strlen(dir)), "the hostfile is under TMPDIR");
    if (n == 8 && hostfile) {
        char want[600];
        snprintf(want, sizeof want, "SLURM_HOSTFILE=%s", hostfile);
        CHECK(!strcmp(w[1], want), "%s", w[1]);
        CHECK(!strcmp(w[3], "--ntasks=3"), "%s", w[3]);
        CHECK(!strcmp(w[7], hostfile), "%s", w[7]);
        size_t len;
        char *text = ps_read_file(hostfile, &len, err, sizeof err);
        CHECK(text && !strcmp(text, "h0\nh0\nh1\n"), "hostfile holds '%s'", text ? text : err);
        free(text);
        unlink(hostfile);
    }
    free(hostfile);
    free_words(w, n);
    CHECK(ps_template_expand("mpiexec -n 2", "PARSCOPE_LAUNCHER", 2, &w, &n, &has_ranks, &hostfile, err, sizeof err) == 0);
    CHECK(n == 3 && !has_ranks && hostfile == NULL);
    free_words(w, n);
    unsetenv("PARSCOPE_HOSTS");
    CHECK(ps_template_expand("mpiexec -f {hostfile}", "PARSCOPE_LAUNCHER", 2, &w, &n, &has_ranks, &hostfile, err,
                             sizeof err) == -1);
    CHECK(strstr(err, "PARSCOPE_LAUNCHER: {hostfile} needs the hosts in PARSCOPE_HOSTS") != NULL, "%s", err);
    CHECK(ps_template_expand("mpiexec 'x", "--launcher", 2, &w, &n, &has_ranks, &hostfile, err, sizeof err) == -1);
    CHECK(strstr(err, "--launcher: mpiexec 'x: column 9: the single quote is not closed") != NULL, "%s", err);
    rmdir(dir);
    unsetenv("PARSCOPE_MAP");
    unsetenv("TMPDIR");
}

/* a misspelt placeholder is refused before anything runs, naming it and the known ones */
TEST_IMPL(template_placeholders)
{
    char **w, *hostfile, err[512];
    int n, has_ranks;
    CHECK(ps_template_expand("mpiexec -n {rank}", "--launcher", 2, &w, &n, &has_ranks, &hostfile, err, sizeof err) == -1);
    CHECK(strstr(err, "--launcher: 'mpiexec -n {rank}': unknown placeholder '{rank}' (known: {ranks}") &&
          strstr(err, "{hostfile}"), "%s", err);
    CHECK(hostfile == NULL);
    CHECK(ps_template_check("mpiexec -np {np}", "PARSCOPE_LAUNCHER", err, sizeof err) == -1 &&
          strstr(err, "PARSCOPE_LAUNCHER: 'mpiexec -np {np}': unknown placeholder '{np}'"), "%s", err);
    CHECK(ps_template_check("srun --ntasks={ranks} -w {host-file}", "--launcher", err, sizeof err) == -1 &&
          strstr(err, "'{host-file}'"), "%s", err);
    CHECK(ps_template_check("srun x{Ranks}", "--launcher", err, sizeof err) == -1 && strstr(err, "'{Ranks}'"), "%s", err);
    /* the known ones, and braces that are no placeholder, pass */
    CHECK(ps_template_check("mpiexec --hostfile {hostfile} -n {ranks} a{ranks}b", "--launcher", err, sizeof err) == 0,
          "%s", err);
    CHECK(ps_template_check("srun --export={} x{a b} {ranks", "--launcher", err, sizeof err) == 0, "%s", err);
    CHECK(ps_template_check("mpiexec 'x", "--launcher", err, sizeof err) == -1 && strstr(err, "not closed"), "%s", err);
}
