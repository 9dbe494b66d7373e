/*
 * emulate.h - a cluster on one machine: `parscope emulate`.
 *
 * N nodes, each a set of Linux namespaces (network, UTS, mount with a private
 * /tmp and /dev/shm, IPC) held open by an anchor process, joined through one
 * switch (a bridge in a network namespace of its own) by one link per node
 * (a veth pair, shaped by tc tbf in both directions).  Everything lives in a
 * PID namespace whose first process is the cluster's init: when it ends, the
 * kernel ends every process of the cluster, and with them the namespaces,
 * links and mounts; nothing is created in the host's own namespaces.
 * COMMAND runs on node 0; MPI reaches the other nodes through a remote-shell
 * agent (`parscope __node HOST COMMAND...`) that enters a node's namespaces.
 * docs/EMULATE.md describes it for users.
 *
 * Functions return 0 / -1 with a message in err (util.h's convention) unless
 * they say otherwise.
 */
#ifndef PS_EMULATE_H
#define PS_EMULATE_H

#include <stddef.h>

/* How ranks are placed over the nodes (PARSCOPE_MAP): round robin puts rank
 * r on node r mod N; block fills a node's cores first, node (r / C) mod N. */
enum ps_emulate_map { PS_MAP_ROUND_ROBIN, PS_MAP_BLOCK };

/* Limits: node count, and the link rates tbf is given (bits per second). */
#define PS_EMULATE_MAX_NODES 64
#define PS_EMULATE_MIN_RATE 8e3
#define PS_EMULATE_MAX_RATE 1e11
/* The smallest burst: one full Ethernet frame must fit in the bucket, or tbf
 * drops it. */
#define PS_EMULATE_MIN_BURST 2048L
/* The largest: tc's queue limit, 3 x the bucket here, is a 32-bit byte
 * count; and the time the bucket takes to fill at the rate is a 32-bit
 * count of tc's ticks (about 275 s), beyond which tc wraps it silently. */
#define PS_EMULATE_MAX_BURST (1L << 30)
#define PS_EMULATE_MAX_BURST_SECONDS 256.0

typedef struct ps_emulate_opts {
    int          nodes;            /* N >= 1 */
    double       link_rate;        /* bits per second; 0 = links not shaped */
    long         burst;            /* tbf bucket in bytes; 0 = the default for the rate */
    int          cores_per_node;   /* 0 = the machine's cores divided among the nodes */
    int          map;              /* enum ps_emulate_map */
    int          quiet;            /* no description of the cluster on stderr */
    char *const *command;          /* COMMAND and its arguments, NULL-terminated */
} ps_emulate_opts;

/* Builds the cluster, runs o->command on node 0, tears everything down.
 * Returns COMMAND's exit status (128 + signal when it was killed), or 2 with
 * err set when the cluster cannot be built (no privilege, no ip/tc tools,
 * a bad option). */
int ps_emulate_run(const ps_emulate_opts *o, char *err, size_t errlen);

/* The remote-shell agent, called like ssh by the MPI launchers:
 * `[-x] HOST WORD...` (argv[0] is the agent's own name).  Enters HOST's
 * namespaces and runs the words joined by spaces with /bin/sh -c, as ssh
 * does.  Returns only on failure (255, ssh's status for it). */
int ps_emulate_agent(int argc, char **argv);

/* Option values: a rate as tc writes it ("10mbit", "1gbit", "500kbit",
 * "12.5mbps" = megabytes per second) in bits per second, and a byte count
 * with an optional k / m / g suffix (KiB, MiB, GiB). */
int ps_emulate_parse_rate(const char *s, double *bits_per_s);
int ps_emulate_parse_bytes(const char *s, long *bytes);

/* The same as --link and --burst take them: within the limits above, else
 * -1 with err saying what is accepted and what the limit is. */
int ps_emulate_rate_value(const char *s, double *bits_per_s, char *err, size_t errlen);
int ps_emulate_burst_value(const char *s, long *bytes, char *err, size_t errlen);
/* A bucket against its link's rate: it must fill within
 * PS_EMULATE_MAX_BURST_SECONDS.  0, or -1 with err. */
int ps_emulate_check_burst(long burst, double bits_per_s, char *err, size_t errlen);

/* The default tbf bucket for a rate: 1 ms of traffic, at least 4 KiB, so a
 * link sends at a steady rate rather than in bursts. */
long ps_emulate_default_burst(double bits_per_s);

/* Cores for the nodes, computed over the CPUs this process may use
 * (cpus[0..ncpus-1]): node k gets cpus[(k*per_node + j) mod ncpus],
 * j < per_node, so nodes are disjoint while N * per_node <= ncpus and share
 * cores round robin beyond.  per_node 0 means max(1, ncpus / nodes).
 * out has nodes * per_node entries; returns per_node, or -1 with err set
 * (per_node larger than ncpus). */
int ps_emulate_assign_cores(const int *cpus, int ncpus, int nodes, int per_node, int *out, char *err,
                            size_t errlen);

#endif
