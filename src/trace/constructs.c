/* constructs.c - the built-in construct names (see constructs.h). */
#include "trace/constructs.h"

const char *const ps__construct_builtin_names[PS_C__BUILTIN] = {
    "NONE", "USER", "COMMUNICATE", "EXCHANGE", "MULTIBCAST0", "MULTIBCAST_ME", "MULTIBCAST_ALTER",
    "TREE_BCAST", "TREE_COLLECT_VEC", "TREE_DISTRIB_VEC", "VISIBLE_SYNC", "SEND", "RECEIVE", "BSEND",
    "BRECEIVE", "WORK", "WAIT", "SCALPROD", "MATVECPROD", "MATPROD", "INIT_ARRAY", "DATA_MOVE",
    "SECTION", "BARRIER", "REDUCE", "CLOCKSYNC"};
