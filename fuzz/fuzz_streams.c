/* fuzz_streams.c - instruction streams read back from disk, in the binary
 * and the text form: loaded and validated, or rejected with a message. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/stream.h"
#include "tmpfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512] = "";
    ps_streams *s = NULL;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (ps_streams_parse_text(text, "fuzz", &s, err, sizeof err) == 0) {
        ps_streams_validate(s, NULL, err, sizeof err);
        ps_streams_free(s);
    } else if (!err[0]) {
        abort();
    }
    free(text);
    const char *p = ps_fuzz_file(data, size, ".pss");
    if (!p) return 0;
    err[0] = '\0';
    s = NULL;
    if (ps_streams_load(p, &s, err, sizeof err) == 0) {
        ps_streams_validate(s, NULL, err, sizeof err);
        ps_streams_free(s);
    } else if (!err[0]) {
        abort();
    }
    unlink(p);
    return 0;
}
