/* tmpfile.h - for harnesses of loaders that take a path: the input is
 * written to a private temporary file first. */
#ifndef PS_FUZZ_TMPFILE_H
#define PS_FUZZ_TMPFILE_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static inline const char *ps_fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/parscope-fuzz-%d%s", (int)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    fwrite(data, 1, size, f);
    fclose(f);
    return path;
}

#endif
