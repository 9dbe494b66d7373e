/*
 * predict.c - predicting each processor count: the streams recorded (or
 * loaded), exported if asked, simulated on the model, and the count's
 * document built from the simulation (see predict.h).
 */
#include "predict/predict.h"

#include <limits.h>
#include <sched.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parscope/parscope.h"
#include "predict/predict_int.h"
#include "report/report.h"
#include "report/result.h"
#include "sim/breakdown.h"
#include "sim/interchange.h"
#include "sim/stream.h"
#include "trace/json.h"
#include "util/proc.h"
#include "util/util.h"
#include "workloads/workloads.h"

typedef struct predict_ctx {
    const ps_predict_opts *o;
    ps_machine             m;
    ps__calibration        cal;       /* --calibrate: the 1-rank run alone */
    ps__calibration        cal_busy;  /* ... beside copies of itself: counts whose ranks share a node */
    int                    several;   /* more than one count: DIR/pP/ paths, a "points" document */
    const char            *name;      /* the workload's name */
    long                   size, iterations;
    int                    refused_at_count; /* the last recording's bad input was its count's only */
} predict_ctx;

void ps_predict_defaults(ps_predict_opts *o)
{
    memset(o, 0, sizeof *o);
    o->size = o->iterations = o->calibrate_size = -1;
    o->trials = 3;
    o->timeout = 600;
    ps_sim_defaults(&o->sim);
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

int ps_predict_is_streams(const char *w)
{
    char p[PATH_MAX];
    if (ends_with(w, ".pss") || ends_with(w, ".txt")) return 1;
    snprintf(p, sizeof p, "%s/%s", w, PS_STREAMS_FILE);
    return ps_is_dir(w) && ps_file_exists(p);
}

static void point_dir(char *buf, size_t n, const char *base, int P, int several)
{
    if (several) snprintf(buf, n, "%s/p%d", base, P);
    else snprintf(buf, n, "%s", base);
}

/* The ranks outnumber the processors that all the model's nodes share (one
 * machine's nodes): they take turns on them, which the simulator does not model. */
static int time_shared(const ps_machine *m, int nranks)
{
    return m->processors > 0 && nranks > m->processors;
}

/* The ranks that compute at once on one node at P ranks: the model's nodes
 * (or --nodes) share them out, up to its processors a node.  A model that
 * does not say how many a node holds (a hand-written one, the seed's
 * machines: one processor a node) has them alone. */
static int ranks_per_node(const predict_ctx *c, int P)
{
    const ps_machine *m = &c->m;
    if (m->cores_per_node <= 1) return 1;
    int nodes = c->o->sim.nodes > 0 ? c->o->sim.nodes : m->nodes;
    int q = nodes > 1 ? (P + nodes - 1) / nodes : P;
    return q < m->cores_per_node ? q : m->cores_per_node;
}

/* The processors this process may run on (its affinity mask: a cpuset or
 * taskset leaves fewer than are online), where the calibration runs. */
static int usable_processors(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* --calibrate's prices for P ranks: where ranks share a node they compute at
 * once and slow each other (caches, memory, a VM's host), so the prices of
 * the run made beside copies of itself, when there are some. */
static const ps__calibration *calibration_for(const predict_ctx *c, int P)
{
    return ranks_per_node(c, P) > 1 && c->cal_busy.n ? &c->cal_busy : &c->cal;
}

static json_t *model_json(const predict_ctx *c, const ps_sim_opts *so, double stretch, int nranks)
{
    const ps_machine *m = &c->m;
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:s, s:i, s:i, s:f, s:i, s:f}", "name",
                          m->name, "file", c->o->machine_path, "host", m->host, "cpu", m->cpu, "mpi", m->mpi,
                          "cores", m->cores, "send_latency", m->send_latency, "recv_latency", m->recv_latency,
                          "word_time", m->word_time, "flop_time", m->flop_time, "network",
                          so->bus >= 0 ? (so->bus ? "bus" : "nobus") : m->bus ? "bus" : m->star ? "star" : "nobus",
                          "cores_per_node", m->cores_per_node, "pingpong_points", m->npp, "eager_bytes",
                          so->eager_bytes, "nodes", so->nodes > 0 ? so->nodes : m->nodes > 0 ? m->nodes : 1,
                          "oversubscription", stretch);
    if (m->star && so->bus < 0 && m->link_rate > 0) json_object_set_new(j, "link_rate", json_real(m->link_rate));
    if (m->lg.n > 0) {
        /* the protocol sizes of the model (eager_bytes: --eager's, 0 when not given) */
        json_object_set_new(j, "S", json_real(m->lg.S));
        if (m->lg.S_ack > 0) json_object_set_new(j, "S_ack", json_real(m->lg.S_ack));
        if (m->lg_rows_note[0]) json_object_set_new(j, "rows_note", json_string(m->lg_rows_note));
    }
    /* the model's half round trip of one double (ranks 0 and 1): compare sets beside it a run's
     * from its clock synchronisation, which sends one double each way.  From the probe's ping-pong
     * table, but on a shaped link from the LogGOPS costs with tokens to spare: the clock
     * synchronisation's 48 small messages find the bucket full after the idle launch, while the
     * table's small sizes were measured with it full and then drained (under 10 Mbit/s: 10.6 us at
     * 1 byte, 80 us at 8 bytes, each message's ~100 bytes of headers waiting for tokens), and
     * every run was called in another state than the probe saw.  The table's when it is the smaller
     * (probes that measured one receive cost, not o_r and o_r_in, split the time between o_r and L
     * erratically over TCP: 100 Mbit/s, one probe: o_r 8.4, 0.2 and 4.3 us at 1, 16 and 128 bytes,
     * and their sum at 8 bytes read 11.4 us where the table said 7.2 and runs 6.9).  In a ping-pong
     * the receiver is in its call when the message arrives: o_r_in. */
    if (m->lg.half_8B > 0) {
        /* taken with the LogGOPS rows that price the messages, by the calls the runs' clock
         * synchronisation makes: the rows' own state (the probe's table can be in another) */
        json_object_set_new(j, "half_round_trip_8B_s", json_real(m->lg.half_8B));
        if (m->lg.half_8B_spread >= 1)
            json_object_set_new(j, "half_round_trip_8B_spread", json_real(m->lg.half_8B_spread));
        json_object_set_new(j, "half_round_trip_8B_from",
                            json_string("plain MPI, measured with the LogGOPS rows (their machine state)"));
    } else if (m->lg.n > 0 && m->lg.rate > 0) {
        ps_loggops_cost k;
        ps_loggops_at(&m->lg, sizeof(double), &k);
        double lg = k.osb + k.L + k.orbin, pp = m->npp >= 2 ? ps_machine_msg_time(m, sizeof(double)) : INFINITY;
        json_object_set_new(j, "half_round_trip_8B_s", json_real(fmin(lg, pp)));
        json_object_set_new(j, "half_round_trip_8B_from",
                            json_string(pp < lg ? "ping-pong table (below the LogGOPS costs with the bucket full)"
                                                : m->lg.blocking ? "LogGOPS, bucket full: o_s_block + L + o_r_in_block"
                                                    : "LogGOPS, bucket full: o_s + L + o_r_in"));
    } else if (m->npp >= 2) {
        json_object_set_new(j, "half_round_trip_8B_s", json_real(ps_machine_msg_time(m, sizeof(double))));
        json_object_set_new(j, "half_round_trip_8B_from", json_string("ping-pong table"));
    }
    if (so->work_flop_time > 0) json_object_set_new(j, "work_flop_time", json_real(so->work_flop_time));
    if (m->lg.n > 0 && m->lg.rate > 0)
        json_object_set_new(j, "bucket_at_start", json_string(so->no_warmup ? "full" : "after the warm-up"));
    if (m->processors > 0) {
        json_object_set_new(j, "processors", json_integer(m->processors));
        json_object_set_new(j, "time_shared", json_boolean(time_shared(m, nranks)));
    }
    return j;
}

static json_t *breakdown_json(const ps_sim_result *r)
{
    json_t *b = json_object();
    json_object_set_new(b, "work", json_real(r->work));
    json_object_set_new(b, "communication", json_real(r->comm));
    json_object_set_new(b, "waiting", json_real(r->wait));
    json_object_set_new(b, "unit", json_string("seconds per rank (average)"));
    if (r->nranks <= PS_PREDICT_TRACE_MAX_RANKS) {
        json_t *a = json_array();
        for (int i = 0; i < r->nranks; i++)
            json_array_append_new(a, json_pack("{s:i, s:f, s:f, s:f, s:f}", "rank", i, "end", r->rank[i].end, "work",
                                               r->rank[i].work, "communication", r->rank[i].comm, "waiting",
                                               r->rank[i].wait));
        json_object_set_new(b, "ranks", a);
    }
    return b;
}

/* An integer of the streams' meta JSON into *out: 1, or 0 (*out kept)
 * when the meta has none. */
static int meta_integer(const ps_streams *s, const char *key, long *out)
{
    json_t *meta = s->meta ? json_loads(s->meta, 0, NULL) : NULL, *v = json_object_get(meta, key);
    int has = json_is_integer(v);
    if (has) *out = (long)json_integer_value(v);
    json_decref(meta);
    return has;
}

/* Recorded streams as given: size and iterations from their meta. */
static int load_streams(predict_ctx *c, ps_streams **s, char *err, size_t errlen)
{
    const char *w = c->o->workload;
    int rc;
    if (ends_with(w, ".txt")) {
        char *text = ps_read_file(w, NULL, err, errlen);
        if (!text) return 2;
        rc = ps_streams_parse_text(text, w, s, err, errlen);
        free(text);
    } else {
        rc = ps_streams_load(w, s, err, errlen);
    }
    if (rc) return 2;
    meta_integer(*s, "size", &c->size);
    meta_integer(*s, "iterations", &c->iterations);
    return 0;
}

/* The program's streams at P ranks, recorded into --streams DIR or a
 * temporary directory. */
static int record_streams(predict_ctx *c, int P, ps_streams **s, char *err, size_t errlen)
{
    char dir[PATH_MAX], *tmp = NULL;
    if (c->o->streams_dir) {
        point_dir(dir, sizeof dir, c->o->streams_dir, P, c->several);
        if (ps_mkdirs(dir, err, errlen)) return 2;
    } else {
        if (!(tmp = ps_mktempdir("parscope-record", err, errlen))) return 2;
        snprintf(dir, sizeof dir, "%s", tmp);
    }
    int rc = ps__predict_record(c->o, P, dir, tmp != NULL, &c->refused_at_count, err, errlen);
    if (rc == 0 && ps_streams_load(dir, s, err, errlen)) rc = 1;
    /* a workload that chooses its iterations as it runs (clue: from the
     * machine) says in the recording's meta how many it ran */
    long ran = 0;
    if (rc == 0 && c->o->iterations <= 0 && meta_integer(*s, "iterations", &ran) && ran > 0) c->iterations = ran;
    if (tmp) ps_rmtree(tmp);
    free(tmp);
    return rc;
}

/* SimGrid and GOAL exports of the streams, when asked. */
static int export_streams(const predict_ctx *c, const ps_streams *s, char *err, size_t errlen)
{
    if (c->o->simgrid_dir) {
        char sd[PATH_MAX];
        point_dir(sd, sizeof sd, c->o->simgrid_dir, s->nranks, c->several);
        if (ps_export_simgrid(s, &c->m, sd, err, errlen)) return 2;
    }
    if (c->o->goal_path && ps_export_goal(s, &c->m, c->o->goal_path, err, errlen)) return 2;
    return 0;
}

/* A JSON string of s; bytes of text that is not UTF-8 become '?' (a JSON
 * string must be UTF-8). */
static json_t *jstr(const char *s)
{
    json_t *j = json_string(s);
    if (j) return j;
    char *c = ps_xstrdup(s);
    for (unsigned char *p = (unsigned char *)c; *p; p++)
        if (*p >= 0x80) *p = '?';
    j = json_string(c);
    free(c);
    return j;
}

/* The predicted trace's metadata (docs/TRACE_FORMAT.md): the machine model
 * stands for the hardware; the structure is the recording's. */
static char *trace_meta(const predict_ctx *c, const ps_sim_opts *so, int ranks, const char *stream_meta)
{
    int bus = so->bus >= 0 ? so->bus : c->m.bus;
    json_t *hw = json_object();
    json_object_set_new(hw, "machine", jstr(c->m.name));
    if (c->m.cpu[0]) json_object_set_new(hw, "cpu", jstr(c->m.cpu));
    if (c->m.cores > 0) json_object_set_new(hw, "cores", json_integer(c->m.cores));
    int star = so->bus < 0 && c->m.star;
    json_object_set_new(hw, "interconnect",
                        json_pack("{s:s, s:s}", "type",
                                  bus    ? "bus (one message at a time; machine model)"
                                  : star ? "star (one link per node into a switch; machine model)"
                                         : "network, nodes equidistant (machine model)",
                                  "basis", bus ? "network = bus" : star ? "network = star" : "network = nobus"));
    json_t *d = json_pack("{s:o, s:s, s:o, s:i, s:I, s:I, s:o}", "workload", jstr(c->name ? c->name : ""), "kind",
                          "predict", "machine_model", jstr(c->m.name), "ranks", ranks, "size",
                          (json_int_t)c->size, "iterations", (json_int_t)c->iterations, "hardware", hw);
    if (!d) return NULL;
    json_t *sm = stream_meta ? json_loads(stream_meta, 0, NULL) : NULL;
    /* the problem the recording ran (a grid workload's grid: clue), before the -s asked for */
    json_t *sz = json_object_get(sm, "size");
    if (json_is_integer(sz) && json_integer_value(sz) > 0) json_object_set(d, "size", sz);
    if (json_is_string(json_object_get(sm, "grid"))) {
        json_object_set(d, "grid", json_object_get(sm, "grid"));
        json_object_set_new(d, "grid_per_rank", json_boolean(json_is_true(json_object_get(sm, "grid_per_rank"))));
    }
    json_t *st = json_object_get(sm, "structure");
    if (json_is_array(st)) json_object_set(d, "structure", st);
    json_decref(sm);
    char *text = json_dumps(d, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(d);
    return text;
}

/* The predicted trace: its meta (taken over), and the file when --trace asks. */
static int write_trace(const predict_ctx *c, ps_sim_result *res, char *meta, char *file, size_t len, char *err,
                       size_t errlen)
{
    int bad = !meta || ps_trace_set_meta(res->trace, meta);
    free(meta);
    if (bad) {
        ps_seterr(err, errlen, "out of memory writing the trace's metadata");
        return 2;
    }
    if (!c->o->trace_dir) return 0;
    char td[PATH_MAX];
    point_dir(td, sizeof td, c->o->trace_dir, res->nranks, c->several);
    if (ps_mkdirs(td, err, errlen)) return 2;
    snprintf(file, len, "%s/trace.pst", td);
    return ps_trace_write(res->trace, file, err, errlen) ? 2 : 0;
}

/* Without the predicted trace, what the document takes from one: the ranks'
 * intervals and hosts, and the metadata (taken over). */
static ps_trace *skeleton(const ps_sim_result *res, char *meta)
{
    ps_trace *t = meta ? ps_trace_new(res->nranks) : NULL;
    if (t && ps_trace_set_meta(t, meta)) {
        ps_trace_free(t);
        t = NULL;
    }
    free(meta);
    for (int i = 0; t && i < res->nranks; i++) {
        t->rank[i].t_begin = 0;
        t->rank[i].t_end = res->rank[i].end;
        snprintf(t->rank[i].host, sizeof t->rank[i].host, "simulated");
    }
    return t;
}

/* The simulator's figures of a count. */
static json_t *simulation_json(const ps_streams_stats *st, const ps_sim_result *res, double wall)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:f}", "instructions", (json_int_t)st->instructions, "messages",
                     (json_int_t)res->messages, "events", (json_int_t)res->events, "stream_bytes",
                     (json_int_t)st->encoded_bytes, "peak_in_flight", (json_int_t)res->peak_in_flight, "seconds",
                     wall);
}

