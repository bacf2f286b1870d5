#!/usr/bin/env python3
"""The GPU bench's table: twintile's runner beside the Triton and PyTorch baselines.

    experiments/gpu/report.py BUNDLE RUNNER.jsonl BASELINES.jsonl --machine NAME [--out FILE]

Prints one Markdown table (kernel, size, the medians of twintile --math=precise,
twintile --math=fast, Triton and PyTorch, twintile's fast throughput in GB/s of
compulsory traffic or TFLOP/s, and the baselines' times over twintile fast's:
Triton lowers `/` and tl.exp to the approximations --math=fast uses) and
writes the run as JSON (the format the gpu suite gathers:
experiments/results/gpu-bench-DATE-MACHINE.json). Then, for each group of
the tuning space (bundle.py's TUNE), a table of every configuration's
twintile --math=fast and Triton times, and each system's best: the tuned
comparison, best against best over the same configurations.
"""
import argparse
import datetime
import json
import sys
from pathlib import Path


def size_of(spec, bench):
    s, sizes = bench["scalars"], bench["sizes"]
    name = spec.partition("<")[0]
    if name in ("matmul", "matmul_desc"):
        return f"{s['M']}x{s['N']}x{s['K']}"
    if name == "flash_attention":
        return f"{bench['grid'][1]} heads x {s['seq_len']} x {spec.rstrip('>').split(',')[-1]}"
    if "n_cols" in s:
        return f"{sizes['x'] // s['stride']} x {s['n_cols']}"
    return f"n = {s['n']}"


def fmt_time(s):
    return "—" if s is None else f"{s * 1e3:.3f} ms"


