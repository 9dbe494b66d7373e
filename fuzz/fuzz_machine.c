/* fuzz_machine.c - machine model files (INI, and the estimator seed's
 * architecture format): every input is loaded or rejected with a message. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/machine.h"
#include "tmpfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = ps_fuzz_file(data, size, ".ini");
    if (!p) return 0;
    ps_machine m;
    char err[512] = "";
    if (ps_machine_load(p, &m, err, sizeof err) == 0) {
        (void)ps_machine_msg_time(&m, 1000);
        (void)ps_machine_msg_time(&m, 1e9);
    } else if (!err[0]) {
        abort();
    }
    unlink(p);
    return 0;
}
