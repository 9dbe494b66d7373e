/* test_machine.c - the machine model file: the shipped machines load with
 * their documented figures, the estimator seed's own file format loads, save
 * then load gives the same model, malformed files give path:line messages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine.h"
#include "util/util.h"

#include "check.h"

#define NEAR(a, b, rel) (fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)))

static char *tmpdir_path;

static void remove_tmpdir(void)
{
    ps_rmtree(tmpdir_path);
    free(tmpdir_path);
}

/* A temporary folder for the test's files, removed at exit. */
static const char *tmpdir(void)
{
    if (!tmpdir_path) {
        char err[512];
        tmpdir_path = ps_mktempdir("psmachine", err, sizeof err);
        if (!tmpdir_path) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        atexit(remove_tmpdir);
    }
    return tmpdir_path;
}

static void load_ok(const char *path, ps_machine *m)
{
    char err[512] = "";
    int rc = ps_machine_load(path, m, err, sizeof err);
    if (rc != 0) fprintf(stderr, "unexpected error: %s\n", err);
    CHECK(rc == 0);
}

/* Writes text to a file named `name` in the temporary directory, loads it
 * and checks the error message is exactly "PATH:" + want. */
static void load_bad(const char *name, const char *text, const char *want)
{
    char *path = ps_xasprintf("%s/%s", tmpdir(), name);
    char err[512] = "";
    CHECK(ps_write_file(path, text, strlen(text), err, sizeof err) == 0);
    ps_machine m;
    int rc = ps_machine_load(path, &m, err, sizeof err);
    char *expect = ps_xasprintf("%s%s", path, want);
    if (rc != -1 || strcmp(err, expect) != 0) {
        fprintf(stderr, "%s: rc %d\n  got:  %s\n  want: %s\n", name, rc, err, expect);
        failures++;
    }
    free(expect);
    free(path);
}

/* the estimator seed's SP2, as INI and in the seed's own format */
TEST_IMPL(machine_seed_sp2)
{
    ps_machine m, n;
    load_ok(PS_TEST_DATA "/../../machines/sp2.ini", &m);
    CHECK(m.send_latency == 0.24e-4 && m.recv_latency == 0.24e-4);
    CHECK(m.word_time == 2.39e-7 && m.flop_time == 0.178e-7 && m.bus == 0);
    load_ok(PS_TEST_DATA "/data/sp2.arch", &n);
    CHECK(strcmp(n.name, "SP2") == 0);
    CHECK(n.send_latency == m.send_latency && n.recv_latency == m.recv_latency);
    CHECK(n.word_time == m.word_time && n.flop_time == m.flop_time && n.bus == 0);
}

/* the BSP seed's table (p = 8): r, g, l and the derived estimator keys */
TEST_IMPL(machine_seed_bsp)
{
    ps_machine m;
    struct { const char *file; double r, g, l, g_us, l_us; } bsp[] = {
        {"t3e.ini", 35e6, 31, 1193, 0.88, 34},
        {"sp.ini", 212e6, 187, 148212, 0.88, 698},
        {"origin.ini", 326e6, 297, 95686, 0.91, 294}};
    for (int i = 0; i < 3; i++) {
        char *path = ps_xasprintf("%s/../../machines/%s", PS_TEST_DATA, bsp[i].file);
        load_ok(path, &m);
        CHECK(m.bsp_r == bsp[i].r && m.bsp_g == bsp[i].g && m.bsp_l == bsp[i].l && m.bsp_p == 8);
        CHECK(NEAR(m.word_time, bsp[i].g / bsp[i].r, 1e-9));
        CHECK(NEAR(m.word_time, bsp[i].g_us * 1e-6, 0.02));        /* the table's own us column */
        CHECK(NEAR(m.flop_time, 1 / bsp[i].r, 1e-9));
        CHECK(NEAR(m.send_latency + m.recv_latency, bsp[i].l / bsp[i].r, 1e-9));
        CHECK(NEAR(m.send_latency + m.recv_latency, bsp[i].l_us * 1e-6, 0.02));
        free(path);
    }
}

