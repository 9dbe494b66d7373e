/* html.c - the HTML report framework (see html.h). */
#include "report/html.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"
#include "report/figure.h"
#include "util/util.h"

void ps_html_escape(FILE *f, const char *s)
{
    if (!s) return;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        case '\t':
        case '\n': fputc(*p, f); break;
        default:
            if (*p < 0x20 || *p == 0x7f) fputs("\xef\xbf\xbd", f);
            else fputc(*p, f);
        }
    }
}

void ps_html_escape_units(FILE *f, const char *s)
{
    if (!s) return;
    size_t n = strlen(s);
    char *t = ps_xmalloc(2 * n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        /* "<digit>us" or "<digit> us" followed by a non-letter */
        size_t j = i;
        if (s[j] == ' ') j++;
        if (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9' && s[j] == 'u' && s[j + 1] == 's' &&
            !((s[j + 2] >= 'a' && s[j + 2] <= 'z') || (s[j + 2] >= 'A' && s[j + 2] <= 'Z'))) {
            if (j > i) t[k++] = ' ';
            memcpy(t + k, "\xc2\xb5s", 3);
            k += 3;
            i = j + 1;
            continue;
        }
        t[k++] = s[i];
    }
    t[k] = 0;
    ps_html_escape(f, t);
    free(t);
}

void ps_html_vescape(FILE *f, const char *fmt, va_list ap)
{
    char small[512];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        ps_html_escape(f, small);
        return;
    }
    char *big = ps_xmalloc((size_t)n + 1);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    ps_html_escape(f, big);
    free(big);
}

/* open, the formatted text escaped, close */
static void tagged(FILE *f, const char *open, const char *fmt, va_list ap, const char *close)
{
    fputs(open, f);
    ps_html_vescape(f, fmt, ap);
    fputs(close, f);
}

void ps_html_escapef(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ps_html_vescape(f, fmt, ap);
    va_end(ap);
}

/* What the current page holds: its element ids (kept unique), its sections
 * and headings (the table of contents), the tables written once. */
typedef struct toc_entry {
    char *id, *title;
    int   level;   /* 2 a section, 3 a heading */
} toc_entry;

typedef struct once_entry {
    char *key, *anchor, *where;
} once_entry;

static char **page_ids;
static size_t page_nids, page_capids;
static toc_entry *toc;
static size_t ntoc, captoc;
static once_entry *onces;
static size_t nonces;
static int details_depth;
static char section_id[256], section_title[256];

static void ids_reset(void)
{
    for (size_t i = 0; i < page_nids; i++) free(page_ids[i]);
    free(page_ids);
    page_ids = NULL;
    page_nids = page_capids = 0;
    for (size_t i = 0; i < ntoc; i++) {
        free(toc[i].id);
        free(toc[i].title);
    }
    free(toc);
    toc = NULL;
    ntoc = captoc = 0;
    for (size_t i = 0; i < nonces; i++) {
        free(onces[i].key);
        free(onces[i].anchor);
        free(onces[i].where);
    }
    free(onces);
    onces = NULL;
    nonces = 0;
    details_depth = 0;
    section_id[0] = section_title[0] = 0;
}

void ps_html_page_reset(void) { ids_reset(); }

static int id_seen(const char *id)
{
    for (size_t i = 0; i < page_nids; i++)
        if (!strcmp(page_ids[i], id)) return 1;
    return 0;
}

static void id_add(const char *id)
{
    if (page_nids == page_capids) {
        page_capids = page_capids ? 2 * page_capids : 16;
        page_ids = ps_xrealloc(page_ids, page_capids * sizeof *page_ids);
    }
    page_ids[page_nids++] = ps_xstrdup(id);
}

/* base, or base-2, base-3 ... : the first not yet used on the page (taken). */
static void unique_id(char *buf, size_t len, const char *base)
{
    snprintf(buf, len, "%s", base);
    for (int k = 2; id_seen(buf); k++) snprintf(buf, len, "%s-%d", base, k);
    id_add(buf);
}

static void toc_add(const char *id, const char *title, int level)
{
    if (ntoc == captoc) {
        captoc = captoc ? 2 * captoc : 32;
        toc = ps_xrealloc(toc, captoc * sizeof *toc);
    }
    toc[ntoc++] = (toc_entry){ps_xstrdup(id), ps_xstrdup(title), level};
}

