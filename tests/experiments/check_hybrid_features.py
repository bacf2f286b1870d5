#!/usr/bin/env python3
"""The hybrid front end on every feature case, as features.json expects.

    check_hybrid_features.py FEATURE_PROBE FEATURES_DIR

Runs `feature_probe FEATURES_DIR --frontend hybrid` and fails where a case
the file expects accepted is refused or does not compute its reference in
the interpreter, or where a case it expects refused is accepted, refused
with another message, or at another line than its `// hybrid-error` marker.
Prints the counts.
"""
import json
import subprocess
import sys


def main():
    probe, features = sys.argv[1], sys.argv[2]
    proc = subprocess.run([probe, features, "--frontend", "hybrid"], capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert rows, "feature_probe printed no rows"
    failures = []
    for r in rows:
        expected = r.get("expected")
        if expected is None:
            failures.append(f"{r['feature']}: features.json says nothing of the hybrid front end")
        elif r["outcome"] == "accepted" and expected != "accepted":
            failures.append(f"{r['feature']}: accepted, but features.json expects a refusal: {expected}")
        elif r["outcome"] == "accepted" and r["correct"] is not True:
            failures.append(f"{r['feature']}: accepted, but does not compute its reference ({r['correct']})")
        elif r["outcome"] == "refused" and (expected == "accepted" or expected not in r.get("message", "")):
            failures.append(f"{r['feature']}: refused ({r.get('message')}), but features.json expects: {expected}")
        elif r["outcome"] == "refused" and (not r.get("line") or r["line"] != r.get("marked_line")):
            failures.append(f"{r['feature']}: refused at line {r.get('line')}, marked {r.get('marked_line')}")
    accepted = [r["feature"] for r in rows if r["outcome"] == "accepted"]
    print(f"hybrid: {len(accepted)} of {len(rows)} feature cases accepted; refused: "
          + ", ".join(r["feature"] for r in rows if r["outcome"] != "accepted"))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
