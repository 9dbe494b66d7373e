/*
 * constructs.h - the names of the runtime's built-in constructs.
 *
 * A construct id (parscope.h, enum ps_construct_id) names what issued an
 * event or an instruction.  The runtime, the instruction streams and the
 * simulator all name the built-in ids from this one table.
 */
#ifndef PS_CONSTRUCTS_H
#define PS_CONSTRUCTS_H

#include "parscope/parscope.h"

/* Indexed by enum ps_construct_id, PS_C_NONE .. PS_C__BUILTIN-1. */
extern const char *const ps__construct_builtin_names[PS_C__BUILTIN];

/* The id of `name` in a list of construct names (names[0 .. *n)), appended
 * when new; -1 when the list is full (ids are 16 bits) or out of memory.
 * Traces and instruction streams keep their names so. */
int ps__construct_list_add(char ***names, int *n, const char *name);
/* Frees such a list and leaves it empty. */
void ps__construct_list_free(char ***names, int *n);

#endif
