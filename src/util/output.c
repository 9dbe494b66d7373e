/* output.c - every file parscope writes (see output.h). */
#include "util/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/util.h"

/* ---- what a path is ------------------------------------------------------ */

enum target_kind {
    T_FD,       /* one of our own descriptors: written where it points */
    T_NEW,      /* no such file yet: created by a rename */
    T_REGULAR,  /* a regular file: replaced by a rename */
    T_PLACE     /* a device or FIFO: written in place */
};

typedef struct target {
    int    kind;
    int    fd;              /* T_FD */
    int    fifo;            /* T_PLACE: a FIFO (waits for its reader) */
    mode_t mode;            /* T_REGULAR: its permissions */
    dev_t  dev;             /* of an existing target */
    ino_t  ino;
    char   path[PATH_MAX];  /* T_NEW, T_REGULAR, T_PLACE: the file itself */
} target;

/* Our own descriptor N behind a path: /dev/stdout, /dev/fd/N,
 * /proc/self/fd/N, /proc/PID/fd/N with our pid; else -1. */
static int own_fd(const char *p)
{
    int n = -1, pid = -1, end = 0;
    if (!strcmp(p, "/dev/stdout")) return 1;
    if (!strcmp(p, "/dev/stderr")) return 2;
    if (sscanf(p, "/dev/fd/%d%n", &n, &end) == 1 && !p[end]) return n;
    if (sscanf(p, "/proc/self/fd/%d%n", &n, &end) == 1 && !p[end]) return n;
    if (sscanf(p, "/proc/thread-self/fd/%d%n", &n, &end) == 1 && !p[end]) return n;
    if (sscanf(p, "/proc/%d/fd/%d%n", &pid, &n, &end) == 2 && !p[end] && pid == (int)getpid()) return n;
    return -1;
}

static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, len, ".");
    else if (slash == path) snprintf(dir, len, "/");
    else snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Follows path (and the symbolic links on the way) to what would be
 * written.  0, or -1 with err saying why it cannot be an output. */
static int classify(const char *path, target *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (!*path) {
        ps_seterr(err, errlen, "an empty file name");
        return -1;
    }
    if (!strcmp(path, "-")) {
        t->kind = T_FD;
        t->fd = STDOUT_FILENO;
        return 0;
    }
    char cur[PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) {
        ps_seterr(err, errlen, "%s: path too long", path);
        return -1;
    }
    for (int hop = 0; hop < 40; hop++) {
        int fd = own_fd(cur);
        if (fd >= 0) {
            if (fcntl(fd, F_GETFD) < 0) {
                ps_seterr(err, errlen, "%s: descriptor %d is not open", path, fd);
                return -1;
            }
            t->kind = T_FD;
            t->fd = fd;
            return 0;
        }
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno != ENOENT) {
                ps_seterr(err, errlen, "%s: %s", path, strerror(errno));
                return -1;
            }
            char dir[PATH_MAX];
            dir_of(cur, dir, sizeof dir);
            if (!ps_is_dir(dir)) {
                ps_seterr(err, errlen, "%s: the directory %s does not exist", path, dir);
                return -1;
            }
            t->kind = T_NEW;
            snprintf(t->path, sizeof t->path, "%s", cur);
            return 0;
        }
        t->dev = st.st_dev;
        t->ino = st.st_ino;
        if (S_ISLNK(st.st_mode)) {
            /* another process's descriptor (/proc/PID/fd/N): opened through the link */
            if (!strncmp(cur, "/proc/", 6)) {
                if (stat(cur, &st) == 0 && S_ISDIR(st.st_mode)) break;
                t->kind = T_PLACE;
                t->fifo = S_ISFIFO(st.st_mode);
                snprintf(t->path, sizeof t->path, "%s", cur);
                return 0;
            }
            char to[PATH_MAX];
            ssize_t n = readlink(cur, to, sizeof to - 1);
            if (n < 0) {
                ps_seterr(err, errlen, "%s: %s", path, strerror(errno));
                return -1;
            }
            to[n] = '\0';
            char next[PATH_MAX], dir[PATH_MAX];
            dir_of(cur, dir, sizeof dir);
            if (to[0] == '/') snprintf(next, sizeof next, "%s", to);
            else if (snprintf(next, sizeof next, "%s/%s", dir, to) >= (int)sizeof next) {
                ps_seterr(err, errlen, "%s: path too long", path);
                return -1;
            }
            memcpy(cur, next, sizeof cur);
            continue;
        }
        snprintf(t->path, sizeof t->path, "%s", cur);
        if (S_ISREG(st.st_mode)) {
            t->kind = T_REGULAR;
            t->mode = st.st_mode & 07777;
            return 0;
        }
        if (S_ISFIFO(st.st_mode)) {
            t->kind = T_PLACE;
            t->fifo = 1;
            return 0;
        }
        if (S_ISCHR(st.st_mode)) {
            /* mem, kmem, port: writing there changes the running system */
            unsigned ma = major(st.st_rdev), mi = minor(st.st_rdev);
            if (ma == 1 && (mi == 1 || mi == 2 || mi == 4)) {
                ps_seterr(err, errlen, "%s: a memory device: parscope does not write into it", path);
                return -1;
            }
            t->kind = T_PLACE;
            return 0;
        }
        ps_seterr(err, errlen, "%s: %s: parscope does not write into it", path,
                  S_ISDIR(st.st_mode)   ? "a directory"
                  : S_ISBLK(st.st_mode) ? "a block device (a disk)"
                  : S_ISSOCK(st.st_mode) ? "a socket"
                                          : "not a file");
        return -1;
    }
    ps_seterr(err, errlen, "%s: too many levels of symbolic links", path);
    return -1;
}

