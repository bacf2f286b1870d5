#!/usr/bin/env python3
"""The hybrid front end on every feature case: what it accepts is right.

    check_hybrid_features.py FEATURE_PROBE FEATURES_DIR

Runs `feature_probe FEATURES_DIR --frontend hybrid` and fails where an
accepted case does not compute its reference in the interpreter, where a
refusal has no line, or where a case of native device control flow the
rewrite handles (NATIVE) is refused. Prints the counts.
"""
import json
import subprocess
import sys

# The native device control flow the hybrid front end rewrites: accepted, and right.
NATIVE = ["native_if", "native_if_no_else", "native_for", "native_while", "native_break", "native_continue",
          "native_break_while", "native_nested_break", "early_return_device", "ternary_device", "block_scope"]


def main():
    probe, features = sys.argv[1], sys.argv[2]
    proc = subprocess.run([probe, features, "--frontend", "hybrid"], capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert rows, "feature_probe printed no rows"
    failures = []
    for r in rows:
        if r["outcome"] == "accepted" and r["correct"] is False:
            failures.append(f"{r['feature']}: accepted, but does not compute its reference")
        if r["outcome"] == "refused" and not r.get("line"):
            failures.append(f"{r['feature']}: refused without a line: {r.get('message')}")
        if r["feature"] in NATIVE and r["outcome"] != "accepted":
            failures.append(f"{r['feature']}: refused: {r.get('message')}")
    accepted = [r["feature"] for r in rows if r["outcome"] == "accepted"]
    print(f"hybrid: {len(accepted)} of {len(rows)} feature cases accepted; refused: "
          + ", ".join(r["feature"] for r in rows if r["outcome"] != "accepted"))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
