#!/usr/bin/env python3
"""Run a real-world port and its upstream kernel on the same inputs and compare.

    experiments/realworld/check.py [NAME...] [--frontend parse|trace|hybrid] [--manifest FILE] [--twintile PATH]

For each kernel of experiments/realworld/kernels.json (all, or the NAMEs):
inputs from the manifest's launch (a fixed seed per kernel); the upstream
kernel (upstream.py: loaded from the installed library) in Triton's
interpreter mode on the CPU, in a child process; twintile's port through each
front end, as written and, where the manifest has one, rewritten: `twintile
compile` to PTX (accepted or refused), then `twintile run --device emu`
with four programs resident at once, switched at every global atomic and
volatile load (--interleave: locks and "last program" counters contend),
which also checks the PTX emulator against the IR interpreter; then every
buffer of the two compared (f32 within 1e-4 relative, f16 and bf16 within
their rounding, integers exactly; near zero within a millionth of the
buffer's largest magnitude). Prints the upstream libraries' versions
({"libraries", "triton"}), then one JSON object per kernel, front end and
variant:

    {"name", "frontend", "variant": "written" | "rewritten", "outcome":
     "accepted" | "refused" | "internal error" | "crashed", "check": "ok" |
     what differed | "unchecked: why" | "failed: why" (after the compile,
     the kernel failed in the emulator, a deadlock or a fault: the generated
     code's or the port's; or the launch failed: the harness's or the
     runtime's), "message",
     "line", "seconds"}

Exits 1 if any accepted port differs or fails, or the compiler broke.
experiments/suites/realworld.py runs the same functions and keeps them.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "1"  # before Triton is imported
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "experiments" / "baselines"))

import numpy as np  # noqa: E402

import corpus  # noqa: E402
import libdevice_shim  # noqa: E402
import upstream  # noqa: E402
from corpus import FRONTENDS  # noqa: E402
from host_tensor import HostTensor, bf16_to_f32, to_bf16_bits  # noqa: E402

# Storage of each element type in NumPy: bf16 travels as its 16 bits.
NP = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64, "i1": np.bool_, "i8": np.int8,
      "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
      "u64": np.uint64}
INTERLEAVE = 4  # programs the emulator runs at once (twintile run --interleave)
TOLERANCE = {"f16": 4e-3, "bf16": 3e-2, "f32": 1e-4, "f64": 1e-9}


def seed_of(name):
    return sum(map(ord, name)) * 7919 % (1 << 31)


def make_inputs(entry):
    """{param: NumPy array (storage type) or Python scalar}, from the manifest's launch."""
    rng = np.random.default_rng(seed_of(entry["name"]))
    values = {}
    for a in entry["args"]:
        if "scalar" in a:
            values[a["name"]] = float(a["value"]) if a["scalar"].startswith("f") else int(a["value"])
            continue
        t, n, init = a["buffer"], int(a["count"]), a.get("init", "normal")
        kind, _, rest = init.partition(":")
        if kind == "normal":
            v = rng.standard_normal(n)
        elif kind == "uniform":
            lo, hi = map(float, rest.split(":"))
            v = rng.uniform(lo, hi, n)
        elif kind == "int":
            lo, hi = map(int, rest.split(":"))
            v = rng.integers(lo, hi, n)
        elif kind == "zeros":
            v = np.zeros(n)
        elif kind == "value":
            v = np.full(n, float(rest))
        else:
            raise ValueError(f"{entry['name']}: argument '{a['name']}' has an unknown init '{init}'")
        values[a["name"]] = to_bf16_bits(v) if t == "bf16" else np.asarray(v).astype(NP[t])
    return values


def tl_type(t):
    import triton.language as tl
    return {"f16": tl.float16, "bf16": tl.bfloat16, "f32": tl.float32, "f64": tl.float64, "i1": tl.int1,
            "i8": tl.int8, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64, "u8": tl.uint8, "u16": tl.uint16,
            "u32": tl.uint32, "u64": tl.uint64}[t]


def float_scalar(value, t):
    """A float argument as compiled Triton sees it, a scalar tensor of type `t` (f32): Triton's
    interpreter passes a Python float through as it is, so `eps.to(tl.float32)` would fail."""
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle
    if t == "bf16":  # NumPy has no bf16 to hold it
        raise ValueError("a bf16 scalar argument cannot be passed to Triton's interpreter: use f32")
    ty = tl_type(t)
    return tl.tensor(TensorHandle(np.array([value], dtype=NP[t]), ty), ty)


def constexpr_value(v):
    """A manifest meta-parameter as Triton takes it: "tl.float32" names a Triton type."""
    import triton.language as tl
    if isinstance(v, str) and v.startswith("tl."):
        return getattr(tl, v[3:])
    return v


