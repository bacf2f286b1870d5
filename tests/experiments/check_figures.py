#!/usr/bin/env python3
"""scripts/report draws every figure from the recorded results (needs matplotlib).

    check_figures.py OUTDIR
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
WANT = ["codegen_ratios.png", "codegen_ratios_precise.png", "compile_phases.png", "compile_sweep.png", "expressiveness.png",
        "realworld.png", "scaling_specs.png", "scaling_stages.png"]

out = Path(sys.argv[1])
proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "report"), "--results", str(FIXTURES), "--out", str(out)],
                      capture_output=True, text=True)
print(proc.stdout, proc.stderr)
bad = [] if proc.returncode == 0 else [f"scripts/report exited {proc.returncode}"]
for name in WANT:
    path = out / "figures" / name
    if not path.exists():
        bad.append(f"{name} was not drawn")
    elif path.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n" or path.stat().st_size < 5000:
        bad.append(f"{name} is not a PNG with a plot in it ({path.stat().st_size} bytes)")
for b in bad:
    print("FAIL:", b)
print(f"{len(WANT) - len(bad)} passed, {len(bad)} failed")
sys.exit(1 if bad else 0)
