#!/usr/bin/env python3
"""The gpu suite: the GPU runs recorded so far, gathered into one result file.

    python3 -m experiments.suites.gpu [--quick] [--out FILE] [--shard I/N]

No GPU is needed: this suite measures nothing itself. Each run of
scripts/gpu-bench on a GPU machine is committed as
experiments/results/gpu-bench-<date>-<machine>.json (kernel, size, twintile,
Triton and PyTorch times, GB/s or TFLOP/s); this suite lists them, with each
run's date and machine, so that the report has one place to read. Where none
has been recorded, the result says so and the table says so.
"""
import argparse
import json
import sys

from experiments.harness import common, shard  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    shard.add_argument(ap)
    args = ap.parse_args(argv)
    plan = ["runs"]  # one unit: nothing is measured
    if not shard.share(args.shard, plan):
        common.write_result("gpu", {"config": {"quick": args.quick}}, args.out, args.shard, plan)
        return 0
    runs = []
    for path in sorted(common.RESULTS.glob("gpu-bench-*.json")):
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as e:
            print(f"[gpu] skipping {path.name}: {e}", flush=True)
            continue
        runs.append({"file": path.name, **data})
    note = None if runs else ("no GPU run has been recorded: scripts/gpu-bench has not yet run on a GPU machine "
                              "(none was lent to the sessions so far)")
    print(f"[gpu] {len(runs)} recorded GPU run(s)" + (f": {note}" if note else ""), flush=True)
    common.write_result("gpu", {"config": {"quick": args.quick}, "runs": runs, "note": note}, args.out, args.shard, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
