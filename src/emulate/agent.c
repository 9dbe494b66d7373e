/*
 * agent.c - the remote shell of the emulated cluster.
 *
 * MPI launchers start their daemons on other hosts through ssh: Open MPI as
 * `AGENT HOST orted ...` (plm_rsh_agent), MPICH's hydra as `AGENT -x HOST
 * proxy ...` (-launcher ssh -launcher-exec AGENT).  The agent here takes the
 * same arguments, enters the node's namespaces through its anchor process
 * (found in PARSCOPE_EMULATE_NODES) and runs the words as ssh would: joined
 * by spaces, by /bin/sh -c, in the home directory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emulate/emulate_int.h"
#include "util/util.h"

#define AGENT_FAIL 255 /* ssh's status when it cannot run the command */

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(PS__EMU_AGENT_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return AGENT_FAIL;
}

/* ssh options that take a value (ssh(1)); the launchers pass only -x. */
static int takes_value(char opt) { return opt && strchr("bcDEeFIiJLlmOoPpQRSWw", opt) != NULL; }

/* The anchor PID of HOST (a node's name or address), or -1. */
static pid_t find_node(const char *nodes, const char *host, int *index)
{
    char *copy = ps_xstrdup(nodes), *save = NULL;
    pid_t found = -1;
    int k = 0;
    for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save), k++) {
        char *name = e, *addr = strchr(e, '/'), *pid = addr ? strchr(addr + 1, '/') : NULL;
        if (!pid) break;
        *addr++ = '\0';
        *pid++ = '\0';
        if (!strcmp(host, name) || !strcmp(host, addr)) {
            found = (pid_t)atoi(pid);
            *index = k;
            break;
        }
    }
    free(copy);
    return found;
}

int ps_emulate_agent(int argc, char **argv)
{
    int i = 1;
    while (i < argc && argv[i][0] == '-') {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        i += takes_value(argv[i][1]) && !argv[i][2] ? 2 : 1;
    }
    if (i >= argc) return fail("usage: " PS__EMU_AGENT_NAME " [-x] HOST COMMAND...");
    const char *host = argv[i++];
    if (i >= argc) return fail("no command to run on %s (the agent runs commands; it opens no logins)", host);
    const char *id = getenv(PS__EMU_ENV_ID), *nodes = getenv(PS__EMU_ENV_NODES);
    if (!id || !*id || !nodes || !*nodes)
        return fail("%s is not set: the agent works only inside parscope emulate", PS__EMU_ENV_NODES);
    int k = -1;
    pid_t pid = find_node(nodes, host, &k);
    if (pid <= 0) return fail("%s: no such node in this emulated cluster (%s)", host, nodes);
    /* the PID must be this run's anchor, not a process that reused it */
    char path[64], comm[32] = "", want[32];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    snprintf(want, sizeof want, "ps-%s-n%d", id, k);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(comm, sizeof comm, f)) comm[0] = '\0';
        fclose(f);
    }
    comm[strcspn(comm, "\n")] = '\0';
    if (strcmp(comm, want) != 0)
        return fail("%s: process %d is not the node's anchor %s (is the cluster gone?)", host, (int)pid, want);
    char err[300];
    if (ps__emu_enter(pid, err, sizeof err) != 0) return fail("%s: %s", host, err);
    const char *home = getenv("HOME");
    if (!home || chdir(home) != 0) {
        if (chdir("/") != 0) return fail("%s: cannot enter /: %s", host, strerror(errno));
    }
    setenv("TMPDIR", "/tmp", 1);
    size_t len = 1;
    for (int j = i; j < argc; j++) len += strlen(argv[j]) + 1;
    char *cmd = ps_xcalloc(len, 1);
    for (int j = i; j < argc; j++) {
        if (j > i) strcat(cmd, " ");
        strcat(cmd, argv[j]);
    }
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    int e = errno;
    free(cmd);
    return fail("%s: cannot run /bin/sh: %s", host, strerror(e));
}