/* lower-case letters and digits, everything else one '-' */
static void slug(char *buf, size_t len, const char *s)
{
    size_t n = 0;
    int dash = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 2 < len && n < 48; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
            buf[n++] = (char)*p;
            dash = 0;
        } else if (*p >= 'A' && *p <= 'Z') {
            buf[n++] = (char)(*p - 'A' + 'a');
            dash = 0;
        } else if (n && !dash) {
            buf[n++] = '-';
            dash = 1;
        }
    }
    while (n && buf[n - 1] == '-') n--;
    buf[n] = 0;
    if (!n) snprintf(buf, len, "part");
}

void ps_html_new_id(char *buf, size_t len, const char *prefix) { unique_id(buf, len, prefix); }

const char *ps_html_current_section(void) { return section_title; }

const char *ps_html_once(const char *key, const char *anchor, const char *where, const char **first_where)
{
    for (size_t i = 0; i < nonces; i++)
        if (!strcmp(onces[i].key, key)) {
            if (first_where) *first_where = onces[i].where;
            return onces[i].anchor;
        }
    onces = ps_xrealloc(onces, (nonces + 1) * sizeof *onces);
    onces[nonces++] = (once_entry){ps_xstrdup(key), ps_xstrdup(anchor), ps_xstrdup(where ? where : "")};
    return NULL;
}

void ps_html_fmt_time(char *buf, size_t len, double s)
{
    double a = fabs(s);
    if (!isfinite(s)) snprintf(buf, len, "-");
    else if (a == 0) snprintf(buf, len, "0 s");
    else if (a < 1e-6) snprintf(buf, len, "%.3g ns", s * 1e9);
    else if (a < 1e-3) snprintf(buf, len, "%.3g \xc2\xb5s", s * 1e6);
    else if (a < 1) snprintf(buf, len, "%.3g ms", s * 1e3);
    else snprintf(buf, len, "%.3g s", s);
}

static const char *style_sheet =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:0 auto;"
    "max-width:1400px;padding:1em 2em;color:#1d1d1f;background:#fff;line-height:1.4;box-sizing:border-box}\n"
    "h1{font-size:1.6em;border-bottom:2px solid #1f3f8f;padding-bottom:.2em;margin-bottom:.4em}\n"
    "h2{font-size:1.3em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
    "h3{font-size:1.05em;margin-bottom:.3em}\n"
    "section{margin-bottom:2em}\n"
    "table{border-collapse:collapse;margin:.5em 0;font-size:.92em}\n"
    "th,td{border:1px solid #d5d5d5;padding:.2em .6em;text-align:left;vertical-align:top}\n"
    "th{background:#f0f2f7}\n"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "td.off{color:#b03020}\n"
    "table.kv th{font-weight:normal;color:#444;background:#f7f7f9;min-width:14em}\n"
    "p.note{color:#555;font-size:.9em;max-width:60em}\n"
    "svg{display:block;margin:.5em 0;max-width:100%;height:auto}\n"
    "svg text{font-family:system-ui,Helvetica,Arial,sans-serif}\n"
    ".sheets{display:flex;flex-wrap:wrap;gap:2em}\n"
    ".sheet{border:1px solid #bbb;padding:.5em 1.2em;background:#fcfcfd}\n"
    ".figures{display:flex;flex-wrap:wrap;gap:.5em 2em;align-items:flex-start}\n"
    ".legend span{display:inline-block;width:1em;height:1em;vertical-align:middle;margin:0 .3em 0 1em}\n"
    "#summary ul{margin:.3em 0;padding-left:1.2em}\n"
    "#summary li{margin:.25em 0;max-width:75em}\n"
    "nav.toc{font-size:.92em;border:1px solid #dde;background:#f8f9fc;padding:.2em 1.2em .6em;margin:1em 0}\n"
    "nav.toc h2{font-size:1.05em;margin-top:.5em;border:0}\n"
    "nav.toc ol{margin:0;padding-left:1.4em;columns:2;column-gap:3em}\n"
    "nav.toc ol.one{columns:1}\n"
    "nav.toc li{break-inside:avoid;margin:.15em 0}\n"
    "nav.toc .sub{display:block;color:#555;font-size:.92em}\n"
    "nav.toc .sub a{color:#446}\n"
    "details{margin:.4em 0}\n"
    "details>summary{cursor:pointer;color:#1f3f8f}\n"
    "footer{margin-top:3em;color:#777;font-size:.85em;border-top:1px solid #ddd}\n";

void ps_html_begin(FILE *f, const char *title)
{
    ids_reset();
    ps_html_head(f, title);
}

void ps_html_head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    ps_html_escape(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style_sheet);
    ps_html_escape(f, title);
    fputs("</h1>\n", f);
}

void ps_html_end(FILE *f)
{
    char stamp[64];
    ps_iso_time(stamp, sizeof stamp);
    fprintf(f, "<footer>Generated by parscope %d.%d on ", PS_VERSION_MAJOR, PS_VERSION_MINOR);
    ps_html_escape(f, stamp);
    fputs(".</footer>\n</body>\n</html>\n", f);
    ids_reset();
}

