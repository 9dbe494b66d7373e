/*
 * test_progress.c - the progress line: done/total, elapsed and ETA (from the
 * finished items, or from a budget), drawn in place on a terminal, and
 * nothing at all when standard error is not one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/progress.h"

TEST_IMPL(progress_line)
{
    ps_progress p;
    /* ctest's standard error is a file or pipe: silent */
    ps_progress_begin(&p, 4, 0);
    CHECK(!p.on);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    p.out = f;
    ps_progress_show(&p, "never %d", 1);
    ps_progress_end(&p);
    fflush(f);
    CHECK(len == 0, "%zu bytes written off a terminal", len);

    /* the line itself */
    char line[256];
    ps_progress_begin(&p, 4, 0);
    p.t0 = 100;
    ps_progress_format(&p, 112, "base P=2 trial 1/3", line, sizeof line);
    CHECK(!strcmp(line, "[1/4] base P=2 trial 1/3  elapsed 0:12  ETA ?"), "%s", line);
    ps_progress_step(&p);
    ps_progress_format(&p, 130, "x", line, sizeof line);
    CHECK(!strcmp(line, "[2/4] x  elapsed 0:30  ETA 1:30"), "%s", line); /* 30 s per item, 3 left */
    p.done = 4;
    ps_progress_format(&p, 100 + 3725, "x", line, sizeof line);
    CHECK(!strcmp(line, "[4/4] x  elapsed 1:02:05  ETA 0:00"), "%s", line);
    p.budget = 90;
    p.done = 1;
    ps_progress_format(&p, 160, "probe", line, sizeof line);
    CHECK(!strcmp(line, "[2/4] probe  elapsed 1:00  ETA 0:30"), "%s", line);
    ps_progress_format(&p, 300, "probe", line, sizeof line);
    CHECK(strstr(line, "ETA 0:00") != NULL, "a spent budget: %s", line);

    /* on a terminal: drawn in place, cleared before a message and at the end */
    ps_progress_begin(&p, 2, 0);
    p.on = 1;
    p.out = f;
    ps_progress_show(&p, "step %s", "one");
    ps_progress_clear(&p);
    ps_progress_show(&p, "step %s", "two");
    ps_progress_end(&p);
    ps_progress_show(&p, "after the end");
    fclose(f);
    CHECK(text && !strncmp(text, "\r\033[K[1/2] step one  elapsed 0:00  ETA ?\r\033[K\r\033[K[1/2] step two", 60),
          "'%s'", text ? text : "");
    CHECK(text && !strstr(text, "after the end") && len > 4 && !strcmp(text + len - 4, "\r\033[K"), "'%s'", text);
    free(text);

    /* quiet: silent even on a terminal (the flag, as the commands pass it) */
    ps_progress_begin(&p, 1, 1);
    CHECK(!p.on);
}
