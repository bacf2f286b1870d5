#!/usr/bin/env python3
"""The realworld suite: upstream libraries' Triton kernels, ported to twintile as written.

    python3 -m experiments.suites.realworld [--quick] [--out FILE] [--manifest FILE] [--shard I/N]

For every kernel of experiments/realworld/kernels.json, through each front
end: is the port as written accepted (and where and how is it refused), does
the accepted port compute what the upstream kernel computes (Triton's
interpreter on the same inputs: experiments/realworld/check.py), and, where a
front end refuses it, how many lines its rewritten variant changes and what
forced the change (the manifest's categories). Then the compile time of each
accepted port through each front end (compile_probe, in process) beside the
upstream kernel's Triton compile (compile_upstream.py), 5 repetitions each
(--quick: 2), and the PTX of both counted one way (ptx_stats, and ptxas's
registers where it is found): both compiled as Triton's JIT compiles at the
manifest's launch (fast math, its num_warps, its hints). And that same port's PTX, one launch at the
manifest's launch on check.py's inputs, in the PTX emulator, profiled (`twintile run --profile`):
warp-level instructions, global requests, sectors and bytes, shared-memory wavefronts, checked
against the IR interpreter; twintile's side only, since the upstream kernel runs in Triton's
interpreter, which counts nothing of the kind (--quick profiles them all too: a few seconds, the
compiles cached by the codegen part). And, for each port the parsing front end and
another accept as written, whether their PTX is byte for byte the same. Writes
experiments/results/realworld.json: the upstream libraries' versions, one row per
kernel, front end and variant, each rewrite's diff size, the compile samples, the
PTX counts, the profiles and the agreement.
"""
import argparse
import difflib
import json
import os
import subprocess
import sys
from pathlib import Path

from experiments.harness import common, shard  # noqa: E402

from experiments.realworld import corpus  # noqa: E402  (the ports' manifest)

REALWORLD = common.ROOT / "experiments" / "realworld"


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


def accepted_file(entry, frontend, cells):
    """The variant of a port that a front end accepts and runs right (or unchecked: no reference
    could run), as written, else its rewrite; None if there is none."""
    for variant in ("written", "rewritten"):
        row = cells.get((entry["name"], frontend, variant))
        if row and row["outcome"] == "accepted" and str(row.get("check")).startswith(("ok", "unchecked")):
            return entry["file"] if variant == "written" else entry["rewritten"][frontend]
    return None


def like_triton(entry):
    """The options that compile a port as Triton's JIT compiles its upstream kernel at the launch:
    Triton's default math (fast), its num_warps, the pointers aligned and the integers divisible by
    16 that the JIT would hint."""
    divisible = divisible_ints(entry)
    return (["--math", "fast", "--num-warps", str(entry.get("num_warps", 4)), "--assume-aligned", "*"] +
            [arg for name in divisible for arg in ("--assume-divisible", name)])


def divisible_ints(entry):
    """The integer arguments whose launch value is a multiple of 16: what Triton's JIT hints."""
    return [a["name"] for a in entry["args"] if a.get("scalar", "").startswith("i") and int(a["value"]) % 16 == 0]