/* The messages above S though the receive's cost shows the runtime's
 * protocol step only further up (ps_loggops_recv_step), which the model sends
 * eagerly and completes once their receiver's runtime took them in (sim.c,
 * M_ACKED), a protocol inferred from the table: how many, their share of the
 * count's messages, and the sizes between which they lie. */
static json_t *protocol_doubt_json(const ps_machine *m, const ps_sim_opts *so, const ps_sim_result *res)
{
    double S = so->eager_bytes > 0 ? so->eager_bytes : m->lg.S;
    /* of the workload's messages, as the table counts them (the model's barrier tree apart) */
    double all = (double)(res->messages - res->runtime_messages);
    return json_pack("{s:f, s:f, s:I, s:f}", "S", S, "recv_step", res->recv_step, "messages",
                     (json_int_t)res->below_step, "share", all > 0 ? fmin(1, res->below_step / all) : 0);
}

/* The time of the streams simulated again on m with o, without a trace or
 * a sheet (a second figure beside the prediction); NAN if it fails, or if o
 * asks for oneway_ack_bytes where the simulator does not apply them.
 * oneway_ack, when given: the messages charged them. */
static double time_again(const ps_streams *s, const ps_machine *m, ps_sim_opts o, uint64_t *oneway_ack)
{
    o.build_trace = 0;
    o.build_sheet = 0;
    ps_sim_result r;
    memset(&r, 0, sizeof r);
    char err[256];
    double t = ps_simulate(s, m, &o, &r, err, sizeof err) == 0 ? r.time : NAN;
    if (o.oneway_ack_bytes > 0 && !r.oneway_ack_applied) t = NAN;
    if (oneway_ack) *oneway_ack = r.oneway_ack;
    ps_sim_result_free(&r);
    return t;
}

