/*
 * netcfg.c - the emulated network: one bridge in the switch's namespace, one
 * veth pair per node (the node's end is its eth0), tbf on both ends.
 *
 * Every ip and tc command runs inside a namespace of the cluster (nsenter
 * --net=/proc/ANCHOR/ns/net, started by the runner, util/proc.h), so the
 * host's own network never sees a link, an address or a packet of it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulate/emulate_int.h"
#include "util/proc.h"
#include "util/util.h"

/* Seconds an ip or tc command may take. */
#define PS__EMU_TOOL_TIMEOUT 20.0

/* Runs `tool ARGS` (ARGS: words separated by single spaces, none quoted)
 * inside the network namespace of `anchor`; its error output becomes the
 * message. */
static int in_netns(const ps__cluster *c, const char *tool, pid_t anchor, const char *what, char *err,
                    size_t errlen, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static int in_netns(const ps__cluster *c, const char *tool, pid_t anchor, const char *what, char *err,
                    size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char args[512];
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char ns[64];
    snprintf(ns, sizeof ns, "--net=/proc/%d/ns/net", (int)anchor);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)c->nsenter;
    argv[n++] = ns;
    argv[n++] = "--";
    argv[n++] = (char *)tool;
    char *save = NULL;
    for (char *w = strtok_r(args, " ", &save); w && n < 31; w = strtok_r(NULL, " ", &save)) argv[n++] = w;
    argv[n] = NULL;
    ps_proc_opts po = {.timeout = PS__EMU_TOOL_TIMEOUT, .out_to_err = 1};
    ps_proc_result r;
    int rc = ps_proc_run(argv, &po, &r);
    if (rc) {
        /* the first line says what failed */
        char how[128];
        ps_proc_describe(&r, c->nsenter, how, sizeof how);
        r.err[strcspn(r.err, "\n")] = '\0';
        const char *base = strrchr(tool, '/');
        ps_seterr(err, errlen, "cannot set up %s: %s %.120s: %s", what, base ? base + 1 : tool, fmt[0] ? argv[4] : "",
                  r.err[0] ? r.err : how);
    }
    ps_proc_result_free(&r);
    return rc ? -1 : 0;
}

/* One direction of a link: a token bucket at the link's rate. */
static int tbf(const ps__cluster *c, pid_t anchor, const char *dev, const char *what, char *err, size_t errlen)
{
    double bytes_per_s = c->o->link_rate / 8;
    double limit = bytes_per_s * PS__EMU_QUEUE_SECONDS;
    if (limit < 3.0 * (double)c->burst) limit = 3.0 * (double)c->burst;
    if (limit < 65536) limit = 65536;
    return in_netns(c, c->tc, anchor, what, err, errlen, "qdisc add dev %s root tbf rate %.0fbit burst %ld limit %.0f",
                    dev, c->o->link_rate, c->burst, ceil(limit));
}

int ps__emu_network(const ps__cluster *c, char *err, size_t errlen)
{
    char bridge[16];
    snprintf(bridge, sizeof bridge, "br-%s", c->id);
    const char *sw = "the switch";
    int rc = in_netns(c, c->ip, c->sw, sw, err, errlen, "link set lo up");
    if (!rc) rc = in_netns(c, c->ip, c->sw, sw, err, errlen, "link add %s type bridge", bridge);
    if (!rc) rc = in_netns(c, c->ip, c->sw, sw, err, errlen, "link set %s up", bridge);
    for (int k = 0; k < c->n && !rc; k++) {
        char port[16];
        snprintf(port, sizeof port, "%s-n%d", c->id, (unsigned char)k);
        rc = in_netns(c, c->ip, c->sw, sw, err, errlen, "link add %s type veth peer name eth0 netns %d", port,
                      (int)c->node[k].pid);
        if (!rc) rc = in_netns(c, c->ip, c->sw, sw, err, errlen, "link set %s master %s up", port, bridge);
        if (!rc && c->o->link_rate > 0) rc = tbf(c, c->sw, port, "the switch's link shaping", err, errlen);
    }
    for (int k = 0; k < c->n && !rc; k++) {
        char what[64];
        pid_t a = c->node[k].pid;
        snprintf(what, sizeof what, "%s's network", c->node[k].name);
        rc = in_netns(c, c->ip, a, what, err, errlen, "link set lo up");
        if (!rc) rc = in_netns(c, c->ip, a, what, err, errlen, "addr add %s/%d dev eth0", c->node[k].addr,
                               PS__EMU_PREFIXLEN);
        if (!rc) rc = in_netns(c, c->ip, a, what, err, errlen, "link set eth0 up");
        if (!rc && c->o->link_rate > 0) {
            snprintf(what, sizeof what, "%s's link shaping", c->node[k].name);
            rc = tbf(c, a, "eth0", what, err, errlen);
        }
    }
    return rc;
}
