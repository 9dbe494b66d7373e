#!/usr/bin/env python3
"""Checks that a parscope report reads top-down, as a reader sees it at 100%
zoom in a 1400 px wide window (docs/OUTPUTS.md "The report"):

  - the first section after the title is the summary, with at least one
    finding, and a table of contents follows it; every link of the page that
    points into it (href="#id") finds its element, and no id is used twice;
  - each table once: no two tables hold the same text (the hardware and the
    machine-model tables of many sheets are written once and referred to;
    the parts of a sheet that describe a run, data-part="problem", "results",
    "ranks", "statistics", may coincide for two runs);
  - one unit spelling: microseconds are "\u00b5s" in the text and the pictures, never "us";
  - plots fit their data: in every plot (<svg class="plot">) every data point
    lies in the frame; along an axis with two data positions or more, the
    frame reaches at most 25% of its length beyond the data on each side
    (40% below, where a linear axis starts at zero); along an axis with one
    data position, no tick label is more than 25% of the frame away from it
    (no axis to P = 4 with data only at P = 2);
  - labels readable: every SVG text is at least FLOOR px (10) as drawn, and
    no SVG is wider than the page's 1336 px of content (so none is shrunk).

Extra checks: --tables IDS (comma-separated table ids that must be present),
--rows ID=N (table ID has at least N data rows), --contains TEXT.
Exit 1 with every reason found."""
import argparse
import html.parser
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
CONTENT_WIDTH = 1400 - 64  # body padding 2em each side at 16 px


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.hrefs, self.tables, self.sections = [], [], [], []
        self.stack_table = []
        self.text = []
        self.in_svg = 0
        self.in_style = 0
        self.first_after_h1 = None
        self.seen_h1 = False
        self.order = []  # ('section', id) / ('nav', id) in document order
        self.cur_row = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.hrefs.append(a["href"][1:])
        if tag == "svg":
            self.in_svg += 1
        if tag == "style":
            self.in_style += 1
        if tag == "h1":
            self.seen_h1 = True
        if tag in ("section", "nav") and self.seen_h1:
            self.order.append((tag, a.get("id")))
        if tag == "table":
            self.stack_table.append({"id": a.get("id"), "part": a.get("data-part"), "rows": [], "text": []})
        if tag == "tr" and self.stack_table:
            self.stack_table[-1]["rows"].append([])

    def handle_endtag(self, tag):
        if tag == "svg":
            self.in_svg -= 1
        if tag == "style":
            self.in_style -= 1
        if tag == "table" and self.stack_table:
            self.tables.append(self.stack_table.pop())

    def handle_data(self, data):
        if self.in_style:
            return
        self.text.append(data)  # the pictures' text too: one spelling on the whole page
        if self.stack_table and self.stack_table[-1]["rows"]:
            self.stack_table[-1]["rows"][-1].append(data.strip())


def font_size(el, parents, inherited):
    fs = el.get("font-size")
    return float(fs) if fs else inherited


def check_svg_fonts(root, scale, floor, where, bad):
    def walk(el, fs):
        fs = float(el.get("font-size")) if el.get("font-size") else fs
        if el.tag == NS + "text" and (el.text or "").strip():
            if fs * scale < floor - 1e-9:
                bad.append("%s: text %r drawn at %.1f px, below %g px" % (where, el.text.strip()[:40], fs * scale, floor))
        for c in el:
            walk(c, fs)
    walk(root, 16.0)


def points_of_plot(root):
    """Data positions (pixels) of a plot: markers and path vertices in its data group."""
    pts = []
    data = [g for g in root.iter(NS + "g") if g.get("class") == "data"]
    for g in data:
        for el in g.iter():
            if el.tag == NS + "circle":
                pts.append((float(el.get("cx")), float(el.get("cy"))))
            elif el.tag == NS + "rect":
                pts.append((float(el.get("x")) + float(el.get("width")) / 2, float(el.get("y")) + float(el.get("height")) / 2))
            elif el.tag == NS + "path":
                d = el.get("d", "")
                if el.get("fill", "") == "none":
                    for x, y in re.findall(r"[ML]\s*(-?[\d.]+)\s+(-?[\d.]+)", d):
                        pts.append((float(x), float(y)))
                else:  # a triangle marker: its first vertex is 4 px above the point
                    m = re.match(r"M\s*(-?[\d.]+)\s+(-?[\d.]+)", d)
                    if m:
                        pts.append((float(m.group(1)), float(m.group(2)) + 4))
    # error bars are data the axes must show: the ends of each bar's vertical
    # stroke (the first two vertices; the caps are drawing, not data)
    for g in root.iter(NS + "g"):
        if g.get("class") != "errorbars":
            continue
        for el in g.iter(NS + "path"):
            v = re.findall(r"[ML]\s*(-?[\d.]+)\s+(-?[\d.]+)", el.get("d", ""))
            pts.extend((float(x), float(y)) for x, y in v[:2])
    return pts


