#!/usr/bin/env python3
"""The expressiveness suite: what each front end accepts, and whether following its refusal works.

    python3 -m experiments.suites.expressiveness [--quick] [--out FILE] [--shard I/N]

Every feature case (experiments/features/features.json) through each of
twintile's three front ends (feature_probe): accepted and computing its reference
in the interpreter, or refused; for a refusal, whether the message names the
line the case marks, and whether following it works. The same constructs in
Triton (compiled to PTX) and in Pallas (traced and lowered to Triton IR),
where Python has them (experiments/baselines/*_features.py).
--quick: the same (the suite takes seconds).

Following a refusal: experiments/features/fixes/fixes.json gives, for every
case a front end refuses, the rewrite its message suggests applied as
literally as the message says (fixes/<case>.<frontend>.cpp, the case's kernel
name and parameters), or `none` with the reason where the message names
nothing to write. The suite compiles each fix with the front end that refused
the case (`twintile compile`, the message a user sees) and, if accepted, runs
it in the IR interpreter and compares y with what the case as written means:
the case's reference in experiments/features/references.h on the inputs of
tests/parse/FeaturesTest.cpp (feature_probe on a scratch directory holding the
fixes under their cases' names), or, for the cases no front end accepts as
written (references.h has none), the reference written below (REFERENCES), on
an input whose two programs take both branches (`twintile run --device
interp`). Each refusal gets `followed`: "right" (followed and right),
"refused" (followed but refused: `fix_message` is the new message), "wrong"
(followed but wrong) or "no advice".
"""
import argparse
import json
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from experiments.harness import common, shard  # noqa: E402

FIXES = common.FEATURES / "fixes"
BLOCK = 64  # the features' block (references.h's kBlock); every case runs on a grid of cdiv(n, 64)


def judge(row):
    """The twintile row, with `as_expected` and, for a refusal, `located`."""
    expected = row["expected"]
    if row["outcome"] == "accepted":
        row["as_expected"] = expected == "accepted" and row["correct"] is not False
    else:
        row["as_expected"] = expected != "accepted" and expected in row.get("message", "")
        row["located"] = row.get("line") == row.get("marked_line") and row.get("line", 0) > 0
    return row


# --- what the cases no front end accepts as written mean ------------------------
# y = f(x) as C++ would run the case, per program of 64 (a ragged program's load
# reads 0 past n, as the cases' `load(x + offs, offs < n, 0.0f)` does).

def _per_program(x, f):
    y = []
    for start in range(0, len(x), BLOCK):
        part = x[start:start + BLOCK]
        y += f(part + [0.0] * (BLOCK - len(part)))[:len(part)]
    return y


def _halved(block):
    while max(block) > 1:
        block = [v * 0.5 for v in block]
    return block


REFERENCES = {
    "ternary_device": lambda x: _per_program(x, lambda b: [v * (1 if sum(b) > 0 else -1) for v in b]),
    "recursion_device": lambda x: _per_program(x, _halved),
    "assigned_through_call": lambda x: [3 * v for v in x],
    "host_field_under_device_if": lambda x: _per_program(x, lambda b: [v * (2 if sum(b) > 0 else 1) for v in b]),
}


def reference_input(n=100, seed=3):
    """n floats in [-2, 2) (f32), the first program's sum positive and the second's negative, both
    with a value over 1: every branch of the cases above is taken."""
    rng = random.Random(seed)
    x = [struct.unpack("<f", struct.pack("<f", rng.uniform(-2, 2)))[0] for _ in range(n)]
    assert sum(x[:BLOCK]) > 0 > sum(x[BLOCK:]) and min(max(x[:BLOCK]), max(x[BLOCK:])) > 1, "pick another seed"
    return x


