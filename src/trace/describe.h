/*
 * describe.h - what a result sheet says about a run besides its figures: the
 * evaluated problem with its structural parameters and the hardware (LOOP
 * seed, section 6.2 and its appendix: "Fingerprint(1,500,1000)", "Nodes: 128
 * at 20MHz", "Network: Hypercube").
 *
 * The runtime writes both into the trace's metadata (docs/TRACE_FORMAT.md,
 * "Metadata"): "structure" lists every construct with the distinct arguments
 * it was called with, "hardware" the processor and the interconnect.  The
 * text sheet, the result JSON and the HTML sheet all format them here.
 */
#ifndef PS_DESCRIBE_H
#define PS_DESCRIBE_H

#include <jansson.h>
#include <stddef.h>

#include "trace/trace.h"

/* The trace's metadata as a JSON object (a new reference), or NULL when it
 * has none or it is not a JSON object. */
json_t *ps_trace_meta(const ps_trace *t);

/* The hardware of a run: the metadata's "hardware" object (processor, cores,
 * interconnect; a prediction's machine model) with "mpi" and the ranks'
 * distinct "hosts" in rank order added.  A new object, empty when nothing is
 * known.  meta may be NULL. */
json_t *ps_trace_hardware(const ps_trace *t, const json_t *meta);

/* The seed's headline "Fingerprint(1,500,1000)": the workload and the sizes
 * its communication constructs were called with (the first argument, bytes,
 * of each distinct call, in the order of first use); just the workload when
 * the structure is unknown. */
void ps_problem_text(const char *workload, const json_t *structure, char *buf, size_t len);

/* Every construct with its calls: "MULTIBCAST0(1), (500), (1000); VISIBLE_SYNC() x5";
 * "-" when unknown. */
void ps_structure_text(const json_t *structure, char *buf, size_t len);

/* The hardware as the sheet's lines ("-" where unknown). */
typedef struct ps_hw_text {
    char machine[256];  /* the hosts, or the machine model's name */
    char nodes[256];    /* "4 ranks on 1 host (2 cores) at 2496 MHz" */
    char cpu[256];
    char network[256];  /* the interconnect's type */
    char mpi[256];
} ps_hw_text;
void ps_hardware_text(const json_t *hw, int nranks, ps_hw_text *out);

#endif /* PS_DESCRIBE_H */
