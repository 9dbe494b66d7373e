#!/bin/bash
# chromium_layout.sh - reports as a reader sees them: each page laid out by headless Chromium in a
# 1400 x 900 window, then measured there (not from the HTML's numbers):
#   - nothing is wider than the window (no horizontal scrolling);
#   - the summary's first finding is on the first screen, the contents right after the summary;
#   - every SVG text is at least 10 px as drawn (its font size times the picture's scale);
#   - figures stand two to a row where a section has two or more;
# on a run of fingerprint at 4 ranks, a 16-count prediction with its curves, the stored
# characterization and the seed's tables on three models.  A screenshot of each page's first
# screen is left in $PS_SCREENSHOTS when that is set, to be looked at.
# Skipped (77) when chromium is not installed.
# usage: chromium_layout.sh PARSCOPE SOURCE_DIR
set -u
PS=$1
SRC=$2
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "chromium not installed: skipped"; exit 77; }
T=$(mktemp -d /tmp/ps_chromium_layout.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# The measurement, appended to a copy of the page (the report itself runs no script): its result
# replaces the body, so --dump-dom prints it.
cat > "$T/measure.js" <<'JS'
(function () {
  var out = [], W = window.innerWidth, H = window.innerHeight;
  var doc = document.documentElement;
  if (doc.scrollWidth > W) out.push("page is " + doc.scrollWidth + " px wide in a " + W + " px window");
  document.querySelectorAll("svg, table").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.right > W + 0.5) out.push(e.tagName + " " + (e.id || e.getAttribute("aria-label") || "") + " ends at " + Math.round(r.right) + " px");
  });
  var s = document.getElementById("summary");
  if (!s) out.push("no summary");
  else {
    var li = s.querySelector("li, p");
    if (!li || li.getBoundingClientRect().bottom > H) out.push("the summary's first finding is below the first screen");
    var nav = document.getElementById("contents");
    if (!nav) out.push("no contents");
    else if (nav.getBoundingClientRect().top < s.getBoundingClientRect().bottom - 1) out.push("the contents are not after the summary");
  }
  var small = 0, smallest = 99, example = "";
  document.querySelectorAll("svg").forEach(function (svg) {
    var vb = svg.viewBox && svg.viewBox.baseVal, r = svg.getBoundingClientRect();
    var scale = vb && vb.width ? r.width / vb.width : 1;
    svg.querySelectorAll("text").forEach(function (t) {
      var px = parseFloat(window.getComputedStyle(t).fontSize) * scale;
      if (px < 9.95) { small++; if (px < smallest) { smallest = px; example = t.textContent; } }
    });
  });
  if (small) out.push(small + " SVG texts under 10 px as drawn, the smallest " + smallest.toFixed(1) + " px (\"" + example + "\")");
  var rows = 0, single = 0;
  document.querySelectorAll(".figures").forEach(function (f) {
    var svgs = f.querySelectorAll(":scope > svg");
    if (svgs.length < 2) return;
    rows++;
    if (Math.abs(svgs[0].getBoundingClientRect().top - svgs[1].getBoundingClientRect().top) > 1) single++;
  });
  if (single) out.push(single + " of " + rows + " figure groups do not stand two to a row");
  var pre = document.createElement("pre");
  pre.id = "layout";
  pre.textContent = out.length ? out.join("\n") : "OK " + document.querySelectorAll("svg").length + " pictures, " + rows + " figure rows";
  document.body.innerHTML = "";
  document.body.appendChild(pre);
})();
JS

# check NAME PAGE: lays PAGE out and prints what was found
check() {
    local name=$1 page=$2
    { cat "$page"; printf '<script>\n'; cat "$T/measure.js"; printf '</script>\n'; } > "$T/$name.m.html"
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,900 \
        --virtual-time-budget=3000 --dump-dom "file://$T/$name.m.html" > "$T/$name.dom" 2> "$T/$name.err"
    local res
    res=$(python3 -c 'import html,re,sys; m=re.search(r"<pre id=\"layout\">(.*?)</pre>", open(sys.argv[1]).read(), re.S); print(html.unescape(m.group(1)) if m else "no measurement (chromium failed)")' "$T/$name.dom")
    case "$res" in
        OK*) echo "$name: $res" ;;
        *) fail "$name: $res"; tail -3 "$T/$name.err" >&2 ;;
    esac
    if [ -n "${PS_SCREENSHOTS:-}" ]; then
        mkdir -p "$PS_SCREENSHOTS"
        timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,900 \
            --screenshot="$PS_SCREENSHOTS/$name.png" "file://$page" > /dev/null 2>&1
    fi
}

"$PS" run fingerprint -n 4 --trace "$T/run" -o "$T/run/result.json" -q > /dev/null 2> "$T/err" ||
    { fail "run fingerprint -n 4"; cat "$T/err" >&2; }
"$PS" report "$T/run/result.json" -o "$T/run.html" -q && check run "$T/run.html" || fail "report of the run"

"$PS" predict psrs -m sp2 -n 1-16 -s 20000 -o "$T/p.json" -q > /dev/null 2> "$T/err" || fail "predict psrs -n 1-16"
"$PS" report "$T/p.json" -o "$T/predict.html" -q && check predict "$T/predict.html" || fail "report of the prediction"

cp -r "$SRC/tests/report/data/characterize" "$T/c"
"$PS" report "$T/c" -o "$T/characterize.html" -q && check characterize "$T/characterize.html" ||
    fail "report of the characterization"

for m in meiko ncube2 paragon; do
    for w in fingerprint cg; do
        "$PS" predict $w -m $m -n 16,32 -q -o "$T/$m-$w.json" > /dev/null 2> "$T/err" || fail "predict $w -m $m"
    done
done
"$PS" report "$SRC/docs/seed/loop_tables.json" "$SRC"/machines/{meiko,ncube2,paragon}.ini "$T"/meiko-*.json \
    "$T"/ncube2-*.json "$T"/paragon-*.json --reference Paragon -o "$T/seed.html" -q && check seed "$T/seed.html" ||
    fail "report of the seed tables"

# the check must be able to fail: a page with a 12 px wide picture drawn at a quarter of its size
sed 's|<h1>|<svg viewBox="0 0 400 40" width="100" style="width:100px"><text x="0" y="20" font-size="12">shrunk</text></svg><h1>|' \
    "$T/run.html" > "$T/shrunk.html"
out=$( { cat "$T/shrunk.html"; printf '<script>\n'; cat "$T/measure.js"; printf '</script>\n'; } > "$T/shrunk.m.html";
       timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,900 \
           --virtual-time-budget=3000 --dump-dom "file://$T/shrunk.m.html" 2> /dev/null)
echo "$out" | grep -q "SVG texts under 10 px as drawn, the smallest 3.0 px" || fail "a shrunk picture was not found: $(echo "$out" | grep -A3 layout)"

[ $fails = 0 ] && echo "chromium_layout: all passed" || echo "chromium_layout: $fails failed"
exit $((fails > 0))
