#!/usr/bin/env python3
"""Runs a suite whole and as N shards, and checks that the joined shards say what the whole run says.

    check_shards.py SUITE OUTDIR N [SUITE'S ARGUMENTS...]

The suite runs once whole (OUTDIR/whole/SUITE.json) and once per shard I/N
(OUTDIR/split/shards/SUITE.I-of-N.json); `scripts/report --merge` joins the
shards into OUTDIR/split/SUITE.json. The joined file must equal the whole one
field for field, apart from the environment (another run's machine load and
date), and the report's tables and paper from it must equal the whole run's
once the environment is the same. So the suite must measure nothing that
changes between runs (codegen counts PTX; it times nothing).
"""
import difflib
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(cmd):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        sys.exit(f"FAILED: {' '.join(map(str, cmd))} exited {proc.returncode}:\n{(proc.stdout + proc.stderr)[-3000:]}")
    return proc.stdout


def report(results, out):
    run([sys.executable, "scripts/report", "--results", results, "--out", out, "--no-figures"])
    return {p.relative_to(out): p.read_text() for p in sorted(Path(out).rglob("*.md"))}


def main():
    suite, outdir, count, args = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    outdir = outdir / f"shards-{suite}"
    shutil.rmtree(outdir, ignore_errors=True)
    module = f"experiments.suites.{suite}"
    run([sys.executable, "-m", module, *args, "--out", outdir / "whole" / f"{suite}.json"])
    for i in range(1, count + 1):
        run([sys.executable, "-m", module, *args, "--shard", f"{i}/{count}",
             "--out", outdir / "split" / "shards" / f"{suite}.{i}-of-{count}.json"])
    print(run([sys.executable, "scripts/report", "--merge", "--results", outdir / "split", "--out",
               outdir / "split" / "paper", "--no-figures"]).splitlines()[0])

    whole = json.loads((outdir / "whole" / f"{suite}.json").read_text())
    joined = json.loads((outdir / "split" / f"{suite}.json").read_text())
    failures = []
    shards = joined["environment"].get("shards", [])
    if len(shards) != count:
        failures.append(f"the joined environment lists {len(shards)} shards: {shards}")
    for key in sorted(set(whole) | set(joined)):
        if key != "environment" and whole.get(key) != joined.get(key):
            failures.append(f"{key} differs between the whole run and the joined shards")
    if not failures:
        joined["environment"] = whole["environment"]
        (outdir / "same-environment").mkdir()
        (outdir / "same-environment" / f"{suite}.json").write_text(json.dumps(joined))
        a = report(outdir / "whole", outdir / "whole" / "paper")
        b = report(outdir / "same-environment", outdir / "same-environment" / "paper")
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                diff = difflib.unified_diff((a.get(name) or "").splitlines(), (b.get(name) or "").splitlines(),
                                            "whole", "shards", lineterm="", n=0)
                failures.append(f"{name} differs:\n" + "\n".join(list(diff)[:10]))
        print(f"{len(a)} report files the same from the whole run and from {count} shards")
    for f in failures:
        print(f"FAILED: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