/* A model with every field set, and a ping-pong table of three sizes. */
static void sample_model(ps_machine *m)
{
    ps_machine_init(m);
    snprintf(m->name, sizeof m->name, "test box");
    m->send_latency = 1.2345678901234567e-6;
    m->recv_latency = 1.0 / 3.0 * 1e-6;
    m->word_time = 8.0 / 7.3e9;
    m->flop_time = 1.0 / 2.1e9;
    m->bus = 1;
    m->cores_per_node = 2;
    m->bsp_r = 2.1e9; m->bsp_g = -12.5; m->bsp_l = 40000.25; m->bsp_h0 = 2; m->bsp_h1 = 256; m->bsp_p = 2;
    m->r_incache = 2.1e9; m->r_outcache = 6.5e8; m->bsp_g_combined = 3.25;
    m->t0 = 4.1e-7; m->r_inf = 7.3e9; m->n_half = m->t0 * m->r_inf;
    m->npp = 3;
    double b[] = {1, 1024, 4194307}, t[] = {5e-7, 1.1e-6, 7.7e-4};
    memcpy(m->pp_bytes, b, sizeof b);
    memcpy(m->pp_time, t, sizeof t);
    snprintf(m->host, sizeof m->host, "node1");
    snprintf(m->os, sizeof m->os, "Linux 6.1.0 x86_64");
    m->sockets = 1; m->pus = 4;
    snprintf(m->cpu, sizeof m->cpu, "Some CPU @ 2.00GHz");
    snprintf(m->mpi, sizeof m->mpi, "Open MPI v4.1.4");
    snprintf(m->compiler, sizeof m->compiler, "GCC 12.2.0");
    snprintf(m->date, sizeof m->date, "2024-01-02T03:04:05Z");
    snprintf(m->source, sizeof m->source, "parscope probe");
    m->cores = 2; m->memory_bytes = 25275416576LL;
    m->cache_bytes[0] = 49152; m->cache_bytes[1] = 2097152; m->cache_bytes[2] = 272629760;
}

/* save then load gives the same model */
TEST_IMPL(machine_save_load)
{
    char err[512];
    ps_machine m, n;
    sample_model(&m);
    char *rt = ps_xasprintf("%s/rt.ini", tmpdir());
    CHECK(ps_machine_save(rt, &m, err, sizeof err) == 0);
    load_ok(rt, &n);
    CHECK(memcmp(&m, &n, sizeof m) == 0);
    /* with the LogGOPS table probe writes: every figure reads back exactly */
    {
        ps_loggops *g = &m.lg;
        g->n = 4;
        double lb[] = {1, 4040, 4041, 1048576}, os[] = {9e-8, 1.3e-7, 1e-7, 1.01e-7};
        double orr[] = {2.26e-7, 7.17e-7, 2.981e-6, 5.1257e-5}, lat[] = {1.1584e-7, 1.16e-7, 6.2e-7, 2.1e-5};
        double gap[] = {1.92e-7, 5.7e-7, 2.6e-6, 4.8e-5}, orin[] = {4.1e-8, 6e-8, 2.981e-6, 5.1257e-5};
        memcpy(g->orin, orin, sizeof orin);
        memcpy(g->bytes, lb, sizeof lb);
        memcpy(g->os, os, sizeof os);
        memcpy(g->orr, orr, sizeof orr);
        memcpy(g->L, lat, sizeof lat);
        memcpy(g->gap, gap, sizeof gap);
        g->S = 4040;
        g->o_post = 8.0000518e-8;
        g->o_done = 1.0 / 3.0 * 1e-7;
        g->contention = 1.4393199617419252;
        g->progress_send = 0.13;
        g->progress_recv = 1;
        g->rate = 1.25e6;
        g->burst = 65536;
        g->half_8B = 2.4499e-7;
        g->half_8B_spread = 1.7125;
        CHECK(ps_machine_save(rt, &m, err, sizeof err) == 0);
        load_ok(rt, &n);
        CHECK(memcmp(&m, &n, sizeof m) == 0);
        char *text = ps_read_file(rt, NULL, err, sizeof err);
        CHECK(text && strstr(text, "\n[loggops]\n") && strstr(text, "\nS = 4040\n") && strstr(text, "\nhalf_round_trip_8B = 2.4499e-07\n") &&
              strstr(text, "\nhalf_round_trip_8B_spread = 1.7125\n") && strstr(text, "\n4041 = 1e-07 2.981e-06 6.2e-07 2.6e-06 2.981e-06\n") &&
              strstr(text, "\n1 = 9e-08 2.26e-07 1.1584e-07 1.92e-07 4.1e-08\n"));
        CHECK(text && !strstr(text, "nobus_contention"), "no other network's contention unless there is one");
        free(text);
        /* a bus the probe was not sure of: the other network's contention, read back */
        m.bus = 1;
        g->contention = 1;
        g->nobus_contention = 1.4045513;
        CHECK(ps_machine_save(rt, &m, err, sizeof err) == 0);
        load_ok(rt, &n);
        CHECK(memcmp(&m, &n, sizeof m) == 0);
        text = ps_read_file(rt, NULL, err, sizeof err);
        CHECK(text && strstr(text, "\nnobus_contention = 1.4045513\n") && !strstr(text, "also_bus"));
        free(text);
        /* a nobus the probe was not sure of: also_bus, read back */
        m.bus = 0;
        g->contention = 1.4045513;
        g->nobus_contention = 0;
        g->also_bus = 1;
        CHECK(ps_machine_save(rt, &m, err, sizeof err) == 0);
        load_ok(rt, &n);
        CHECK(memcmp(&m, &n, sizeof m) == 0);
        text = ps_read_file(rt, NULL, err, sizeof err);
        CHECK(text && strstr(text, "\nalso_bus = 1\n") && !strstr(text, "nobus_contention"));
        CHECK(text && !strstr(text, "o_s_block"), "no blocking calls' columns unless measured");
        free(text);
        /* the blocking calls' two columns, on every row, read back */
        double osb[] = {1.5e-7, 1.7e-7, 1e-7, 1.01e-7}, orbin[] = {3e-8, 4.5e-8, 2.981e-6, 5.1257e-5};
        memcpy(g->osb, osb, sizeof osb);
        memcpy(g->orbin, orbin, sizeof orbin);
        g->blocking = 1;
        CHECK(ps_machine_save(rt, &m, err, sizeof err) == 0);
        load_ok(rt, &n);
        CHECK(memcmp(&m, &n, sizeof m) == 0);
        text = ps_read_file(rt, NULL, err, sizeof err);
        CHECK(text && strstr(text, "\n1 = 9e-08 2.26e-07 1.1584e-07 1.92e-07 4.1e-08 1.5e-07 3e-08\n") &&
              strstr(text, "\n4041 = 1e-07 2.981e-06 6.2e-07 2.6e-06 2.981e-06 1e-07 2.981e-06\n"));
        free(text);
        memset(&m.lg, 0, sizeof m.lg);
    }
    /* a star of 4 nodes with 10 Mbit/s links: said as such, read back */
    m.bus = 0;
    m.star = 1;
    m.nodes = 4;
    m.link_rate = 1.25e6;
    m.processors = 2; /* the 4 nodes are one 2-processor machine's */
    m.npp_intra = 2;
    m.ppi_bytes[0] = 1;
    m.ppi_time[0] = 4e-7;
    m.ppi_bytes[1] = 1048576;
    m.ppi_time[1] = 1.5e-4;
    /* and messages to the rank itself */
    m.nself = 2;
    m.self_bytes[0] = 1;
    m.self_time[0] = 5e-7;
    m.self_bytes[1] = 1048576;
    m.self_time[1] = 7e-5;
    CHECK(ps_machine_save(rt, &m, err, sizeof err) == 0);
    char *text = ps_read_file(rt, NULL, err, sizeof err);
    CHECK(text && strstr(text, "network = star\n") && strstr(text, "nodes = 4\n") && strstr(text, "link_rate = 1.25e+06\n") &&
              strstr(text, "\nprocessors = 2\n") && strstr(text, "[pingpong_intra]\n# within a node: bytes = seconds (half round trip)\n1 = 4e-07\n1048576 = 0.00015\n") &&
              strstr(text, "\n1 = 5e-07\n1048576 = 7e-05\n"),
          "%s", text ? text : err);
    free(text);
    load_ok(rt, &n);
    CHECK(memcmp(&m, &n, sizeof m) == 0);
    /* saving over an unwritable path fails with the path, leaving nothing */
    char *bad = ps_xasprintf("%s/missing-dir/m.ini", tmpdir());
    CHECK(ps_machine_save(bad, &m, err, sizeof err) == -1 && strstr(err, bad));
    CHECK(!ps_file_exists(bad));
    free(bad);
    free(rt);
}

