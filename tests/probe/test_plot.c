/* test_plot.c - the SVG XY plot: tick positions, escaping, skipped points,
 * and a well-formed file (checked by xmllint when it is installed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "util/util.h"

#include "check.h"

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

static void check_ticks(double lo, double hi, int lg, const double *want, int nwant)
{
    double t[64];
    int n = ps_plot_ticks(lo, hi, lg, t, 64);
    CHECK(n == nwant);
    for (int i = 0; i < n && i < nwant; i++) CHECK(fabs(t[i] - want[i]) <= 1e-12 * fabs(want[i]) + 1e-15);
}

TEST_IMPL(plot_ticks)
{
    check_ticks(0, 10, 0, (double[]){0, 2, 4, 6, 8, 10}, 6);
    check_ticks(-1, 1, 0, (double[]){-1, -0.5, 0, 0.5, 1}, 5);
    check_ticks(0.3, 0.71, 0, (double[]){0.3, 0.4, 0.5, 0.6, 0.7}, 5);
    check_ticks(1, 1e6, 1, (double[]){1, 10, 100, 1e3, 1e4, 1e5, 1e6}, 7);
    check_ticks(1, 50, 1, (double[]){1, 2, 5, 10, 20, 50}, 6);
    check_ticks(1e-7, 1e-2, 1, (double[]){1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2}, 6);
    check_ticks(1, 64, 2, (double[]){1, 2, 4, 8, 16, 32, 64}, 7);
    check_ticks(1, 4194304, 2, (double[]){1, 8, 64, 512, 4096, 32768, 262144, 2097152}, 8);
    double t[64];
    CHECK(ps_plot_ticks(5, 5, 0, t, 64) == 0);
    CHECK(ps_plot_ticks(-1, 5, 1, t, 64) == 0);
    int many = ps_plot_ticks(1e-30, 1e30, 1, t, 64);
    CHECK(many >= 5 && many <= 9);
}

static const double x[] = {1, 2, 4, 8, 16};

/* two series on log axes: the NaN, zero and negative points are skipped */
static void two_series(ps_plot *p)
{
    static const double y[] = {1e-6, NAN, 0, 4e-6, 8e-6}, y2[] = {1e-6, 2e-6, 3e-6, -1, 9e-6};
    ps_plot_init(p, "time <&> \"size\"", "bytes", "seconds");
    p->xlog = p->ylog = 1;
    p->xfmt = ps_fmt_bytes;
    p->yfmt = ps_fmt_time;
    CHECK(ps_plot_add(p, "measured", x, y, 5, PS_PLOT_POINTS) != NULL);
    CHECK(ps_plot_add(p, "fit <b>", x, y2, 5, PS_PLOT_LINE | PS_PLOT_DASHED) != NULL);
}

TEST_IMPL(plot_svg)
{
    ps_plot p;
    two_series(&p);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    CHECK(ps_plot_svg(&p, m) == 0);
    fclose(m);
    CHECK(strstr(buf, "<svg ") == buf);
    CHECK(strstr(buf, "time &lt;&amp;&gt; &quot;size&quot;") != NULL);
    CHECK(strstr(buf, "fit &lt;b&gt;") != NULL);
    CHECK(strstr(buf, "<b>") == NULL);
    CHECK(count(buf, "<circle") == 3 + 1);            /* 3 usable points + the legend marker */
    CHECK(count(buf, "stroke-dasharray") == 2);       /* the fit line and its legend entry */
    CHECK(strstr(buf, "M") != NULL && count(buf, "d=\"M") >= 1);
    /* the fit line breaks at the negative value: two pen-ups */
    const char *d = strstr(buf, "stroke-dasharray=\"6 4\" d=\"");
    CHECK(d && count(d, "M") >= 2);
    CHECK(strstr(buf, "no data") == NULL);
    free(buf);
}

TEST_IMPL(plot_empty_and_full)
{
    /* an empty plot still gives a frame */
    ps_plot e;
    char *buf = NULL;
    size_t len = 0;
    FILE *m;
    ps_plot_init(&e, NULL, NULL, NULL);
    buf = NULL;
    m = open_memstream(&buf, &len);
    CHECK(ps_plot_svg(&e, m) == 0);
    fclose(m);
    CHECK(strstr(buf, "no data") != NULL);
    free(buf);

    /* full */
    for (int i = 0; i < PS_PLOT_MAX_SERIES; i++) ps_plot_add(&e, "s", x, x, 5, PS_PLOT_LINE);
    CHECK(ps_plot_add(&e, "one too many", x, x, 5, PS_PLOT_LINE) == NULL);
}

/* a standalone file that an XML parser accepts */
TEST_IMPL(plot_file)
{
    ps_plot p;
    two_series(&p);
    char err[256];
    char *dir = ps_mktempdir("psplot", err, sizeof err);
    CHECK(dir != NULL);
    if (dir) {
        char *path = ps_xasprintf("%s/p.svg", dir);
        CHECK(ps_plot_write(&p, path, err, sizeof err) == 0);
        if (system("command -v xmllint >/dev/null 2>&1") == 0) {
            char *cmd = ps_xasprintf("xmllint --noout '%s'", path);
            CHECK(system(cmd) == 0);
            free(cmd);
        }
        char *bad = ps_xasprintf("%s/no/such/dir/p.svg", dir);
        CHECK(ps_plot_write(&p, bad, err, sizeof err) == -1);
        CHECK(strstr(err, bad) != NULL);
        free(bad);
        free(path);
        ps_rmtree(dir);
        free(dir);
    }
}
