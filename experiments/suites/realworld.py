#!/usr/bin/env python3
"""The realworld suite: upstream libraries' Triton kernels, ported to twintile as written.

    experiments/suites/realworld.py [--quick] [--out FILE] [--manifest FILE]

For every kernel of experiments/realworld/kernels.json, through each front
end: is the port as written accepted (and where and how is it refused), does
the accepted port compute what the upstream kernel computes (Triton's
interpreter on the same inputs: experiments/realworld/check.py), and, where a
front end refuses it, how many lines its rewritten variant changes and what
forced the change (the manifest's categories). Writes
experiments/results/realworld.json: the upstream libraries' versions, one
row per kernel, front end and variant, and each rewrite's diff size. --quick
changes nothing: every kernel is small.
"""
import argparse
import difflib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

REALWORLD = common.ROOT / "experiments" / "realworld"
sys.path.insert(0, str(REALWORLD))
import corpus  # noqa: E402  (experiments/realworld/corpus.py)


def code_lines(path):
    """A file's lines of code: `//` comments and blank lines left out, so a rewrite's
    size counts what it changed in the code, not in its header."""
    out = []
    for line in Path(path).read_text().splitlines():
        code = line.split("//", 1)[0].rstrip()
        if code.strip():
            out.append(code)
    return out


def diff_size(a, b):
    """(added, removed) lines of code between two files."""
    added = removed = 0
    for line in difflib.unified_diff(code_lines(a), code_lines(b), lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--manifest", default=str(corpus.MANIFEST))
    args = ap.parse_args(argv)
    entries = corpus.load_checked(args.manifest)
    twintile = common.tool("twintile")
    rows, header, missing = [], {}, {}
    numpy_missing = common.baseline_missing("numpy")
    if numpy_missing:  # check.py writes the inputs with NumPy: nothing runs without it
        missing["numpy"] = f"{numpy_missing}: no kernel ran (scripts/setup installs NumPy into .venv/)"
        print(f"[realworld] skipped: {missing['numpy']}", flush=True)
    else:
        proc_rows, stderr, _ = common.run_json_lines([common.venv_python(), str(REALWORLD / "check.py"),
                                                      "--manifest", args.manifest, "--twintile", twintile],
                                                     check=False)
        rows = [r for r in proc_rows if "name" in r]
        if not rows:
            sys.exit(f"realworld: experiments/realworld/check.py gave no result:\n{stderr[-2000:]}")
        header = next((r for r in proc_rows if "libraries" in r), {})
    versions = header.get("libraries", {})
    print(f"[realworld] {len(entries)} kernels from " +
          ", ".join(f"{lib} {v or '(not installed)'}" for lib, v in sorted(versions.items())), flush=True)
    missing.update({lib: "not installed in .venv/ (scripts/setup installs it): its kernels went unchecked"
                    for lib, v in versions.items() if not v})
    if header and not header.get("triton"):
        missing["triton"] = "not installed in .venv/ (scripts/setup installs it): no upstream kernel ran"
    kernels = []
    for e in entries:
        written = Path(e["dir"]) / e["file"]
        rewrites = {}
        for frontend, file in e.get("rewritten", {}).items():
            added, removed = diff_size(written, Path(e["dir"]) / file)
            rewrites[frontend] = {"file": file, "added": added, "removed": removed,
                                  "why": e.get("why", {}).get(frontend, []),
                                  "detail": e.get("detail", {}).get(frontend)}
        kernels.append({"name": e["name"], "library": e["library"], "module": e["module"], "function": e["function"],
                        "file": e["file"], "kernel": e["kernel"], "num_warps": e.get("num_warps", 4),
                        "lines": len(code_lines(written)), "rewrites": rewrites,
                        "notes": e.get("notes")})
    # A rewrite for a front end that accepts the port as written measures nothing: say so.
    cells = {(r["name"], r["frontend"], r["variant"]): r for r in rows}
    needless = [f"{e['name']} ({frontend})" for e in entries for frontend in e.get("rewritten", {})
                if cells.get((e["name"], frontend, "written"), {}).get("outcome") == "accepted"]
    if needless:
        print("[realworld] warning: these front ends accept the port as written, so its rewrite for them is "
              "no longer needed (remove it from the manifest): " + ", ".join(needless), flush=True)
    for r in rows:
        print(f"[realworld] {r['name']} {r['frontend']} {r['variant']}: {r['outcome']}"
              f"{' at line ' + str(r['line']) if r.get('line') else ''}"
              f"{', ' + r['check'] if r.get('check') else ''}", flush=True)
    common.write_result("realworld", {"config": {"quick": args.quick,
                                                 "manifest": str(Path(args.manifest).resolve().relative_to(common.ROOT))
                                                 if Path(args.manifest).resolve().is_relative_to(common.ROOT)
                                                 else args.manifest},
                                      "libraries": versions, "triton": header.get("triton"), "missing": missing,
                                      "needless_rewrites": needless,
                                      "kernels": kernels, "rows": rows}, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
