/* noise.c - the machine's noise in text and HTML (see noise.h). */
#include "report/noise.h"

#include <stdio.h>

#include "report/html.h"
#include "trace/json.h"

void ps_noise_line(const json_t *noise, char *buf, size_t len)
{
    const char *s = json_string_value(json_object_get(noise, "summary"));
    snprintf(buf, len, "%s", s ? s : "machine noise: not measured");
}

void ps_noise_html(FILE *out, const json_t *noise)
{
    char line[600];
    ps_noise_line(noise, line, sizeof line);
    ps_html_note(out, "%s", line);
    if (!json_is_object(noise)) return;
    ps_html_table_begin(out, 6, "when", "load (1 min)", "calibration slowdown", "calibration cv",
                        "others' share of the machine", "steal");
    const char *when[3] = {"before", "during", "after"};
    for (int k = 0; k < 3; k++) {
        const json_t *o = json_object_get(noise, when[k]);
        if (!o) continue;
        const json_t *c = json_object_get(o, "calibration");
        ps_html_row_begin(out);
        ps_html_cell(out, 0, "%s", when[k]);
        ps_html_cell_fig(out, "%.2f", ps_json_num(o, "load1"));
        ps_html_cell_fig(out, "%.1f%%", 100 * ps_json_num(c, "slowdown"));
        ps_html_cell_fig(out, "%.2f", ps_json_num(c, "cv"));
        ps_html_cell_fig(out, "%.0f%%", k == 1 ? ps_json_num(o, "others_busy_pct") : ps_json_num(c, "others_pct"));
        ps_html_cell_fig(out, "%.1f%%", ps_json_num(o, "steal_pct"));
        ps_html_row_end(out);
    }
    ps_html_table_end(out);
}