def twintile_compiles(entries, cells, reps):
    """Each accepted port through each front end to PTX, compiled like_triton, in one compile_probe
    process (after an untimed warm-up): one sample per repetition, the front end's and the
    backend's seconds."""
    samples = []
    for e in entries:
        for frontend in corpus.FRONTENDS:
            file = accepted_file(e, frontend, cells)
            if not file:
                continue
            rows, err, _ = common.run_json_lines([common.tool("compile_probe"), "--frontend", frontend,
                                                  str(Path(e["dir"]) / file), e["kernel"], "--reps", str(reps),
                                                  "--warmup", *like_triton(e)], check=False)
            for r in rows:
                spec = (r.get("specs") or [{"error": r.get("error", "compile_probe compiled nothing")}])[0]
                if "error" in spec:
                    samples.append({"name": e["name"], "frontend": frontend, "error": spec["error"]})
                    continue
                # The cold host compile (Clang, the code generator, the load: compile_probe's phases), then the trace.
                traced = sum(spec.get(p, 0.0) for p in ("host_compile_s", "host_codegen_s", "host_load_s", "trace_s"))
                front = {"parse": r.get("parse_s", 0.0) + spec.get("walk_s", 0.0), "trace": traced,
                         "hybrid": r.get("parse_s", 0.0) + spec.get("rewrite_s", 0.0) + traced}[frontend]
                samples.append({"name": e["name"], "frontend": frontend, "rep": r["rep"], "frontend_s": front,
                                "to_ptx_s": front + spec.get("cleanup_s", 0.0) + spec["backend_s"]})
            if not rows:
                samples.append({"name": e["name"], "frontend": frontend, "error": err.strip()[-500:]})
    return samples


def measured_port(entry, cells):
    """(front end, file) of the port whose code is measured: the parsing front end's accepted
    variant, else the tracing one's; (None, None) if neither accepts one."""
    for frontend in ("parse", "trace"):
        file = accepted_file(entry, frontend, cells)
        if file:
            return frontend, file
    return None, None


def codegen(entries, cells, upstream_ptx, workdir):
    """PTX of each port (the parsing front end's accepted variant, else the tracing one's), compiled
    like_triton, and of its upstream kernel, counted by one rule (ptx_stats) and assembled by one
    ptxas (common.pick_ptxas)."""
    ptxas, _ = common.pick_ptxas()
    rows = []
    for e in entries:
        frontend, file = measured_port(e, cells)
        if not file:
            continue
        out = Path(workdir) / f"{e['name']}.ptx"
        proc = subprocess.run([common.tool("twintile"), "compile", str(Path(e["dir"]) / file), "--kernel", e["kernel"],
                               "--frontend", frontend, "--emit", "ptx", "-o", str(out), *like_triton(e)],
                              capture_output=True, text=True)
        for producer, path in (("twintile", out if proc.returncode == 0 else None), ("upstream", upstream_ptx.get(e["name"]))):
            row = {"name": e["name"], "producer": producer}
            if path is None:
                row["error"] = proc.stderr.strip()[-500:] if producer == "twintile" else "no upstream PTX"
                rows.append(row)
                continue
            functions = common.ptx_stats.parse_ptx(Path(path).read_text())
            entry = next((f for f in functions if f["kind"] == "entry"), functions[0] if functions else None)
            row.update({"instructions": entry["instructions"] if entry else None,
                        "classes": entry["classes"] if entry else {}})
            if ptxas and entry:
                usage, error = common.ptx_stats.run_ptxas(ptxas, "sm_90a", path)
                row["ptxas"] = usage.get(entry["name"]) if not error else {"error": error[-300:]}
            rows.append(row)
    return rows


def agreement(entries, cells, workdir):
    """For each port the parsing front end accepts as written: whether each other front end that
    accepts it as written too makes byte for byte the same PTX (both compiled like_triton); one
    row per kernel, {"same_ptx": {front end: bool}}, or its "errors" where a compile failed now."""
    rows = []
    for e in entries:
        accepting = [f for f in corpus.FRONTENDS
                     if (cells.get((e["name"], f, "written")) or {}).get("outcome") == "accepted"]
        if "parse" not in accepting or len(accepting) < 2:
            continue
        ptx, errors = {}, {}
        for frontend in accepting:
            out = Path(workdir) / f"{e['name']}.{frontend}.ptx"
            proc = subprocess.run([common.tool("twintile"), "compile", str(Path(e["dir"]) / e["file"]), "--kernel",
                                   e["kernel"], "--frontend", frontend, "--emit", "ptx", "-o", str(out),
                                   *like_triton(e)], capture_output=True, text=True)
            if proc.returncode == 0:
                ptx[frontend] = out.read_bytes()
            else:
                errors[frontend] = proc.stderr.strip()[-300:]
        row = {"name": e["name"]}
        if "parse" in ptx:  # (a front end that compiled as checked, but not now, is left out, its error said)
            row["same_ptx"] = {f: ptx[f] == ptx["parse"] for f in ptx if f != "parse"}
        if errors:
            row["errors"] = errors
        rows.append(row)
    return rows


