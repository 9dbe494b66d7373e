/*
 * cmd_emulate.c - 'parscope emulate': a cluster on one machine (the work is
 * in src/emulate/); and '__node', its remote-shell agent.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "emulate/emulate.h"
#include "util/util.h"

static const char about[] =
    "Runs COMMAND on a cluster emulated on this machine, and removes the cluster\n"
    "afterwards, whatever happens: NODES nodes (hostnames node0.., addresses\n"
    "198.18.0.1..), each with its own network, hostname, /tmp and /dev/shm and its own\n"
    "cores, joined through one switch by one link per node.  COMMAND runs on node0;\n"
    "parscope's jobs in it place their ranks over the nodes (PARSCOPE_LAUNCHER is\n"
    "set), and a plain mpiexec (Open MPI or MPICH) reaches the nodes too.  Needs root.\n";

static int rate_opt(const char *v, void *dest, char *err, size_t errlen)
{
    return ps_emulate_rate_value(v, dest, err, errlen);
}

static int burst_opt(const char *v, void *dest, char *err, size_t errlen)
{
    return ps_emulate_burst_value(v, dest, err, errlen);
}

static int map_opt(const char *v, void *dest, char *err, size_t errlen)
{
    int *map = dest;
    if (!strcmp(v, "round-robin")) *map = PS_MAP_ROUND_ROBIN;
    else if (!strcmp(v, "block")) *map = PS_MAP_BLOCK;
    else {
        ps_seterr(err, errlen, "'%s' is not round-robin or block", v);
        return -1;
    }
    return 0;
}

int ps_cmd_emulate(int argc, char **argv)
{
    ps_emulate_opts o = {.map = PS_MAP_ROUND_ROBIN};
    const ps_opt opts[] = {
        {'N', "nodes", "N", PS_OPT_INT, &o.nodes, 1, PS_EMULATE_MAX_NODES, "a node count", "nodes (1..64; required)",
         0, NULL, NULL},
        PS_OPT_FN(0, "link", "RATE", rate_opt, &o.link_rate,
                  "shape every link to RATE in each direction, as tc writes\n"
                  "it: 10mbit, 100mbit, 1gbit, or 12.5mbps (bytes per second)\n"
                  "(default: not shaped)"),
        PS_OPT_FN(0, "burst", "BYTES", burst_opt, &o.burst,
                  "tbf bucket of a link direction, e.g. 16k: 2048 bytes .. 1g, and\n"
                  "at most 256 s of RATE (default: 1 ms of RATE, at least 4 KiB:\n"
                  "a steady rate)"),
        {0, "cores-per-node", "C", PS_OPT_INT, &o.cores_per_node, 1, 4096, "a count",
         "cores each node may use (default: the cores parscope may\n"
         "use divided by NODES, at least 1; nodes share cores round\n"
         "robin when NODES x C exceeds them)",
         0, NULL, NULL},
        PS_OPT_FN(0, "map", "MAP", map_opt, &o.map,
                  "where parscope's jobs put rank r: round-robin (node r mod N,\n"
                  "the default) or block (node (r / C) mod N)"),
        PS_OPT_QUIET(&o.quiet, "do not describe the cluster on stderr"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {
        .name = "parscope emulate", .usage = "-N NODES [options] -- COMMAND [ARG...]", .about = about, .opts = opts,
        .max_args = -1, .args_end_options = 1,
        .notes = "Start it from a directory outside /tmp (each node's /tmp is its own).\n"
                 "Exit status: COMMAND's (128 + signal when it was killed); 2 for bad usage or when\n"
                 "the cluster cannot be built (not root, no ip or tc tool).  See docs/EMULATE.md.\n"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    if (!o.nodes) return ps_opt_error(cmd.name, "-N NODES is required");
    if (o.burst && !o.link_rate) return ps_opt_error(cmd.name, "--burst: needs --link (an unshaped link has no bucket)");
    char why[300];
    if (o.burst && ps_emulate_check_burst(o.burst, o.link_rate, why, sizeof why))
        return ps_opt_error(cmd.name, "--burst: %s", why);
    if (n == 0) return ps_opt_error(cmd.name, "no COMMAND given (parscope emulate -N %d -- COMMAND...)", o.nodes);
    argv[n + 1] = NULL; /* the arguments are argv[1..n] */
    o.command = argv + 1;
    char err[600] = "";
    rc = ps_emulate_run(&o, err, sizeof err);
    if (err[0]) fprintf(stderr, "parscope emulate: %s\n", err);
    return rc;
}

int ps_cmd_node(int argc, char **argv) { return ps_emulate_agent(argc, argv); }
