#!/usr/bin/env python3
"""Checks parscope pictures: every <svg> in an .svg or .html file is well-formed
XML; the space-time diagram's arrows stand for the expected number of messages
(sum of data-n over <line class="msg">; with --exact, one arrow per message);
it has the expected number of VISIBLE_SYNC lines. Exit 1 with a reason."""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--arrows", type=int, help="messages the diagram must show")
    ap.add_argument("--exact", action="store_true", help="one arrow per message")
    ap.add_argument("--syncs", type=int, help="VISIBLE_SYNC lines")
    ap.add_argument("--min-svgs", type=int, default=1)
    ap.add_argument("--diagrams", type=int, help="space-time diagrams expected")
    a = ap.parse_args()
    text = open(a.file, encoding="utf-8").read()
    if a.file.endswith(".html"):
        if re.search(r"<(script|link|iframe|img)\b|https?://(?!www\.w3\.org/2000/svg)", text):
            sys.exit("%s: the page refers to something outside itself" % a.file)
        svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    else:
        svgs = [text]
    if len(svgs) < a.min_svgs:
        sys.exit("%s: %d <svg> elements, expected at least %d" % (a.file, len(svgs), a.min_svgs))
    diagrams = []
    for i, s in enumerate(svgs):
        try:
            root = ET.fromstring(s)
        except ET.ParseError as e:
            sys.exit("%s: svg %d is not well-formed XML: %s" % (a.file, i + 1, e))
        if root.get("aria-label") == "space-time diagram":
            diagrams.append(root)
    if a.diagrams is not None and len(diagrams) != a.diagrams:
        sys.exit("%s: %d space-time diagrams, expected %d" % (a.file, len(diagrams), a.diagrams))
    for d in diagrams:
        lines = [e for e in d.iter(NS + "line") if e.get("class") == "msg"]
        total = sum(int(e.get("data-n")) for e in lines)
        if a.arrows is not None and total != a.arrows:
            sys.exit("%s: the diagram's arrows stand for %d messages, expected %d" % (a.file, total, a.arrows))
        if a.exact and len(lines) != total:
            sys.exit("%s: %d arrows for %d messages, expected one each" % (a.file, len(lines), total))
        syncs = [e for e in d.iter(NS + "polyline") if e.get("class") == "sync"]
        if a.syncs is not None and len(syncs) != a.syncs:
            sys.exit("%s: %d sync lines, expected %d" % (a.file, len(syncs), a.syncs))
    print("%s: %d svg element(s) well-formed, %d diagram(s) checked" % (a.file, len(svgs), len(diagrams)))


if __name__ == "__main__":
    main()
