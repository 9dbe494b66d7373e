/*
 * netcfg.c - the emulated network: one bridge in the switch's namespace, one
 * veth pair per node (the node's end is its eth0), tbf on both ends.
 *
 * Every command runs inside a namespace of the cluster (ip -batch / tc -batch
 * in a child that entered it), so the host's own network never sees a link,
 * an address or a packet of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emulate/emulate_int.h"
#include "util/util.h"

/* A growing text buffer for batch scripts. */
typedef struct sbuf {
    char  *s;
    size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)need + 1 > b->cap) {
        b->cap = (b->n + (size_t)need + 1) * 2;
        b->s = ps_xrealloc(b->s, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

/* Runs `tool -batch -` with `script` on its input inside the network
 * namespace of `anchor`; its error output becomes the message. */
static int batch_in_netns(const char *tool, pid_t anchor, const char *script, const char *what, char *err,
                          size_t errlen)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        ps_seterr(err, errlen, "cannot set up %s: pipe: %s", what, strerror(errno));
        return -1;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        ps_seterr(err, errlen, "cannot set up %s: pipe: %s", what, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        ps_seterr(err, errlen, "cannot set up %s: fork: %s", what, strerror(errno));
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -1;
    }
    if (pid == 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/net", (int)anchor);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
            dprintf(out[1], "cannot enter the network namespace of process %d: %s\n", (int)anchor, strerror(errno));
            _exit(127);
        }
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        execl(tool, tool, "-batch", "-", (char *)NULL);
        dprintf(out[1], "cannot run %s: %s\n", tool, strerror(errno));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    /* scripts are a few KiB, well within a pipe's buffer: write all, then read */
    size_t len = strlen(script), off = 0;
    signal(SIGPIPE, SIG_IGN);
    while (off < len) {
        ssize_t w = write(in[1], script + off, len - off);
        if (w <= 0 && errno != EINTR) break;
        if (w > 0) off += (size_t)w;
    }
    close(in[1]);
    char msg[1024];
    size_t m = 0;
    ssize_t r;
    while ((r = read(out[0], msg + m, sizeof msg - 1 - m)) != 0) {
        if (r < 0) {
            if (errno == EINTR) continue;
            break;
        }
        m += (size_t)r;
        if (m == sizeof msg - 1) {
            char sink[256];
            while (read(out[0], sink, sizeof sink) > 0) {
            }
            break;
        }
    }
    msg[m] = '\0';
    close(out[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
    /* the first line says what failed */
    msg[strcspn(msg, "\n")] = '\0';
    const char *base = strrchr(tool, '/');
    ps_seterr(err, errlen, "cannot set up %s: %s: %s", what, base ? base + 1 : tool,
              msg[0] ? msg : "failed without a message");
    return -1;
}

/* One direction of a link: a token bucket at the link's rate. */
static void tbf_line(sbuf *b, const ps__cluster *c, const char *dev)
{
    double bytes_per_s = c->o->link_rate / 8;
    double limit = bytes_per_s * PS__EMU_QUEUE_SECONDS;
    if (limit < 3.0 * (double)c->burst) limit = 3.0 * (double)c->burst;
    if (limit < 65536) limit = 65536;
    sb_printf(b, "qdisc add dev %s root tbf rate %.0fbit burst %ld limit %.0f\n", dev, c->o->link_rate, c->burst,
              ceil(limit));
}

int ps__emu_network(const ps__cluster *c, char *err, size_t errlen)
{
    char bridge[16];
    snprintf(bridge, sizeof bridge, "br-%s", c->id);
    sbuf sw = {0}, swtc = {0};
    sb_printf(&sw, "link set lo up\nlink add %s type bridge\nlink set %s up\n", bridge, bridge);
    for (int k = 0; k < c->n; k++) {
        char port[16];
        snprintf(port, sizeof port, "%s-n%d", c->id, (unsigned char)k);
        sb_printf(&sw, "link add %s type veth peer name eth0 netns %d\n", port, (int)c->node[k].pid);
        sb_printf(&sw, "link set %s master %s\nlink set %s up\n", port, bridge, port);
        if (c->o->link_rate > 0) tbf_line(&swtc, c, port);
    }
    int rc = batch_in_netns(c->ip, c->sw, sw.s, "the switch", err, errlen);
    if (!rc && swtc.s) rc = batch_in_netns(c->tc, c->sw, swtc.s, "the switch's link shaping", err, errlen);
    free(sw.s);
    free(swtc.s);
    for (int k = 0; k < c->n && !rc; k++) {
        sbuf nb = {0}, nt = {0};
        char what[64];
        sb_printf(&nb, "link set lo up\naddr add %s/%d dev eth0\nlink set eth0 up\n", c->node[k].addr,
                  PS__EMU_PREFIXLEN);
        snprintf(what, sizeof what, "%s's network", c->node[k].name);
        rc = batch_in_netns(c->ip, c->node[k].pid, nb.s, what, err, errlen);
        if (!rc && c->o->link_rate > 0) {
            tbf_line(&nt, c, "eth0");
            snprintf(what, sizeof what, "%s's link shaping", c->node[k].name);
            rc = batch_in_netns(c->tc, c->node[k].pid, nt.s, what, err, errlen);
        }
        free(nb.s);
        free(nt.s);
    }
    return rc;
}