void ps_html_section_begin(FILE *f, const char *id, const char *title)
{
    char buf[256];
    unique_id(buf, sizeof buf, id && *id ? id : "section");
    fputs("<section id=\"", f);
    ps_html_escape(f, buf);
    fputs("\">\n<h2>", f);
    ps_html_escape(f, title);
    fputs("</h2>\n", f);
    snprintf(section_id, sizeof section_id, "%s", buf);
    snprintf(section_title, sizeof section_title, "%s", title ? title : "");
    toc_add(buf, title ? title : "", 2);
}

void ps_html_section_end(FILE *f)
{
    fputs("</section>\n", f);
    section_id[0] = section_title[0] = 0;
}

void ps_html_heading(FILE *f, const char *title)
{
    char s[64], base[320], id[340];
    slug(s, sizeof s, title ? title : "");
    snprintf(base, sizeof base, "%s%s%s", section_id, section_id[0] ? "-" : "", s);
    unique_id(id, sizeof id, base);
    fputs("<h3 id=\"", f);
    ps_html_escape(f, id);
    fputs("\">", f);
    ps_html_escape(f, title);
    fputs("</h3>\n", f);
    if (!details_depth) toc_add(id, title ? title : "", 3);
}

void ps_html_details_begin(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tagged(f, "<details>\n<summary>", fmt, ap, "</summary>\n");
    va_end(ap);
    details_depth++;
}

void ps_html_details_end(FILE *f)
{
    fputs("</details>\n", f);
    if (details_depth) details_depth--;
}

void ps_html_toc(FILE *f)
{
    if (!ntoc) return;
    size_t nsec = 0;
    for (size_t i = 0; i < ntoc; i++) nsec += toc[i].level == 2;
    /* a short list in one column, a long one in two */
    fprintf(f, "<nav id=\"contents\" class=\"toc\">\n<h2>Contents</h2>\n<ol%s>\n", nsec < 6 ? " class=\"one\"" : "");
    for (size_t i = 0; i < ntoc; i++) {
        if (toc[i].level != 2) continue;
        fputs("<li><a href=\"#", f);
        ps_html_escape(f, toc[i].id);
        fputs("\">", f);
        ps_html_escape(f, toc[i].title);
        fputs("</a>", f);
        int first = 1;
        for (size_t k = i + 1; k < ntoc && toc[k].level == 3; k++) {
            fputs(first ? "<span class=\"sub\">" : " \xc2\xb7 ", f);
            first = 0;
            fputs("<a href=\"#", f);
            ps_html_escape(f, toc[k].id);
            fputs("\">", f);
            ps_html_escape(f, toc[k].title);
            fputs("</a>", f);
        }
        if (!first) fputs("</span>", f);
        fputs("</li>\n", f);
    }
    fputs("</ol>\n</nav>\n", f);
}

void ps_html_note(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tagged(f, "<p class=\"note\">", fmt, ap, "</p>\n");
    va_end(ap);
}

void ps_html_kv_begin(FILE *f) { fputs("<table class=\"kv\">\n", f); }

void ps_html_kv(FILE *f, const char *key, const char *fmt, ...)
{
    fputs("<tr><th>", f);
    ps_html_escape(f, key);
    va_list ap;
    va_start(ap, fmt);
    tagged(f, "</th><td>", fmt, ap, "</td></tr>\n");
    va_end(ap);
}

void ps_html_kv_end(FILE *f) { fputs("</table>\n", f); }

void ps_html_table_begin(FILE *f, int ncols, ...)
{
    va_list ap;
    va_start(ap, ncols);
    fputs("<table>\n<tr>", f);
    for (int i = 0; i < ncols; i++) {
        fputs("<th>", f);
        ps_html_escape(f, va_arg(ap, const char *));
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    va_end(ap);
}

void ps_html_row_begin(FILE *f) { fputs("<tr>", f); }

void ps_html_cell(FILE *f, int numeric, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tagged(f, numeric ? "<td class=\"num\">" : "<td>", fmt, ap, "</td>");
    va_end(ap);
}

void ps_html_cell_fig(FILE *f, const char *fmt, ...)
{
    char b[64];
    va_list ap;
    va_start(ap, fmt);
    ps_vfig(b, sizeof b, fmt, ap);
    va_end(ap);
    ps_html_cell(f, 1, "%s", b);
}

void ps_html_row_end(FILE *f) { fputs("</tr>\n", f); }

void ps_html_table_end(FILE *f) { fputs("</table>\n", f); }