/* A shaped link's other time t beside the prediction's `time`: t where the
 * two differ by more than PS_PREDICT_WIRE_DOUBT of it, else NAN. */
static double apart(double t, double time)
{
    return isfinite(t) && fabs(t - time) > PS_PREDICT_WIRE_DOUBT * time ? t : NAN;
}

/* Sends larger than the largest size at which the probe looked for a
 * switch to rendezvous and found none (the model's S = 0, its table's last
 * row): on a shaped link it looks only within half the bucket (30.7 KiB
 * under slownet 100mbit), while Open MPI's TCP path sends eagerly only up
 * to 64 KiB, and above that moves a message only while the sender is
 * inside a call.  The model sends them eagerly, their transfer overlapping
 * the sender's computation: a ring exchange of 256 KiB around 175 ms of
 * \WORK under slownet 100mbit was predicted -40% (docs/BENCHMARKS.md).
 * The same streams are simulated again with a switch right above the table
 * (S = S_ack = its last row) and a rendezvous that waits for both sides to
 * be in the runtime (progress 1): the other end of the range.  NAN when the
 * model found a switch, the user chose one (--eager), no send is that
 * large, or the two times are within PS_PREDICT_WIRE_DOUBT; *n the sends
 * above it and *largest the largest. */
static double beyond_probe_time(const predict_ctx *c, const ps_streams *s, const ps_sim_opts *so, double time,
                                uint64_t *n, double *largest)
{
    *n = 0;
    *largest = 0;
    const ps_loggops *lg = &c->m.lg;
    if (lg->n == 0 || lg->S > 0 || so->eager_bytes > 0) return NAN;
    double top = lg->bytes[lg->n - 1];
    for (int r = 0; r < s->nranks; r++) {
        if (!s->data[r] || !s->len[r]) continue;
        ps_insn_ctx x = {.rank = r};
        const uint8_t *p = s->data[r], *end = p + s->len[r];
        ps_insn in;
        while (p < end && (p = ps_insn_decode(&x, p, end, &in)))
            if (ps__is_send_op(in.op) && (double)in.n > top) {
                (*n)++;
                if ((double)in.n > *largest) *largest = (double)in.n;
            }
    }
    if (!*n) return NAN;
    ps_machine m = c->m;
    m.lg.S = m.lg.S_ack = top;
    m.lg.progress_send = m.lg.progress_recv = 1;
    return apart(time_again(s, &m, *so, NULL), time);
}

