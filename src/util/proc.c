/* proc.c - starting a child process (see proc.h). */
#include "util/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

extern char **environ;

/* ---- interruption ------------------------------------------------------ */

static volatile sig_atomic_t interrupts, last_signal, first_signal;

static void on_interrupt(int sig)
{
    interrupts++;
    last_signal = sig;
    if (!first_signal) first_signal = sig;
}

/* Sets handler for each of the signals sigs[0..n); async-signal-safe, so a
 * child may call it between fork and exec. */
static void set_handler(void (*handler)(int), const int *sigs, int n)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    for (int i = 0; i < n; i++) sigaction(sigs[i], &sa, NULL);
}

void ps_interrupt_install(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    set_handler(on_interrupt, sigs, (int)(sizeof sigs / sizeof *sigs));
}

int ps_interrupted(void) { return interrupts > 0; }

int ps_interrupt_signal(void) { return first_signal; }

int ps_interrupt_status(void) { return first_signal ? 128 + first_signal : 0; }

const char *ps_interrupt_name(void)
{
    switch (first_signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
    }
}

/* ---- the processes a child left behind ----------------------------------- */

/* Up to max processes whose parent is ppid (zombies only if zombies). */
static int children_of(pid_t ppid, pid_t *out, int max, int zombies)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while (n < max && (e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t k = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (k <= 0) continue;
        buf[k] = '\0';
        /* "pid (comm) S ppid ...": comm may hold blanks and parentheses */
        char *p = strrchr(buf, ')');
        char state;
        long pp;
        if (!p || sscanf(p + 1, " %c %ld", &state, &pp) != 2) continue;
        if (pp == (long)ppid && (zombies || (state != 'Z' && state != 'X'))) out[n++] = (pid_t)pid;
    }
    closedir(d);
    return n;
}

#define PS_PROC_TREE_MAX 4096

/* Sends sig to root's group and to every process below root, also those
 * in groups of their own (Open MPI's mpiexec gives each rank one). */
static void signal_tree(pid_t root, int sig)
{
    pid_t *q = ps_xmalloc(PS_PROC_TREE_MAX * sizeof *q);
    int n = 1;
    q[0] = root;
    for (int i = 0; i < n && n < PS_PROC_TREE_MAX; i++) n += children_of(q[i], q + n, PS_PROC_TREE_MAX - n, 0);
    kill(-root, sig);
    for (int i = 0; i < n; i++) kill(q[i], sig);
    free(q);
}

static int is_in(pid_t p, const pid_t *set, int n)
{
    for (int i = 0; i < n; i++)
        if (set[i] == p) return 1;
    return 0;
}

/* After a child ended: what it left running was handed to parscope (a
 * child subreaper): a launcher killed before its ranks, a daemon.  They
 * get SIGTERM, then SIGKILL after grace seconds, and are reaped.  The
 * caller's own children from before the run (keep: a cluster's node
 * anchors, a job started beside it) are not the child's and stay.  Returns
 * how many there were. */
static int sweep_orphans(double grace, const pid_t *keep, int nkeep)
{
    pid_t all[256], left[256];
    int total = 0, sig = SIGTERM;
    double t0 = ps_clock();
    for (;;) {
        /* reaped one by one: waitpid(-1) would take a kept child's status */
        int na = children_of(getpid(), all, 256, 1), n = 0;
        for (int i = 0; i < na; i++)
            if (!is_in(all[i], keep, nkeep) && waitpid(all[i], NULL, WNOHANG) != all[i]) left[n++] = all[i];
        if (n == 0) break;
        double now = ps_clock();
        if (now - t0 > grace + 5) break; /* unkillable (D state): give up, do not hang */
        if (sig == SIGTERM && total == 0) total = n;
        if (now - t0 > grace) sig = SIGKILL;
        for (int i = 0; i < n; i++) signal_tree(left[i], sig);
        poll(NULL, 0, 20);
    }
    return total;
}

/* ---- the guard: a job does not outlive a parscope killed outright -------- */