static mode_t current_umask(void)
{
    mode_t m = umask(022);
    umask(m);
    return m;
}

/* ---- writing -------------------------------------------------------------- */

/* A FIFO's writer end; waits (bounded) for a reader instead of hanging. */
static int open_fifo(const char *path, char *err, size_t errlen)
{
    double end = ps_clock() + PS_OUTPUT_FIFO_WAIT;
    for (;;) {
        int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd >= 0) {
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            return fd;
        }
        if (errno != ENXIO || ps_clock() > end) {
            if (errno == ENXIO)
                ps_seterr(err, errlen, "%s: a FIFO nobody reads (waited %g s for a reader)", path, PS_OUTPUT_FIFO_WAIT);
            else
                ps_seterr(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
        poll(NULL, 0, 50);
    }
}

int ps_output_open(ps_output *o, const char *path, int exec, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    target t;
    if (classify(path, &t, err, errlen)) return -1;
    int fd = -1;
    if (t.kind == T_FD) {
        if (t.fd == STDOUT_FILENO) fflush(stdout);
        if (t.fd == STDERR_FILENO) fflush(stderr);
        fd = fcntl(t.fd, F_DUPFD_CLOEXEC, 3);
        o->in_place = 1;
    } else if (t.kind == T_PLACE) {
        fd = t.fifo ? open_fifo(t.path, err, errlen) : open(t.path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0 && t.fifo) return -1;
        o->in_place = 1;
    } else {
        char dir[PATH_MAX];
        dir_of(t.path, dir, sizeof dir);
        const char *base = strrchr(t.path, '/');
        base = base ? base + 1 : t.path;
        o->final = ps_xstrdup(t.path);
        o->tmp = ps_xasprintf("%s/.%s.tmp-XXXXXX", dir, base);
        fd = mkostemp(o->tmp, O_CLOEXEC);
        mode_t um = current_umask();
        o->mode = t.kind == T_REGULAR ? t.mode | (exec ? 0111 & ~um : 0) : (exec ? 0777 : 0666) & ~um;
        if (fd >= 0) fchmod(fd, o->mode);
    }
    if (fd < 0) {
        int e = errno;
        ps_seterr(err, errlen, "%s: cannot write: %s", path, strerror(e));
        free(o->final);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return -1;
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        ps_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        ps_output_abort(o);
        return -1;
    }
    o->path = ps_xstrdup(path);
    return 0;
}

static void output_free(ps_output *o)
{
    free(o->path);
    free(o->final);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

void ps_output_abort(ps_output *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp && !o->in_place) unlink(o->tmp);
    output_free(o);
}

int ps_output_commit(ps_output *o, char *err, size_t errlen)
{
    /* a reader that went away is an error to report, not a reason to die */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    int rc = 0, e = 0;
    if (fflush(o->f) != 0 || ferror(o->f)) rc = -1, e = errno;
    if (!rc && !o->in_place && fsync(fileno(o->f)) != 0 && errno != EINVAL && errno != EROFS) rc = -1, e = errno;
    if (fclose(o->f) != 0 && !rc) rc = -1, e = errno;
    o->f = NULL;
    sigaction(SIGPIPE, &old, NULL);
    if (rc) ps_seterr(err, errlen, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
    if (!rc && !o->in_place && rename(o->tmp, o->final) != 0) {
        ps_seterr(err, errlen, "%s: cannot rename into place: %s", o->path, strerror(errno));
        rc = -1;
    }
    if (rc && !o->in_place) unlink(o->tmp);
    output_free(o);
    return rc;
}

int ps_output_install(const char *made, const char *path, int exec, char *err, size_t errlen)
{
    target t;
    if (classify(path, &t, err, errlen)) {
        unlink(made);
        return -1;
    }
    if (t.kind == T_NEW || t.kind == T_REGULAR) {
        mode_t um = current_umask();
        mode_t mode = t.kind == T_REGULAR ? t.mode | (exec ? 0111 & ~um : 0) : (exec ? 0777 : 0666) & ~um;
        chmod(made, mode);
        if (rename(made, t.path) == 0) return 0;
        if (errno != EXDEV) {
            ps_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            unlink(made);
            return -1;
        }
        /* another file system: copied through a temporary file beside it */
    }
    size_t len;
    char *data = ps_read_file(made, &len, err, errlen);
    unlink(made);
    if (!data) return -1;
    ps_output o;
    int rc = ps_output_open(&o, path, exec, err, errlen);
    if (!rc) {
        if (len && fwrite(data, 1, len, o.f) != len) {
            ps_seterr(err, errlen, "%s: write failed: %s", path, strerror(errno));
            ps_output_abort(&o);
            rc = -1;
        } else {
            rc = ps_output_commit(&o, err, errlen);
        }
    }
    free(data);
    return rc;
}

int ps_output_replaceable(const char *path)
{
    target t;
    char e[64];
    return path && !classify(path, &t, e, sizeof e) && (t.kind == T_NEW || t.kind == T_REGULAR);
}

/* ---- the check before any work ------------------------------------------ */

/* Whether directory dir takes new files (a read-only file system, a
 * directory without write permission): a file made and removed. */
static int dir_writable(const char *dir, char *err, size_t errlen)
{
    char *probe = ps_xasprintf("%s/.parscope-check-XXXXXX", dir);
    int fd = mkostemp(probe, O_CLOEXEC);
    int rc = 0;
    if (fd < 0) {
        ps_seterr(err, errlen, "%s: cannot write there: %s", dir, strerror(errno));
        rc = -1;
    } else {
        close(fd);
        unlink(probe);
    }
    free(probe);
    return rc;
}

typedef struct file_id {
    dev_t dev;
    ino_t ino;
    int   known;
} file_id;

/* What an output would write into, to tell two outputs that are one file:
 * the file behind a descriptor ('-', /dev/stdout: the terminal, pipe or
 * file standard output is), an existing file or device, and a file not made
 * yet by its directory and name (out.json and ./out.json).  A null device
 * under two names (/dev/null, a link to it) is not one output (kind 0: never
 * the same as another): what goes there mixes with nothing.  But one
 * descriptor is one output wherever it points ('-' twice with standard
 * output on /dev/null). */
typedef struct out_id {
    int   kind;          /* 0 unknown or a null device, 1 an inode, 2 a name in a directory,
                            3 a descriptor (ino) on a null device */
    dev_t dev;
    ino_t ino;
    const char *name;    /* kind 2: the base name (points into the target's path) */
} out_id;

static int is_null_device(const struct stat *st)
{
    return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

static out_id out_id_of(const target *t)
{
    out_id id = {0, 0, 0, NULL};
    struct stat st;
    if (t->kind == T_FD) {
        /* a descriptor on a null device is itself: '-' twice still mixes */
        if (fstat(t->fd, &st) == 0 && !is_null_device(&st)) id = (out_id){1, st.st_dev, st.st_ino, NULL};
        else id = (out_id){3, 0, (ino_t)t->fd, NULL};
    } else if (t->kind == T_NEW) {
        char dir[PATH_MAX];
        dir_of(t->path, dir, sizeof dir);
        const char *base = strrchr(t->path, '/');
        if (stat(dir, &st) == 0) id = (out_id){2, st.st_dev, st.st_ino, base ? base + 1 : t->path};
    } else if (stat(t->path, &st) == 0 && !is_null_device(&st)) {
        id = (out_id){1, st.st_dev, st.st_ino, NULL};
    }
    return id;
}

static int same_out(const out_id *a, const out_id *b)
{
    return a->kind && a->kind == b->kind && a->dev == b->dev && a->ino == b->ino &&
           (a->kind != 2 || !strcmp(a->name, b->name));
}

int ps_output_is_stdout(const char *path)
{
    if (!path) return 0;
    if (!strcmp(path, "-")) return 1;
    target t, o;
    char e[256];
    if (classify(path, &t, e, sizeof e)) return 0;
    if (t.kind == T_FD && t.fd == STDOUT_FILENO) return 1;
    memset(&o, 0, sizeof o);
    o.kind = T_FD;
    o.fd = STDOUT_FILENO;
    out_id a = out_id_of(&t), b = out_id_of(&o);
    /* a terminal or a pipe that standard output is (a file it is
     * redirected to is replaced by a rename, not written through it) */
    return a.kind == 1 && same_out(&a, &b) && t.kind != T_REGULAR;
}

static file_id id_of(const char *path)
{
    struct stat st;
    file_id id = {0, 0, 0};
    if (path && stat(path, &st) == 0) id = (file_id){st.st_dev, st.st_ino, 1};
    return id;
}

/* The directories an output check made (parents first), and the process
 * that made them.  When it ends, each that holds nothing but its lock goes
 * again, deepest first: a command refused after the check (exit 2: a bad
 * workload, an output that exists), or stopped before it wrote anything,
 * leaves no directory behind, nor the missing parents it made. */
static char *made[64];
static int nmade;
static pid_t made_by;

static int only_the_lock(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int only = 1;
    while (only && (e = readdir(d)))
        only = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || ps_is_dir_lock(e->d_name);
    closedir(d);
    return only;
}

static void remove_unused_dirs(void)
{
    if (getpid() != made_by) return; /* a forked child that ended: not its to undo */
    for (int k = nmade; k-- > 0;) {
        if (only_the_lock(made[k])) {
            char *lock = ps_xasprintf("%s/%s", made[k], PS_DIR_LOCK_NAME);
            unlink(lock);
            free(lock);
            rmdir(made[k]);
        }
        free(made[k]);
    }
    nmade = 0;
}

/* ps_mkdirs, noting each level it makes. */
static int mkdirs_noted(const char *path, char *err, size_t errlen)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        ps_seterr(err, errlen, "%s: path too long", path);
        return -1;
    }
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0777) == 0 && nmade < (int)(sizeof made / sizeof *made)) {
            if (!made_by) {
                made_by = getpid();
                atexit(remove_unused_dirs);
            }
            made[nmade++] = ps_xstrdup(buf);
        }
        if (c == '\0') break;
        *p = c;
    }
    return ps_mkdirs(path, err, errlen);
}

