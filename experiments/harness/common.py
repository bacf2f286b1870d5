"""What every suite shares: paths, tools, the corpus, the environment record,
statistics, progress lines and the result file.

A suite is a module `python3 -m experiments.suites.<name> [--quick] [--out FILE]`
(run from the repository's root) that measures and writes
`experiments/results/<name>.json`:

    {"suite": name, "environment": {...}, "config": {...}, ...raw samples...}

Raw samples are kept, not only summaries: the report (scripts/report) computes
every figure in the tables and the paper from them.
"""
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "experiments" / "kernels"
FEATURES = ROOT / "experiments" / "features"
BASELINES = ROOT / "experiments" / "baselines"
RESULTS = ROOT / "experiments" / "results"
BUILD = Path(os.environ.get("TWINTILE_BUILD_DIR", ROOT / "build"))

from experiments.baselines import ptx_stats  # noqa: E402  (PTX measured one way for every producer)
from experiments.harness.shard import SHARDS  # noqa: E402


def tool(name):
    """A binary of twintile's build: twintile, compile_probe, feature_probe."""
    for cand in (BUILD / "tools" / name, BUILD / "experiments" / "suites" / name):
        if cand.exists():
            return str(cand)
    sys.exit(f"{name} is not built in {BUILD} (run scripts/test, or set TWINTILE_BUILD_DIR)")


def cuda_tool(name):
    """nvcc or ptxas, found as ptx_stats finds them; None if absent."""
    return ptx_stats.find_tool(name, None, f"TWINTILE_{name.upper()}")


def pick_ptxas():
    """(path, why): the ptxas that measures every producer's PTX."""
    triton_ptxas = sorted(ROOT.glob(".venv/lib/python3*/site-packages/triton/backends/nvidia/bin/ptxas-blackwell"))
    if triton_ptxas:
        return str(triton_ptxas[0]), "Triton's bundled ptxas (the newest here; it accepts every producer's PTX)"
    cuda = cuda_tool("ptxas")
    return cuda, "CUDA's ptxas" if cuda else "no ptxas found: resources not measured"


def venv_python():
    """The project's virtual environment's Python, where the baselines live."""
    cand = ROOT / ".venv" / "bin" / "python"
    return str(cand) if cand.exists() else sys.executable


def baseline_missing(module):
    """Why a Python baseline (triton, jax) cannot be used: None if it can."""
    proc = subprocess.run([venv_python(), "-c", f"import {module}; print({module}.__version__)"],
                          capture_output=True, text=True)
    if proc.returncode == 0:
        return None
    last = (proc.stderr.strip().splitlines() or ["unknown error"])[-1]
    return f"{module} cannot be imported by {venv_python()} ({last}); run scripts/setup --baselines"


def corpus_entries():
    """corpus.json's kernels: name, file, class (memory or compute), baselines, specializations."""
    return json.loads((KERNELS / "corpus.json").read_text())["kernels"]


def corpus(names=None):
    """[(kernel name, file path, [specs])] from corpus.json, optionally only `names`."""
    return [(k["name"], KERNELS / k["file"], k["specializations"]) for k in corpus_entries()
            if not names or k["name"] in names]


def kernel_class(name):
    """'memory' or 'compute': what bounds corpus kernel `name` (corpus.json)."""
    return next(k["class"] for k in corpus_entries() if k["name"] == name)


def spec_file_name(spec):
    """softmax<f16,1024> -> softmax_f16_1024: the name the driver gives a specialization's file
    (tools/driver/Compile.cpp's stemOf; a minus sign is "m", so k<-1> is k_m1, not k<1>'s k_1).
    One rule: tests/experiments/test_stems.py holds the two equal."""
    out = ""
    for c in spec:
        if c.isascii() and c.isalnum():
            out += c
        elif c == "-":
            out += "_m" if out and out[-1] != "_" else "m"
        elif out and out[-1] != "_":
            out += "_"
    return out.rstrip("_") or "kernel"


def _version(cmd):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (proc.stdout + proc.stderr).strip()
    return text.splitlines()[0] if proc.returncode == 0 and text else None


