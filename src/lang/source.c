/* source.c - reading a .loop file for the generator (see source.h). */
#include "lang/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/diag.h"
#include "util/util.h"

/* A diagnostic without a source line: the file has none to show. */
static char *fail(const char *shown, char *err, size_t errlen, const char *what, int errnum)
{
    ps_diag d;
    ps_diag_init(&d, shown, NULL, 0);
    if (errnum) ps_diag_error(&d, 1, 1, "%s: %s", what, strerror(errnum));
    else ps_diag_error(&d, 1, 1, "%s", what);
    ps_seterr(err, errlen, "%s", d.msg);
    ps_diag_free(&d);
    return NULL;
}

char *ps_lang_read_source(const char *path, const char *shown, size_t *len, char *err, size_t errlen)
{
    if (!shown) shown = path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(shown, err, errlen, "cannot open the file", errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(shown, err, errlen, "cannot read the file", e);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return fail(shown, err, errlen, "is a directory, not a LOOP program", 0);
    }
    char too_large[96];
    snprintf(too_large, sizeof too_large, "the file is larger than %zu MiB: too large for a LOOP program",
             PS_LANG_MAX_SOURCE >> 20);
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > PS_LANG_MAX_SOURCE) {
        close(fd);
        return fail(shown, err, errlen, too_large, 0);
    }
    char *buf = ps_read_fd(fd, PS_LANG_MAX_SOURCE, 1, len); /* a NUL is the lexer's to report */
    int e = errno;
    close(fd);
    if (!buf && e == ENOMEM) ps_oom();
    if (!buf && e == E2BIG) return fail(shown, err, errlen, too_large, 0);
    if (!buf)
        return fail(shown, err, errlen, e == EISDIR ? "is a directory, not a LOOP program" : "cannot read the file",
                    e == EISDIR ? 0 : e);
    return buf;
}
