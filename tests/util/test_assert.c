/* test_assert.c - PS_ASSERT in a debug build: a broken invariant stops the
 * process (SIGABRT) with a message naming the condition and the place. */
#undef NDEBUG
#include "util/assert.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static int level = 1;

static void broken(void)
{
    PS_ASSERT(level == 2);
}

TEST_IMPL(assert_fails_loudly)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        broken();
        _exit(0);
    }
    close(fd[1]);
    char msg[512] = "";
    size_t n = 0;
    ssize_t r;
    while (n < sizeof msg - 1 && (r = read(fd[0], msg + n, sizeof msg - 1 - n)) > 0) n += (size_t)r;
    close(fd[0]);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "status %#x", status);
    CHECK(strstr(msg, "parscope: internal error at ") && strstr(msg, "test_assert.c:") &&
          strstr(msg, "(broken): level == 2 does not hold"), "%s", msg);
}

TEST_IMPL(assert_holds)
{
    level = 2;
    broken();   /* returns */
    level = 1;
    CHECK(level == 1);
}
