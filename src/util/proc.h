/*
 * proc.h - starting a child process, the one way parscope does it.
 *
 * Every program parscope starts (the MPI launcher, the C compiler, a
 * recording run of a prediction, a step of characterize) goes through
 * ps_proc_run: argv, never a shell; its own process group, so a time limit
 * or an interruption stops everything it started; a parent-death signal
 * (SIGTERM, PR_SET_PDEATHSIG: sent when the thread that started the child
 * ends, so children are started from the main thread) and a guard process
 * that stops it and everything below it if that signal is lost, so it does
 * not outlive parscope; the exit status decoded; its
 * standard error captured (bounded) and, if asked, passed on as it comes.
 *
 * Interruption, one rule for every command (docs/FAULTS.md): after
 * ps_interrupt_install(), SIGINT, SIGTERM and SIGHUP to parscope are counted
 * (ps_interrupted()), and the running child's group is sent the same signal
 * at once (an MPI launcher passes it on to its ranks and stops the job; a
 * parscope child writes what it measured), SIGKILL to it and everything
 * below it kill_grace seconds later.  The command then writes what it has,
 * says what is missing, and exits with ps_interrupt_status() (128 + the
 * signal: 130 after SIGINT, 143 after SIGTERM).
 *
 * Nothing is left running: parscope is a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so what a child leaves behind (ranks in process
 * groups of their own when their launcher dies first) comes back to it and
 * is stopped (SIGTERM, then SIGKILL) when the child has ended.  Once
 * parscope has stopped a child (time limit, interruption), what the child
 * still prints is kept in the result but no longer echoed: the user sees
 * parscope's own account of it, not a dying launcher's.
 */
#ifndef PS_PROC_H
#define PS_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* Seconds between SIGTERM and SIGKILL when a child is stopped. */
#define PS_PROC_KILL_GRACE 3.0
/* Bytes of a child's standard error kept (the first ones; the rest counted). */
#define PS_PROC_CAPTURE_MAX (64 * 1024)

enum ps_proc_err {
    PS_PROC_ERR_CAPTURE = 0, /* a pipe: kept in the result, passed on if echo is set */
    PS_PROC_ERR_TO_OUT,      /* where standard output goes (2>&1) */
    PS_PROC_ERR_INHERIT      /* parscope's own */
};

typedef struct ps_proc_opts {
    double       timeout;     /* seconds, 0 = none: then SIGTERM to the group, SIGKILL after kill_grace */
    double       kill_grace;  /* seconds; 0 = PS_PROC_KILL_GRACE */
    const char  *out;         /* the child's standard output: NULL inherited, else this file
                                 (created or truncated; "/dev/null" to drop it) */
    int          err;         /* enum ps_proc_err */
    int          out_to_err;  /* standard output goes where standard error goes (1>&2) */
    int          echo;        /* with PS_PROC_ERR_CAPTURE: copy it to parscope's standard error as it comes */
    int          forward;     /* kept for callers: every child is now sent the signal at once */
    char *const *env;         /* "NAME=VALUE" set for the child (NULL-terminated), or NULL */
    /* with PS_PROC_ERR_CAPTURE: called with each line of standard error (no newline) */
    void       (*on_line)(const char *line, void *ctx);
    void        *ctx;
} ps_proc_opts;

typedef struct ps_proc_result {
    int    started;       /* 0: the program could not be started (start_errno says why) */
    int    start_errno;
    int    exited;        /* 1: it exited, with exit_code */
    int    exit_code;
    int    signal;        /* the signal that ended it, else 0 */
    int    timed_out;     /* it was stopped at its time limit */
    int    interrupted;   /* it was stopped or signalled because parscope was interrupted */
    int    status;        /* as a shell says it: exit code, 128 + signal, 127 not started */
    double elapsed;       /* seconds from start to end */
    char  *err;           /* captured standard error, NUL-terminated ("" if none); ps_proc_result_free */
    size_t err_len;
    size_t err_dropped;   /* bytes past PS_PROC_CAPTURE_MAX, not kept */
    int    orphans;       /* processes it left running, stopped by parscope */
} ps_proc_result;

/* Runs argv[0] (searched on PATH when it has no '/') with argv and waits.
 * Returns 0 when it exited with status 0, else 1 (r says what happened). */
int  ps_proc_run(char *const argv[], const ps_proc_opts *o, ps_proc_result *r);
void ps_proc_result_free(ps_proc_result *r);

/* Starts fn(ctx) in a child process and returns at once: for a process that
 * is parscope itself rather than a program (an emulated cluster's init, the
 * anchors that hold its namespaces open, its command entering a node), which
 * ends with _exit or an exec and never returns from fn.  Unlike ps_proc_run
 * the child keeps the caller's process group, signal handlers and mask (the
 * caller sets them up around the call) and is not waited for.  Standard I/O
 * is flushed first.  Returns the child's PID, or -1 with errno set. */
pid_t ps_proc_start_fn(void (*fn)(void *ctx), void *ctx);

/* What happened, in words: "exit status 3", "killed by signal 9 (Killed)",
 * "stopped at its time limit of 5 s", "cannot run 'x': No such file or
 * directory". */
void ps_proc_describe(const ps_proc_result *r, const char *program, char *buf, size_t len);

/* SIGINT/SIGTERM/SIGHUP handling for long commands (see the top of this file). */
void ps_interrupt_install(void);
int  ps_interrupted(void);
/* The first signal received (0: none); 128 + it, the exit status of an
 * interrupted command (0: not interrupted); its name ("SIGINT"). */
int         ps_interrupt_signal(void);
int         ps_interrupt_status(void);
const char *ps_interrupt_name(void);

#endif