/* The other network: the probe's exchange was neither clearly serial nor
 * clearly free (probe.c), so the same streams are simulated again under the
 * choice it did not make: a bus's model (nobus_contention) with the ranks'
 * copies side by side at the measured contention, a nobus model (also_bus)
 * with one message at a time.  On one VM the bus fitted the
 * communication-only programs, on another nobus did (docs/BENCHMARKS.md):
 * the two times are the prediction's range.  NAN when there is no such
 * doubt, the user chose the network (--bus, --nobus), or the model has
 * several nodes (the other choice there would be a star of links, not this). */
static double other_network_time(const predict_ctx *c, const ps_streams *s, const ps_sim_opts *so)
{
    int to_nobus = c->m.bus && c->m.lg.nobus_contention >= 1;
    int to_bus = !c->m.bus && !c->m.star && c->m.lg.also_bus == 1;
    if (!(to_nobus || to_bus) || so->bus >= 0 || c->m.lg.n == 0 || c->m.nodes > 1 || so->nodes > 1) return NAN;
    /* as --bus / --nobus would: the simulator sets the contention of the network chosen */
    ps_sim_opts o = *so;
    o.bus = to_bus;
    return time_again(s, &c->m, o, NULL);
}

/* A shaped link's wire bytes: the model charges every message its
 * wire_bytes on top of its payload, as a message sent alone pays them (the
 * probe's stop-and-wait series); TCP coalesces small messages written while
 * earlier ones wait in the shaper, and such a message pays its payload
 * alone (a stream of 8-byte messages under slownet: 30 bytes each, against
 * 88 alone; adi's at 10 Mbit/s: about 59 on average).  The same streams
 * without them give the other end of the range.  NAN when the model has no
 * such figure, or measured what a message that joins another costs
 * (merged_bytes: the prediction merges them where TCP does), or the two times are within PS_PREDICT_WIRE_DOUBT of each
 * other. */
static double coalesced_time(const predict_ctx *c, const ps_streams *s, const ps_sim_opts *so, double time)
{
    if (!(c->m.lg.n > 0 && c->m.lg.rate > 0 && c->m.lg.wire > 0) || c->m.lg.merged > 0) return NAN;
    ps_machine m = c->m;
    m.lg.wire = 0;
    ps_sim_opts o = *so;
    o.oneway_ack_bytes = -1;   /* (merged segments: fewer acknowledgements too, the bound has none) */
    return apart(time_again(s, &m, o, NULL), time);
}

/* The other side of a shaped link's wire bytes: TCP acknowledges a message
 * that its receiver does not answer (a one-way stream: adi's sweeps) by a
 * segment of its own, about one for every second such message (the
 * receiver's delayed acknowledgement), and on a shaped bus (tbf on a
 * loopback) it takes the same bucket's tokens; the probe's stop-and-wait
 * series, whose replies carry them, leaves them out of wire_bytes.  Such a
 * segment has neither payload nor the runtime's header: at most wire_bytes,
 * so each unanswered message is charged half of them more
 * (PS_PREDICT_ACK_SHARE), a bound: under slownet 100mbit adi's 9722 small
 * data packets took 4478 acknowledgements of 66 bytes, against 88 wire
 * bytes a message (docs/BENCHMARKS.md).  NAN where it does not apply (no
 * such figure, not a bus, more than PS_SIM_ACK_RANKS ranks), where the
 * model measured their share (oneway_bytes: the prediction has it) or the
 * one-way stream's send calls (o_s_oneway: they set its pace), or the two times are within PS_PREDICT_WIRE_DOUBT of each other; *n the
 * messages charged. */
static double acked_time(const predict_ctx *c, const ps_streams *s, const ps_sim_opts *so, double time, uint64_t *n)
{
    *n = 0;
    if (!(c->m.lg.n > 0 && c->m.lg.rate > 0 && c->m.lg.wire > 0) || c->m.lg.oneway > 0 || c->m.lg.o_s_oneway > 0)
        return NAN;
    ps_sim_opts o = *so;
    o.oneway_ack_bytes = PS_PREDICT_ACK_SHARE * c->m.lg.wire;
    return apart(time_again(s, &c->m, o, n), time);
}

/* Records (or loads) and simulates one processor count; the exit status,
 * and the count's document in *doc. */
