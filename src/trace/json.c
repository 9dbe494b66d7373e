/* json.c - figures in JSON documents, read back and written (json.h). */
#include "trace/json.h"

#include <math.h>

double ps_json_num(const json_t *o, const char *key)
{
    /* json_object_get answers NULL for a NULL or non-object o */
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

json_t *ps_json_real_or_null(double v) { return isfinite(v) ? json_real(v) : json_null(); }
