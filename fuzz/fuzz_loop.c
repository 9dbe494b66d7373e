/* fuzz_parser.c - libFuzzer harness for the LOOP lexer, parser and generator:
 * any input must give C or a diagnostic (status 2), never a crash, a leak or
 * undefined behaviour. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang/codegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = malloc(size + 1);
    if (!src) return 0;
    memcpy(src, data, size);
    src[size] = 0;
    static const int variants[] = {PS_VARIANT_FULL, PS_VARIANT_COMM};
    for (int v = 0; v < 2; v++) {
        ps_gen_opts o = {"fuzz.loop", variants[v], v ? "entry" : NULL, v ? "src_sym" : NULL};
        ps_diag d;
        ps_diag_init(&d, "fuzz.loop", src, size);
        char *out = NULL;
        size_t n = 0;
        int rc = ps_gen(src, size, &o, &out, &n, &d);
        /* the lexer refuses a NUL byte, so a success is a C string of length n */
        if (rc == 0 && (!out || strlen(out) != n)) abort();
        if (rc != 0 && (out || !d.failed || !strstr(d.msg, "fuzz.loop:"))) abort();
        ps_diag_free(&d);
        free(out);
    }
    free(src);
    return 0;
}
