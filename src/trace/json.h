/*
 * json.h - reading figures back from parscope's JSON documents (result
 * files, the trace's metadata, probe and scale documents).
 *
 * Here, in the lowest layer that reads JSON, so that every layer above
 * reads a figure the same way.
 */
#ifndef PS_JSON_H
#define PS_JSON_H

#include <jansson.h>

/* The number under key in object o, integer or real, as a double; NAN when o
 * is NULL or not an object, the key is absent, or its value is not a number
 * (null, a string, ...), so a figure that was not measured stays unknown
 * rather than becoming 0. */
double ps_json_num(const json_t *o, const char *key);

#endif /* PS_JSON_H */