static int predict_one(predict_ctx *c, int P, json_t **doc, ps_sim_result *res, int *every, char *err,
                       size_t errlen)
{
    ps_streams *s = NULL;
    *doc = NULL;
    c->refused_at_count = 0;
    int rc = ps_predict_is_streams(c->o->workload) ? load_streams(c, &s, err, errlen)
                                                   : record_streams(c, P, &s, err, errlen);
    /* bad input before any stream (no such workload, a program that does not build): every count's;
     * a value the program's ranks refused at this count (a size that does not divide among them) is
     * this count's, and the others are still predicted */
    *every = rc == 2 && !c->refused_at_count;
    if (rc) return rc;
    if (export_streams(c, s, err, errlen)) {
        ps_streams_free(s);
        return 2;
    }
    ps_sim_opts so = c->o->sim;
    so.build_trace = c->o->trace_dir || c->o->activities;
    double *rates = NULL, *per_call = NULL;
    const ps__calibration *cal = calibration_for(c, s->nranks);
    if (cal->n) {
        rates = ps_xcalloc((size_t)s->nconstructs + 1, sizeof *rates);
        per_call = ps_xcalloc((size_t)s->nconstructs + 1, sizeof *per_call);
        for (int k = 0; k < s->nconstructs; k++) {
            /* not exercised at 1 rank: the run's average; a copy not made there: the model's memory rate.
             * \DATA_MOVE's copies keep the lone run's price per byte: the simulator stretches copies
             * that meet on a node by the model's measured contention, which the busy run's would count
             * twice */
            const ps__calibration *from = k == PS_C_DATA_MOVE ? &c->cal : cal;
            rates[k] = k == PS_C_DATA_MOVE ? 0 : cal->average;
            for (int j = 0; j < from->n; j++)
                if (!strcmp(s->constructs[k], from->names[j])) {
                    rates[k] = from->sec_per_flop[j];
                    per_call[k] = from->flops_per_call[j];
                }
        }
        so.construct_flop_time = rates;
        so.nconstruct_flop_time = s->nconstructs;
        so.construct_flops_per_call = per_call;
    }
    double t0 = ps_clock();
    rc = ps_simulate(s, &c->m, &so, res, err, errlen);
    /* (its seconds in the simulation's: it doubles them) */
    double other = rc == 0 && res->messages > 0 ? other_network_time(c, s, &so) : NAN;
    double coalesced = rc == 0 && res->messages > 0 ? coalesced_time(c, s, &so, res->time) : NAN;
    uint64_t nacked = 0;
    double acked = rc == 0 && res->messages > 0 ? acked_time(c, s, &so, res->time, &nacked) : NAN;
    uint64_t nbeyond = 0;
    double beyond_max = 0;
    double beyond = rc == 0 && res->messages > 0 ? beyond_probe_time(c, s, &so, res->time, &nbeyond, &beyond_max) : NAN;
    double wall = ps_clock() - t0;
    free(rates);
    free(per_call);
    so.construct_flop_time = NULL;
    so.construct_flops_per_call = NULL;
    ps_streams_stats st = res->streams;   /* counted when the simulation checked the streams */
    int nranks = s->nranks;
    char *meta = rc == 0 ? trace_meta(c, &so, nranks, s->meta) : NULL;
    ps_streams_free(s);
    if (rc < 0 || rc == 1) {
        free(meta);
        if (rc == 1) ps_seterr(err, errlen, "the program deadlocks at %d rank%s", nranks, nranks == 1 ? "" : "s");
        return rc < 0 ? 2 : 1;
    }
    char tracefile[PATH_MAX + 16] = "";
    ps_trace *skel = NULL;
    if (res->trace) {
        if (write_trace(c, res, meta, tracefile, sizeof tracefile, err, errlen)) return 2;
    } else if (!(skel = skeleton(res, meta))) {
        ps_seterr(err, errlen, "out of memory describing the prediction at %d ranks", nranks);
        return 2;
    }
    double sample = res->time;
    json_t *d = ps_result_run_sheet("predict", c->name, NULL, res->nranks, c->size, c->iterations, &sample, 1,
                                    res->trace ? res->trace : skel, res->has_sheet ? &res->sheet : NULL,
                                    tracefile[0] ? tracefile : NULL);
    ps_trace_free(skel);
    if (!res->has_sheet && !res->trace) {
        /* no sheet was asked for (build_sheet 0: the document is not kept); the skeleton's would be zeros */
        json_object_del(d, "sheet");
        json_object_del(d, "ranks");
    }
    json_object_set_new(d, "machine", model_json(c, &so, res->stretch, res->nranks));
    json_object_set_new(d, "breakdown", breakdown_json(res));
    if (res->unpriced_bytes > 0)
        json_object_set_new(d, "unpriced_data_move_bytes", json_real(res->unpriced_bytes));
    if (res->self_messages > 0)
        json_object_set_new(d, "self_messages",
                            json_pack("{s:I, s:s}", "messages", (json_int_t)res->self_messages, "priced_by",
                                      c->m.nself > 0 ? "self" : "between two ranks"));
    if (res->below_step > 0 && !res->ack_measured)
        json_object_set_new(d, "protocol_doubt", protocol_doubt_json(&c->m, &so, res));
    const ps_sim_truncated *tr = &res->truncated;
    if (tr->count)
        json_object_set_new(d, "truncated_receives",
                            json_pack("{s:I, s:{s:i, s:i, s:i, s:I, s:I}}", "count", (json_int_t)tr->count, "first",
                                      "rank", tr->rank, "from", tr->from, "tag", tr->tag, "posted_bytes",
                                      (json_int_t)tr->posted_bytes, "message_bytes", (json_int_t)tr->message_bytes));
    if (isfinite(other)) {
        /* the prediction's network, its time, and the other's */
        int bus = c->m.bus;
        double contention = bus ? c->m.lg.nobus_contention : c->m.lg.contention;
        json_object_set_new(d, "network_doubt",
                            json_pack("{s:s, s:f, s:f, s:f}", "network", bus ? "bus" : "nobus", "bus_s",
                                      bus ? res->time : other, "nobus_s", bus ? other : res->time,
                                      "nobus_contention", contention < 1 ? 1 : contention));
    }
    if (isfinite(coalesced))
        json_object_set_new(d, "wire_doubt", json_pack("{s:f, s:f, s:f}", "wire_bytes", c->m.lg.wire, "alone_s",
                                                       res->time, "coalesced_s", coalesced));
    if (res->oneway_ack_applied && res->oneway_ack > 0)
        json_object_set_new(d, "oneway", json_pack("{s:f, s:I}", "bytes", c->m.lg.oneway, "messages",
                                                   (json_int_t)res->oneway_ack));
    if (isfinite(acked))
        json_object_set_new(d, "ack_doubt",
                            json_pack("{s:f, s:I, s:f, s:f}", "ack_bytes", PS_PREDICT_ACK_SHARE * c->m.lg.wire,
                                      "messages", (json_int_t)nacked, "alone_s", res->time, "acked_s", acked));
    if (isfinite(beyond))
        json_object_set_new(d, "beyond_probe_doubt",
                            json_pack("{s:f, s:I, s:f, s:f, s:f}", "examined_bytes", c->m.lg.bytes[c->m.lg.n - 1],
                                      "messages", (json_int_t)nbeyond, "largest_bytes", beyond_max, "alone_s",
                                      res->time, "rendezvous_s", beyond));
    if (c->o->activities && res->trace) json_object_set_new(d, "activities", ps_breakdown_json(res->trace));
    const ps__calibration *used = cal; /* the prices this count was simulated with */
    if (used->n || used->none) {
        json_t *cj = ps__predict_calibration_json(used);
        /* beside the 1-rank run's own average: what the companions cost */
        if (used != &c->cal && c->cal.average > 0)
            json_object_set_new(cj, "average_over_alone", json_real(used->average / c->cal.average));
        const char *busy_w = used != &c->cal ? ps__calibration_busy_warning(&c->cal, used) : NULL;
        if (busy_w) json_object_set_new(cj, "busy_faster_than_alone", json_string(busy_w));
        /* \DATA_MOVE is priced by the lone run at every count (predict_one): its figures are those */
        if (used != &c->cal) {
            json_t *lone = ps__predict_calibration_json(&c->cal);
            json_object_del(cj, "seconds_per_byte");
            json_object_del(cj, "bytes_per_call");
            json_t *v;
            if ((v = json_object_get(lone, "seconds_per_byte"))) json_object_set(cj, "seconds_per_byte", v);
            if ((v = json_object_get(lone, "bytes_per_call"))) json_object_set(cj, "bytes_per_call", v);
            json_decref(lone);
        }
        json_object_set_new(d, "calibration", cj);
    }
    json_object_set_new(d, "simulation", simulation_json(&st, res, wall));
    *doc = d;
    return 0;
}

