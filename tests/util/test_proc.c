/*
 * test_proc.c - the child-process runner: exit status and signal decoding,
 * captured (bounded) standard error, a missing program, the time limit
 * stopping the whole process group (SIGKILL after an ignored SIGTERM),
 * SIGINT passed on at once, what a child leaves running stopped, the
 * parent-death signal and, where it is lost, the guard, the environment.
 * The children are small sh scripts (the runner itself never uses a shell).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "util/proc.h"
#include "util/util.h"

static char dir[256];

static void remove_dir(void)
{
    if (dir[0]) ps_rmtree(dir);
}

/* One temporary folder for the tests of this process, removed at exit;
 * 0, or -1 with the test failed. */
static int make_dir(void)
{
    if (dir[0]) return 0;
    char err[256];
    char *d = ps_mktempdir("parscope-test-proc", err, sizeof err);
    CHECK(d != NULL, "%s", err);
    if (!d) return -1;
    snprintf(dir, sizeof dir, "%s", d);
    free(d);
    atexit(remove_dir);
    return 0;
}

static int run_sh(const char *script, const ps_proc_opts *o, ps_proc_result *r)
{
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    return ps_proc_run(argv, o, r);
}

/* 1 while pid names a live process (a zombie counts as gone). */
static int alive(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

static pid_t read_pid(const char *file, double wait_s)
{
    for (double end = ps_clock() + wait_s; ps_clock() < end; usleep(10000)) {
        FILE *f = fopen(file, "r");
        int pid = 0;
        if (f && fscanf(f, "%d", &pid) == 1 && pid > 0) {
            fclose(f);
            return pid;
        }
        if (f) fclose(f);
    }
    return 0;
}

static int gone_within(pid_t pid, double s)
{
    for (double end = ps_clock() + s; ps_clock() < end; usleep(10000))
        if (!alive(pid)) return 1;
    return !alive(pid);
}

TEST_IMPL(proc_exit_and_signal)
{
    if (make_dir()) return;
    ps_proc_result r;
    CHECK(run_sh("exit 3", NULL, &r) == 1);
    CHECK(r.started && r.exited && r.exit_code == 3 && r.status == 3 && !r.signal, "exit %d", r.exit_code);
    char d[256];
    ps_proc_describe(&r, "sh", d, sizeof d);
    CHECK(!strcmp(d, "exit status 3"), "%s", d);
    ps_proc_result_free(&r);

    CHECK(run_sh("exit 0", NULL, &r) == 0 && r.exited && r.status == 0);
    ps_proc_result_free(&r);

    CHECK(run_sh("kill -USR1 $$", NULL, &r) == 1);
    CHECK(!r.exited && r.signal == SIGUSR1 && r.status == 128 + SIGUSR1, "signal %d", r.signal);
    ps_proc_describe(&r, "sh", d, sizeof d);
    CHECK(strstr(d, "killed by signal") != NULL, "%s", d);
    ps_proc_result_free(&r);
}

TEST_IMPL(proc_capture)
{
    if (make_dir()) return;
    ps_proc_result r;
    CHECK(run_sh("echo out >/dev/null; echo 'first line' >&2; printf 'no newline' >&2", NULL, &r) == 0);
    CHECK(!strcmp(r.err, "first line\nno newline"), "captured '%s'", r.err);
    ps_proc_result_free(&r);

    /* bounded: the first PS_PROC_CAPTURE_MAX - 1 bytes kept, the rest counted */
    CHECK(run_sh("head -c 200000 /dev/zero | tr '\\0' x >&2", NULL, &r) == 0);
    CHECK(r.err_len == PS_PROC_CAPTURE_MAX - 1 && strlen(r.err) == r.err_len, "kept %zu", r.err_len);
    CHECK(r.err_len + r.err_dropped == 200000, "kept %zu + dropped %zu", r.err_len, r.err_dropped);
    ps_proc_result_free(&r);

    /* standard output into the capture (1>&2), and into a file */
    ps_proc_opts o = {.out_to_err = 1};
    CHECK(run_sh("echo to-stdout", &o, &r) == 0 && !strcmp(r.err, "to-stdout\n"), "'%s'", r.err);
    ps_proc_result_free(&r);
    char file[300];
    snprintf(file, sizeof file, "%s/out.txt", dir);
    ps_proc_opts f = {.out = file, .err = PS_PROC_ERR_TO_OUT};
    CHECK(run_sh("echo a; echo b >&2", &f, &r) == 0);
    char *text = ps_read_file(file, NULL, NULL, 0);
    CHECK(text && !strcmp(text, "a\nb\n"), "file holds '%s'", text ? text : "(nothing)");
    free(text);
    ps_proc_result_free(&r);
}

static int lines;
static void count_line(const char *line, void *ctx)
{
    lines += !strcmp(line, (const char *)ctx);
}

TEST_IMPL(proc_lines_and_env)
{
    if (make_dir()) return;
    ps_proc_result r;
    char *env[] = {"PS_TEST_VALUE=from the runner", "HOME=/nowhere", NULL};
    ps_proc_opts o = {.env = env, .on_line = count_line, .ctx = "from the runner /nowhere"};
    CHECK(run_sh("echo \"$PS_TEST_VALUE $HOME\" >&2; echo other >&2; echo \"$PS_TEST_VALUE $HOME\" >&2", &o, &r) == 0);
    CHECK(lines == 2, "%d matching lines", lines);
    ps_proc_result_free(&r);
}

TEST_IMPL(proc_missing_program)
{
    if (make_dir()) return;
    ps_proc_result r;
    char *argv[] = {"/nonexistent/parscope-no-such-program", NULL};
    CHECK(ps_proc_run(argv, NULL, &r) == 1);
    CHECK(!r.started && r.start_errno == ENOENT && r.status == 127, "errno %d", r.start_errno);
    char d[256];
    ps_proc_describe(&r, argv[0], d, sizeof d);
    CHECK(strstr(d, "cannot run '/nonexistent/parscope-no-such-program'") && strstr(d, "No such file"), "%s", d);
    ps_proc_result_free(&r);
    char *onpath[] = {"parscope-no-such-program-on-path", NULL};
    CHECK(ps_proc_run(onpath, NULL, &r) == 1 && !r.started && r.start_errno == ENOENT);
    ps_proc_result_free(&r);
}

/* The time limit stops the whole group: the shell and the sleep it left in
 * the background, both ignoring SIGTERM, so SIGKILL must follow. */
TEST_IMPL(proc_time_limit)
{
    if (make_dir()) return;
    char file[300], script[600];
    snprintf(file, sizeof file, "%s/bg.pid", dir);
    snprintf(script, sizeof script, "trap '' TERM; sleep 30 & echo $! > '%s'; wait; wait", file);
    ps_proc_opts o = {.timeout = 0.5, .kill_grace = 0.3};
    ps_proc_result r;
    double t0 = ps_clock();
    CHECK(run_sh(script, &o, &r) == 1);
    double took = ps_clock() - t0;
    CHECK(r.timed_out && r.signal == SIGKILL, "timed_out %d signal %d", r.timed_out, r.signal);
    CHECK(took > 0.5 && took < 5, "took %.2f s", took);
    pid_t bg = read_pid(file, 1);
    CHECK(bg > 0 && gone_within(bg, 2), "the background sleep %d survived the time limit", (int)bg);
    char d[256];
    ps_proc_describe(&r, "sh", d, sizeof d);
    CHECK(strstr(d, "time limit") != NULL, "%s", d);
    ps_proc_result_free(&r);
}

/* SIGINT to the parent, the one rule: the child's group is sent it at once
 * (a launcher passes it on and stops its job), SIGKILL after the grace if
 * it does not end; the exit status to end with is 128 + the signal. */
TEST_IMPL(proc_interruption)
{
    if (make_dir()) return;
    ps_interrupt_install();
    ps_proc_result r;
    /* a grace long enough for a loaded machine to deliver the SIGINT first;
     * exec: a shell that gets SIGINT while starting a foreground job waits
     * for that job (30 s) before it acts on the signal */
    ps_proc_opts o = {.kill_grace = 2};
    CHECK(run_sh("kill -INT $PPID; exec sleep 30", &o, &r) == 1);
    CHECK(r.interrupted && r.signal == SIGINT && r.elapsed < 10, "signal %d after %.1f s", r.signal, r.elapsed);
    ps_proc_result_free(&r);
    CHECK(run_sh("trap 'echo got INT >&2; exit 7' INT; kill -INT $PPID; i=0; "
                 "while [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; exit 0", &o, &r) == 1);
    CHECK(r.exited && r.exit_code == 7 && r.interrupted, "exit %d signal %d", r.exit_code, r.signal);
    CHECK(strstr(r.err, "got INT") != NULL, "'%s'", r.err);
    CHECK(r.elapsed < 10, "took %.1f s", r.elapsed);
    ps_proc_result_free(&r);
    /* a child deaf to it is killed after the grace, with what it started */
    char file[300], script[600];
    snprintf(file, sizeof file, "%s/deaf.pid", dir);
    snprintf(script, sizeof script, "trap '' INT TERM; sleep 30 & echo $! > '%s'; kill -INT $PPID; wait; wait", file);
    double t0 = ps_clock();
    CHECK(run_sh(script, &o, &r) == 1);
    CHECK(r.interrupted && r.signal == SIGKILL && ps_clock() - t0 < 10, "signal %d after %.1f s", r.signal,
          ps_clock() - t0);
    pid_t bg = read_pid(file, 1);
    CHECK(bg > 0 && gone_within(bg, 2), "the background sleep %d survived", (int)bg);
    ps_proc_result_free(&r);

    CHECK(ps_interrupted());
    CHECK(ps_interrupt_signal() == SIGINT && ps_interrupt_status() == 130, "status %d", ps_interrupt_status());
    signal(SIGINT, SIG_DFL);
}

/* What a child leaves running, even in a session of its own (Open MPI's
 * ranks when their launcher dies first), comes back to parscope and is
 * stopped when the child ends. */
TEST_IMPL(proc_orphans)
{
    if (make_dir()) return;
    char file[300], script[600];
    snprintf(file, sizeof file, "%s/orphan.pid", dir);
    snprintf(script, sizeof script, "setsid sleep 30 & echo $! > '%s'; sleep 0.2; exit 0", file);
    ps_proc_result r;
    CHECK(run_sh(script, NULL, &r) == 0, "status %d", r.status);
    pid_t o = read_pid(file, 1);
    CHECK(o > 0 && !alive(o), "the orphan %d still runs after the child ended", (int)o);
    CHECK(r.orphans == 1, "%d orphans reported", r.orphans);
    ps_proc_result_free(&r);
}

/* parscope killed outright: its child gets SIGTERM (PR_SET_PDEATHSIG). */
TEST_IMPL(proc_parent_death)
{
    if (make_dir()) return;
    char file[300], script[600];
    snprintf(file, sizeof file, "%s/child.pid", dir);
    snprintf(script, sizeof script, "echo $$ > '%s'; exec sleep 30", file);
    pid_t mid = fork();
    if (mid == 0) {
        ps_proc_result r;
        run_sh(script, NULL, &r);
        _exit(0);
    }
    pid_t c = read_pid(file, 5);
    CHECK(c > 0, "the child did not start");
    kill(mid, SIGKILL);
    waitpid(mid, NULL, 0);
    CHECK(c > 0 && gone_within(c, 3), "the child %d outlived its parent", (int)c);
}

/* parscope killed outright, and its child deaf to the parent-death signal
 * (MPICH's mpiexec loses a SIGTERM that comes before its proxies have
 * connected): the guard stops the child and what it started, a rank in a
 * session of its own too, after the grace. */
TEST_IMPL(proc_parent_death_lost)
{
    if (make_dir()) return;
    char file[300], rank_file[300], script[900];
    snprintf(file, sizeof file, "%s/deaf.pid", dir);
    snprintf(rank_file, sizeof rank_file, "%s/rank.pid", dir);
    snprintf(script, sizeof script,
             "trap '' TERM; setsid sleep 30 & echo $! > '%s'; echo $$ > '%s'; while :; do sleep 0.1; done", rank_file,
             file);
    pid_t mid = fork();
    if (mid == 0) {
        ps_proc_result r;
        ps_proc_opts o = {.kill_grace = 1};
        run_sh(script, &o, &r);
        _exit(0);
    }
    pid_t c = read_pid(file, 5), rank = read_pid(rank_file, 5);
    CHECK(c > 0 && rank > 0, "the child did not start");
    double t0 = ps_clock();
    kill(mid, SIGKILL);
    waitpid(mid, NULL, 0);
    /* the SIGTERM is ignored: the child lives until the guard's SIGKILL */
    usleep(300000);
    CHECK(c > 0 && alive(c), "the child %d ended at a SIGTERM it ignores", (int)c);
    CHECK(c > 0 && gone_within(c, 6), "the child %d outlived its parent by %.1f s", (int)c, ps_clock() - t0);
    CHECK(rank > 0 && gone_within(rank, 2), "the rank %d outlived its parent by %.1f s", (int)rank, ps_clock() - t0);
    /* a failure leaves nothing behind either */
    if (c > 0 && alive(c)) kill(c, SIGKILL);
    if (rank > 0 && alive(rank)) kill(rank, SIGKILL);
}

/* The guard of a child that ended with parscope there ends too: nothing
 * is left to wait for. */
TEST_IMPL(proc_guard_reaped)
{
    ps_proc_result r;
    CHECK(run_sh("exit 0", NULL, &r) == 0);
    ps_proc_result_free(&r);
    errno = 0;
    CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "a child of the runner is left: %s", strerror(errno));
}

/* A function started in a child: it runs there (not here), in this
 * process's group, is not waited for, and its exit status is its own. */
static void child_fn(void *ctx)
{
    int *code = ctx;
    if (getpgrp() != getpgid(getppid())) _exit(90);
    _exit(*code);
}

TEST_IMPL(proc_start_fn)
{
    int code = 42;
    pid_t pid = ps_proc_start_fn(child_fn, &code);
    CHECK(pid > 0, "start: %s", strerror(errno));
    if (pid <= 0) return;
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "status %#x (90: another process group)", st);
}
