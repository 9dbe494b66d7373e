/*
 * html.h - the HTML report framework: one self-contained page (inline CSS and
 * SVG, nothing fetched from the network) made of <section> fragments.
 *
 * Every part that has a document kind of its own (probe, scale, whitebox...)
 * writes its fragment with these helpers, so all pages look alike:
 *
 *   ps_html_section_begin(out, "probe", "Ping-pong and h-relation");
 *   ps_html_kv_begin(out);
 *   ps_html_kv(out, "g (flop units)", "%.3g", g);
 *   ps_html_kv_end(out);
 *   ... inline <svg> ...
 *   ps_html_section_end(out);
 *
 * All text that comes from data (names, paths, JSON strings) must go through
 * ps_html_escape or the printf-style helpers below, which escape their result.
 */
#ifndef PS_HTML_H
#define PS_HTML_H

#include <stdarg.h>
#include <stdio.h>

/* Writes s with &, <, >, " and ' escaped (safe in text and in attribute
 * values).  NULL writes nothing.  Control characters other than tab and
 * newline are written as U+FFFD. */
void ps_html_escape(FILE *f, const char *s);
/* As ps_html_escape, with microseconds in the page's spelling: text written
 * for a terminal ("jumps by 2.82 us") reads "2.82 \u00b5s" on the page. */
void ps_html_escape_units(FILE *f, const char *s);
/* printf into a buffer, then ps_html_escape the result. */
void ps_html_escapef(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ps_html_vescape(FILE *f, const char *fmt, va_list ap);

/* The page: <!DOCTYPE html>, <head> with the inline style sheet, <body>, and
 * an <h1> with the (escaped) title; ps_html_end closes it with a footer
 * naming the parscope version and the generation time.  ps_html_begin
 * starts a new page (ps_html_page_reset) and writes the head. */
void ps_html_begin(FILE *f, const char *title);
void ps_html_end(FILE *f);

/* A page written in parts (the report writes its body first, then the head,
 * summary and table of contents that need to know the body's sections):
 * ps_html_page_reset forgets the ids, headings and tables of the last page;
 * ps_html_head writes the head and <h1> without forgetting them. */
void ps_html_page_reset(void);
void ps_html_head(FILE *f, const char *title);

/* <section id="ID"><h2>TITLE</h2> ... </section>.  id may be NULL; it is
 * made unique within the page (a counter is appended when it repeats).
 * Every section and heading is remembered for the table of contents. */
void ps_html_section_begin(FILE *f, const char *id, const char *title);
void ps_html_section_end(FILE *f);
/* <h3 id="SECTION-SLUG">TITLE</h3>: the id is the section's and the title's,
 * unique within the page. */
void ps_html_heading(FILE *f, const char *title);

/* <details><summary>TEXT</summary> ... </details>: a part of a section a
 * reader opens when wanted (headings inside it stay out of the contents). */
void ps_html_details_begin(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ps_html_details_end(FILE *f);

/* The table of contents of everything written since the page began: one
 * entry per section, its headings (outside <details>) after it on one line. */
void ps_html_toc(FILE *f);

/* Each table once: the first call with a key returns NULL and remembers
 * `anchor` (an id the caller writes on the table) under it; later calls
 * return that anchor, so the caller can refer to the table instead of
 * repeating it.  `where` says where the first one is ("Run: cg, 2 ranks"). */
const char *ps_html_once(const char *key, const char *anchor, const char *where, const char **first_where);
/* A fresh id for an element ("PREFIX-N"), unique within the page. */
void ps_html_new_id(char *buf, size_t len, const char *prefix);
/* The title of the section being written ("" outside one). */
const char *ps_html_current_section(void);

/* A time in the page's spelling: "380 ns", "94.4 \u00b5s", "1.2 ms", "3.4 s";
 * "-" when not finite. */
void ps_html_fmt_time(char *buf, size_t len, double seconds);
/* <p class="note">TEXT</p> (escaped). */
void ps_html_note(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A two-column key/value table (the result sheet look). */
void ps_html_kv_begin(FILE *f);
void ps_html_kv(FILE *f, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ps_html_kv_end(FILE *f);

/* A data table: ps_html_table_begin(f, ncols, "rank", "busy", ...) writes the
 * header row; then ps_html_row_begin, ps_html_cell (escaped, numbers are
 * right-aligned when `numeric`), ps_html_row_end; ps_html_table_end. */
void ps_html_table_begin(FILE *f, int ncols, ...);
void ps_html_row_begin(FILE *f);
void ps_html_cell(FILE *f, int numeric, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A numeric cell of one figure: fmt applied to its one double, or "-" where
 * it could not be measured (report/figure.h). */
void ps_html_cell_fig(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ps_html_row_end(FILE *f);
void ps_html_table_end(FILE *f);

/* The colours used for the three ParaGraph activity classes everywhere
 * (diagram, profiles, bars), as CSS colour strings. */
#define PS_COLOR_BUSY     "#3a9a46"
#define PS_COLOR_OVERHEAD "#e0a526"
#define PS_COLOR_IDLE     "#d04a3a"
#define PS_COLOR_MESSAGE  "#1f3f8f"
#define PS_COLOR_SYNC     "#7a3fa0"

#endif /* PS_HTML_H */