/* Output i against those checked before it (the others' ids are not known
 * yet): two that end in one file would mix or replace each other's
 * documents ('-' and /dev/stdout, a file and a link to it, out.json and
 * ./out.json), whatever --force says.  0, or -1 with err naming both options. */
static int same_as_earlier(const ps_output_spec *outs, int nouts, const out_id *oids, const target *tg, int i,
                           char *err, size_t errlen)
{
    for (int k = 0; k < nouts; k++) {
        if (k == i || !outs[k].path || !same_out(&oids[k], &oids[i])) continue;
        int out_k = tg[k].kind == T_FD && tg[k].fd == STDOUT_FILENO;
        int out_i = tg[i].kind == T_FD && tg[i].fd == STDOUT_FILENO;
        ps_seterr(err, errlen, "%s %s and %s %s: %s", outs[k].option, outs[k].path, outs[i].option, outs[i].path,
                  out_k && out_i ? "both are standard output; only one of them can go there"
                                 : "the same file; give each output a file of its own");
        return -1;
    }
    return 0;
}

int ps_outputs_check(const ps_output_spec *outs, int nouts, const char *const *inputs, int ninputs, int force,
                     char *err, size_t errlen)
{
    file_id *ids = ps_xcalloc((size_t)nouts + 1, sizeof *ids);
    out_id *oids = ps_xcalloc((size_t)nouts + 1, sizeof *oids);
    target *tg = ps_xcalloc((size_t)nouts + 1, sizeof *tg);
    /* the inputs as they are before any output directory is made (a
     * workload's built-in name is no file, even if --trace makes one so named) */
    file_id *in_ids = ps_xcalloc((size_t)ninputs + 1, sizeof *in_ids);
    for (int k = 0; k < ninputs; k++) in_ids[k] = id_of(inputs[k]);
    int rc = 0;
    /* directories first: a file may be written into one (run --trace T -o T/r.json) */
    for (int n = 0; n < 2 * nouts && !rc; n++) {
        int i = n % nouts;
        const ps_output_spec *s = &outs[i];
        if (!s->path || (n < nouts) != (s->kind != PS_OUTPUT_FILE)) continue;
        char e[1024] = "";
        if (s->kind == PS_OUTPUT_FILE && !strcmp(s->path, "-")) {
            classify(s->path, &tg[i], e, sizeof e);
            oids[i] = out_id_of(&tg[i]);
            rc = same_as_earlier(outs, nouts, oids, tg, i, err, errlen);
            continue;
        }
        if (!*s->path) {
            ps_seterr(err, errlen, "%s: an empty file name", s->option);
            rc = -1;
            break;
        }
        if (s->kind == PS_OUTPUT_FILE) {
            target t;
            if (classify(s->path, &t, e, sizeof e)) rc = -1;
            else if (t.kind == T_REGULAR && !force) {
                ps_seterr(e, sizeof e, "%s: exists already (use --force to replace it)", s->path);
                rc = -1;
            } else if (t.kind == T_NEW || t.kind == T_REGULAR) {
                char dir[PATH_MAX];
                dir_of(t.path, dir, sizeof dir);
                rc = dir_writable(dir, e, sizeof e);
            }
            if (!rc && t.kind != T_NEW) ids[i] = (file_id){t.dev, t.ino, t.kind == T_REGULAR};
            if (!rc) {
                tg[i] = t;
                oids[i] = out_id_of(&tg[i]);
            }
        } else {
            struct stat st;
            if (stat(s->path, &st) == 0 && !S_ISDIR(st.st_mode)) {
                ps_seterr(e, sizeof e, "%s: exists and is not a directory", s->path);
                rc = -1;
            } else if (s->kind == PS_OUTPUT_ARCHIVE && ps_is_dir(s->path) && !force) {
                ps_seterr(e, sizeof e, "%s: exists already (use --force to replace it)", s->path);
                rc = -1;
            } else if (s->kind == PS_OUTPUT_DIR) {
                rc = mkdirs_noted(s->path, e, sizeof e) || dir_writable(s->path, e, sizeof e) ||
                     ps_dir_lock(s->path, e, sizeof e) ? -1 : 0;
            } else {
                char dir[PATH_MAX];
                dir_of(s->path, dir, sizeof dir);
                if (!ps_is_dir(dir)) {
                    ps_seterr(e, sizeof e, "%s: the directory %s does not exist", s->path, dir);
                    rc = -1;
                } else {
                    rc = dir_writable(dir, e, sizeof e);
                }
            }
            if (!rc) ids[i] = id_of(s->path);
            if (!rc && ids[i].known) oids[i] = (out_id){1, ids[i].dev, ids[i].ino, NULL};
        }
        if (rc) {
            ps_seterr(err, errlen, "%s %s", s->option, e);
            break;
        }
        /* an output that is one of the inputs would destroy what it is made of */
        for (int k = 0; k < ninputs && ids[i].known; k++) {
            file_id in = in_ids[k];
            if (in.known && in.dev == ids[i].dev && in.ino == ids[i].ino) {
                ps_seterr(err, errlen, "%s %s: is also an input; parscope does not write over what it reads",
                          s->option, s->path);
                rc = -1;
                break;
            }
        }
        for (int k = 0; k < nouts && !rc; k++) {
            if (k == i || !outs[k].path) continue;
            int same = !strcmp(outs[k].path, s->path) && (outs[k].kind != s->kind || k < i);
            same |= ids[k].known && ids[i].known && ids[k].dev == ids[i].dev && ids[k].ino == ids[i].ino;
            if (same) {
                ps_seterr(err, errlen, "%s %s and %s %s: the same file", outs[k].option, outs[k].path, s->option,
                          s->path);
                rc = -1;
            }
        }
        if (!rc) rc = same_as_earlier(outs, nouts, oids, tg, i, err, errlen);
    }
    free(ids);
    free(oids);
    free(tg);
    free(in_ids);
    return rc;
}

