/* json.c - figures in JSON documents, read back and written (json.h). */
#include "trace/json.h"

#include <math.h>
#include <stdio.h>

#include "util/util.h"

double ps_json_num(const json_t *o, const char *key)
{
    /* json_object_get answers NULL for a NULL or non-object o */
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

json_t *ps_json_real_or_null(double v) { return isfinite(v) ? json_real(v) : json_null(); }

json_t *ps_json_load_path(const char *path, size_t flags, char *err, size_t errlen)
{
    if (ps_is_dir(path)) {
        ps_seterr(err, errlen, "%s: is a directory, not a file", path);
        return NULL;
    }
    json_error_t e;
    json_t *d = json_load_file(path, flags, &e);
    if (d) return d;
    /* a file that is missing or unreadable has no line to name (jansson's text names the path) */
    if (e.line > 0) ps_seterr(err, errlen, "%s:%d:%d: %s", path, e.line, e.column, e.text);
    else ps_seterr(err, errlen, "%s", e.text);
    return NULL;
}
