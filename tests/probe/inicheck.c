/* inicheck.c - test helper: loads a machine model written by `parscope probe`
 * and its result JSON, and checks what a user relies on: the model parses,
 * its figures are positive (g and l, or the fit failed and both files say so),
 * the JSON keeps every sample.  Exit 0 or 1. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "sim/machine.h"

#define REQUIRE(c) do { if (!(c)) { fprintf(stderr, "inicheck: %s failed\n", #c); return 1; } } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    ps_machine m;
    char err[512];
    if (ps_machine_load(argv[1], &m, err, sizeof err) != 0) {
        fprintf(stderr, "inicheck: %s\n", err);
        return 1;
    }
    REQUIRE(m.send_latency > 0 && m.recv_latency > 0 && m.word_time > 0 && m.flop_time > 0);
    REQUIRE(m.bsp_r > 0 && m.bsp_p >= 2);
    REQUIRE(m.t0 > 0 && m.r_inf > 0 && m.npp >= 2 && m.pp_bytes[0] == 1);
    /* every planned size, or (a busy machine taken for a slow network) the result says why not */
    int full = m.npp >= 60 && m.pp_bytes[m.npp - 1] == 4194307;
    REQUIRE(m.r_incache > 0 && m.r_outcache > 0 && m.cores > 0 && m.mpi[0]);
    /* the LogGOPS table through the runtime's calls: ascending sizes from 1 B, positive CPU costs,
     * an S that is one of the rows (or none found) */
    REQUIRE(m.lg.n >= 4 && m.lg.bytes[0] == 1);
    int s_row = m.lg.S == 0;
    for (int i = 0; i < m.lg.n; i++) {
        REQUIRE(m.lg.os[i] > 0 && m.lg.orr[i] > 0 && m.lg.L[i] >= 0 && m.lg.gap[i] >= 0);
        if (i) REQUIRE(m.lg.bytes[i] > m.lg.bytes[i - 1]);
        if (m.lg.bytes[i] == m.lg.S) s_row = 1;
    }
    REQUIRE(s_row);
    REQUIRE(m.lg.o_post > 0 && m.lg.o_done > 0 && m.lg.contention >= 1);
    /* an acknowledged send's wait: only with an acknowledged range, and no cheaper than any wait */
    REQUIRE(m.lg.o_ack == 0 || (m.lg.S > 0 && m.lg.S_ack > m.lg.S && m.lg.o_ack >= m.lg.o_done));
    REQUIRE(m.lg.o_ack_more >= 0 && (m.lg.o_ack > 0 || m.lg.o_ack_more == 0));
    REQUIRE(m.lg.rate == 0 && m.lg.burst == 0);   /* shared memory is not a shaped link */
    printf("latency %.3g s, r_inf %.3g B/s, r %.3g flop/s, g %.3g, l %.3g\n", m.t0, m.r_inf, m.bsp_r, m.bsp_g, m.bsp_l);
    if (argc <= 2) REQUIRE(full);
    if (argc > 2) {
        json_error_t je;
        json_t *doc = json_load_file(argv[2], 0, &je);
        REQUIRE(doc != NULL);
        REQUIRE(strcmp(json_string_value(json_object_get(doc, "kind")), "probe") == 0);
        json_t *sizes = json_object_get(json_object_get(doc, "pingpong"), "sizes");
        REQUIRE((int)json_array_size(sizes) == m.npp);
        size_t i;
        json_t *s;
        json_array_foreach(sizes, i, s) {
            json_t *rounds = json_object_get(s, "samples");
            REQUIRE(json_array_size(rounds) >= 3);
            REQUIRE(json_array_size(json_array_get(rounds, 0)) >= 3);
        }
        REQUIRE(json_array_size(json_object_get(doc, "agreement")) == 5);
        REQUIRE((int)json_array_size(json_object_get(json_object_get(doc, "loggops"), "sizes")) == m.lg.n);
        json_t *w = json_object_get(doc, "warnings");
        REQUIRE(json_is_array(w));
        int said_cut = 0;
        json_array_foreach(w, i, s) {
            const char *t = json_string_value(s);
            if (t && (strncmp(t, "the ping-pong stopped at ", 25) == 0 || strstr(t, "on the ping-pong measured only powers of two")))
                said_cut = 1;
        }
        REQUIRE(full || said_cut);
        if (!full) printf("ping-pong sizes cut short, and said so (%d sizes, the last %.0f B)\n", m.npp, m.pp_bytes[m.npp - 1]);
        /* g and l are positive, or (a loaded machine, seed 004's artefact) the fit failed and both
         * the model and the result say so instead of presenting a figure as a fact */
        int warned = 0;
        json_array_foreach(w, i, s) {
            const char *t = json_string_value(s);
            if (t && strncmp(t, "the h-relation fit failed: ", 27) == 0) warned = 1;
        }
        if (!(m.bsp_g > 0 && m.bsp_l > 0)) {
            REQUIRE(warned && m.bsp_fit_note[0]);
            REQUIRE(m.bsp_g == 0 && m.bsp_l == 0);
            printf("g and l not in the model: %s\n", m.bsp_fit_note);
        } else
            REQUIRE(!warned && !m.bsp_fit_note[0]);
        json_decref(doc);
    }
    return 0;
}