# Writes the inputs check.py gives each kernel (its make_inputs: the manifest's launch, the kernel's
# fixed seed) as DIR/NAME/PARAM.npy, in the project's Python, which has NumPy.
WRITE_INPUTS = """
import sys
from pathlib import Path
import numpy as np
import check, corpus
manifest, out, names = sys.argv[1], Path(sys.argv[2]), set(sys.argv[3:])
for e in corpus.load_checked(manifest):
    if e["name"] in names:
        (out / e["name"]).mkdir(parents=True, exist_ok=True)
        for name, v in check.make_inputs(e).items():
            if isinstance(v, np.ndarray):
                np.save(out / e["name"] / f"{name}.npy", v)
"""


def profile_command(twintile, entry, file, frontend, inputs):
    """`twintile run --profile` of one port at the manifest's launch (its grid, num_warps, scalars,
    and the buffers check.py fills, saved under `inputs`), compiled like_triton as the codegen part
    compiles it, checked against the IR interpreter."""
    cmd = [twintile, "run", str(Path(entry["dir"]) / file), "--kernel", entry["kernel"],
           "--frontend", frontend, "--device", "emu", "--grid", ",".join(map(str, entry["grid"])), "--profile",
           *like_triton(entry)]
    for a in entry["args"]:
        if "buffer" in a:
            cmd += ["--input", f"{a['name']}={Path(inputs) / entry['name'] / (a['name'] + '.npy')}"]
        else:
            value = float(a["value"]) if a["scalar"].startswith("f") else int(a["value"])
            cmd += ["--arg", f"{a['name']}={value!r}"]
    return cmd


def read_profile(stdout):
    """The emulator's counts from `twintile run --profile`'s output (its `profile: {...}` line), or None."""
    line = next((l for l in stdout.splitlines() if l.startswith("profile: ")), None)
    return json.loads(line[len("profile: "):]) if line else None


