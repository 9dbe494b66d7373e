/* fuzz_config.c - scale's keyword = value configuration files. */
#include <stdlib.h>
#include <unistd.h>

#include "scale/params.h"
#include "tmpfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = ps_fuzz_file(data, size, ".conf");
    if (!p) return 0;
    ps_scale_params prm;
    ps_scale_params_defaults(&prm);
    char err[512] = "";
    if (ps_scale_params_load(&prm, p, err, sizeof err) != 0 && !err[0]) abort();
    unlink(p);
    return 0;
}
