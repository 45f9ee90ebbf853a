#!/usr/bin/env python3
"""Opens an HTML file in Debian's headless Chromium and prints what a test
needs to know of it, as JSON: the resources the page requested (it must
request none beyond itself), the errors it raised, the count of each kind
of SVG element the report draws, and whether a screenshot of it is blank.

Usage: check-page.py PAGE.html SHOT.png

A probe script is put at the top of a copy of the page: it counts errors
(window.onerror, console.error) and, after load, the resources the page
fetched (the Resource Timing API lists every request a page makes) and
the drawn elements, and the time from the start of navigation to the load
event (load_ms), and writes them into the DOM, which --dump-dom prints.
Standard library only."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

PROBE = """<script>
window.__gc = {errors: []};
window.addEventListener('error', function (e) { __gc.errors.push(String(e.message)); });
(function () { var ce = console.error; console.error = function () {
  __gc.errors.push(Array.prototype.join.call(arguments, ' ')); ce.apply(console, arguments); }; })();
window.addEventListener('load', function () {
  var q = function (s) { return document.querySelectorAll(s).length; };
  var out = {errors: __gc.errors, load_ms: performance.now(),
    resources: performance.getEntriesByType('resource').map(function (r) { return r.name; }),
    counts: {history: q('svg.history'), series: q('svg.history g.series'),
      points: q('svg.history circle.pt'), ab_marks: q('svg.history line.ab-mark'),
      strips: q('svg.strips g.strip'), samples: q('svg.strips circle.sample'),
      sweeps: q('svg.sweep'), fits: q('svg.sweep polyline.fit'),
      sweep_points: q('svg.sweep circle.sweep-pt'), stack: q('.tree li'),
      hypotheses: q('table.hypo tr') - (q('table.hypo') ? 1 : 0),
      findings: q('ol.findings li'), scripts: q('script') - 1,
      titles: q('svg title')},
    text: document.body.innerText.slice(0, 20000)};
  var pre = document.createElement('pre'); pre.id = '__gc_result';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});
</script>"""

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--no-first-run", "--disable-extensions",
                  "--disable-background-networking", "--disable-sync",
                  "--host-resolver-rules=MAP * ~NOTFOUND"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("check-page: no chromium on PATH")


def png_blank(path):
    """True when the PNG is one colour: its scanlines, filter bytes aside,
    then hold only a few distinct byte values (the colour, and the zeros
    that PNG's filters make of a colour repeated)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, stride = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, _, depth, ctype = struct.unpack(">IIBB", body[:10])
            stride = w * {0: 1, 2: 3, 4: 2, 6: 4}[ctype] * depth // 8 + 1
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    values = set()
    for row in range(0, len(raw), stride):
        values.update(raw[row + 1:row + stride])
        if len(values) > 4:
            return False
    return True


def main():
    page, shot = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp()
    html = open(page, encoding="utf-8").read()
    probed = re.sub(r"<head>", "<head>" + PROBE, html, count=1)
    copy = os.path.join(tmp, "page.html")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(probed)
    env = dict(os.environ, HOME=tmp)
    run = subprocess.run([chromium()] + CHROMIUM_FLAGS +
                         ["--user-data-dir=" + tmp + "/profile",
                          "--virtual-time-budget=5000", "--dump-dom",
                          "file://" + copy],
                         capture_output=True, text=True, env=env, timeout=120)
    m = re.search(r'<pre id="__gc_result">(.*?)</pre>', run.stdout, re.S)
    if not m:
        sys.exit("check-page: no probe result; chromium said:\n" + run.stderr[-2000:])
    import html as h
    out = json.loads(h.unescape(m.group(1)))
    out["resources"] = [r for r in out["resources"] if not r.endswith("/page.html")]
    subprocess.run([chromium()] + CHROMIUM_FLAGS +
                   ["--user-data-dir=" + tmp + "/profile2",
                    "--window-size=1000,1600", "--screenshot=" + shot,
                    "file://" + os.path.abspath(page)],
                   capture_output=True, env=env, timeout=120)
    out["screenshot_blank"] = png_blank(shot) if os.path.exists(shot) else None
    shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out))


main()