def _npy_write(path, values):
    """A 1-d float32 .npy file (format 1.0), written without NumPy (this suite runs on the system Python)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") +
                     struct.pack(f"<{len(values)}f", *values))


def _npy_read(path):
    data = path.read_bytes()
    assert data[:6] == b"\x93NUMPY", f"{path} is not a .npy file"
    size, start = (struct.unpack("<H", data[8:10])[0], 10) if data[6] == 1 else (struct.unpack("<I", data[8:12])[0], 12)
    header = data[start:start + size].decode("latin1")
    assert "'<f4'" in header and "'fortran_order': False" in header, f"{path}: not 1-d float32: {header}"
    body = data[start + size:]
    return list(struct.unpack(f"<{len(body) // 4}f", body))


def close(got, want):
    """FeaturesTest's and feature_probe's tolerance."""
    return len(got) == len(want) and all(abs(g - w) <= 1e-6 + 1e-5 * abs(w) for g, w in zip(got, want))


# --- following the refusals --------------------------------------------------

def first_error(stderr):
    """The first `error:` line of twintile's output, paths relative to the repository."""
    lines = [line for line in stderr.splitlines() if ": error: " in line] or stderr.strip().splitlines()[:1]
    return (lines[0] if lines else "").replace(str(common.ROOT) + "/", "")


def refusal_of(frontend, path, kernel):
    """None if `twintile compile` accepts the file, else its first error (with the exit status unless 1)."""
    proc = subprocess.run([common.tool("twintile"), "compile", f"--frontend={frontend}", str(path), "--kernel", kernel,
                           "-o", "/dev/null"], capture_output=True, text=True, timeout=600)
    if proc.returncode == 0:
        return None
    return first_error(proc.stderr) if proc.returncode == 1 else f"exit {proc.returncode}: {first_error(proc.stderr)}"


def probe_fixes(frontend, cases):
    """feature_probe over the fixes of `cases` ({name: (kernel, fix path)}), each copied under its case's
    name so that it gets the case's reference and inputs: {name: probe row}."""
    if not cases:
        return {}
    with tempfile.TemporaryDirectory(prefix="twintile-fixes-") as d:
        for name, (_, path) in cases.items():
            shutil.copyfile(path, Path(d) / f"{name}.cpp")
        (Path(d) / "features.json").write_text(json.dumps(
            {"features": [{"name": name, "kernel": kernel, frontend: "accepted"} for name, (kernel, _) in cases.items()]}))
        rows, _, _ = common.run_json_lines([common.tool("feature_probe"), d, "--frontend", frontend])
    return {r["feature"]: r for r in rows}