/* message cost: the ping-pong table, piecewise linear, extended past its ends */
TEST_IMPL(machine_msg_time)
{
    ps_machine m, n;
    sample_model(&n);
    CHECK(ps_machine_msg_time(&n, 0) == 5e-7);
    CHECK(ps_machine_msg_time(&n, 1) == 5e-7);
    CHECK(NEAR(ps_machine_msg_time(&n, 512.5), 5e-7 + (1.1e-6 - 5e-7) * 0.5, 1e-12));
    CHECK(NEAR(ps_machine_msg_time(&n, 1024), 1.1e-6, 1e-12));
    double slope = (7.7e-4 - 1.1e-6) / (4194307 - 1024);
    CHECK(NEAR(ps_machine_msg_time(&n, 8388614), 7.7e-4 + slope * 4194307, 1e-9));
    /* without a table: send_latency + words * word_time */
    load_ok(PS_TEST_DATA "/../../machines/sp2.ini", &m);
    CHECK(NEAR(ps_machine_msg_time(&m, 800), 0.24e-4 + 100 * 2.39e-7, 1e-12));
}

/* g, l given in microseconds only are converted with r */
TEST_IMPL(machine_bsp_microseconds)
{
    char err[512];
    ps_machine m;
    load_bad("dummy-ok.ini", "[machine]\nsend_latency=1\n", ":1: [machine] lacks the required key recv_latency");
    {
        const char *txt = "[machine]\nsend_latency=1e-6\nrecv_latency=1e-6\nword_time=1e-9\nflop_time=1e-9\n"
                          "[bsp]\nr = 100e6\ng_us = 2\nl_us = 50\n";
        char *p = ps_xasprintf("%s/us.ini", tmpdir());
        CHECK(ps_write_file(p, txt, strlen(txt), err, sizeof err) == 0);
        load_ok(p, &m);
        CHECK(NEAR(m.bsp_g, 200, 1e-12) && NEAR(m.bsp_l, 5000, 1e-12));
        free(p);
    }
}

