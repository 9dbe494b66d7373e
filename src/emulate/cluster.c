/*
 * cluster.c - building the emulated cluster, running COMMAND on node 0, and
 * tearing everything down whatever happens.
 *
 * Processes:
 *   parscope emulate (host namespaces): checks, plans, forwards signals,
 *   |                                    returns COMMAND's status
 *   +- init: PID 1 of a new PID namespace, own mount namespace with a /proc
 *      |     of that PID namespace; dies with parscope emulate (parent-death
 *      |     signal, and end of file on a pipe from it)
 *      +- the switch's anchor: a network namespace holding the bridge
 *      +- node k's anchor: network, UTS (hostname nodek), mount (private /tmp,
 *      |  /dev/shm, /etc/hosts) and IPC namespaces, bound to the node's cores
 *      +- COMMAND, entered into node 0
 * Tear-down is the kernel's: when init ends (COMMAND ended, or parscope
 * emulate died, even by SIGKILL), every process of its PID namespace is
 * killed, and with the last process of a namespace go its links, bridge,
 * addresses and mounts.  Nothing is made in the host's namespaces or files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "parscope/parscope.h"
#include "emulate/emulate_int.h"
#include "launch/launch.h"
#include "util/proc.h"
#include "util/util.h"

/* What init tells parscope emulate, one fixed-size record per write (below
 * PIPE_BUF, so records never interleave). */
enum { REP_ERROR = 1, REP_EXIT = 2 };
typedef struct report {
    int  kind;
    int  wstatus;      /* REP_EXIT: COMMAND's wait status */
    char text[496];    /* REP_ERROR: what failed */
} report;

/* Signals parscope emulate passes on before it gives up waiting: the third
 * SIGINT / SIGTERM / SIGHUP tears the cluster down at once. */
#define PS__EMU_SIGNALS_BEFORE_KILL 3

/* ---- checks in the host -------------------------------------------------- */

static int has_caps(void)
{
    /* CAP_NET_ADMIN (12) for links, CAP_SYS_ADMIN (21) for namespaces and mounts */
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return geteuid() == 0;
    char line[256];
    unsigned long long eff = 0;
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &eff) == 1) {
            found = 1;
            break;
        }
    fclose(f);
    if (!found) return geteuid() == 0;
    return (eff >> 12 & 1) && (eff >> 21 & 1);
}

static int find_tool(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char *copy = ps_xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", *d ? d : ".", name);
        found = access(out, X_OK) == 0;
    }
    free(copy);
    return found;
}

static int under_tmp(const char *path)
{
    return !strcmp(path, "/tmp") || !strncmp(path, "/tmp/", 5);
}

/* A path as one word of a launcher template (single quotes, as a shell's). */
static void quote_word(const char *s, char *out, size_t len)
{
    size_t o = 0;
    if (o + 1 < len) out[o++] = '\'';
    for (; *s && o + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    if (o + 1 < len) out[o++] = '\'';
    out[o] = '\0';
}

/* PARSCOPE_LAUNCHER for parscope's jobs: the launcher parscope was built
 * with, told to place rank r on the r-th line of {hostfile}. */
static void choose_launcher(ps__cluster *c)
{
    char mpiexec[PATH_MAX], lib[128];
    c->launcher[0] = '\0';
    if (ps_default_mpiexec(mpiexec, sizeof mpiexec)) return;
    char q[PATH_MAX + 16];
    quote_word(mpiexec, q, sizeof q);
    ps_mpiexec_library(mpiexec, lib, sizeof lib);
    if (!strncmp(lib, "Open MPI", 8))
        snprintf(c->launcher, sizeof c->launcher, "%s --hostfile {hostfile} --map-by seq -n {ranks}", q);
    else if (!strncmp(lib, "MPICH", 5))
        snprintf(c->launcher, sizeof c->launcher, "%s -f {hostfile} -n {ranks}", q);
}

static void run_id(char id[8])
{
    unsigned v = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        v = (unsigned)getpid() * 2654435761u ^ (unsigned)ts.tv_nsec;
    }
    if (fd >= 0) close(fd);
    snprintf(id, 8, "%06x", v & 0xffffff);
}