/* The parent-death signal alone can be lost: MPICH's mpiexec (Hydra) that
 * gets SIGTERM after installing its handler but before its proxies have
 * connected passes it to nobody and runs the job to its end.  So each child
 * has a guard, a process forked from parscope before the child that holds
 * the read end of a pipe whose write end only parscope keeps (the child has
 * it until its exec, and writes its pid into it first: a launcher that kills
 * parscope at once is known all the same).  parscope writes one byte when
 * the child has ended; the pipe's end without it means parscope died.  The
 * guard then sends the child's group SIGTERM each second (a launcher that
 * has connected to its ranks since passes it on) and, after the grace,
 * SIGKILL to every process below the child, also those in sessions of their
 * own (Hydra's proxies and ranks), found by parent in /proc; a process is
 * known by its pid and its start time, so a reused pid is never signalled.
 * Only async-signal-safe calls: parscope may have threads when it forks. */

#define PS_GUARD_MAX 1024

typedef struct guard_proc {
    pid_t              pid;
    unsigned long long start; /* field 22 of /proc/PID/stat, in clock ticks since boot */
} guard_proc;

/* Reads /proc/PID/stat: 1 with the parent and the start time of a live
 * process, 0 for one gone or a zombie. */
static int guard_stat(pid_t pid, pid_t *ppid, unsigned long long *start)
{
    char path[40] = "/proc/", buf[1024];
    int i = 6;
    char digits[16];
    int nd = 0;
    for (long v = pid; v > 0 && nd < 15; v /= 10) digits[nd++] = (char)('0' + v % 10);
    while (nd) path[i++] = digits[--nd];
    memcpy(path + i, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = '\0';
    /* "pid (comm) S ppid ...": the comm may hold blanks and parentheses */
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X') return 0;
    p += 3; /* at the field after the state: the parent, field 4 */
    unsigned long long v[19] = {0};
    for (int f = 0; f < 19 && *p; f++) { /* fields 4 to 22 */
        while (*p == ' ') p++;
        if (*p == '-') p++;
        while (*p >= '0' && *p <= '9') v[f] = v[f] * 10 + (unsigned long long)(*p++ - '0');
    }
    *ppid = (pid_t)v[0];
    *start = v[18];
    return 1;
}

/* 1 while the process k describes is the one known (alive, same start). */
static int guard_alive(const guard_proc *k)
{
    pid_t pp;
    unsigned long long st;
    return guard_stat(k->pid, &pp, &st) && st == k->start;
}

/* Adds to known[0..*n) every live process whose parent is one of them. */
static void guard_scan(guard_proc *known, int *n)
{
    int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    char buf[8192];
    long got;
    while ((got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long off = 0; off < got;) {
            /* struct linux_dirent64: d_ino 8, d_off 8, d_reclen 2, d_type 1, d_name */
            unsigned short reclen;
            memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char *name = buf + off + 19;
            off += reclen;
            long pid = 0;
            const char *c = name;
            while (*c >= '0' && *c <= '9' && pid < 1L << 30) pid = pid * 10 + (*c++ - '0');
            if (*c || pid <= 0) continue; /* not a process: "self", "net", ... */
            int seen = 0;
            for (int i = 0; i < *n && !seen; i++) seen = known[i].pid == (pid_t)pid;
            pid_t pp;
            unsigned long long st;
            if (seen || *n >= PS_GUARD_MAX || !guard_stat((pid_t)pid, &pp, &st)) continue;
            for (int i = 0; i < *n; i++)
                if (known[i].pid == pp && guard_alive(&known[i])) {
                    known[(*n)++] = (guard_proc){(pid_t)pid, st};
                    break;
                }
        }
    }
    close(fd);
}

static double guard_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((noreturn)) static void guard_main(pid_t parent, int fd, double grace)
{
    static const int quiet[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};
    set_handler(SIG_IGN, quiet, (int)(sizeof quiet / sizeof *quiet));
    setpgid(0, 0); /* a kill of parscope's group does not take the guard with it */
    prctl(PR_SET_NAME, "parscope-guard");
    /* nothing of parscope's held open: not its output (a reader waits for its
     * end), not a lock, not the child's standard error */
    if (fd != 3) {
        dup2(fd, 3);
        fd = 3;
    }
    if (close_range(0, 2, 0) != 0 || close_range(4, ~0U, 0) != 0)
        for (int i = 0; i < 1024; i++)
            if (i != fd) close(i);
    /* the child's pid, from the child; without it there is no child */
    pid_t child;
    size_t got = 0;
    while (got < sizeof child) {
        ssize_t r = read(fd, (char *)&child + got, sizeof child - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) _exit(0);
        got += (size_t)r;
    }
    guard_proc known[PS_GUARD_MAX];
    int n = 0;
    pid_t pp;
    unsigned long long st;
    if (guard_stat(child, &pp, &st)) known[n++] = (guard_proc){child, st};
    if (getppid() == parent) {
        char c;
        ssize_t r;
        while ((r = read(fd, &c, 1)) < 0 && errno == EINTR) {}
        if (r == 1) _exit(0); /* the child ended with parscope there */
    }
    double t0 = guard_clock(), next_term = t0 + 1;
    for (;;) {
        guard_scan(known, &n);
        int left = 0;
        for (int i = 0; i < n; i++) left += guard_alive(&known[i]);
        if (!left) _exit(0);
        double now = guard_clock();
        if (now - t0 > grace + 5) _exit(1); /* unkillable (D state): give up */
        if (now - t0 > grace) {
            for (int i = 0; i < n; i++)
                if (guard_alive(&known[i])) kill(known[i].pid, SIGKILL);
        } else if (now >= next_term) {
            if (guard_alive(&known[0])) kill(-child, SIGTERM);
            next_term += 1;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* Forks the guard of the child about to start; its pid, with *fd the
 * pipe's write end (close-on-exec), or -1 and *fd -1. */
static pid_t guard_start(double grace, int *fd)
{
    int g[2];
    *fd = -1;
    if (pipe2(g, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t gp = fork();
    if (gp == 0) guard_main(parent, g[0], grace);
    close(g[0]);
    if (gp < 0) {
        close(g[1]);
        return -1;
    }
    *fd = g[1];
    return gp;
}

/* Tells the guard the child has ended (or never started), and reaps it. */
static void guard_end(pid_t gp, int fd)
{
    if (gp <= 0) return;
    ssize_t w = write(fd, "e", 1);
    (void)w;
    close(fd);
    while (waitpid(gp, NULL, 0) < 0 && errno == EINTR) {}
}

/* ---- the child's side -------------------------------------------------- */

/* The environment with o->env's NAME=VALUE entries replacing or added. */
static char **child_env(char *const *extra)
{
    size_t n = 0, k = 0;
    while (environ[n]) n++;
    while (extra && extra[k]) k++;
    char **env = ps_xcalloc(n + k + 1, sizeof *env);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(environ[i], "=");
        int replaced = 0;
        for (size_t j = 0; j < k && !replaced; j++)
            replaced = !strncmp(extra[j], environ[i], len) && extra[j][len] == '=';
        if (!replaced) env[m++] = environ[i];
    }
    for (size_t j = 0; j < k; j++) env[m++] = extra[j];
    env[m] = NULL;
    return env;
}

/* After fork, before exec: only async-signal-safe calls.  On failure the
 * errno goes to the parent through status_fd and the child ends. */
__attribute__((noreturn)) static void child(char *const argv[], char **env, const ps_proc_opts *o, pid_t parent, int err_fd, int status_fd, int guard_fd)
{
    setpgid(0, 0);
    /* the default actions first: a parent-death signal from here on ends the
     * child, none is counted by parscope's handler and lost */
    static const int dfl[] = {SIGINT, SIGTERM, SIGPIPE};
    set_handler(SIG_DFL, dfl, (int)(sizeof dfl / sizeof *dfl));
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* parscope gone: the child is told (SIGTERM) and stops what it started */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);
    if (guard_fd >= 0) {
        pid_t self = getpid();
        ssize_t w = write(guard_fd, &self, sizeof self);
        (void)w;
    }
    int e = 0;
    if (o->out) {
        int fd = open(o->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) e = errno;
    }
    if (!e && err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0) e = errno;
    if (!e && o->err == PS_PROC_ERR_TO_OUT && dup2(STDOUT_FILENO, STDERR_FILENO) < 0) e = errno;
    if (!e && o->out_to_err && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) e = errno;
    if (!e) {
        execvpe(argv[0], argv, env);
        e = errno;
    }
    ssize_t w = write(status_fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* ---- the parent's side ------------------------------------------------- */

typedef struct reader {
    int                 fd;
    const ps_proc_opts *o;
    ps_proc_result     *r;
    size_t              cap;
    char                line[2048];
    size_t              nline;
    int                 stopped;  /* parscope stopped the child: what it says now is kept, not shown */
} reader;

static void take(reader *rd, const char *buf, size_t n)
{
    ps_proc_result *r = rd->r;
    if (rd->o->echo && !rd->stopped) {
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(STDERR_FILENO, buf + off, n - off);
            if (w <= 0 && errno != EINTR) break;
            if (w > 0) off += (size_t)w;
        }
    }
    size_t keep = r->err_len + n < PS_PROC_CAPTURE_MAX ? n : PS_PROC_CAPTURE_MAX - 1 - r->err_len;
    if (keep) {
        if (r->err_len + keep + 1 > rd->cap) {
            rd->cap = rd->cap ? rd->cap * 2 : 4096;
            while (rd->cap < r->err_len + keep + 1) rd->cap *= 2;
            r->err = ps_xrealloc(r->err, rd->cap);
        }
        memcpy(r->err + r->err_len, buf, keep);
        r->err_len += keep;
        r->err[r->err_len] = '\0';
    }
    r->err_dropped += n - keep;
    if (!rd->o->on_line || rd->stopped) return;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '\n' || rd->nline + 1 >= sizeof rd->line) {
            rd->line[rd->nline] = '\0';
            rd->o->on_line(rd->line, rd->o->ctx);
            rd->nline = 0;
            if (buf[i] == '\n') continue;
        }
        rd->line[rd->nline++] = buf[i];
    }
}

/* Reads what the pipe holds; waits up to ms for it.  At its end the fd is
 * closed and set to -1. */
static void pump(reader *rd, int ms)
{
    if (rd->fd < 0) {
        if (ms > 0) poll(NULL, 0, ms);
        return;
    }
    struct pollfd p = {rd->fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return;
    char buf[4096];
    for (;;) {
        ssize_t n = read(rd->fd, buf, sizeof buf);
        if (n > 0) {
            take(rd, buf, (size_t)n);
            continue;
        }
        if (n < 0 && (errno == EINTR)) continue;
        if (n < 0 && errno == EAGAIN) return;
        close(rd->fd);
        rd->fd = -1;
        if (rd->nline && rd->o->on_line) {
            rd->line[rd->nline] = '\0';
            rd->o->on_line(rd->line, rd->o->ctx);
            rd->nline = 0;
        }
        return;
    }
}

/* Starts the child; 0, or -1 with r->start_errno (r->started stays 0). */
static int start(char *const argv[], const ps_proc_opts *o, ps_proc_result *r, pid_t *pid, int *err_read, int guard_fd)
{
    int errp[2] = {-1, -1}, st[2];
    if (pipe2(st, O_CLOEXEC) != 0) {
        r->start_errno = errno;
        return -1;
    }
    if (o->err == PS_PROC_ERR_CAPTURE && pipe2(errp, O_CLOEXEC) != 0) {
        r->start_errno = errno;
        close(st[0]);
        close(st[1]);
        return -1;
    }
    char **env = child_env(o->env);
    pid_t parent = getpid();
    fflush(NULL);
    *pid = fork();
    if (*pid == 0) child(argv, env, o, parent, errp[1], st[1], guard_fd);
    int fork_errno = errno;
    free(env);
    close(st[1]);
    if (errp[1] >= 0) close(errp[1]);
    if (*pid < 0) {
        r->start_errno = fork_errno;
        close(st[0]);
        if (errp[0] >= 0) close(errp[0]);
        return -1;
    }
    setpgid(*pid, *pid); /* also here: no signal may find the group missing */
    /* the status pipe closes at exec, or brings the errno of what failed */
    int e = 0;
    ssize_t n;
    while ((n = read(st[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(st[0]);
    if (n == (ssize_t)sizeof e) {
        int status;
        while (waitpid(*pid, &status, 0) < 0 && errno == EINTR) {}
        r->start_errno = e;
        if (errp[0] >= 0) close(errp[0]);
        return -1;
    }
    if (errp[0] >= 0) fcntl(errp[0], F_SETFL, fcntl(errp[0], F_GETFL) | O_NONBLOCK);
    *err_read = errp[0];
    r->started = 1;
    return 0;
}

int ps_proc_run(char *const argv[], const ps_proc_opts *o, ps_proc_result *r)
{
    static const ps_proc_opts none;
    if (!o) o = &none;
    memset(r, 0, sizeof *r);
    r->err = ps_xstrdup("");
    /* what a child leaves running comes back to parscope, to be stopped */
    static int subreaper;
    if (!subreaper) subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 1 : -1;
    pid_t keep[256];
    int nkeep = subreaper > 0 ? children_of(getpid(), keep, 256, 1) : 0;
    double t0 = ps_clock();
    pid_t pid;
    reader rd = {.fd = -1, .o = o, .r = r, .cap = 1};
    int seen = interrupts; /* a signal while the child starts counts too */
    double grace = o->kill_grace > 0 ? o->kill_grace : PS_PROC_KILL_GRACE;
    int guard_fd;
    pid_t guard = guard_start(grace, &guard_fd);
    if (start(argv, o, r, &pid, &rd.fd, guard_fd)) {
        guard_end(guard, guard_fd);
        r->status = 127;
        r->elapsed = ps_clock() - t0;
        return 1;
    }
    double kill_at = -1;   /* when SIGKILL follows a SIGTERM; -1 none pending */
    int status = 0, lost = 0;
    for (;;) {
        double now = ps_clock();
        /* short jobs end within milliseconds: look often at first */
        pump(&rd, now - t0 < 1 ? 2 : 20);
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) { /* reaped elsewhere (SIGCHLD ignored): its status is lost */
            lost = 1;
            break;
        }
        now = ps_clock();
        if (!rd.stopped && o->timeout > 0 && now - t0 > o->timeout) {
            r->timed_out = rd.stopped = 1;
            kill(-pid, SIGTERM);
            kill_at = now + grace;
        }
        int got = interrupts;
        if (got != seen) {
            /* the one rule: the job is stopped at once, by the signal the user
             * sent (an MPI launcher passes it to its ranks); a second signal
             * does not hurry it, the grace does */
            if (!rd.stopped) {
                kill(-pid, last_signal ? last_signal : SIGINT);
                kill_at = now + grace;
            }
            r->interrupted = rd.stopped = 1;
            seen = got;
        }
        if (kill_at >= 0 && now > kill_at) {
            signal_tree(pid, SIGKILL);
            kill_at = -1;
        }
    }
    /* what it still had to say; a descendant that keeps the pipe open does
     * not hold parscope up for long */
    for (double end = ps_clock() + 0.5; rd.fd >= 0 && ps_clock() < end;) pump(&rd, 50);
    if (rd.fd >= 0) close(rd.fd);
    guard_end(guard, guard_fd);
    if (subreaper > 0) r->orphans = sweep_orphans(rd.stopped ? 1.0 : grace, keep, nkeep);
    r->elapsed = ps_clock() - t0;
    if (lost) {
        r->status = 128;
    } else if (WIFEXITED(status)) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
        r->status = r->exit_code;
    } else if (WIFSIGNALED(status)) {
        r->signal = WTERMSIG(status);
        r->status = 128 + r->signal;
    }
    return r->exited && r->exit_code == 0 ? 0 : 1;
}

pid_t ps_proc_start_fn(void (*fn)(void *ctx), void *ctx)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        fn(ctx);
        _exit(127); /* fn ends the process; this is a bug's last line */
    }
    return pid;
}

void ps_proc_result_free(ps_proc_result *r)
{
    free(r->err);
    r->err = NULL;
    r->err_len = 0;
}

void ps_proc_describe(const ps_proc_result *r, const char *program, char *buf, size_t len)
{
    if (!r->started)
        snprintf(buf, len, "cannot run '%s': %s", program, strerror(r->start_errno));
    else if (r->timed_out)
        snprintf(buf, len, "stopped at its time limit after %.3g s", r->elapsed);
    else if (r->exited)
        snprintf(buf, len, "exit status %d", r->exit_code);
    else if (r->signal)
        snprintf(buf, len, "killed by signal %d (%s)", r->signal, strsignal(r->signal));
    else
        snprintf(buf, len, "ended with an unknown status");
}
