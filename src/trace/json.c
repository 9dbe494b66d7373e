/* json.c - reading figures back from JSON documents (json.h). */
#include "trace/json.h"

#include <math.h>

double ps_json_num(const json_t *o, const char *key)
{
    /* json_object_get answers NULL for a NULL or non-object o */
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}