static void describe(const ps__cluster *c)
{
    const ps_emulate_opts *o = c->o;
    fprintf(stderr, "parscope emulate: %d node%s (node0", c->n, c->n > 1 ? "s" : "");
    if (c->n > 1) fprintf(stderr, "..node%d", c->n - 1);
    fprintf(stderr, ", %s", c->node[0].addr);
    if (c->n > 1) fprintf(stderr, "-%s", c->node[c->n - 1].addr);
    fprintf(stderr, ") on one switch, run %s; ", c->id);
    if (o->link_rate > 0) {
        char r[32];
        if (o->link_rate >= 1e9) snprintf(r, sizeof r, "%g Gbit/s", o->link_rate / 1e9);
        else if (o->link_rate >= 1e6) snprintf(r, sizeof r, "%g Mbit/s", o->link_rate / 1e6);
        else snprintf(r, sizeof r, "%g kbit/s", o->link_rate / 1e3);
        fprintf(stderr, "links %s each way (tbf, burst %ld B)", r, c->burst);
    } else {
        fprintf(stderr, "links not shaped");
    }
    fprintf(stderr, "; ranks %s\n", o->map == PS_MAP_BLOCK ? "in blocks" : "round robin");
    fprintf(stderr, "parscope emulate: cores:");
    for (int k = 0; k < c->n; k++) {
        fprintf(stderr, " node%d {", k);
        for (int j = 0; j < c->per_node; j++) fprintf(stderr, "%s%d", j ? "," : "", c->node[k].cores[j]);
        fputc('}', stderr);
    }
    if (c->shared_cores)
        fprintf(stderr, " (%d nodes x %d core%s on %d cores: nodes share cores)", c->n, c->per_node,
                c->per_node > 1 ? "s" : "", c->ncpu);
    fputc('\n', stderr);
    if (!c->launcher[0])
        fprintf(stderr, "parscope emulate: cannot tell which MPI library the launcher is; PARSCOPE_LAUNCHER is "
                        "not set, so parscope's jobs stay on node0 (give --launcher)\n");
}

/* Nodes that share processors: said even with -q, as run says it of its
 * ranks, since every time measured in the cluster then includes waiting
 * for a processor. */
static void warn_shared(const ps__cluster *c)
{
    if (!c->shared_cores) return;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    char where[96];
    if (online > 0 && online != c->ncpu)
        snprintf(where, sizeof where, "the %d processor%s this process may use (%ld online)", c->ncpu,
                 c->ncpu == 1 ? "" : "s", online);
    else snprintf(where, sizeof where, "the %d processor%s online", c->ncpu, c->ncpu == 1 ? "" : "s");
    fprintf(stderr,
            "parscope emulate: WARNING: oversubscribed: %d nodes x %d core%s = %d cores on %s: nodes share "
            "processors, so the ranks of nodes that share one time-share it, and times measured in the cluster "
            "include time-slicing (NODES x --cores-per-node within %d keeps them apart)\n",
            c->n, c->per_node, c->per_node == 1 ? "" : "s", c->n * c->per_node, where, c->ncpu);
}

/* ---- inside the cluster --------------------------------------------------- */

static int rep_fd = -1;

static void send_report(int kind, int wstatus, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void send_report(int kind, int wstatus, const char *fmt, ...)
{
    report m;
    memset(&m, 0, sizeof m);
    m.kind = kind;
    m.wstatus = wstatus;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m.text, sizeof m.text, fmt, ap);
        va_end(ap);
    }
    ssize_t w;
    do w = write(rep_fd, &m, sizeof m);
    while (w < 0 && errno == EINTR);
}

static void write_sysctl(const char *path, const char *value)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t w = write(fd, value, strlen(value));
    (void)w;
    close(fd);
}

/* An anchor holds its namespaces open and does nothing else; it ignores the
 * terminal's signals (it shares the process group) and dies with init. */