static const char *const good = "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 1e-9\nflop_time = 1e-9\n";

/* malformed files: exact messages naming path and line */
TEST_IMPL(machine_bad_files)
{
    char *txt;
    load_bad("syntax.ini", "[machine]\nsend_latency 1e-6\n",
             ":2: expected 'key = value', '[section]' or a comment");
    load_bad("nan.ini", "# c\n[machine]\nsend_latency = 1e-6\nrecv_latency = fast\n",
             ":4: recv_latency: not a number ('fast')");
    load_bad("neg.ini", "[machine]\nword_time = -1\n", ":2: word_time: must be >= 0 (got -1)");
    load_bad("net.ini", "[machine]\nnetwork = ring\n", ":2: network: expected 'bus', 'nobus' or 'star' (got 'ring')");
    load_bad("nodes.ini", "[machine]\nnodes = 2.5\n", ":2: nodes: not a non-negative integer ('2.5')");
    load_bad("nodes2.ini", "[machine]\nnodes = 1e12\n", ":2: nodes: out of range ('1e12'; at most 1048576)");
    load_bad("cores.ini", "[machine]\ncores_per_node = 4294967298\n",
             ":2: cores_per_node: out of range ('4294967298'; at most 2147483647)");
    load_bad("link.ini", "[machine]\nnetwork = star\nlink_rate = -1\n", ":3: link_rate: must be >= 0 (got -1)");
    load_bad("processors.ini", "[machine]\nprocessors = two\n", ":2: processors: not a non-negative integer ('two')");
    load_bad("unk.ini", "[machine]\nword_tme = 1\n", ":2: word_tme: unknown key in [machine]");
    load_bad("dup.ini", "[machine]\nword_time = 1\n  word_time = 2\n", ":3: word_time: duplicate key in [machine]");
    load_bad("sect.ini", "[machine]\n[bsp2]\nr = 1\n",
             ":3: unknown section [bsp2] (expected machine, bsp, pingpong, pingpong_intra, self, written, crossing, loggops or meta)");
    load_bad("intra.ini", "[machine]\n[pingpong_intra]\n64 = 1e-6\n8 = 1e-6\n", ":4: 8: message sizes must be in ascending order");
    load_bad("self.ini", "[machine]\n[self]\n64 = 1e-6\n8 = 1e-6\n", ":4: 8: message sizes must be in ascending order");
    load_bad("self2.ini", "[machine]\n[self]\n64 = -1e-6\n", ":3: 64: must be >= 0 (got -1e-6)");
    load_bad("nosect.ini", "send_latency = 1\n[bsp]\n", ":1: send_latency: key outside a section (start with [machine])");
    load_bad("nomachine.ini", "[bsp]\nr = 1\n",
             ": no [machine] section (it needs send_latency, recv_latency, word_time, flop_time)");
    load_bad("missing.ini", "# model\n\n[machine]\nsend_latency = 1\nrecv_latency = 1\nword_time = 1\n",
             ":3: [machine] lacks the required key flop_time");
    txt = ps_xasprintf("%s[pingpong]\n8 = 1e-6\n4 = 1e-6\n", good);
    load_bad("order.ini", txt, ":8: 4: message sizes must be in ascending order");
    free(txt);
    txt = ps_xasprintf("%s[pingpong]\nbig = 1e-6\n", good);
    load_bad("ppkey.ini", txt, ":7: 'big': expected a message size in bytes, or t0, r_inf, n_half");
    free(txt);
    /* [loggops]: rows of four, five or seven numbers (seven on every row or none), ascending; scalars in range */
    txt = ps_xasprintf("%s[loggops]\nS = 100\n1 = 1e-7 2e-7 3e-7\n", good);
    load_bad("lg1.ini", txt, ":8: 1: expected 'o_s o_r L gap', 'o_s o_r L gap o_r_in' or 'o_s o_r L gap o_r_in o_s_block o_r_in_block' (seconds), got '1e-7 2e-7 3e-7'");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n1 = 1e-7 2e-7 3e-7 4e-7 5e-8 6\n", good);
    load_bad("lg2.ini", txt,
             ":7: 1: expected 'o_s o_r L gap', 'o_s o_r L gap o_r_in' or 'o_s o_r L gap o_r_in o_s_block "
             "o_r_in_block' (seconds), got '1e-7 2e-7 3e-7 4e-7 5e-8 6'");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n1 = 1e-7 2e-7 3e-7 4e-7 5e-8 6e-8 7e-8 8\n", good);
    load_bad("lg2c.ini", txt,
             ":7: 1: expected 'o_s o_r L gap', 'o_s o_r L gap o_r_in' or 'o_s o_r L gap o_r_in o_s_block "
             "o_r_in_block' (seconds), got '1e-7 2e-7 3e-7 4e-7 5e-8 6e-8 7e-8 8'");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n1 = 1e-7 2e-7 3e-7 4e-7 5e-8 6e-8 7e-8\n2 = 1e-7 2e-7 3e-7 4e-7 5e-8\n", good);
    load_bad("lg2d.ini", txt,
             ":8: 2: lacks the blocking calls' columns (o_s_block o_r_in_block), the first row has: every row has "
             "them or none");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n1 = 1e-7 2e-7 3e-7 4e-7 5e-8 -6e-8 7e-8\n", good);
    load_bad("lg2e.ini", txt, ":7: 1 (o_s_block): must be >= 0 (got -6e-8)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n1 = 1e-7 2e-7 3e-7 4e-7 -5e-8\n", good);
    load_bad("lg2b.ini", txt, ":7: 1 (o_r_in): must be >= 0 (got -5e-8)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n1 = 1e-7 -2e-7 3e-7 4e-7\n", good);
    load_bad("lg3.ini", txt, ":7: 1 (o_r): must be >= 0 (got -2e-7)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n8 = 1e-7 2e-7 3e-7 4e-7\n8 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg4.ini", txt, ":8: 8: message sizes must be in ascending order");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\ncontention = 0.5\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg5.ini", txt, ":7: contention: must be >= 1 (got 0.5)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nprogress_recv = 2\n", good);
    load_bad("lg6.ini", txt, ":7: progress_recv: must be between 0 and 1 (got 2)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nS = 100\n", good);
    load_bad("lg7.ini", txt, ":6: [loggops] has no size rows ('bytes = o_s o_r L gap [o_r_in]')");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nlatency = 1\n", good);
    load_bad("lg8.ini", txt, ":7: 'latency': expected a message size in bytes, or S, o_post, o_done, contention, "
             "progress_send, progress_recv, rate, burst, nobus_contention, also_bus, S_ack, half_round_trip_8B, "
             "half_round_trip_8B_spread, o_construct, o_ack, o_ack_more, wire_bytes, oneway_bytes, merged_bytes, o_s_merged, o_r_merged, o_s_oneway");
    free(txt);
    /* a construct call's own code takes time: never negative */
    txt = ps_xasprintf("%s[loggops]\no_construct = -5e-8\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg8c.ini", txt, ":7: o_construct: must be >= 0 (got -5e-8)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\no_ack = -5e-7\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg8a.ini", txt, ":7: o_ack: must be >= 0 (got -5e-7)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nnobus_contention = 0.9\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg9.ini", txt, ":7: nobus_contention: must be >= 1 (got 0.9)");
    free(txt);
    /* a spread is the largest round's figure over the smallest: never below 1 */
    txt = ps_xasprintf("%s[loggops]\nhalf_round_trip_8B_spread = 0.5\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg9s.ini", txt, ":7: half_round_trip_8B_spread: must be >= 1 (got 0.5)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nalso_bus = 0.5\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg10.ini", txt, ":7: also_bus: must be 0 or 1 (got 0.5)");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nS = 256\nS_ack = 100\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg11.ini", txt, ":8: S_ack = 100 is below S = 256: it must be 0 (not measured), S (measured: no larger "
             "send waits only for its receiver's runtime) or more");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\n1 = 1e-7 2e-7 3e-7 4e-7\n256.5 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg12.ini", txt, ":8: a row's message size: not a non-negative integer ('256.5')");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nS = 256.5\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg13.ini", txt, ":7: S: not a non-negative integer ('256.5')");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nS = 256\nS_ack = 4040.25\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg14.ini", txt, ":8: S_ack: not a non-negative integer ('4040.25')");
    free(txt);
    txt = ps_xasprintf("%s[loggops]\nS = 0\nS_ack = 4040\n1 = 1e-7 2e-7 3e-7 4e-7\n", good);
    load_bad("lg15.ini", txt, ":8: S_ack = 4040 with S = 0 (no protocol switch: every message eager): it must be 0");
    free(txt);
    txt = ps_xasprintf("%s[bsp]\np = 2.5\n", good);
    load_bad("p.ini", txt, ":7: p: not a non-negative integer ('2.5')");
    free(txt);
    load_bad("empty.ini", "", ":0: missing the required entry 'send latency = ... seconds'");
    load_bad("arch1.arch", "SP2\nreceive latency = 0.24e-4 seconds\nsend latency = 1e-5 hours\n",
             ":3: send latency: unknown unit 'hours' (expected seconds)");
    load_bad("arch2.arch", "SP2\nreceive latency = abc seconds\n",
             ":2: receive latency: not a number ('abc')");
    load_bad("arch3.arch", "SP2\nbandwidth = 3\n",
             ":2: unknown entry 'bandwidth' (expected send latency, receive latency, time to send 1 word "
             "(8bytes), time for one multiply, network type)");
    load_bad("arch4.arch", "SP2\nreceive latency = 1e-5 seconds\nsend latency = 1e-5\n"
             "time for one multiply = 1e-8 seconds\nnetwork type = nobus\n",
             ":5: missing the required entry 'time to send 1 word = ... seconds'");
    load_bad("arch5.arch", "SP2\nreceive latency = 1e-5 seconds\nSP3\n",
             ":3: expected 'description = value [seconds]'");
}

