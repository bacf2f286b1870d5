#!/usr/bin/env python3
"""twintile diff --html, opened in headless Chromium (Debian's `chromium`).

Writes the page for a kernel, checks that it asks for nothing from the
network, loads it in Chromium with the network cut off, and reads back the
DOM after its script ran: the verdict on top (the one the command printed),
every stage's section with a column per front end (the hybrid's rewritten
file among them where it is compared), the rows marked as differing counted
as each section's data-differences says, every cell marked changed holding
a mark where it differs, the cleaned IR (tile-opt) with no marks for a
kernel whose front ends agree, and every source link pointing at a line of
the source pane. Then a screenshot, which must be a PNG of the window's
size that is not blank.

Usage: check_diff_page.py TWINTILE KERNEL_FILE SPEC OUT_DIR [FRONTENDS]
(FRONTENDS: --frontends's list; parse,trace unless given)
Exits 77 (ctest's SKIP) with the reason when Chromium is not installed.
"""
import html.parser
import os
import shutil
import struct
import subprocess
import sys
import zlib


def chromium():
    for name in (os.environ.get("TWINTILE_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def browser(binary, *args):
    # No sandbox (CI runs as root), no GPU, and no network: a proxy nobody listens on.
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


class Dom(html.parser.HTMLParser):
    """The parts of the page the checks need, with the section each lies in."""

    def __init__(self):
        super().__init__()
        self.body = {}
        self.ids = set()
        self.sections = []   # {"id", "differences", "heads", "rows": [kind], "cells": n, "unmarked": n}
        self._cell = None    # the td being read: {"changed", "marks"}
        self.links = []      # hrefs of a.src
        self.verdict = None
        self._in_verdict = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "body":
            self.body = a
        elif tag == "section" and "stage" in a.get("class", ""):
            self.sections.append({"id": a["id"], "differences": int(a["data-differences"]), "heads": [],
                                  "rows": [], "cells": 0, "unmarked": 0})
        elif tag == "th" and self.sections:
            self.sections[-1]["heads"].append(a.get("class"))
        elif tag == "tr" and self.sections and a.get("class"):
            self.sections[-1]["rows"].append(a["class"])
        elif tag == "td" and self.sections:
            self._cell = {"changed": "changed" in a.get("class", "").split(), "marks": 0}
        elif tag == "mark" and self._cell is not None:
            self._cell["marks"] += 1
        elif tag == "a" and "src" in a.get("class", ""):
            self.links.append(a["href"])
        elif tag == "p" and a.get("id") == "verdict":
            self._in_verdict = True
            self.verdict = ""

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_verdict = False
        elif tag == "td" and self._cell is not None:
            self.sections[-1]["cells"] += 1
            self.sections[-1]["unmarked"] += self._cell["changed"] and not self._cell["marks"]
            self._cell = None

    def handle_data(self, data):
        if self._in_verdict:
            self.verdict += data


def png_size_and_variety(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    idat, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    pixels = zlib.decompress(idat)
    return width, height, len(set(pixels[::97]))


def main():
    twintile, kernel_file, spec, out = sys.argv[1:5]
    frontends = (sys.argv[5] if len(sys.argv) > 5 else "parse,trace").split(",")
    binary = chromium()
    if binary is None:
        print("SKIP: Chromium not found (scripts/setup installs Debian's chromium; or set TWINTILE_CHROMIUM)")
        return 77
    os.makedirs(out, exist_ok=True)
    page = os.path.join(out, "diff.html")
    proc = subprocess.run([twintile, "diff", kernel_file, "--kernel", spec, "--frontends", ",".join(frontends),
                           "--html", page],
                          capture_output=True, text=True)
    assert proc.returncode in (0, 1), proc.stderr
    printed = proc.stdout.splitlines()[0]
    text = open(page, encoding="utf-8").read()
    for remote in ("http://", "https://", "//cdn", "<link ", "src=\""):
        assert remote not in text, f"the page refers to something outside itself: {remote}"

    dom_proc = browser(binary, "--virtual-time-budget=2000", "--dump-dom", "file://" + os.path.abspath(page))
    assert dom_proc.returncode == 0, dom_proc.stderr[-2000:]
    dom = Dom()
    dom.feed(dom_proc.stdout)
    assert dom.body.get("data-ready") == "yes", "the page's script did not run"
    assert dom.verdict == printed.replace("&lt;", "<"), (dom.verdict, printed)
    stages = [s["id"] for s in dom.sections]
    assert stages == ["stage-" + s for s in ("rewritten",) * ("hybrid" in frontends) + ("source", "tile", "tile-opt", "axes", "layouts", "pipelines", "shared", "barriers", "llvm-raw", "llvm",
                                             "ptx", "sass-info")], stages
    for s in dom.sections:
        assert s["heads"] == [f"col-{fe}" for fe in frontends], (s["id"], s["heads"])
        assert s["unmarked"] == 0, f"{s['id']}: {s['unmarked']} changed cells without a mark of where"
        marked = sum(1 for kind in s["rows"] if kind != "same")
        assert marked == s["differences"], (s["id"], marked, s["differences"])
        assert s["rows"], f"{s['id']} shows no lines"
    by_id = {s["id"]: s for s in dom.sections}
    if printed.startswith("equal:"):
        assert by_id["stage-tile-opt"]["differences"] == 0, "equal front ends, yet the cleaned IR is marked"
    if frontends == ["parse", "trace"]:
        assert by_id["stage-source"]["differences"] > 0, "the two front ends' sources are different texts"
    assert dom.links, "no op is linked to its source line"
    missing = [h for h in dom.links if h.lstrip("#") not in dom.ids]
    assert not missing, f"links to lines the source pane lacks: {missing[:5]}"

    shot = os.path.join(out, "diff.png")
    shot_proc = browser(binary, "--window-size=1400,1000", "--screenshot=" + shot, "file://" + os.path.abspath(page))
    assert shot_proc.returncode == 0 and os.path.exists(shot), shot_proc.stderr[-2000:]
    width, height, variety = png_size_and_variety(shot)
    assert (width, height) == (1400, 1000), (width, height)
    assert variety > 4, "the screenshot is blank"
    print(f"ok: {','.join(frontends)}: {printed}; {len(dom.sections)} stages, {sum(s['differences'] for s in dom.sections)} marked lines, "
          f"{len(dom.links)} source links; screenshot {shot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