static void anchor_common(const char *comm)
{
    prctl(PR_SET_NAME, comm, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    static const int ign[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE};
    for (size_t i = 0; i < sizeof ign / sizeof ign[0]; i++) signal(ign[i], SIG_IGN);
}

static _Noreturn void anchor_sleep(void)
{
    for (;;) pause();
}

typedef struct ready {
    int  ok;
    char text[248];
} ready;

static void tell(int fd, int ok, const char *text)
{
    ready r;
    memset(&r, 0, sizeof r);
    r.ok = ok;
    snprintf(r.text, sizeof r.text, "%s", text ? text : "");
    ssize_t w = write(fd, &r, sizeof r);
    (void)w;
}

static void no_ipv6(void)
{
    /* IPv4 only: no router solicitations or duplicate address probes on the links */
    write_sysctl("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
    write_sysctl("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
}

static _Noreturn void switch_anchor(const ps__cluster *c, int fd)
{
    char comm[16];
    snprintf(comm, sizeof comm, "ps-%s-sw", c->id);
    anchor_common(comm);
    if (unshare(CLONE_NEWNET) != 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "cannot create the switch's network namespace: %s", strerror(errno));
        tell(fd, 0, msg);
        _exit(1);
    }
    no_ipv6();
    tell(fd, 1, NULL);
    close(fd);
    anchor_sleep();
}

static _Noreturn void node_anchor(const ps__cluster *c, int k, int fd)
{
    const ps__enode *nd = &c->node[k];
    anchor_common(nd->comm);
    char msg[240], err[200] = "";
    char src[32];
    snprintf(src, sizeof src, "parscope-%s", c->id);
    if (unshare(CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWNS | CLONE_NEWIPC) != 0)
        snprintf(err, sizeof err, "namespaces: %s", strerror(errno));
    else if (sethostname(nd->name, strlen(nd->name)) != 0)
        snprintf(err, sizeof err, "hostname: %s", strerror(errno));
    else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        snprintf(err, sizeof err, "private mounts: %s", strerror(errno));
    else if (mount(src, "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0)
        snprintf(err, sizeof err, "a private /tmp: %s", strerror(errno));
    else if (ps_is_dir("/dev/shm") && mount(src, "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0)
        snprintf(err, sizeof err, "a private /dev/shm: %s", strerror(errno));
    if (!err[0]) {
        no_ipv6();
        ps__emu_node_files(c, k, err, sizeof err);
    }
    if (!err[0]) {
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int j = 0; j < c->per_node; j++) CPU_SET(nd->cores[j], &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) snprintf(err, sizeof err, "cores: %s", strerror(errno));
    }
    if (err[0]) {
        snprintf(msg, sizeof msg, "cannot create %s: %s", nd->name, err);
        tell(fd, 0, msg);
        _exit(1);
    }
    tell(fd, 1, NULL);
    close(fd);
    anchor_sleep();
}

typedef struct anchor_args {
    const ps__cluster *c;
    int                k;      /* node, or -1: the switch */
    int                pipe[2];
} anchor_args;

static void anchor_main(void *ctx)
{
    anchor_args *a = ctx;
    close(a->pipe[0]);
    close(rep_fd);
    if (a->k < 0) switch_anchor(a->c, a->pipe[1]);
    node_anchor(a->c, a->k, a->pipe[1]);
}

/* Starts an anchor and waits until it is ready; its PID, or -1 with err. */
static pid_t start_anchor(const ps__cluster *c, int k, char *err, size_t errlen)
{
    anchor_args a = {.c = c, .k = k};
    int *p = a.pipe;
    if (pipe2(p, O_CLOEXEC) != 0) {
        ps_seterr(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = ps_proc_start_fn(anchor_main, &a);
    if (pid < 0) {
        ps_seterr(err, errlen, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    close(p[1]);
    ready r;
    ssize_t n;
    do n = read(p[0], &r, sizeof r);
    while (n < 0 && errno == EINTR);
    close(p[0]);
    if (n != (ssize_t)sizeof r || !r.ok) {
        ps_seterr(err, errlen, "%s", n == (ssize_t)sizeof r ? r.text : "an anchor process ended before it was ready");
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return -1;
    }
    return pid;
}

/* COMMAND's environment: where the nodes are and how MPI reaches them. */
static void command_env(const ps__cluster *c)
{
    size_t cap = 64 + (size_t)c->n * 64;
    char *nodes = ps_xcalloc(cap, 1), *hosts = ps_xcalloc(cap, 1);
    size_t a = 0, b = 0;
    for (int k = 0; k < c->n; k++) {
        a += (size_t)snprintf(nodes + a, cap - a, "%s%s/%s/%d", k ? "," : "", c->node[k].name, c->node[k].addr,
                              (int)c->node[k].pid);
        b += (size_t)snprintf(hosts + b, cap - b, "%s%s:%d", k ? "," : "", c->node[k].name, c->per_node);
    }
    setenv(PS__EMU_ENV_ID, c->id, 1);
    setenv(PS__EMU_ENV_NODES, nodes, 1);
    setenv("PARSCOPE_HOSTS", hosts, 1);
    setenv("PARSCOPE_MAP", c->o->map == PS_MAP_BLOCK ? "block" : "round-robin", 1);
    if (c->launcher[0]) setenv("PARSCOPE_LAUNCHER", c->launcher, 1);
    setenv("TMPDIR", "/tmp", 1);
    char cores[16];
    snprintf(cores, sizeof cores, "%d", c->per_node);
    setenv(PS_ENV_NODE_CORES, cores, 1);
    if (c->shared_cores) {
        char ncpu[16];
        snprintf(ncpu, sizeof ncpu, "%d", c->ncpu);
        setenv(PS_ENV_SHARED_PROCESSORS, ncpu, 1);
    } else {
        unsetenv(PS_ENV_SHARED_PROCESSORS);
    }
    const char *agent = PS__EMU_DIR "/" PS__EMU_AGENT_NAME;
    /* Open MPI: daemons started through the agent; TCP between nodes on the
     * node interfaces, shared memory within one; no binding by Open MPI (it
     * would bind each node's ranks to the same first cores: the node's
     * cores are already set) */
    setenv("OMPI_MCA_plm_rsh_agent", agent, 1);
    /* the cluster exists only for root, so every mpiexec in it runs as root */
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    setenv("OMPI_MCA_orte_default_hostfile", PS__EMU_DIR "/hosts.openmpi", 1);
    setenv("OMPI_MCA_rmaps_base_mapping_policy", c->o->map == PS_MAP_BLOCK ? "slot" : "node", 1);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
    setenv("OMPI_MCA_hwloc_base_binding_policy", "none", 1);
    setenv("OMPI_MCA_pml", "ob1", 1);
    setenv("OMPI_MCA_btl", "self,vader,tcp", 1);
    setenv("OMPI_MCA_btl_tcp_if_include", PS__EMU_NET, 1);
    /* one-sided (MPI_Win_*): osc/rdma needs RDMA between all ranks, which
     * TCP lacks ("invalid window" across nodes); pt2pt runs over the same
     * TCP path as the messages, sm within a node */
    setenv("OMPI_MCA_osc", "sm,pt2pt", 0);
    setenv("OMPI_MCA_oob_tcp_if_include", PS__EMU_NET, 1);
    /* MPICH (hydra): proxies through the agent, as ssh; UCX on eth0 */
    setenv("HYDRA_LAUNCHER", "ssh", 1);
    setenv("HYDRA_LAUNCHER_EXEC", agent, 1);
    setenv("HYDRA_HOST_FILE", PS__EMU_DIR "/hosts.hydra", 1);
    setenv("UCX_NET_DEVICES", "eth0", 1);
    /* nodes that share cores: a rank that polls for messages must give its
     * core up, or a rank of another node on that core waits for a time
     * slice (MPI sees only its own node, so it cannot know) */
    if (c->shared_cores) {
        setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
        setenv("MPIR_CVAR_POLLS_BEFORE_YIELD", "1", 0);
    }
    /* what a shaped loopback needed (../shared/tools/slownet) does not apply */
    unsetenv("MPIR_CVAR_NOLOCAL");
    free(nodes);
    free(hosts);
}

static _Noreturn void run_command(void *ctx)
{
    const ps__cluster *c = ctx;
    char err[300];
    /* the default dispositions first, then whatever signal is pending */
    signal(SIGCHLD, SIG_DFL);
    signal(SIGINT, c->sigint_ignored ? SIG_IGN : SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGTSTP, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (ps__emu_enter(c->node[0].pid, err, sizeof err) != 0) {
        send_report(REP_ERROR, 0, "cannot run the command on node0: %s", err);
        _exit(127);
    }
    if (chdir(c->cwd) != 0) {
        send_report(REP_ERROR, 0, "cannot enter the current directory %s on node0: %s", c->cwd, strerror(errno));
        _exit(127);
    }
    command_env(c);
    execvp(c->o->command[0], c->o->command);
    int e = errno;
    fprintf(stderr, "parscope emulate: cannot run '%s': %s\n", c->o->command[0], strerror(e));
    _exit(e == ENOENT ? 127 : 126);
}

static volatile pid_t command_pid;
static volatile sig_atomic_t early_signal;

/* Init passes on what parscope emulate sends (si_code SI_USER; a terminal's
 * signals reach COMMAND directly, as it shares the process group); one that
 * comes while the cluster is being built waits for COMMAND. */
static void init_on_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (si->si_code != SI_USER && si->si_code != SI_QUEUE) return;
    if (command_pid > 0) kill(command_pid, sig);
    else early_signal = sig;
}

static void init_on_child(int sig) { (void)sig; }

typedef struct init_args {
    ps__cluster *c;
    int          ctl[2], rep[2];
} init_args;

static _Noreturn void cluster_init(void *ctx)
{
    init_args *a = ctx;
    ps__cluster *c = a->c;
    int ctl = a->ctl[0];
    close(a->ctl[1]);
    close(a->rep[0]);
    rep_fd = a->rep[1];
    char comm[16], err[400];
    snprintf(comm, sizeof comm, "ps-%s-init", c->id);
    prctl(PR_SET_NAME, comm, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    /* parscope emulate may have died before the line above */
    struct pollfd pf = {ctl, POLLIN, 0};
    if (poll(&pf, 1, 0) > 0) _exit(1);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = init_on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGTSTP, SIG_IGN);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = init_on_child;
    sigaction(SIGCHLD, &sa, NULL);
    /* the signals parscope emulate passes on were blocked since before the
     * fork (a PID namespace's init drops a signal it has no handler for);
     * now they may come, SIGCHLD only while waiting */
    sigset_t mask, orig;
    sigprocmask(SIG_SETMASK, NULL, &orig);
    sigdelset(&orig, SIGINT);
    sigdelset(&orig, SIGTERM);
    sigdelset(&orig, SIGHUP);
    mask = orig;
    sigaddset(&mask, SIGCHLD);
    sigprocmask(SIG_SETMASK, &mask, NULL);

    /* a /proc that shows this PID namespace: anchors are found by their PIDs here */
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
        send_report(REP_ERROR, 0, "cannot give the cluster its own /proc: %s", strerror(errno));
        _exit(1);
    }
    c->sw = start_anchor(c, -1, err, sizeof err);
    if (c->sw < 0) {
        send_report(REP_ERROR, 0, "%s", err);
        _exit(1);
    }
    for (int k = 0; k < c->n; k++) {
        c->node[k].pid = start_anchor(c, k, err, sizeof err);
        if (c->node[k].pid < 0) {
            send_report(REP_ERROR, 0, "%s", err);
            _exit(1);
        }
    }
    if (ps__emu_network(c, err, sizeof err) != 0) {
        send_report(REP_ERROR, 0, "%s", err);
        _exit(1);
    }
    /* no signal is handled by a copy of this process's handlers in the
     * child: blocked until the child has the default ones */
    sigset_t fwd;
    sigemptyset(&fwd);
    sigaddset(&fwd, SIGINT);
    sigaddset(&fwd, SIGTERM);
    sigaddset(&fwd, SIGHUP);
    sigprocmask(SIG_BLOCK, &fwd, NULL);
    pid_t pid = ps_proc_start_fn(run_command, c);
    if (pid < 0) {
        send_report(REP_ERROR, 0, "cannot start the command: %s", strerror(errno));
        _exit(1);
    }
    command_pid = pid;
    if (early_signal) kill(pid, early_signal);
    sigprocmask(SIG_UNBLOCK, &fwd, NULL);
    sigset_t wait_mask = orig;
    sigdelset(&wait_mask, SIGCHLD);
    for (;;) {
        int st;
        pid_t w;
        /* init adopts every orphan of the cluster: reap them all */
        while ((w = waitpid(-1, &st, WNOHANG)) > 0)
            if (w == pid) {
                send_report(REP_EXIT, st, NULL);
                /* init ending ends every process of the cluster */
                _exit(0);
            }
        pf.revents = 0;
        if (ppoll(&pf, 1, NULL, &wait_mask) > 0) _exit(1); /* parscope emulate is gone */
    }
}

/* ---- parscope emulate ----------------------------------------------------- */

static volatile sig_atomic_t sig_count, sig_last, pend_int, pend_term, pend_hup;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    sig_count++;
    sig_last = sig;
    /* a terminal's signal reached COMMAND already (same process group) */
    if (si->si_code == SI_KERNEL) return;
    if (sig == SIGINT) pend_int++;
    else if (sig == SIGTERM) pend_term++;
    else pend_hup++;
}

static int check_options(const ps_emulate_opts *o, char *err, size_t errlen)
{
    if (o->nodes < 1 || o->nodes > PS_EMULATE_MAX_NODES) {
        ps_seterr(err, errlen, "-N: %d nodes is outside 1..%d", o->nodes, PS_EMULATE_MAX_NODES);
        return -1;
    }
    if (o->link_rate != 0 && (o->link_rate < PS_EMULATE_MIN_RATE || o->link_rate > PS_EMULATE_MAX_RATE)) {
        ps_seterr(err, errlen, "--link: %g bit/s is outside 8kbit..100gbit", o->link_rate);
        return -1;
    }
    if (o->burst && o->burst < PS_EMULATE_MIN_BURST) {
        ps_seterr(err, errlen, "--burst: %ld bytes is below %ld (a full Ethernet frame must fit)", o->burst,
                  PS_EMULATE_MIN_BURST);
        return -1;
    }
    if (o->burst && o->link_rate == 0) {
        ps_seterr(err, errlen, "--burst: needs --link (unshaped links have no bucket)");
        return -1;
    }
    char why[300];
    if (o->burst && (o->burst > PS_EMULATE_MAX_BURST || ps_emulate_check_burst(o->burst, o->link_rate, why, sizeof why))) {
        ps_seterr(err, errlen, "--burst: %s", o->burst > PS_EMULATE_MAX_BURST ? "above 1g" : why);
        return -1;
    }
    if (!o->command || !o->command[0]) {
        ps_seterr(err, errlen, "no command given (parscope emulate -N NODES -- COMMAND...)");
        return -1;
    }
    return 0;
}

static void free_cluster(ps__cluster *c)
{
    if (c->node) free(c->node[0].cores);
    free(c->node);
}

int ps_emulate_run(const ps_emulate_opts *o, char *err, size_t errlen)
{
    ps__cluster c;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.n = o->nodes;
    if (check_options(o, err, errlen)) return 2;
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) CPU_ZERO(&mine);
    int ncpu = 0, cpus[CPU_SETSIZE];
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &mine)) cpus[ncpu++] = i;
    int per = o->cores_per_node > 0 ? o->cores_per_node : 0;
    if (per == 0) per = ncpu / c.n > 0 ? ncpu / c.n : 1;
    int *cores = ps_xcalloc((size_t)c.n * (size_t)per, sizeof *cores);
    if (ps_emulate_assign_cores(cpus, ncpu, c.n, per, cores, err, errlen) < 0) {
        free(cores);
        return 2;
    }
    c.per_node = per;
    c.shared_cores = c.n * per > ncpu;
    c.ncpu = ncpu;
    c.node = ps_xcalloc((size_t)c.n, sizeof *c.node);
    for (int k = 0; k < c.n; k++) c.node[k].cores = cores + (size_t)k * (size_t)per;
    if (!has_caps()) {
        free_cluster(&c);
        ps_seterr(err, errlen, "emulate needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN) to create namespaces, links "
                               "and mounts");
        return 2;
    }
    if (!find_tool("ip", c.ip, sizeof c.ip)) {
        free_cluster(&c);
        ps_seterr(err, errlen, "emulate needs the 'ip' tool on PATH (Debian package iproute2, in /usr/sbin)");
        return 2;
    }
    if (o->link_rate > 0 && !find_tool("tc", c.tc, sizeof c.tc)) {
        free_cluster(&c);
        ps_seterr(err, errlen, "--link needs the 'tc' tool on PATH (Debian package iproute2, in /usr/sbin)");
        return 2;
    }
    if (!find_tool("nsenter", c.nsenter, sizeof c.nsenter)) {
        free_cluster(&c);
        ps_seterr(err, errlen, "emulate needs the 'nsenter' tool on PATH (Debian package util-linux)");
        return 2;
    }
    if (!getcwd(c.cwd, sizeof c.cwd)) {
        free_cluster(&c);
        ps_seterr(err, errlen, "cannot read the current directory: %s", strerror(errno));
        return 2;
    }
    if (under_tmp(c.cwd)) {
        free_cluster(&c);
        ps_seterr(err, errlen, "the current directory %s is under /tmp, which every emulated node has to itself; "
                               "start from a directory outside /tmp", c.cwd);
        return 2;
    }
    snprintf(c.exe, sizeof c.exe, "%s", ps_self_exe());
    if (under_tmp(c.exe)) {
        free_cluster(&c);
        ps_seterr(err, errlen, "%s is under /tmp, which every emulated node has to itself: the nodes could not "
                               "start it", c.exe);
        return 2;
    }
    c.burst = o->burst ? o->burst : ps_emulate_default_burst(o->link_rate);
    run_id(c.id);
    for (int k = 0; k < c.n; k++) {
        snprintf(c.node[k].name, sizeof c.node[k].name, "node%d", k);
        snprintf(c.node[k].addr, sizeof c.node[k].addr, "198.18.0.%d", (unsigned char)(k + 1));
        snprintf(c.node[k].comm, sizeof c.node[k].comm, "ps-%s-n%d", c.id, (unsigned char)k);
    }
    choose_launcher(&c);
    if (!o->quiet) describe(&c);
    warn_shared(&c);

    struct sigaction old_int;
    sigaction(SIGINT, NULL, &old_int);
    c.sigint_ignored = old_int.sa_handler == SIG_IGN;
    init_args ia = {.c = &c};
    int *ctl = ia.ctl, *rep = ia.rep;
    if (pipe2(ctl, O_CLOEXEC) != 0 || pipe2(rep, O_CLOEXEC) != 0) {
        ps_seterr(err, errlen, "pipe: %s", strerror(errno));
        free_cluster(&c);
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    if (!c.sigint_ignored) sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    /* init is the first child in a new PID namespace; afterwards this
     * process's children are created in its own namespace again */
    int self_ns = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
    if (self_ns < 0 || unshare(CLONE_NEWPID) != 0) {
        ps_seterr(err, errlen, "cannot create a PID namespace: %s", strerror(errno));
        if (self_ns >= 0) close(self_ns);
        free_cluster(&c);
        return 2;
    }
    sigset_t fwd, before_fork;
    sigemptyset(&fwd);
    sigaddset(&fwd, SIGINT);
    sigaddset(&fwd, SIGTERM);
    sigaddset(&fwd, SIGHUP);
    sigprocmask(SIG_BLOCK, &fwd, &before_fork);
    pid_t init = ps_proc_start_fn(cluster_init, &ia);
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &before_fork, NULL);
    setns(self_ns, CLONE_NEWPID);
    close(self_ns);
    close(ctl[0]);
    close(rep[1]);
    if (init < 0) {
        close(ctl[1]);
        close(rep[0]);
        free_cluster(&c);
        ps_seterr(err, errlen, "cannot start the cluster: %s", strerror(fork_errno));
        return 2;
    }

    int have_exit = 0, wstatus = 0, failed = 0, killed = 0;
    for (;;) {
        while (pend_int > 0 || pend_term > 0 || pend_hup > 0) {
            int s = pend_int > 0 ? SIGINT : pend_term > 0 ? SIGTERM : SIGHUP;
            if (s == SIGINT) pend_int--;
            else if (s == SIGTERM) pend_term--;
            else pend_hup--;
            kill(init, s);
        }
        if (!killed && sig_count >= PS__EMU_SIGNALS_BEFORE_KILL) {
            kill(init, SIGKILL);
            killed = 1;
        }
        struct pollfd pf = {rep[0], POLLIN, 0};
        int r = poll(&pf, 1, 200);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) continue;
        report m;
        ssize_t n = read(rep[0], &m, sizeof m);
        if (n < 0 && errno == EINTR) continue;
        if (n != (ssize_t)sizeof m) break; /* end of file: init is gone */
        if (m.kind == REP_ERROR && !failed) {
            failed = 1;
            ps_seterr(err, errlen, "%s", m.text);
        } else if (m.kind == REP_EXIT) {
            have_exit = 1;
            wstatus = m.wstatus;
        }
    }
    int ist = 0;
    while (waitpid(init, &ist, 0) < 0 && errno == EINTR) {
    }
    close(rep[0]);
    close(ctl[1]);
    free_cluster(&c);
    if (failed) return 2;
    if (have_exit) return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    if (killed) {
        fprintf(stderr, "parscope emulate: stopped the cluster after %d signals\n", (int)sig_count);
        return 128 + sig_last;
    }
    fprintf(stderr, "parscope emulate: the cluster ended before its command did (%s %d)\n",
            WIFSIGNALED(ist) ? "init killed by signal" : "init exit status",
            WIFSIGNALED(ist) ? WTERMSIG(ist) : WEXITSTATUS(ist));
    return 1;
}