/* The model loads, the workload is one parscope can run or read: 0, or 2 (err). */
static int check_input(predict_ctx *c, char *err, size_t errlen)
{
    const char *w = c->o->workload;
    if (ps_machine_load(c->o->machine_path, &c->m, err, errlen)) return 2;
    /* said even with -q: the model's figures are from part of a measurement */
    if (strstr(c->m.source, "INTERRUPTED"))
        fprintf(stderr, "parscope predict: warning: the machine model %s is from an interrupted probe (%s): its "
                        "figures are from fewer rounds than planned\n",
                c->o->machine_path, c->m.source);
    if (c->m.bsp_fit_note[0] && !c->o->quiet)
        fprintf(stderr, "parscope predict: %s has no BSP g and l (its h-relation fit failed: %s); the prediction uses "
                        "the estimator's latency, word time and flop time only\n",
                c->o->machine_path, c->m.bsp_fit_note);
    if (c->m.lg_rows_note[0] && !c->o->quiet)
        fprintf(stderr, "parscope predict: note: %s: %s\n", c->o->machine_path, c->m.lg_rows_note);
    if (!ps_predict_is_streams(w) && !ps_workload_find(w) && !ends_with(w, ".loop") &&
        !(strchr(w, '/') && ps_file_exists(w))) {
        ps_seterr(err, errlen, "unknown workload '%s' (a built-in name, FILE.loop, a program, or streams)", w);
        return 2;
    }
    return 0;
}

/* One row of the table: the count's figures, speedup against t1. */
static void print_row(FILE *out, const ps_sim_result *res, const json_t *doc, double t1)
{
    double sim_s = json_real_value(json_object_get(json_object_get(doc, "simulation"), "seconds"));
    /* the workload's messages, as a run's sheet counts them (the model's barrier tree apart; the
     * simulator's count, so that a table without a sheet (build_sheet 0) says the same) */
    unsigned long long messages = (unsigned long long)(res->messages - res->runtime_messages);
    /* no speedup where a time is zero (nothing to do): "-", never "nan" */
    char sp[32] = "-";
    if (isfinite(t1) && t1 > 0 && res->time > 0) snprintf(sp, sizeof sp, "%.3g", t1 / res->time);
    fprintf(out, "%7d  %12.6g  %8s  %12.6g  %12.6g  %12.6g  %10llu  %8.3f\n", res->nranks, res->time, sp, res->work,
            res->comm, res->wait, messages, sim_s);
    fflush(out);
}

