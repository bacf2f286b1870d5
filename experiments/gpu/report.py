#!/usr/bin/env python3
"""The GPU bench's table: twintile's runner beside the Triton and PyTorch baselines.

    experiments/gpu/report.py BUNDLE RUNNER.jsonl BASELINES.jsonl --machine NAME [--out FILE]

Prints one Markdown table (kernel, size, the three medians, twintile's
throughput in GB/s of compulsory traffic or TFLOP/s, and the ratios) and
writes the run as JSON (the format the gpu suite gathers:
experiments/results/gpu-bench-DATE-MACHINE.json).
"""
import argparse
import datetime
import json
import sys
from pathlib import Path


def read_lines(path):
    rows = {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if line.startswith("{"):
            row = json.loads(line)
            rows[row["spec"]] = row
    return rows


def size_of(spec, bench):
    s, sizes = bench["scalars"], bench["sizes"]
    name = spec.partition("<")[0]
    if name == "matmul":
        return f"{s['M']}x{s['N']}x{s['K']}"
    if name == "flash_attention":
        return f"{bench['grid'][1]} heads x {s['seq_len']} x {spec.rstrip('>').split(',')[-1]}"
    if "n_cols" in s:
        return f"{sizes['x'] // s['stride']} x {s['n_cols']}"
    return f"n = {s['n']}"


def fmt_time(s):
    return "—" if s is None else f"{s * 1e3:.3f} ms"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("runner")
    ap.add_argument("baselines")
    ap.add_argument("--machine", required=True)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    bundle = json.loads((Path(args.bundle) / "bundle.json").read_text())
    ours, theirs = read_lines(args.runner), read_lines(args.baselines)
    kernels = []
    header = ["kernel", "size", "check", "twintile", "Triton", "PyTorch", "twintile throughput", "Triton / twintile",
              "PyTorch / twintile"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    device = None
    for k in bundle["kernels"]:
        spec, bench = k["spec"], k["bench"]
        o, t = ours.get(spec, {}), theirs.get(spec, {})
        device = device or o.get("device")
        tw, tr, pt = o.get("median_s"), t.get("triton_s"), t.get("torch_s")
        if tw and o.get("flops"):
            throughput = f"{o['flops'] / tw / 1e12:.1f} TFLOP/s"
        elif tw:
            throughput = f"{o['bytes'] / tw / 1e9:.0f} GB/s"
        else:
            throughput = ""
        ratio = lambda x: f"{x / tw:.2f}" if x and tw else "—"  # noqa: E731
        check = o.get("check") or ("error: " + o["error"][:60] if "error" in o else "not run")
        lines.append(f"| `{spec}` | {size_of(spec, bench)} | {check} | {fmt_time(tw)} | {fmt_time(tr)} | "
                     f"{fmt_time(pt)} | {throughput} | {ratio(tr)} | {ratio(pt)} |")
        kernels.append({"kernel": spec, "size": size_of(spec, bench), "check": check, "twintile_s": tw,
                        "triton_s": tr, "torch_s": pt, "throughput": throughput, "bytes": o.get("bytes"),
                        "flops": o.get("flops"), "twintile_seconds": o.get("seconds"),
                        "triton_seconds": t.get("triton_seconds"), "torch_seconds": t.get("torch_seconds"),
                        "errors": {key: v for key, v in {**o, **t}.items() if key.endswith("error")}})
    table = "\n".join(lines)
    print(table)
    run = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "machine": args.machine,
           "device": device, "commit": bundle.get("commit"), "dry": bundle.get("dry", False),
           "protocol": "median of the timed launches after warm-up; CUDA events around each launch (twintile: the "
                       "runtime's cuda device; Triton and PyTorch: torch.cuda.Event); inputs random, sizes from "
                       "experiments/kernels/launches.py bench()",
           "kernels": kernels, "table": table}
    if args.out:
        Path(args.out).write_text(json.dumps(run, indent=1) + "\n")
        print(f"\nwrote {args.out}")
    return 0 if all(k["check"] == "ok" for k in kernels) else 1


if __name__ == "__main__":
    sys.exit(main())
