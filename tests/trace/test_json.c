/* test_json.c - ps_json_num on known values: integers and reals come back
 * exactly, everything that is not a number (absent, null, string, boolean,
 * object, a NULL or non-object document) is NAN, never 0; and
 * ps_json_real_or_null writes a finite figure as itself, anything else as
 * null (a document never holds "nan"); and ps_random_skip lands where the
 * single draws would. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"
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
    /* and the way back: finite figures as themselves, the rest as null */
    json_t *d = json_object();
    json_object_set_new(d, "x", ps_json_real_or_null(0.25));
    json_object_set_new(d, "nan", ps_json_real_or_null(NAN));
    json_object_set_new(d, "inf", ps_json_real_or_null(-INFINITY));
    CHECK(ps_json_num(d, "x") == 0.25, "finite %g", ps_json_num(d, "x"));
    CHECK(json_is_null(json_object_get(d, "nan")), "NAN is not null");
    CHECK(json_is_null(json_object_get(d, "inf")), "-inf is not null");
    char *text = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK(text && !strcmp(text, "{\"inf\":null,\"nan\":null,\"x\":0.25}"), "document %s", text ? text : "(none)");
    free(text);
    json_decref(d);
}

/* ps_random_skip(k) leaves a state where k single draws would: the next
 * draws are the same numbers, so a rank that skips to its share of a stream
 * draws what a serial pass would draw there. */
TEST_IMPL(random_skip)
{
    enum { N = 1000 };
    static double serial[N];
    uint64_t s = ps_random_seed(0, 21);
    for (int i = 0; i < N; i++) serial[i] = ps_random(&s);
    static const uint64_t at[] = {0, 1, 2, 17, 500, 999};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        uint64_t t = ps_random_seed(0, 21);
        ps_random_skip(&t, at[k]);
        for (uint64_t i = at[k]; i < N; i++) {
            double x = ps_random(&t);
            CHECK(x == serial[i], "skip %llu: draw %llu is %.17g, serially %.17g", (unsigned long long)at[k],
                  (unsigned long long)i, x, serial[i]);
            if (x != serial[i]) break;
        }
    }
    /* a skip of 0 changes nothing; skips add up */
    uint64_t a = ps_random_seed(3, 1), b = a;
    ps_random_skip(&a, 0);
    CHECK(a == b, "a skip of 0 moved the state");
    ps_random_skip(&a, 123);
    ps_random_skip(&a, 877);
    ps_random_skip(&b, 1000);
    CHECK(a == b, "skips of 123 and 877 differ from one of 1000");
}