def profiles(entries, cells, manifest, workdir):
    """One launch of each port in the PTX emulator, profiled (the port and options the codegen part
    measures): warp-level instructions by opcode and class, global requests, 32-byte sectors and
    bytes, shared-memory requests and wavefronts against the conflict-free ideal (the model is
    runtime/EmuProfile.cpp's), and whether the launch agrees with the IR interpreter. twintile's
    side only: the upstream kernel runs in Triton's interpreter, which has no such counts."""
    ports = [(e, *measured_port(e, cells)) for e in entries]
    ports = [(e, frontend, file) for e, frontend, file in ports if file]
    if not ports:
        return []
    twintile = common.tool("twintile")
    inputs = Path(workdir) / "inputs"
    proc = subprocess.run([common.venv_python(), "-c", WRITE_INPUTS, str(Path(manifest).resolve()), str(inputs),
                           *[e["name"] for e, _, _ in ports]], capture_output=True, text=True,
                          cwd=REALWORLD, env={**os.environ, "PYTHONPATH": str(REALWORLD)})
    rows = []
    for e, frontend, file in ports:
        base = {"name": e["name"], "frontend": frontend, "file": file, "grid": e["grid"],
                "num_warps": e.get("num_warps", 4)}
        if proc.returncode != 0:
            rows.append({**base, "error": f"the inputs were not written: {proc.stderr.strip()[-500:]}"})
            continue
        run = subprocess.run(profile_command(twintile, e, file, frontend, inputs), capture_output=True, text=True,
                             timeout=600)
        profile = read_profile(run.stdout)
        if profile is None:
            rows.append({**base, "error": (run.stdout + run.stderr).strip()[-800:]})
            continue
        rows.append({**base, "agrees_with_interpreter": run.returncode == 0, "profile": profile,
                     "classes": common.ptx_stats.class_counts(profile["warp_instructions"])})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--manifest", default=str(corpus.MANIFEST))
    shard.add_argument(ap)
    args = ap.parse_args(argv)
    entries = corpus.load_checked(args.manifest)
    plan = [e["name"] for e in entries]
    mine = shard.share(args.shard, plan)
    entries = [e for e in entries if e["name"] in mine]
    manifest = Path(args.manifest).resolve()
    config = {"quick": args.quick,
              "manifest": str(manifest.relative_to(common.ROOT)) if manifest.is_relative_to(common.ROOT) else args.manifest}
    if not mine:
        common.write_result("realworld", {"config": config}, args.out, args.shard, plan)
        return 0
    names = mine if args.shard else []  # check.py and compile_upstream.py take all without names
    twintile = common.tool("twintile")
    rows, header, missing = [], {}, {}
    numpy_missing = common.baseline_missing("numpy")
    if numpy_missing:  # check.py writes the inputs with NumPy: nothing runs without it
        missing["numpy"] = f"{numpy_missing}: no kernel ran (scripts/setup installs NumPy into .venv/)"
        print(f"[realworld] skipped: {missing['numpy']}", flush=True)
    else:
        proc_rows, stderr, _ = common.run_json_lines([common.venv_python(), str(REALWORLD / "check.py"),
                                                      "--manifest", args.manifest, "--twintile", twintile, *names],
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
    compiles, upstream_compiles, code, profiled, agreed = [], [], [], [], []
    if rows:
        reps = 2 if args.quick else 5
        print(f"[realworld] compile: each accepted port through each front end, {reps} repetitions", flush=True)
        compiles = twintile_compiles(entries, cells, reps)
        workdir = common.scratch("realworld", args.shard)
        upstream_ptx = {}
        if "triton" not in missing:  # a kernel whose library is missing is reported by compile_upstream
            print("[realworld] compile: each upstream kernel with Triton", flush=True)
            found, stderr, _ = common.run_json_lines([common.venv_python(), str(REALWORLD / "compile_upstream.py"),
                                                      "--manifest", args.manifest, "--reps", str(reps),
                                                      "--ptx-dir", str(workdir / "upstream"), *names],
                                                     check=False)
            upstream_compiles = [r for r in found if "rep" in r]
            upstream_ptx = {r["name"]: r["ptx"] for r in found if "ptx" in r}
        print("[realworld] codegen: PTX of each port and its upstream kernel", flush=True)
        code = codegen(entries, cells, upstream_ptx, workdir)
        print("[realworld] profile: one launch of each port in the PTX emulator", flush=True)
        profiled = profiles(entries, cells, args.manifest, workdir)
        print("[realworld] agreement: the PTX of each port two front ends accept as written, compared", flush=True)
        agreed = agreement(entries, cells, workdir)
    for r in rows:
        print(f"[realworld] {r['name']} {r['frontend']} {r['variant']}: {r['outcome']}"
              f"{' at line ' + str(r['line']) if r.get('line') else ''}"
              f"{', ' + r['check'] if r.get('check') else ''}", flush=True)
    by_name = lambda rows: shard.unit_major(rows, plan, lambda r: r["name"])  # noqa: E731
    compiles, upstream_compiles, code, profiled, agreed, kernels, rows = map(
        by_name, (compiles, upstream_compiles, code, profiled, agreed, kernels, rows))
    common.write_result("realworld", {"config": config,
                                      "libraries": versions, "triton": header.get("triton"), "missing": missing,
                                      "needless_rewrites": needless, "compile": compiles,
                                      "upstream_compile": upstream_compiles, "codegen": code,
                                      "profile": profiled, "agreement": agreed,
                                      "kernels": kernels, "rows": rows}, args.out, args.shard, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