int ps_predict_run(const ps_predict_opts *o, json_t **out, FILE *f, char *err, size_t errlen)
{
    *out = NULL;
    predict_ctx c = {.o = o, .several = o->nranks > 1};
    const ps_workload *w = ps_workload_find(o->workload);
    c.name = w ? w->name : o->workload;
    c.size = o->size > 0 ? o->size : (w ? w->default_size : 0);
    c.iterations = o->iterations > 0 ? o->iterations : (w ? w->default_iterations : 0);
    int rc = check_input(&c, err, errlen);
    if (!rc && o->calibrate) rc = ps__predict_calibrate(o, 1, &c.cal, f, err, errlen);
    /* counts whose ranks share a node: prices from the 1-rank run beside as
     * many copies of itself as the most crowded node of them holds, up to
     * this machine's processors (the calibration runs here) */
    if (!rc && o->calibrate && c.cal.n) {
        int busy = 1, here = usable_processors();
        for (int k = 0; k < o->nranks; k++)
            if (ranks_per_node(&c, o->ranks[k]) > busy) busy = ranks_per_node(&c, o->ranks[k]);
        if (here > 0 && busy > here) busy = here;
        if (busy > 1 && ps__predict_calibrate(o, busy, &c.cal_busy, f, err, errlen)) {
            /* the lone run's prices still hold: every count is priced by them, and the result says so */
            fprintf(stderr, "parscope predict --calibrate: %s; every count is priced by the lone 1-rank run\n", err);
            ps__predict_calibration_free(&c.cal_busy);
            err[0] = '\0';
        }
        const char *w = ps__calibration_busy_warning(&c.cal, &c.cal_busy);
        if (w) fprintf(stderr, "parscope predict --calibrate: %s\n", w);
    }
    if (rc) {
        ps__predict_calibration_free(&c.cal);
        ps__predict_calibration_free(&c.cal_busy);
        return rc;
    }
    if (!o->quiet) {
        fprintf(f, "Prediction: %s on %s (%s)\n", c.name, c.m.name[0] ? c.m.name : "machine", o->machine_path);
        fprintf(f, "%7s  %12s  %8s  %12s  %12s  %12s  %10s  %8s\n", "P", "time (s)", "speedup", "work (s)",
                "comm (s)", "wait (s)", "messages", "sim (s)");
    }
    json_t *points = json_array();
    double t1 = NAN;
    int shared_from = 0; /* the first count whose ranks time-share the processors */
    int over_from = 0;   /* the first count whose costs the simulator stretched (more ranks than cores) */
    double over = 1;     /* ... by how much */
    int unpriced_at = 0; /* the first count with \DATA_MOVE bytes the model cannot price */
    int self_at = 0;     /* the first count with messages to their own rank, the model without [self] */
    ps_sim_truncated trunc = {0}; /* the first count's messages longer than their receives */
    int trunc_at = 0;
    int busy_from = 0;   /* the first count priced by the run beside copies of itself */
    json_t *doubt = NULL; /* the first count with messages between S and the receive's step */
    /* each count on its own: one that cannot be predicted (a program that deadlocks or fails
     * there) is said and left out, the others are kept; the status is the first failure's */
    json_t *failed = json_array();
    for (int k = 0; k < o->nranks; k++) {
        if (ps_interrupted()) {
            ps_seterr(err, errlen, "interrupted; %d of %d counts predicted", k, o->nranks);
            rc = 1;
            break;
        }
        json_t *doc;
        ps_sim_result res;
        memset(&res, 0, sizeof res);
        int every = 0, one = predict_one(&c, o->ranks[k], &doc, &res, &every, err, errlen);
        if (one && res.report) fputs(res.report, stderr);
        if (one && every) {   /* (said once, as the error) */
            rc = one;
            ps_sim_result_free(&res);
            break;
        }
        if (one && !ps_interrupted()) {
            if (!rc) rc = one;
            /* (streams give their own count: 0 asked) */
            int P = o->ranks[k] > 0 ? o->ranks[k] : res.nranks;
            json_array_append_new(failed, json_pack("{s:i, s:s, s:i}", "ranks", P, "error", err, "status", one));
            if (!o->quiet) fprintf(f, "%7d  not predicted: %s\n", P, err);
        }
        if (!one) {
            /* against the first count predicted, as the footnote and the report say, also when P = 1 comes
             * later */
            if (isnan(t1)) t1 = res.time;
            print_row(f, &res, doc, t1);
            if (!shared_from && time_shared(&c.m, res.nranks)) shared_from = res.nranks;
            if (!over_from && res.stretch > 1) {
                over_from = res.nranks;
                over = res.stretch;
            }
            if (!unpriced_at && res.unpriced_bytes > 0) unpriced_at = res.nranks;
            if (!self_at && res.self_messages > 0 && c.m.nself == 0) self_at = res.nranks;
            if (!trunc_at && res.truncated.count) {
                trunc_at = res.nranks;
                trunc = res.truncated;
            }
            if (!busy_from && calibration_for(&c, res.nranks) == &c.cal_busy) busy_from = res.nranks;
            if (!doubt && (doubt = json_object_get(doc, "protocol_doubt")))
                json_object_set_new(doubt, "from_ranks", json_integer(res.nranks));
            json_array_append_new(points, doc);
        }
        ps_sim_result_free(&res);
    }
    const char *busy_w = busy_from ? ps__calibration_busy_warning(&c.cal, &c.cal_busy) : NULL;
    if (!o->quiet && busy_w)
        fprintf(f, "note: the counts from P = %d are priced by a calibration in doubt: %s\n", busy_from,
                busy_w);
    ps__predict_calibration_free(&c.cal);
    ps__predict_calibration_free(&c.cal_busy);
    if (!o->quiet && json_array_size(points))
        fprintf(f, "(speedup against the first count; work / comm / wait: the simulator's breakdown, seconds per "
                   "rank on average)\n");
    if (!o->quiet && shared_from)
        fprintf(f, "note: from P = %d the ranks outnumber the %d processors that the model's nodes share (one machine's "
                   "nodes): they take turns on them, and the prediction has no term for the time a rank waits for its "
                   "turn\n", shared_from, c.m.processors);
    if (!o->quiet && over_from)
        fprintf(f, "note: from P = %d a node holds more ranks than the model gives it cores (cores_per_node): the "
                   "ranks share them, and every cost of a rank is stretched by %.3g at P = %d (machine.oversubscription "
                   "in the result)\n", over_from, over, over_from);
    /* the counts whose network is in doubt, from their documents */
    size_t i, said = 0;
    json_t *pt;
    json_array_foreach(points, i, pt) {
        const json_t *x = json_object_get(pt, "network_doubt");
        if (o->quiet || !x) continue;
        int bus = ps__doubt_on_bus(x);
        if (!said++)
            fprintf(f, "note: the probe could not tell whether two ranks' copies go one at a time (network = bus) or "
                       "side by side (nobus, each copy %.2f times as long while the other runs: the measured "
                       "contention); the model says %s, and %s the model predicts:\n",
                    ps_json_num(x, "nobus_contention"), bus ? "bus" : "nobus", bus ? "side by side" : "one at a time");
        double b = ps_json_num(x, "bus_s"), n = ps_json_num(x, "nobus_s"), mine = bus ? b : n, alt = bus ? n : b;
        fprintf(f, "%7d  %12.6g  (%+.1f%% against the %s's %.6g s)\n", ps__doc_ranks(pt), alt,
                mine > 0 ? 100 * (alt - mine) / mine : 0, bus ? "bus" : "nobus", mine);
    }
    if (said) fprintf(f, "      on one machine each was the closer in turn, an hour apart (docs/PREDICT.md)\n");
    /* the counts whose time depends on whether TCP coalesces their small messages */
    said = 0;
    json_array_foreach(points, i, pt) {
        const json_t *x = json_object_get(pt, "wire_doubt");
        if (o->quiet || !x) continue;
        if (!said++)
            fprintf(f, "note: the shaped link's bucket charges each message %.0f bytes beyond its payload (its "
                       "headers), as a message sent alone pays them; TCP coalesces small messages written "
                       "while earlier ones wait in the shaper, and a run may find either: with every message's payload "
                       "alone the model predicts:\n",
                    ps_json_num(x, "wire_bytes"));
        double a = ps_json_num(x, "alone_s"), k = ps_json_num(x, "coalesced_s");
        fprintf(f, "%7d  %12.6g  (%+.1f%% against %.6g s)\n", ps__doc_ranks(pt), k, a > 0 ? 100 * (k - a) / a : 0, a);
    }
    /* ... and whose time depends on the acknowledgements of messages sent one way */
    said = 0;
    json_array_foreach(points, i, pt) {
        const json_t *x = json_object_get(pt, "ack_doubt");
        if (o->quiet || !x) continue;
        if (!said++)
            fprintf(f, "note: TCP acknowledges a message that its receiver does not answer by a segment of its own, "
                       "about one for every second such message, and on this shaped link it takes the bucket's "
                       "tokens, which the model's %.0f wire bytes a message (measured where replies carry them) "
                       "leave out: with half of them (%.0f bytes) more for each such message, the model predicts:\n",
                    ps_json_num(x, "ack_bytes") / PS_PREDICT_ACK_SHARE, ps_json_num(x, "ack_bytes"));
        double a = ps_json_num(x, "alone_s"), k = ps_json_num(x, "acked_s");
        fprintf(f, "%7d  %12.6g  (%+.1f%% against %.6g s; %.0f messages sent one way)\n", ps__doc_ranks(pt), k,
                a > 0 ? 100 * (k - a) / a : 0, a, ps_json_num(x, "messages"));
    }
    /* ... and whose time depends on the protocol of messages larger than the probe examined */
    said = 0;
    json_array_foreach(points, i, pt) {
        const json_t *x = json_object_get(pt, "beyond_probe_doubt");
        if (o->quiet || !x) continue;
        if (!said++) {
            char a[32];
            ps_fmt_bytes(a, sizeof a, ps_json_num(x, "examined_bytes"));
            fprintf(f, "note: the model's table ends at %s, with no switch to rendezvous found, so the model sends "
                       "every larger message eagerly, its transfer overlapping its sender's computation; an MPI "
                       "library may switch above that (Open MPI over TCP: 64 KiB) and then move such a message only "
                       "while its sender is in a call: with a switch right above %s, the model predicts:\n",
                    a, a);
        }
        double a = ps_json_num(x, "alone_s"), k = ps_json_num(x, "rendezvous_s");
        char big[32];
        ps_fmt_bytes(big, sizeof big, ps_json_num(x, "largest_bytes"));
        fprintf(f, "%7d  %12.6g  (%+.1f%% against %.6g s; %.0f sends above it, the largest %s)\n", ps__doc_ranks(pt),
                k, a > 0 ? 100 * (k - a) / a : 0, a, ps_json_num(x, "messages"), big);
    }
    if (!o->quiet && doubt) {
        char a[32], b[32];
        ps_fmt_bytes(a, sizeof a, ps_json_num(doubt, "S"));
        ps_fmt_bytes(b, sizeof b, ps_json_num(doubt, "recv_step"));
        fprintf(f, "note: from P = %lld, %.0f%% of the messages (%lld) are larger than the model's S (%s) but not "
                   "than the receive's protocol step (%s): the model sends their data eagerly and completes each send "
                   "once its receiver's runtime has taken the message in, as Open MPI's shared memory does, a "
                   "protocol inferred from the receive's cost (docs/PREDICT.md); --eager %.0f completes such sends "
                   "at once\n",
                (long long)json_integer_value(json_object_get(doubt, "from_ranks")), 100 * ps_json_num(doubt, "share"),
                (long long)json_integer_value(json_object_get(doubt, "messages")), a, b,
                ps_json_num(doubt, "recv_step"));
    }
    if (!o->quiet && unpriced_at)
        fprintf(f, "note: the program's \\DATA_MOVE copies are not priced (from P = %d): the model has no memory rate "
                   "(r_incache and r_outcache, which parscope probe measures), so they cost nothing here; --calibrate "
                   "prices them from a 1-rank run\n", unpriced_at);
    if (!o->quiet && self_at)
        fprintf(f, "note: from P = %d the program sends messages to the sending rank itself, and the model has no "
                   "[self] table (parscope probe measures one): they are priced as messages between two ranks\n",
                self_at);
    if (!o->quiet && trunc_at)
        fprintf(f, "note: at P = %d, %llu message%s longer than the receive that takes %s (the first: rank %d's "
                   "from %d, tag %d, posted for %llu bytes, %llu sent): MPI fails such a receive (MPI_ERR_TRUNCATE) "
                   "and the run with it, unless the program computes the receive's size from data its messages "
                   "carry, which the recording does not carry between ranks; each message is priced by its send\n",
                trunc_at, (unsigned long long)trunc.count, trunc.count == 1 ? " is" : "s are",
                trunc.count == 1 ? "it" : "them", trunc.rank, trunc.from, trunc.tag,
                (unsigned long long)trunc.posted_bytes, (unsigned long long)trunc.message_bytes);
    if (json_array_size(points) == 1 && !c.several && !json_array_size(failed))
        *out = json_incref(json_array_get(points, 0));
    else if (json_array_size(points))
        *out = json_pack("{s:s, s:s, s:s, s:O}", "kind", "predict", "workload", c.name, "machine_model",
                         o->machine_path, "points", points);
    if (*out && json_array_size(failed)) json_object_set(*out, "not_predicted", failed);
    json_decref(points);
    /* several counts, some left out: the error says which, and the first one's reason (one count:
     * err holds its error already) */
    if (json_array_size(failed) && o->nranks > 1 && !ps_interrupted()) {
        char list[256] = "";
        size_t n = 0, fi;
        json_t *x;
        json_array_foreach(failed, fi, x)
            if (n < sizeof list)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s%lld", fi ? ", " : "",
                                      (long long)json_integer_value(json_object_get(x, "ranks")));
        ps_seterr(err, errlen, "P = %s not predicted (%zu of %d counts), the first because: %s", list,
                  json_array_size(failed), o->nranks,
                  json_string_value(json_object_get(json_array_get(failed, 0), "error")));
    }
    json_decref(failed);
    return rc;
}

int ps_predict_report_html(FILE *out, const json_t *doc, const char *dir, const char *source)
{
    return ps_report_run_html(out, doc, dir, source);
}
