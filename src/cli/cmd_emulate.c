/*
 * cmd_emulate.c - 'parscope emulate': a cluster on one machine (the work is
 * in src/emulate/); and '__node', its remote-shell agent.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "emulate/emulate.h"
#include "util/util.h"

static const char emulate_help[] =
    "usage: parscope emulate -N NODES [options] -- COMMAND [ARG...]\n"
    "\n"
    "Runs COMMAND on a cluster emulated on this machine, and removes the cluster\n"
    "afterwards, whatever happens: NODES nodes (hostnames node0.., addresses\n"
    "198.18.0.1..), each with its own network, hostname, /tmp and /dev/shm and its own\n"
    "cores, joined through one switch by one link per node.  COMMAND runs on node0;\n"
    "parscope's jobs in it place their ranks over the nodes (PARSCOPE_LAUNCHER is\n"
    "set), and a plain mpiexec (Open MPI or MPICH) reaches the nodes too.  Needs root.\n"
    "\n"
    "  -N, --nodes N           nodes (1..64; required)\n"
    "      --link RATE         shape every link to RATE in each direction, as tc writes\n"
    "                          it: 10mbit, 100mbit, 1gbit, or 12.5mbps (bytes per second)\n"
    "                          (default: not shaped)\n"
    "      --burst BYTES       tbf bucket of a link direction, e.g. 16k (default: 1 ms of\n"
    "                          RATE, at least 4 KiB: a steady rate)\n"
    "      --cores-per-node C  cores each node may use (default: the cores parscope may\n"
    "                          use divided by NODES, at least 1; nodes share cores round\n"
    "                          robin when NODES x C exceeds them)\n"
    "      --map MAP           where parscope's jobs put rank r: round-robin (node r mod N,\n"
    "                          the default) or block (node (r / C) mod N)\n"
    "  -q, --quiet             do not describe the cluster on stderr\n"
    "\n"
    "Start it from a directory outside /tmp (each node's /tmp is its own).\n"
    "Exit status: COMMAND's (128 + signal when it was killed); 2 for bad usage or when\n"
    "the cluster cannot be built (not root, no ip or tc tool).  See docs/EMULATE.md.\n";

/* Option parsing in one place: fills o, or prints the usage error and
 * returns 2. */
static int parse_emulate(int argc, char **argv, ps_emulate_opts *o)
{
    static const struct option longopts[] = {
        {"nodes", required_argument, 0, 'N'}, {"link", required_argument, 0, 'L'},
        {"burst", required_argument, 0, 'B'}, {"cores-per-node", required_argument, 0, 'C'},
        {"map", required_argument, 0, 'M'},   {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->map = PS_MAP_ROUND_ROBIN;
    long v;
    opterr = 0;
    optind = 1;
    int c;
    /* '+': options end at COMMAND, whose own options are its business */
    while ((c = getopt_long(argc, argv, "+N:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'N':
            if (ps_parse_long(optarg, 1, PS_EMULATE_MAX_NODES, &v))
                return ps_usage_error("emulate", "-N: '%s' is not a node count in 1..%d", optarg,
                                      PS_EMULATE_MAX_NODES);
            o->nodes = (int)v;
            break;
        case 'L':
            if (ps_emulate_parse_rate(optarg, &o->link_rate) || o->link_rate < PS_EMULATE_MIN_RATE ||
                o->link_rate > PS_EMULATE_MAX_RATE)
                return ps_usage_error("emulate", "--link: '%s' is not a rate in 8kbit..100gbit (e.g. 100mbit)",
                                      optarg);
            break;
        case 'B':
            if (ps_emulate_parse_bytes(optarg, &o->burst) || o->burst < PS_EMULATE_MIN_BURST)
                return ps_usage_error("emulate", "--burst: '%s' is not a byte count >= %ld (e.g. 16k)", optarg,
                                      PS_EMULATE_MIN_BURST);
            break;
        case 'C':
            if (ps_parse_long(optarg, 1, 4096, &v))
                return ps_usage_error("emulate", "--cores-per-node: '%s' is not a count >= 1", optarg);
            o->cores_per_node = (int)v;
            break;
        case 'M':
            if (!strcmp(optarg, "round-robin")) o->map = PS_MAP_ROUND_ROBIN;
            else if (!strcmp(optarg, "block")) o->map = PS_MAP_BLOCK;
            else return ps_usage_error("emulate", "--map: '%s' is not round-robin or block", optarg);
            break;
        case 'q': o->quiet = 1; break;
        case 'h': fputs(emulate_help, stdout); return -1;
        case ':':
        case '?':
        default:
            fputs(emulate_help, stderr);
            if (optopt && c == '?' && strchr("N", optopt))
                return ps_usage_error("emulate", "-%c needs a value", optopt);
            return ps_usage_error("emulate", "unknown option '%s' (or a value is missing)", argv[optind - 1]);
        }
    }
    if (!o->nodes) return ps_usage_error("emulate", "-N NODES is required");
    if (o->burst && !o->link_rate) return ps_usage_error("emulate", "--burst: needs --link (an unshaped link has no bucket)");
    if (optind >= argc) return ps_usage_error("emulate", "no COMMAND given (parscope emulate -N %d -- COMMAND...)", o->nodes);
    o->command = argv + optind;
    return 0;
}

int ps_cmd_emulate(int argc, char **argv)
{
    ps_emulate_opts o;
    int rc = parse_emulate(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    char err[600] = "";
    rc = ps_emulate_run(&o, err, sizeof err);
    if (err[0]) fprintf(stderr, "parscope emulate: %s\n", err);
    return rc;
}

int ps_cmd_node(int argc, char **argv) { return ps_emulate_agent(argc, argv); }