def run_upstream(entry, values):
    """The upstream kernel in Triton's interpreter on copies of `values`: {param: array after}."""
    from triton.runtime.jit import TensorWrapper
    libdevice_shim.install()  # before the upstream module imports libdevice's functions
    fn = upstream.kernel(entry["library"], entry["module"], entry["function"])
    copies = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in values.items()}
    args = {}
    for a in entry["args"]:
        v = copies[a["name"]]
        if "buffer" in a:
            v = TensorWrapper(HostTensor(v), tl_type(a["buffer"]))
        elif a["scalar"].startswith("f"):
            v = float_scalar(v, a["scalar"])
        args[a["name"]] = v
    grid = tuple(entry["grid"])
    # By name: a kernel's meta-parameters may stand between its runtime parameters.
    constexprs = {k: constexpr_value(v) for k, v in entry.get("constexprs", {}).items()}
    fn[grid](**args, **constexprs, num_warps=entry.get("num_warps", 4))
    return {k: v for k, v in copies.items() if isinstance(v, np.ndarray)}


LOCATION = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$", re.M)


def compile_twintile(twintile, entry, file, frontend):
    """The port through one front end and the backend to PTX: (outcome, message, line); outcome
    "accepted", "refused" (the message and line of the first error), "internal error" or "crashed"."""
    path = Path(entry["dir"]) / file
    proc = subprocess.run([twintile, "compile", str(path), "--kernel", entry["kernel"], "--frontend", frontend,
                           "--num-warps", str(entry.get("num_warps", 4)), "--emit", "ptx", "-o", os.devnull,
                           "--no-cache"], capture_output=True, text=True, timeout=600)
    if proc.returncode == 0:
        return "accepted", None, None
    if proc.returncode == 70:
        return "internal error", proc.stderr.strip()[:800], None
    if proc.returncode != 1:
        return "crashed", f"exit status {proc.returncode}: {proc.stderr.strip()[-800:]}", None
    m = LOCATION.search(proc.stderr)
    message = m.group("message") if m else (proc.stderr.strip().splitlines() or ["no message"])[0]
    line = int(m.group("line")) if m and Path(m.group("file")).name == path.name else None
    return "refused", message[:800], line


