/*
 * ns.c - entering a node, and the files each node keeps in its private /tmp.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emulate/emulate_int.h"
#include "util/util.h"

int ps__emu_enter(pid_t pid, char *err, size_t errlen)
{
    /* the mount namespace last: /proc paths must resolve before it */
    static const struct { const char *name; int type; } kinds[] = {
        {"ipc", CLONE_NEWIPC}, {"uts", CLONE_NEWUTS}, {"net", CLONE_NEWNET}, {"mnt", CLONE_NEWNS}};
    enum { NKINDS = sizeof kinds / sizeof kinds[0] };
    int fd[NKINDS];
    for (int i = 0; i < NKINDS; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/%s", (int)pid, kinds[i].name);
        fd[i] = open(path, O_RDONLY | O_CLOEXEC);
        if (fd[i] < 0) {
            ps_seterr(err, errlen, "cannot open %s: %s", path, strerror(errno));
            while (i-- > 0) close(fd[i]);
            return -1;
        }
    }
    cpu_set_t set;
    int have_cores = sched_getaffinity(pid, sizeof set, &set) == 0;
    int rc = 0;
    for (int i = 0; i < NKINDS; i++) {
        if (!rc && setns(fd[i], kinds[i].type) != 0) {
            ps_seterr(err, errlen, "cannot enter the %s namespace of process %d: %s", kinds[i].name, (int)pid,
                      strerror(errno));
            rc = -1;
        }
        close(fd[i]);
    }
    if (!rc && have_cores && sched_setaffinity(0, sizeof set, &set) != 0) {
        ps_seterr(err, errlen, "cannot move onto the cores of process %d: %s", (int)pid, strerror(errno));
        rc = -1;
    }
    return rc;
}

static int put(const char *path, const char *text, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        ps_seterr(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int ps__emu_node_files(const ps__cluster *c, int k, char *err, size_t errlen)
{
    (void)k;
    if (mkdir(PS__EMU_DIR, 0755) != 0 && errno != EEXIST) {
        ps_seterr(err, errlen, "cannot create %s: %s", PS__EMU_DIR, strerror(errno));
        return -1;
    }
    /* names resolve on every node as on a cluster's */
    size_t cap = 128 + (size_t)c->n * 48;
    char *hosts = ps_xcalloc(cap, 1), *ompi = ps_xcalloc(cap, 1), *hydra = ps_xcalloc(cap, 1);
    size_t h = 0, o = 0, y = 0;
    h += (size_t)snprintf(hosts + h, cap - h, "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n");
    for (int i = 0; i < c->n; i++) {
        h += (size_t)snprintf(hosts + h, cap - h, "%s\t%s\n", c->node[i].addr, c->node[i].name);
        /* plain mpiexec inside COMMAND places as PARSCOPE_MAP does (up to
         * N x C ranks): Open MPI maps by node or by slot over these slots,
         * hydra cycles over the entries, taking each entry's count at once */
        o += (size_t)snprintf(ompi + o, cap - o, "%s slots=%d\n", c->node[i].name, c->per_node);
        y += (size_t)snprintf(hydra + y, cap - y, "%s:%d\n", c->node[i].name,
                              c->o->map == PS_MAP_BLOCK ? c->per_node : 1);
    }
    int rc = put(PS__EMU_DIR "/hosts", hosts, err, errlen);
    if (!rc) rc = put(PS__EMU_DIR "/hosts.openmpi", ompi, err, errlen);
    if (!rc) rc = put(PS__EMU_DIR "/hosts.hydra", hydra, err, errlen);
    free(hosts);
    free(ompi);
    free(hydra);
    if (!rc && symlink(c->exe, PS__EMU_DIR "/" PS__EMU_AGENT_NAME) != 0) {
        ps_seterr(err, errlen, "cannot create %s/%s: %s", PS__EMU_DIR, PS__EMU_AGENT_NAME, strerror(errno));
        rc = -1;
    }
    if (!rc && mount(PS__EMU_DIR "/hosts", "/etc/hosts", NULL, MS_BIND, NULL) != 0) {
        ps_seterr(err, errlen, "cannot mount the node's /etc/hosts: %s", strerror(errno));
        rc = -1;
    }
    return rc;
}
