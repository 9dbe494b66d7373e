/*
 * output.h - every file parscope writes goes through here.
 *
 * One rule for every output path (docs/FAULTS.md):
 *   - a regular file (or a name that does not exist yet) is written to a
 *     temporary file beside it and renamed over it: never half-written;
 *   - anything else is written in place, never replaced: a character device
 *     (a terminal, /dev/null), a FIFO, one of parscope's own open file
 *     descriptors ('-', /dev/stdout, /proc/self/fd/N, or a link to them:
 *     written where the descriptor points, as the shell opened it);
 *   - a directory, a block device (a disk), a socket or a memory device
 *     (/dev/mem, /dev/kmem, /dev/port) is refused;
 *   - a symbolic link is followed: its target is written by these rules,
 *     the link stays.
 *
 * And one check before any work (ps_outputs_check): each output can be
 * written (its directory exists and takes files), an existing result is not
 * replaced without --force, no output is one of the inputs (not even with
 * --force), no two outputs are the same file (compared by device and inode,
 * so '-' and /dev/stdout, a link and its target, out.json and ./out.json
 * are one), and an output directory is
 * created and locked so that a second parscope writing into it is refused.
 */
#ifndef PS_OUTPUT_H
#define PS_OUTPUT_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Seconds a FIFO may wait for its reader before writing into it fails. */
#define PS_OUTPUT_FIFO_WAIT 10.0
/* The lock file of an output directory (ps_dir_lock). */
#define PS_DIR_LOCK_NAME ".parscope.lock"

typedef struct ps_output {
    FILE  *f;         /* write here between open and commit */
    int    in_place;  /* 1: straight into the target (no rename) */
    char  *path;      /* as given, for messages */
    char  *final;     /* the regular file replaced by the rename */
    char  *tmp;       /* the temporary file beside it */
    mode_t mode;
} ps_output;

/* Opens path for writing by the rules above; exec: the file is a program
 * (mode 0777 & ~umask).  0, or -1 with err naming the path. */
int ps_output_open(ps_output *o, const char *path, int exec, char *err, size_t errlen);
/* Finishes: flushes, and renames the temporary file into place.  0, or -1
 * with err (nothing replaced).  Frees o either way. */
int ps_output_commit(ps_output *o, char *err, size_t errlen);
/* Gives up: the temporary file is removed, the target untouched. */
void ps_output_abort(ps_output *o);

/* Puts a finished file made elsewhere (a compiler's output) at path by the
 * same rules: renamed into place over a regular file, copied into anything
 * else; the file `made` is gone afterwards.  0, or -1 with err. */
int ps_output_install(const char *made, const char *path, int exec, char *err, size_t errlen);

/* Whether path is written by a rename (a regular file, or none yet): such
 * an output can be rewritten as results come in (a document that grows
 * trial by trial), where a FIFO or a device takes one document, at the end. */
int ps_output_replaceable(const char *path);

/* Whether path writes into standard output: '-', /dev/stdout or a link to
 * it, or the terminal or pipe standard output is.  A command whose document
 * goes there prints its text on standard error. */
int ps_output_is_stdout(const char *path);

/* What a command writes, for ps_outputs_check. */
enum ps_output_kind {
    PS_OUTPUT_FILE = 0,  /* a file by the rules above ('-': standard output) */
    PS_OUTPUT_DIR,       /* a directory of results: created now and locked */
    PS_OUTPUT_ARCHIVE    /* a directory replaced as a whole (an OTF2 archive) */
};

typedef struct ps_output_spec {
    const char *option;  /* as the user wrote it: "-o", "--json" */
    const char *path;    /* NULL: not asked for */
    int         kind;    /* enum ps_output_kind */
} ps_output_spec;

/* The check before any work (see the top).  inputs: the files the command
 * reads (NULL entries skipped).  0, or -1 with err ("-o r.json: exists
 * already (use --force to replace it)"). */
int ps_outputs_check(const ps_output_spec *outs, int nouts, const char *const *inputs, int ninputs, int force,
                     char *err, size_t errlen);

/* Locks directory dir for this process (until it exits, also when killed):
 * a second parscope locking it is refused with err naming the owner's pid.
 * The lock is the file dir/.parscope.lock.  0, or -1. */
int ps_dir_lock(const char *dir, char *err, size_t errlen);

/* Whether a file name is the lock file (directory listings skip it). */
int ps_is_dir_lock(const char *name);

#endif