/* Every bad value is named with its line: flop_time (checked after parsing
 * once, without one), counts of 0 (nodes = 0 was taken for "unknown" and
 * predicted on 1 node), g_us / l_us that no r converts, a NUL byte, a
 * directory. */
TEST_IMPL(machine_bad_values_lines)
{
    char *txt;
    const char *req = "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 1e-9\n";
    txt = ps_xasprintf("%sflop_time = 0\nnetwork = nobus\n", req);
    load_bad("flop0.ini", txt, ":5: flop_time: must be > 0 (seconds per floating-point operation; got 0)");
    free(txt);
    txt = ps_xasprintf("# a model\n%sflop_time = -1e-9\n", req);
    load_bad("flopneg.ini", txt, ":6: flop_time: must be > 0 (seconds per floating-point operation; got -1e-9)");
    free(txt);
    load_bad("flop0.arch", "SP2\nreceive latency = 1e-5 seconds\nsend latency = 1e-5\n"
             "time for one multiply = 0 seconds\ntime to send 1 word = 1e-7\n",
             ":4: time for one multiply: must be > 0 (seconds per floating-point operation; got 0)");
    /* counts: 1 or more where given (leaving a key out says unknown) */
    static const struct { const char *name, *text, *want; } zero[] = {
        {"nodes0.ini", "[machine]\nnodes = 0\n", ":2: nodes: must be >= 1 (got 0; leave the key out when unknown)"},
        {"cpn0.ini", "[machine]\ncores_per_node = 0\n",
         ":2: cores_per_node: must be >= 1 (got 0; leave the key out when unknown)"},
        {"proc0.ini", "[machine]\nprocessors = 0\n",
         ":2: processors: must be >= 1 (got 0; leave the key out when unknown)"},
        {"nodesbig.ini", "[machine]\nnodes = 1048577\n", ":2: nodes: out of range ('1048577'; at most 1048576)"},
        {"p0.ini", "[bsp]\np = 0\n", ":2: p: must be >= 1 (got 0; leave the key out when unknown)"},
        {"cores0.ini", "[meta]\nhost = a\ncores = 0\n", ":3: cores: must be >= 1 (got 0; leave the key out when unknown)"},
        {"sockets0.ini", "[meta]\nsockets = 0\n", ":2: sockets: must be >= 1 (got 0; leave the key out when unknown)"},
        {"pus0.ini", "[meta]\npus = 0\n", ":2: pus: must be >= 1 (got 0; leave the key out when unknown)"},
        {"mem0.ini", "[meta]\nmemory_bytes = 0\n",
         ":2: memory_bytes: must be >= 1 (got 0; leave the key out when unknown)"},
        {"cache0.ini", "[meta]\ncache_L2 = 0\n", ":2: cache_L2: must be >= 1 (got 0; leave the key out when unknown)"},
        {"cache0old.ini", "[meta]\ncache_l3 = 0\n",
         ":2: cache_l3: must be >= 1 (got 0; leave the key out when unknown)"}};
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++) load_bad(zero[i].name, zero[i].text, zero[i].want);
    /* g and l in microseconds only, with no r to convert them: refused at their line, not dropped */
    txt = ps_xasprintf("%sflop_time = 1e-9\n[bsp]\ng_us = 2\nl_us = 50\n", req);
    load_bad("gus.ini", txt, ":7: g_us = 2 without [bsp] r (flop/s) to convert it to flops: give r, or g in flops");
    free(txt);
    txt = ps_xasprintf("%sflop_time = 1e-9\n[bsp]\ng = 200\nl_us = 50\n", req);
    load_bad("lus.ini", txt, ":8: l_us = 50 without [bsp] r (flop/s) to convert it to flops: give r, or l in flops");
    free(txt);
    /* a NUL byte: its line and column */
    {
        char *path = ps_xasprintf("%s/nul.ini", tmpdir());
        char err[512] = "";
        static const char nul[] = "[machine]\nsend_latency = 1\0\n";
        CHECK(ps_write_file(path, nul, sizeof nul - 1, err, sizeof err) == 0);
        ps_machine m;
        CHECK(ps_machine_load(path, &m, err, sizeof err) == -1);
        char *want = ps_xasprintf("%s:2:17: a NUL byte: not a text file", path);
        CHECK(strcmp(err, want) == 0, "got: %s", err);
        free(want);
        free(path);
    }
    /* a directory is not a machine model file (it said "read error") */
    {
        char err[512] = "";
        ps_machine m;
        CHECK(ps_machine_load(tmpdir(), &m, err, sizeof err) == -1);
        char *want = ps_xasprintf("%s: is a directory, not a machine model file", tmpdir());
        CHECK(strcmp(err, want) == 0, "got: %s", err);
        /* ... nor found as one by its name */
        char path[4096];
        CHECK(ps_machine_find(tmpdir(), path, sizeof path, err, sizeof err) == -1);
        CHECK(strcmp(err, want) == 0, "got: %s", err);
        free(want);
    }
    /* a [bsp] without p is written without p (p = 0 is refused), and reads back */
    {
        char err[512];
        ps_machine m, n;
        sample_model(&m);
        m.bsp_p = 0;
        char *rt = ps_xasprintf("%s/nop.ini", tmpdir());
        CHECK(ps_machine_save(rt, &m, err, sizeof err) == 0);
        load_ok(rt, &n);
        CHECK(memcmp(&m, &n, sizeof m) == 0);
        free(rt);
    }
}