def check_plot(root, where, bad):
    frame = [r for r in root.iter(NS + "rect") if r.get("class") == "frame"]
    if not frame:
        return
    f = frame[0]
    x0, y0 = float(f.get("x")), float(f.get("y"))
    x1, y1 = x0 + float(f.get("width")), y0 + float(f.get("height"))
    pts = points_of_plot(root)
    if not pts:
        return
    tol = 1.0
    for x, y in pts:
        if not (x0 - tol <= x <= x1 + tol and y0 - tol <= y <= y1 + tol):
            bad.append("%s: a data point (%.0f, %.0f) lies outside the plot's frame" % (where, x, y))
            return
    title = root.find(NS + "text")
    name = "%s (%s)" % (where, title.text if title is not None else "plot")
    xs = sorted(set(round(p[0], 1) for p in pts))
    ys = sorted(set(round(p[1], 1) for p in pts))
    W, H = x1 - x0, y1 - y0
    if len(xs) >= 2:
        if xs[0] - x0 > 0.25 * W or x1 - xs[-1] > 0.25 * W:
            bad.append("%s: the x axis reaches %.0f%% / %.0f%% of its length beyond the data" %
                       (name, 100 * (xs[0] - x0) / W, 100 * (x1 - xs[-1]) / W))
    else:
        for t in root.iter(NS + "text"):
            if t.get("class") == "xtick" and abs(float(t.get("x")) - xs[0]) > 0.25 * W:
                bad.append("%s: x tick %r far from the only data position" % (name, t.text))
    if len(ys) >= 2:
        # pixels grow downwards: the bottom margin is y1 - max(y)
        if ys[0] - y0 > 0.25 * H or y1 - ys[-1] > 0.40 * H:
            bad.append("%s: the y axis reaches %.0f%% above / %.0f%% below the data" %
                       (name, 100 * (ys[0] - y0) / H, 100 * (y1 - ys[-1]) / H))
    else:
        for t in root.iter(NS + "text"):
            if t.get("class") == "ytick" and abs(float(t.get("y")) - 4 - ys[0]) > 0.25 * H:
                bad.append("%s: y tick %r far from the only data position" % (name, t.text))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--floor", type=float, default=10.0)
    ap.add_argument("--tables", default="")
    ap.add_argument("--rows", action="append", default=[])
    ap.add_argument("--contains", action="append", default=[])
    ap.add_argument("--plots", type=int, default=0, help="at least this many plots")
    a = ap.parse_args()
    text = open(a.file, encoding="utf-8").read()
    bad = []
    p = Page()
    p.feed(text)

    # summary first, then the contents
    if not p.order or p.order[0] != ("section", "summary"):
        bad.append("the first section after the title is %r, not the summary" % (p.order[:1],))
    if len(p.order) < 2 or p.order[1] != ("nav", "contents"):
        bad.append("no table of contents right after the summary")
    if not re.search(r'<section id="summary">.*?<li>', text, re.S) and "no result with a headline" not in text:
        bad.append("the summary has no finding")
    # anchors and ids
    seen = set()
    for i in p.ids:
        if i in seen:
            bad.append("id %r is used twice" % i)
        seen.add(i)
    for h in p.hrefs:
        if h not in seen:
            bad.append("link #%s points to no element" % h)
    toc = re.search(r'<nav id="contents".*?</nav>', text, re.S)
    if toc and len(re.findall(r'href="#', toc.group(0))) < 2:
        bad.append("the table of contents has fewer than two entries")
    # each table once
    contents = {}
    for t in p.tables:
        key = "\n".join("|".join(c for c in r if c) for r in t["rows"])
        # two runs may share a problem, results or statistics (every P = 1 run sends nothing); the page's
        # own tables and the hardware / machine-model tables must not repeat
        if len(t["rows"]) < 2 or t["part"] in ("problem", "results", "ranks", "statistics", "hardware-ref"):
            continue
        if key in contents:
            bad.append("a table is written twice (%s and %s): %s" %
                       (contents[key] or "no id", t["id"] or "no id", key[:80].replace("\n", " / ")))
        contents[key] = t["id"]
    for want in filter(None, a.tables.split(",")):
        if not any(t["id"] == want for t in p.tables):
            bad.append("no table with id %r" % want)
    for r in a.rows:
        tid, n = r.split("=")
        t = [t for t in p.tables if t["id"] == tid]
        if t and len(t[0]["rows"]) - 1 < int(n):
            bad.append("table %s has %d data rows, expected at least %s" % (tid, len(t[0]["rows"]) - 1, n))
    for c in a.contains:
        if c not in text:
            bad.append("the page lacks %r" % c)
    # one unit spelling
    body = "".join(p.text)
    for m in re.finditer(r"\d\s?us\b|\(us\)|\bus per\b", body):
        bad.append("'us' for microseconds: ...%s..." % body[max(0, m.start() - 30):m.end() + 10].replace("\n", " "))
        break
    # the pictures
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    nplots = 0
    for i, s in enumerate(svgs):
        try:
            root = ET.fromstring(s)
        except ET.ParseError as e:
            bad.append("svg %d is not well-formed: %s" % (i + 1, e))
            continue
        label = root.get("aria-label") or (root.find(NS + "text").text if root.find(NS + "text") is not None else "")
        where = "svg %d (%s)" % (i + 1, label)
        width = float(root.get("width", "0") or 0)
        if width > CONTENT_WIDTH:
            bad.append("%s is %.0f px wide, wider than the page's %d px: shrunk below 100%%" % (where, width, CONTENT_WIDTH))
        check_svg_fonts(root, 1.0, a.floor, where, bad)
        if root.get("class") == "plot":
            nplots += 1
            check_plot(root, where, bad)
    if nplots < a.plots:
        bad.append("%d plots, expected at least %d" % (nplots, a.plots))
    if bad:
        for b in bad:
            print("FAIL: %s: %s" % (a.file, b))
        sys.exit(1)
    print("%s: reads top-down: summary, contents (%d links), %d ids, %d tables each once, %d svg (%d plots) fit and "
          "readable" % (a.file, len(p.hrefs), len(p.ids), len(p.tables), len(svgs), nplots))


if __name__ == "__main__":
    main()
