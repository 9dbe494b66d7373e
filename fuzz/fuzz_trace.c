/* fuzz_trace.c - the trace reader on arbitrary bytes: it must reject what
 * is not a trace with a message, never crash, and what it accepts must
 * survive matching and the sheet. */
#include <stdint.h>
#include <stdlib.h>

#include "trace/sheet.h"
#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ps_trace *t;
    char err[256];
    if (ps_trace_parse(data, size, "fuzz", &t, err, sizeof err) == 0) {
        ps_sheet s;
        if (ps_sheet_compute(t, &s) == 0) ps_sheet_free(&s);
        ps_trace_free(t);
    } else if (!err[0]) {
        abort(); /* a rejection must say why */
    }
    return 0;
}
