#!/usr/bin/env python3
"""The expressiveness suite: what each front end accepts, and what it says when it refuses.

    experiments/suites/expressiveness.py [--quick] [--out FILE]

Every feature case (experiments/features/features.json) through both of
twintile's front ends (feature_probe): accepted and computing its reference
in the interpreter, or refused; for a refusal, whether the message names the
line the case marks and whether it says what to write instead. The same
constructs in Triton (compiled to PTX) and in Pallas (traced and lowered to
Triton IR), where Python has them (experiments/baselines/*_features.py).
--quick: the same (the suite takes seconds).

A message "says what to write instead" when it names a replacement: it
contains one of the words `use`, `write`, `combine`, `negate`, `instead` or
names one of the language's operations (`tt::...`, `where(`). A heuristic
over the words, stated here so that the reader can apply it by hand.
"""
import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

SUGGESTS = re.compile(r"\b(use|write|combine|negate|instead)\b|tt::|\bwhere\(", re.I)


def judge(row):
    """The twintile row, with `as_expected`, `located` and `suggests`."""
    expected = row["expected"]
    if row["outcome"] == "accepted":
        row["as_expected"] = expected == "accepted" and row["correct"] is not False
    else:
        row["as_expected"] = expected != "accepted" and expected in row.get("message", "")
        row["located"] = row.get("line") == row.get("marked_line") and row.get("line", 0) > 0
        row["suggests"] = bool(SUGGESTS.search(row.get("message", "")))
    return row


def baseline(system):
    rows, err, _ = common.run_json_lines([common.venv_python(), str(common.BASELINES / "feature_probe.py"), system],
                                         check=False)
    if not rows:
        raise RuntimeError(f"feature_probe.py {system} failed: {err[-2000:]}")
    for r in rows:
        if r["outcome"] == "refused":
            r["suggests"] = bool(SUGGESTS.search(r.get("message", "")))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    features = json.loads((common.FEATURES / "features.json").read_text())["features"]
    progress = common.Progress(3, "expressiveness")
    progress.step(f"{len(features)} feature cases x 2 front ends (feature_probe)")
    rows, err, code = common.run_json_lines([common.tool("feature_probe"), str(common.FEATURES)])
    rows = [judge(r) for r in rows]
    missing, baselines = {}, []
    for system, module in (("triton", "triton"), ("pallas", "jax")):
        progress.step(f"the same constructs in {system}")
        if (why := common.baseline_missing(module)):
            missing[system] = why
            continue
        baselines += baseline(system)
    common.write_result("expressiveness", {"config": {"quick": args.quick, "features": len(features)},
                                           "missing": missing, "twintile": rows, "baselines": baselines}, args.out)
    bad = [r for r in rows if not r["as_expected"]]
    for r in bad:
        print(f"[expressiveness] {r['frontend']} {r['feature']}: not as features.json expects "
              f"({r['outcome']}, {r.get('message', '')[:120]})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