def run_reference(frontend, name, path, kernel):
    """Whether the interpreter's y for the fix is REFERENCES[name] of reference_input()."""
    x = reference_input()
    with tempfile.TemporaryDirectory(prefix="twintile-fix-run-") as d:
        _npy_write(Path(d) / "x.npy", x)
        proc = subprocess.run([common.tool("twintile"), "run", "--device", "interp", f"--frontend={frontend}", str(path),
                               "--kernel", kernel, "--grid", str(-(-len(x) // BLOCK)), "--input", f"x={d}/x.npy",
                               "--arg", f"y={len(x)}", "--arg", f"n={len(x)}", "--save", f"{d}/out"],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            return None, first_error(proc.stderr)
        return close(_npy_read(Path(d) / "out" / "y.out.npy"), REFERENCES[name](x)), None


def follow(features, rows):
    """Adds `followed` to every refused row, and `fix`, `fix_message` (a refused fix's message),
    `fix_check` (whose reference judged it), `unsaid` and `fix_note` (fixes.json's) or `no_advice`."""
    manifest = json.loads((FIXES / "fixes.json").read_text())["fixes"]
    kernels = {f["name"]: f["kernel"] for f in features}
    accepted = {"parse": {}, "trace": {}, "hybrid": {}}
    refused = [r for r in rows if r["outcome"] == "refused"]
    for r in refused:
        entry = manifest.get(r["feature"], {}).get(r["frontend"])
        if entry is None:
            raise SystemExit(f"expressiveness: {FIXES / 'fixes.json'} says nothing of {r['frontend']} {r['feature']}, "
                             "which that front end refuses: add its fix, or `none` with the reason")
        if "none" in entry:
            r.update(followed="no advice", no_advice=entry["none"])
            continue
        path = FIXES / entry["file"]
        r["fix"] = str(path.relative_to(common.ROOT))
        r.update({key: entry[field] for key, field in (("unsaid", "unsaid"), ("fix_note", "note")) if field in entry})
        message = refusal_of(r["frontend"], path, kernels[r["feature"]])
        if message is not None:
            r.update(followed="refused", fix_message=message)
        else:
            accepted[r["frontend"]][r["feature"]] = (kernels[r["feature"]], path)
    for frontend, cases in accepted.items():
        probed = probe_fixes(frontend, cases)
        for r in refused:
            if r["frontend"] != frontend or r["feature"] not in cases:
                continue
            p = probed.get(r["feature"], {})
            if p.get("outcome") != "accepted":  # twintile compile accepted it, the probe did not
                r.update(followed="refused", fix_message=f"feature_probe: {p.get('message', 'no row')}")
                continue
            if p["correct"] is not None:
                r.update(followed="right" if p["correct"] else "wrong", fix_check="references.h")
                continue
            if r["feature"] not in REFERENCES:
                raise SystemExit(f"expressiveness: no reference for {r['feature']} (references.h or REFERENCES)")
            kernel, path = cases[r["feature"]]
            right, error = run_reference(frontend, r["feature"], path, kernel)
            if error:
                r.update(followed="refused", fix_message=error)
            else:
                r.update(followed="right" if right else "wrong", fix_check="the suite's reference")
    unused = sorted(f"{fe} {name}" for name, by in manifest.items() for fe in by
                    if not any(r["feature"] == name and r["frontend"] == fe for r in refused))
    if unused:
        print(f"[expressiveness] fixes.json has fixes for cases accepted as written: {', '.join(unused)}", flush=True)
    return rows


def baseline(system):
    rows, err, _ = common.run_json_lines([common.venv_python(), str(common.BASELINES / "feature_probe.py"), system],
                                         check=False)
    if not rows:
        raise RuntimeError(f"feature_probe.py {system} failed: {err[-2000:]}")
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    shard.add_argument(ap)
    args = ap.parse_args(argv)
    features = json.loads((common.FEATURES / "features.json").read_text())["features"]
    config = {"quick": args.quick, "features": len(features)}
    plan = ["features"]  # one unit: the suite takes seconds
    if not shard.share(args.shard, plan):
        common.write_result("expressiveness", {"config": config}, args.out, args.shard, plan)
        return 0
    progress = common.Progress(4, "expressiveness")
    progress.step(f"{len(features)} feature cases x 3 front ends (feature_probe)")
    rows, err, code = common.run_json_lines([common.tool("feature_probe"), str(common.FEATURES)])
    rows = [judge(r) for r in rows]
    progress.step(f"following the {sum(r['outcome'] == 'refused' for r in rows)} refusals (experiments/features/fixes)")
    rows = follow(features, rows)
    missing, baselines = {}, []
    for system, module in (("triton", "triton"), ("pallas", "jax")):
        progress.step(f"the same constructs in {system}")
        if (why := common.baseline_missing(module)):
            missing[system] = why
            continue
        baselines += baseline(system)
    common.write_result("expressiveness", {"config": config, "missing": missing, "twintile": rows,
                                           "baselines": baselines}, args.out, args.shard, plan)
    bad = [r for r in rows if not r["as_expected"]]
    for r in bad:
        print(f"[expressiveness] {r['frontend']} {r['feature']}: not as features.json expects "
              f"({r['outcome']}, {r.get('message', '')[:120]})", flush=True)
    for r in rows:
        if r.get("followed") in ("refused", "wrong"):
            print(f"[expressiveness] {r['frontend']} {r['feature']}: following the message: {r['followed']}"
                  + (f" ({r['fix_message'][:160]})" if r.get("fix_message") else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
