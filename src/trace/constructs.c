/* constructs.c - the built-in construct names (see constructs.h). */
#include "trace/constructs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const ps__construct_builtin_names[PS_C__BUILTIN] = {
    "NONE", "USER", "COMMUNICATE", "EXCHANGE", "MULTIBCAST0", "MULTIBCAST_ME", "MULTIBCAST_ALTER",
    "TREE_BCAST", "TREE_COLLECT_VEC", "TREE_DISTRIB_VEC", "VISIBLE_SYNC", "SEND", "RECEIVE", "BSEND",
    "BRECEIVE", "WORK", "WAIT", "SCALPROD", "MATVECPROD", "MATPROD", "INIT_ARRAY", "DATA_MOVE",
    "SECTION", "BARRIER", "REDUCE", "CLOCKSYNC"};

int ps__construct_list_add(char ***names, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*names)[i], name)) return i;
    if (*n >= UINT16_MAX) return -1;
    char **v = realloc(*names, (size_t)(*n + 1) * sizeof *v);
    if (!v) return -1;
    *names = v;
    if (!(v[*n] = strdup(name))) return -1;
    return (*n)++;
}

void ps__construct_list_free(char ***names, int *n)
{
    for (int i = 0; i < *n; i++) free((*names)[i]);
    free(*names);
    *names = NULL;
    *n = 0;
}
