/*
 * json.h - figures in parscope's JSON documents (result files, the trace's
 * metadata, probe and scale documents): read back, and written.
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

/* A figure to write: v as a real, or null when it is not finite (never
 * "nan" or "inf" in a document; JSON has neither). */
json_t *ps_json_real_or_null(double v);

/* The JSON document in the file at path (jansson's flags), or NULL with a
 * message in err that names the path: "PATH:LINE:COLUMN: what" for text
 * that does not parse, "PATH: is a directory, not a file", or jansson's
 * reason for a file it could not open (which names the path). */
json_t *ps_json_load_path(const char *path, size_t flags, char *err, size_t errlen);

#endif /* PS_JSON_H */