def tuned(bundle, runner_rows, baseline_rows):
    """(Markdown lines, records) of the tuning space: per group, each configuration's twintile
    (fast) and Triton medians, and each system's best over the configurations both were offered."""
    lines, records = [], []
    groups = list(dict.fromkeys(k["tune"]["group"] for k in bundle["kernels"] if "tune" in k))
    for group in groups:
        configs = []
        offered = [k for k in bundle["kernels"] + bundle.get("untuned", []) if k.get("tune", {}).get("group") == group]
        for k in sorted(offered, key=lambda k: k["id"]):
            o, t = runner_rows.get(k["id"], {}), baseline_rows.get(k["id"], {})
            refused = k.get("error")  # twintile did not compile it
            configs.append({"config": k["tune"]["config"], "spec": k["spec"], "num_warps": k["tune"]["num_warps"],
                            "num_stages": k["tune"]["num_stages"],
                            "check": ("not compiled: " + refused[:80]) if refused else
                            o.get("check") or ("error: " + o["error"][:60] if "error" in o else "not run"),
                            "twintile_s": o.get("median_s"), "triton_s": t.get("triton_s"),
                            "twintile_seconds": o.get("seconds"), "triton_seconds": t.get("triton_seconds"),
                            "flops": o.get("flops"),
                            "errors": {key: v for key, v in {**o, **t}.items() if key.endswith("error")}})
        ours = [c for c in configs if c["twintile_s"] and c["check"] == "ok"]
        theirs = [c for c in configs if c["triton_s"]]
        best = min(ours, key=lambda c: c["twintile_s"]) if ours else None
        their_best = min(theirs, key=lambda c: c["triton_s"]) if theirs else None
        lines += ["", f"Tuned over the same {len(configs)} configurations: {group}", "",
                  "| configuration | check | twintile fast | Triton | Triton / twintile |", "|---|---|---|---|---|"]
        for c in configs:
            mark = lambda b: " (best)" if b is c else ""  # noqa: E731
            ratio = f"{c['triton_s'] / c['twintile_s']:.2f}" if c["twintile_s"] and c["triton_s"] else "—"
            lines.append(f"| `{c['config']}` | {c['check']} | {fmt_time(c['twintile_s'])}{mark(best)} | "
                         f"{fmt_time(c['triton_s'])}{mark(their_best)} | {ratio} |")
        summary = None
        if best and their_best:
            summary = their_best["triton_s"] / best["twintile_s"]
            lines += ["", f"Best against best: Triton {fmt_time(their_best['triton_s'])} (`{their_best['config']}`), "
                          f"twintile {fmt_time(best['twintile_s'])} (`{best['config']}`): Triton / twintile "
                          f"{summary:.2f}"]
        records.append({"group": group, "configs": configs,
                        "twintile_best": best and best["config"], "triton_best": their_best and their_best["config"],
                        "triton_best_over_twintile_best": summary})
    return lines, records


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("runner")
    ap.add_argument("baselines")
    ap.add_argument("--machine", required=True)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    bundle = json.loads((Path(args.bundle) / "bundle.json").read_text())
    candidates = {k["id"] for k in bundle["kernels"] if "tune" in k}
    runner = [json.loads(l) for l in Path(args.runner).read_text().splitlines() if l.strip().startswith("{")]
    baselines = [json.loads(l) for l in Path(args.baselines).read_text().splitlines() if l.strip().startswith("{")]
    ours = {(r["spec"], r.get("math", "precise")): r for r in runner if r.get("id") not in candidates}
    theirs = {r["spec"]: r for r in baselines if "tune" not in r}
    tuned_lines, tuned_records = tuned(bundle, {r["id"]: r for r in runner if r.get("id") in candidates},
                                       {r["id"]: r for r in baselines if "tune" in r})
    kernels = []
    header = ["kernel", "size", "check", "twintile", "twintile fast", "Triton", "PyTorch", "throughput (fast)",
              "Triton / twintile fast", "PyTorch / twintile fast"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    device = None
    compared = [k for k in bundle["kernels"] if "tune" not in k]
    specs = list(dict.fromkeys(k["spec"] for k in compared))  # in order, each once
    benches = {k["spec"]: k["bench"] for k in compared}
    engines = {k["spec"]: k.get("tensor_cores") for k in compared}  # the dot's instructions, where it has one
    for spec in specs:
        bench = benches[spec]
        o, f, t = ours.get((spec, "precise"), {}), ours.get((spec, "fast"), {}), theirs.get(spec, {})
        device = device or o.get("device") or f.get("device")
        tw, fast, tr, pt = o.get("median_s"), f.get("median_s"), t.get("triton_s"), t.get("torch_s")
        best = fast or tw
        row = f if fast else o
        if best and row.get("flops"):
            throughput = f"{row['flops'] / best / 1e12:.1f} TFLOP/s"
        elif best:
            throughput = f"{row['bytes'] / best / 1e9:.0f} GB/s"
        else:
            throughput = ""
        ratio = lambda x: f"{x / fast:.2f}" if x and fast else "—"  # noqa: E731
        checks = {math: r.get("check") or ("error: " + r["error"][:60] if "error" in r else "not run")
                  for math, r in (("precise", o), ("fast", f))}
        check = checks["precise"] if checks["precise"] == checks["fast"] else \
            f"precise {checks['precise']}, fast {checks['fast']}"
        lines.append(f"| `{spec}` | {size_of(spec, bench)} | {check} | {fmt_time(tw)} | {fmt_time(fast)} | "
                     f"{fmt_time(tr)} | {fmt_time(pt)} | {throughput} | {ratio(tr)} | {ratio(pt)} |")
        kernels.append({"kernel": spec, "size": size_of(spec, bench), "tensor_cores": engines.get(spec),
                        "check": checks["precise"],
                        "check_fast": checks["fast"], "twintile_s": tw, "twintile_fast_s": fast,
                        "triton_s": tr, "torch_s": pt, "throughput": throughput,
                        "bytes": row.get("bytes"), "flops": row.get("flops"),
                        "twintile_seconds": o.get("seconds"), "twintile_fast_seconds": f.get("seconds"),
                        "triton_seconds": t.get("triton_seconds"), "torch_seconds": t.get("torch_seconds"),
                        "errors": {key: v for key, v in {**o, **{"fast_" + k: v for k, v in f.items()}, **t}.items()
                                   if key.endswith("error")}})
    table = "\n".join(lines + tuned_lines)
    print(table)
    run = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "machine": args.machine,
           "device": device, "commit": bundle.get("commit"), "dry": bundle.get("dry", False),
           "protocol": "median of the timed launches after warm-up; CUDA events around each launch, each launch "
                       "preceded by a 256 MiB memset that clears the L2 and keeps the GPU busy while the host "
                       "enqueues the launch (twintile: the runtime's cuda device, LaunchOptions::flushBytes; "
                       "Triton and PyTorch: torch.cuda.Event); inputs random, sizes from "
                       "experiments/kernels/launches.py bench()",
           "kernels": kernels, "tuned": tuned_records, "table": table}
    if args.out:
        Path(args.out).write_text(json.dumps(run, indent=1) + "\n")
        print(f"\nwrote {args.out}")
    # A configuration twintile refused is a failed trial; one it compiled wrong is a bug.
    candidates_ok = all(c["check"] in ("ok", "not run") or c["check"].startswith("not compiled")
                        for g in tuned_records for c in g["configs"])
    return 0 if candidates_ok and all(k["check"] == "ok" and k["check_fast"] == "ok" for k in kernels) else 1


if __name__ == "__main__":
    sys.exit(main())