def run_twintile(twintile, entry, file, frontend, values, work):
    """twintile's port on the PTX emulator, checked against its interpreter, on `values`: (outputs,
    None), or (None, what went wrong): "failed: ..." for a launch that fails after the compile
    succeeded (the harness's or the runtime's fault, never a refusal), else the emulator's
    disagreement with the interpreter (twintile's wrong answer)."""
    work = Path(work)
    (work / "in").mkdir(parents=True, exist_ok=True)
    cmd = [twintile, "run", str(Path(entry["dir"]) / file), "--kernel", entry["kernel"], "--frontend", frontend,
           "--device", "emu", "--grid", ",".join(map(str, entry["grid"])), "--num-warps",
           str(entry.get("num_warps", 4)), "--save", str(work / "out"), "--json", "--no-cache",
           # Four programs at a time, switched at every global atomic and volatile load, so that
           # programs that wait for each other (locks, "last program" counters) really contend.
           "--interleave", str(INTERLEAVE), "--seed", str(seed_of(entry["name"]) % 1000 + 1)]
    for a in entry["args"]:
        v = values[a["name"]]
        if "buffer" in a:
            path = work / "in" / f"{a['name']}.npy"
            np.save(path, v)
            cmd += ["--input", f"{a['name']}={path}"]
        else:
            cmd += ["--arg", f"{a['name']}={v!r}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    report = None
    try:
        report = json.loads(proc.stdout) if proc.stdout.strip() else None
    except json.JSONDecodeError:
        pass
    if report is None or "verdict" not in report:
        # The kernel itself failing (a deadlock, a fault) is the generated code's or the port's; else the harness's.
        what = "the kernel failed in the emulator" if "the kernel failed on" in proc.stderr else "the launch failed"
        return None, f"failed: {what} (exit status {proc.returncode}): {proc.stderr.strip()[-600:]}"
    if report["verdict"] != "ok":  # twintile's wrong answer: its PTX does not compute what its IR says
        return None, f"the emulator and the interpreter differ: {json.dumps(report['buffers'])[:600]}"
    return {a["name"]: np.load(work / "out" / f"{a['name']}.out.npy") for a in entry["args"] if "buffer" in a}, None


def compare(ours, theirs, t):
    """None if twintile's buffer (saved: bf16 widened to f32) and upstream's agree, else what differs."""
    if t in TOLERANCE:
        a = ours.astype(np.float64)
        b = (bf16_to_f32(theirs) if t == "bf16" else theirs).astype(np.float64)
        # Near zero, relative error means nothing: there a millionth of the buffer's scale is the
        # bound, far below any real value of the buffer's. The scale is the smaller of the two
        # sides' largest finite magnitudes, so that one side's garbage (Triton's interpreter
        # computes bf16 arithmetic on the raw bits: values near 1e35) cannot widen it into "ok".
        def largest(x):
            finite = np.abs(x[np.isfinite(x)])
            return float(finite.max()) if finite.size else 0.0
        scale = min(largest(a), largest(b))
        close = np.isclose(a, b, rtol=TOLERANCE[t], atol=max(scale * 1e-6, 1e-30)) | (np.isnan(a) & np.isnan(b))
    else:
        a, b = ours.astype(np.int64), theirs.astype(np.int64)
        close = a == b
    bad = np.nonzero(~close)[0]
    if len(bad) == 0:
        return None
    i = int(bad[0])
    return f"{len(bad)} of {len(a)} elements differ (first at {i}: twintile {a[i]}, upstream {b[i]})"


def check_one(twintile, entry, frontend, variant, expected, work):
    """One port through one front end against the upstream outputs `expected` ({param: array}, or a str: why none)."""
    file = entry["file"] if variant == "written" else entry["rewritten"][frontend]
    start = time.perf_counter()
    outcome, message, line = compile_twintile(twintile, entry, file, frontend)
    row = {"name": entry["name"], "frontend": frontend, "variant": variant, "file": file, "outcome": outcome,
           "message": message, "line": line}
    if outcome == "accepted":
        outs, why = run_twintile(twintile, entry, file, frontend, make_inputs(entry), work)
        if outs is None:
            row["check"] = why
        elif isinstance(expected, str):
            row["check"] = f"unchecked: {expected}"
        else:
            for a in entry["args"]:
                if "buffer" in a:
                    why = compare(outs[a["name"]], expected[a["name"]], a["buffer"])
                    if why:
                        why = f"{a['name']}: {why}"
                        break
            row["check"] = why or "ok"
            if entry.get("interpreter_differs"):  # the interpreter's run is no reference for this kernel
                row["check"] = (f"unchecked: {entry['interpreter_differs']} (against the interpreter's run: "
                                f"{why or 'the same'})")
    row["seconds"] = time.perf_counter() - start
    return row


def _upstream_child(entry, conn):
    try:
        conn.send(run_upstream(entry, make_inputs(entry)))
    except LookupError as e:
        conn.send(str(e))
    except Exception as e:  # noqa: BLE001 - a kernel Triton's interpreter cannot run is a finding, not a crash
        conn.send(f"Triton's interpreter failed: {type(e).__name__}: {e}"[:500])
    conn.close()


def upstream_outputs(entry, timeout=600):
    """The upstream kernel's outputs on the kernel's inputs, or a str saying why there are none.
    Run in a child process: Triton's interpreter reads and writes memory through raw pointers,
    and a kernel that strays kills the process that runs it, not this one."""
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_upstream_child, args=(entry, send))
    child.start()
    send.close()
    result = None
    if receive.poll(timeout):
        try:
            result = receive.recv()
        except EOFError:
            pass
    child.join(5)
    if child.is_alive():
        child.kill()
        child.join()
        return f"Triton's interpreter ran past {timeout} s"
    if result is None:
        return f"Triton's interpreter died (exit status {child.exitcode}) running the upstream kernel"
    return result


def check_kernel(twintile, entry, frontends=FRONTENDS):
    """Every front end and variant of one kernel: a list of rows."""
    expected = upstream_outputs(entry)
    rows = []
    for frontend in frontends:
        variants = ["written"] + (["rewritten"] if frontend in entry.get("rewritten", {}) else [])
        for variant in variants:
            with tempfile.TemporaryDirectory() as work:
                rows.append(check_one(twintile, entry, frontend, variant, expected, work))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--frontend", choices=FRONTENDS, action="append")
    ap.add_argument("--manifest", default=str(corpus.MANIFEST))
    ap.add_argument("--twintile", default=str(Path(os.environ.get("TWINTILE_BUILD_DIR", ROOT / "build")) /
                                              "tools" / "twintile"))
    args = ap.parse_args(argv)
    entries = corpus.load_checked(args.manifest)
    known = {e["name"] for e in entries}
    for name in args.names:
        if name not in known:
            sys.exit(f"check.py: no kernel '{name}' in {args.manifest}")
    libraries = sorted({e["library"] for e in entries})
    print(json.dumps({"libraries": {lib: upstream.version(lib) for lib in libraries},
                      "triton": upstream.version("triton")}), flush=True)
    failed = False
    for entry in entries:
        if args.names and entry["name"] not in args.names:
            continue
        for row in check_kernel(args.twintile, entry, tuple(args.frontend or FRONTENDS)):
            wrong = row["outcome"] in ("internal error", "crashed") or (
                row["outcome"] == "accepted" and not (row.get("check") == "ok" or
                                                      str(row.get("check")).startswith("unchecked")))
            failed |= wrong
            print(json.dumps(row), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