/* ---- locking an output directory ----------------------------------------- */

int ps_is_dir_lock(const char *name) { return name && !strcmp(name, PS_DIR_LOCK_NAME); }

/* The directories this process holds locked (a second lock of the same
 * directory by the same process is no conflict). */
static file_id held[16];
static int nheld;

int ps_dir_lock(const char *dir, char *err, size_t errlen)
{
    file_id me = id_of(dir);
    for (int i = 0; i < nheld; i++)
        if (me.known && held[i].dev == me.dev && held[i].ino == me.ino) return 0;
    char *path = ps_xasprintf("%s/%s", dir, PS_DIR_LOCK_NAME);
    /* held by the descriptor until the process ends, whatever ends it */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        ps_seterr(err, errlen, "%s: cannot lock: %s", dir, strerror(errno));
        free(path);
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char owner[32] = "";
        ssize_t n = pread(fd, owner, sizeof owner - 1, 0);
        owner[n > 0 ? n : 0] = '\0';
        owner[strcspn(owner, "\n")] = '\0';
        if (errno == EWOULDBLOCK || errno == EAGAIN || n >= 0)
            ps_seterr(err, errlen, "%s: in use by another parscope%s%s%s (the lock %s is held)", dir,
                      owner[0] ? " (pid " : "", owner, owner[0] ? ")" : "", PS_DIR_LOCK_NAME);
        close(fd);
        free(path);
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* the lock holds without the pid; only the message would lack it */
    }
    free(path);
    if (me.known && nheld < (int)(sizeof held / sizeof held[0])) held[nheld++] = me;
    return 0; /* fd stays open: the lock */
}