/* A ping-pong row far below a smaller size's time (a mistyped figure) is
 * warned about with its line, once a table; the dips of probe-written
 * tables (cache effects at powers of two, noise) are not. */
TEST_IMPL(machine_pingpong_dip)
{
    char err[512];
    ps_machine m;
    char *t = ps_xasprintf("%s[pingpong]\n1024 = 2e-6\n2048 = 1e-9\n4096 = 1e-9\n8192 = 3e-6\n", good);
    CHECK(ps_machine_parse(t, "dip.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(strcmp(m.warnings, "dip.ini:8: warning: [pingpong] 2048 bytes take 1e-9 s, less than 0.5 times the 2e-06 s "
                             "of 1024 bytes (line 7): a larger message normally takes as long or longer: a mistyped "
                             "figure, or a stall of the transport at the smaller size; the table is used as "
                             "written\n") == 0, "%s", m.warnings);
    CHECK(m.npp == 4 && m.pp_time[1] == 1e-9, "the table is kept as written");
    free(t);
    /* against the slowest smaller size, not only the row before: a slow slide down is one too */
    t = ps_xasprintf("%s[pingpong_intra]\n1 = 1e-6\n2 = 7e-7\n4 = 4.9e-7\n[self]\n1 = 1e-6\n64 = 4e-7\n"
                     "[written]\n1 = 1e-6\n64 = 0\n", good);
    CHECK(ps_machine_parse(t, "slide.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(strstr(m.warnings, "slide.ini:9: warning: [pingpong_intra] 4 bytes take 4.9e-7 s, less than 0.5 times the "
                             "1e-06 s of 1 bytes (line 7)") &&
              strstr(m.warnings, "slide.ini:12: warning: [self] 64 bytes take 4e-7 s,") && !strstr(m.warnings, "[written]"),
          "%s", m.warnings);
    free(t);
    /* probe-written tables: tests/report/data/characterize/probe.json's deepest dips (2 MiB against 3 bytes
     * more, 0.64 of the slowest smaller size's), a quick probe's on a busy 2-core VM (0.81) */
    t = ps_xasprintf("%s[pingpong]\n1048576 = 5.08165e-05\n1048579 = 4.75955e-05\n2097149 = 0.0001391945\n"
                     "2097152 = 0.0001354075\n2097155 = 8.97205e-05\n", good);
    CHECK(ps_machine_parse(t, "probe.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(m.warnings[0] == '\0', "%s", m.warnings);
    free(t);
    t = ps_xasprintf("%s[pingpong]\n131075 = 7.990857e-06\n262141 = 1.400333e-05\n262144 = 1.139167e-05\n"
                     "[self]\n4041 = 4.668282e-07\n4112 = 4.521094e-07\n16448 = 4.452343e-07\n", good);
    CHECK(ps_machine_parse(t, "quick.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(m.warnings[0] == '\0', "%s", m.warnings);
    free(t);
    /* the shipped models: no warning */
    static const char *const shipped[] = {"meiko", "ncube2", "origin", "paragon", "sp", "sp2", "t3e"};
    for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
        char *path = ps_xasprintf("%s/../../machines/%s.ini", PS_TEST_DATA, shipped[i]);
        load_ok(path, &m);
        CHECK(m.warnings[0] == '\0', "%s: %s", path, m.warnings);
        free(path);
    }
}

/* [meta] is written with the result meta's keys; older files' keys load */
TEST_IMPL(machine_meta_keys)
{
    char err[512];
    ps_machine m, n;
    {
        char *old = ps_xasprintf("%s[meta]\nmemory = 1024\ncache_l1 = 32768\ncache_l3 = 8388608\ncores = 4\n", good);
        char *p = ps_xasprintf("%s/old.ini", tmpdir()), *q = ps_xasprintf("%s/new.ini", tmpdir());
        CHECK(ps_write_file(p, old, strlen(old), err, sizeof err) == 0);
        load_ok(p, &m);
        CHECK(m.memory_bytes == 1024 && m.cores == 4);
        CHECK(m.cache_bytes[0] == 32768 && m.cache_bytes[1] == 0 && m.cache_bytes[2] == 8388608);
        CHECK(ps_machine_save(q, &m, err, sizeof err) == 0);
        char *text = ps_read_file(q, NULL, err, sizeof err);
        CHECK(text && strstr(text, "\nmemory_bytes = 1024\n") && strstr(text, "\ncache_L1d = 32768\n") &&
              strstr(text, "\ncache_L3 = 8388608\n") && !strstr(text, "\nmemory =") && !strstr(text, "cache_l"),
              "%s", text ? text : err);
        load_ok(q, &n);
        CHECK(memcmp(&m, &n, sizeof m) == 0);
        free(text);
        free(q);
        free(p);
        free(old);
    }
}

/* A [loggops] table without its rows at S, S + 1, S_ack, S_ack + 1 loads,
 * and the model says which are missing (predict prints it); the probe's
 * tables, with every one of them, say nothing, nor does a model without S. */
TEST_IMPL(machine_loggops_rows_note)
{
    char err[512];
    ps_machine m;
    const char *rows_far = "1 = 1e-7 2e-7 3e-7 4e-7\n64 = 1e-7 2e-7 3e-7 4e-7\n8192 = 1e-7 2e-6 3e-7 4e-7\n";
    char *t = ps_xasprintf("%s[loggops]\nS = 256\nS_ack = 4040\n%s", good, rows_far);
    CHECK(ps_machine_parse(t, "far.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(strstr(m.lg_rows_note, "S = 256 (no rows at 256 and 257); S_ack = 4040 (no rows at 4040 and 4041)"),
          "%s", m.lg_rows_note);
    free(t);
    t = ps_xasprintf("%s[loggops]\nS = 256\nS_ack = 4040\n1 = 1e-7 2e-7 3e-7 4e-7\n256 = 1e-7 2e-7 3e-7 4e-7\n"
                     "257 = 1e-7 2e-7 3e-7 4e-7\n4041 = 1e-7 2e-6 3e-7 4e-7\n", good);
    CHECK(ps_machine_parse(t, "half.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(strstr(m.lg_rows_note, ": S_ack = 4040 (no row at 4040);") && !strstr(m.lg_rows_note, "S = 256"), "%s",
          m.lg_rows_note);
    free(t);
    t = ps_xasprintf("%s[loggops]\nS = 256\nS_ack = 4040\n1 = 1e-7 2e-7 3e-7 4e-7\n256 = 1e-7 2e-7 3e-7 4e-7\n"
                     "257 = 1e-7 2e-7 3e-7 4e-7\n4040 = 1e-7 2e-7 3e-7 4e-7\n4041 = 1e-7 2e-6 3e-7 4e-7\n", good);
    CHECK(ps_machine_parse(t, "whole.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(m.lg_rows_note[0] == '\0', "%s", m.lg_rows_note);
    free(t);
    t = ps_xasprintf("%s[loggops]\nS = 0\n%s", good, rows_far);
    CHECK(ps_machine_parse(t, "eager.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(m.lg_rows_note[0] == '\0', "%s", m.lg_rows_note);
    free(t);
    /* a row without o_r_in (a file written before the probe measured it, or by hand) means what it
     * meant: a message costs its receiver o_r however it arrived */
    t = ps_xasprintf("%s[loggops]\nS = 0\n1 = 1e-7 2e-7 3e-7 4e-7\n64 = 1e-7 3e-7 3e-7 4e-7 5e-8\n", good);
    CHECK(ps_machine_parse(t, "orin.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(m.lg.orin[0] == 2e-7 && m.lg.orr[1] == 3e-7 && m.lg.orin[1] == 5e-8, "%g %g %g", m.lg.orin[0], m.lg.orr[1],
          m.lg.orin[1]);
    free(t);
}

TEST_IMPL(machine_missing_file)
{
    char err[512];
    ps_machine m;
    char *none = ps_xasprintf("%s/none.ini", tmpdir());
    CHECK(ps_machine_load(none, &m, err, sizeof err) == -1);
    CHECK(strncmp(err, none, strlen(none)) == 0 && strstr(err, "No such file"));
    free(none);
}