def _python_version(module):
    proc = subprocess.run([venv_python(), "-c", f"import {module}; print({module}.__version__)"],
                          capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


def environment():
    """The machine and the tools a result was measured with."""
    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = _version(["git", "-C", str(ROOT), "rev-parse", "HEAD"])
    # Modified sources, not counting the outputs a run itself rewrites (results, paper).
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", ".",
                            ":!experiments/results", ":!paper"], capture_output=True, text=True).stdout.strip()
    nvcc = cuda_tool("nvcc")
    nvcc_version = None
    if nvcc:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
        m = re.search(r"release ([\d.]+), (V[\d.]+)", out)
        nvcc_version = m.group(2) if m else None
    ptxas = cuda_tool("ptxas")
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "git_commit": commit,
        "git_dirty": bool(dirty),
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "load_average": list(os.getloadavg()),
        "os": platform.platform(),
        "llvm": _version(["llvm-config-19", "--version"]),
        "clang": _version(["clang++-19", "--version"]),
        "host_compiler": _version([os.environ.get("TWINTILE_HOST_CXX", "clang++-19"), "--version"]),
        "nvcc": nvcc_version,
        "ptxas": _ptxas_release(ptxas) if ptxas else None,
        "triton": _python_version("triton"),
        "jax": _python_version("jax"),
        "cutlass": _python_version("cutlass"),
        "python": _version([venv_python(), "--version"]),
        "gpu": gpu_present(),
    }


def _ptxas_release(ptxas):
    out = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(V[\d.]+)", out)
    return m.group(1) if m else None


def gpu_present():
    """Whether this machine has an NVIDIA GPU the driver can see."""
    return any(Path("/dev").glob("nvidia[0-9]*"))


def median(xs):
    return statistics.median(xs) if xs else None


def spread(xs):
    """(min, max) of the samples, or None."""
    return [min(xs), max(xs)] if xs else None


def summary(xs):
    xs = [x for x in xs if x is not None]
    return {"median": median(xs), "min": min(xs) if xs else None, "max": max(xs) if xs else None, "n": len(xs)}


class Progress:
    """One line per step: `[12/39] softmax<f16,1024> parse ...`."""

    def __init__(self, total, suite):
        self.total, self.done, self.suite, self.start = total, 0, suite, time.perf_counter()

    def step(self, what):
        self.done += 1
        print(f"[{self.suite} {self.done}/{self.total}] {what}", flush=True)

    def elapsed(self):
        return time.perf_counter() - self.start


def run_json_lines(cmd, env=None, check=True, timeout=1800):
    """Runs cmd; returns (the JSON objects it printed one per line, stderr, exit code)."""
    full_env = dict(os.environ, **(env or {}))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=timeout)
    rows = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            rows.append(json.loads(line))
    if check and proc.returncode != 0 and not rows:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return rows, proc.stderr, proc.returncode


def timed_process(cmd, env=None, cwd=None):
    """Wall seconds of one whole process, and its exit code and stderr."""
    full_env = dict(os.environ, **(env or {}))
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=full_env, cwd=cwd)
    return time.perf_counter() - start, proc.returncode, proc.stderr


def result_text(record):
    """A result file's text: each top-level field on a line of its own, and each
    element of a top-level list (a suite's rows) on its own line, compact: a rerun's
    diff shows the rows that changed, and the file stays small (codegen's 1.16 MB
    indented is 0.82 MB so)."""
    def compact(v):
        return json.dumps(v, separators=(",", ":"))
    fields = []
    for key, value in record.items():
        if isinstance(value, list) and value:
            rows = ",\n".join("  " + compact(e) for e in value)
            fields.append(f" {json.dumps(key)}: [\n{rows}\n ]")
        else:
            fields.append(f" {json.dumps(key)}: {compact(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def write_result(name, payload, out=None, shard=None, plan=None):
    """Writes a suite's result: experiments/results/<name>.json, or with `shard` (its --shard)
    that shard's file, recording its share of `plan`, the suite's units (harness/shard.py)."""
    if shard:
        path = Path(out) if out else RESULTS / SHARDS / shard.file_name(name)
        payload = {**payload, "shard": shard.record(plan)}
    else:
        path = Path(out) if out else RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"suite": name, "environment": environment(), **payload}
    path.write_text(result_text(record))
    print(f"[{name}] wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", flush=True)
    return path


def scratch(name, shard=None):
    """A scratch folder under out/ (ignored by git), emptied; a shard's own, so that shards
    running at once on one file system keep apart."""
    path = ROOT / "out" / "suites" / (f"{name}.{shard.index}-of-{shard.count}" if shard else name)
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True, exist_ok=True)
    return path
