/* test_json.c - ps_json_num on known values: integers and reals come back
 * exactly, everything that is not a number (absent, null, string, boolean,
 * object, a NULL or non-object document) is NAN, never 0. */
#include <math.h>

#include "trace/json.h"

#include "check.h"

TEST_IMPL(json_num)
{
    json_error_t err;
    json_t *o = json_loads("{\"int\": 42, \"neg\": -7, \"big\": 9007199254740992, \"real\": 2.5,"
                           " \"zero\": 0, \"tiny\": 1e-300, \"null\": null, \"str\": \"3.5\","
                           " \"yes\": true, \"obj\": {\"int\": 1}, \"arr\": [1, 2]}",
                           0, &err);
    CHECK(o != NULL, "parse: %s", err.text);
    if (!o) return;
    CHECK(ps_json_num(o, "int") == 42.0, "int %g", ps_json_num(o, "int"));
    CHECK(ps_json_num(o, "neg") == -7.0, "neg %g", ps_json_num(o, "neg"));
    CHECK(ps_json_num(o, "big") == 9007199254740992.0, "big %.17g", ps_json_num(o, "big"));
    CHECK(ps_json_num(o, "real") == 2.5, "real %g", ps_json_num(o, "real"));
    /* a present 0 is a figure, not a missing one */
    CHECK(ps_json_num(o, "zero") == 0.0 && !signbit(ps_json_num(o, "zero")), "zero %g", ps_json_num(o, "zero"));
    CHECK(ps_json_num(o, "tiny") == 1e-300, "tiny %g", ps_json_num(o, "tiny"));
    CHECK(isnan(ps_json_num(o, "absent")), "absent %g", ps_json_num(o, "absent"));
    CHECK(isnan(ps_json_num(o, "null")), "null %g", ps_json_num(o, "null"));
    CHECK(isnan(ps_json_num(o, "str")), "string %g", ps_json_num(o, "str"));
    CHECK(isnan(ps_json_num(o, "yes")), "boolean %g", ps_json_num(o, "yes"));
    CHECK(isnan(ps_json_num(o, "obj")), "object %g", ps_json_num(o, "obj"));
    CHECK(isnan(ps_json_num(o, "arr")), "array %g", ps_json_num(o, "arr"));
    /* one level only: a key is not a path */
    CHECK(isnan(ps_json_num(o, "obj.int")), "dotted %g", ps_json_num(o, "obj.int"));
    CHECK(ps_json_num(json_object_get(o, "obj"), "int") == 1.0, "nested");
    /* no document, or one that is not an object */
    CHECK(isnan(ps_json_num(NULL, "int")), "NULL object");
    CHECK(isnan(ps_json_num(json_object_get(o, "arr"), "int")), "array document");
    CHECK(isnan(ps_json_num(json_object_get(o, "int"), "int")), "number document");
    json_decref(o);
}
