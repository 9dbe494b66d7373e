/*
 * emulate_int.h - what the parts of the emulator share (not installed).
 */
#ifndef PS_EMULATE_INT_H
#define PS_EMULATE_INT_H

#include <limits.h>
#include <sys/types.h>

#include "emulate/emulate.h"

/* Node k's address is 198.18.0.(k+1): the block reserved for network
 * benchmarks (RFC 2544), used only inside the cluster's namespaces. */
#define PS__EMU_NET "198.18.0.0/24"
#define PS__EMU_PREFIXLEN 24
/* Where each node keeps the launcher files (hostfiles, the agent's link). */
#define PS__EMU_DIR "/tmp/parscope-emulate"
#define PS__EMU_AGENT_NAME "parscope-node"
/* A tbf queue holds this much time of traffic (and at least 64 KiB, and
 * three buckets): enough for TCP to keep the link busy. */
#define PS__EMU_QUEUE_SECONDS 0.02
/* Environment of the processes on the nodes: the run's id and the nodes as
 * "NAME/ADDRESS/ANCHOR-PID,..." (PIDs in the cluster's PID namespace). */
#define PS__EMU_ENV_ID "PARSCOPE_EMULATE"
#define PS__EMU_ENV_NODES "PARSCOPE_EMULATE_NODES"

typedef struct ps__enode {
    char  name[16];    /* node3 */
    char  addr[16];    /* 198.18.0.4 */
    char  comm[16];    /* the anchor's process name: ps-ID-n3 */
    pid_t pid;         /* the anchor, in the cluster's PID namespace */
    int  *cores;       /* per_node entries */
} ps__enode;

typedef struct ps__cluster {
    const ps_emulate_opts *o;
    char       id[8];              /* six hex digits, unique per run */
    int        n;
    int        per_node;           /* cores per node */
    int        shared_cores;       /* nodes * per_node exceeds the cores */
    int        ncpu;               /* the CPUs this process may use (its affinity) */
    ps__enode *node;
    pid_t      sw;                 /* the switch's anchor */
    long       burst;              /* bytes, when shaped */
    char       ip[PATH_MAX], tc[PATH_MAX], nsenter[PATH_MAX];
    char       cwd[PATH_MAX];
    char       exe[PATH_MAX];      /* parscope itself: the agent */
    char       launcher[PATH_MAX + 64]; /* PARSCOPE_LAUNCHER for COMMAND, "" if unknown MPI */
    int        sigint_ignored;     /* COMMAND inherits an ignored SIGINT */
} ps__cluster;

/* Builds the switch, the links and their shaping (netcfg.c), once every
 * anchor exists.  Runs ip and tc inside the namespaces (through nsenter). */
int ps__emu_network(const ps__cluster *c, char *err, size_t errlen);

/* Moves the calling (single-threaded) process into the IPC, UTS, network
 * and mount namespaces of anchor `pid` and onto its cores (ns.c). */
int ps__emu_enter(pid_t pid, char *err, size_t errlen);

/* Writes a node's /etc/hosts and launcher files into its private /tmp and
 * mounts the hosts file over /etc/hosts (ns.c); called by the node's anchor. */
int ps__emu_node_files(const ps__cluster *c, int k, char *err, size_t errlen);

#endif
