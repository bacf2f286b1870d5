"""twintile's interpreter as the oracle the baselines are checked against.

`interpret(probe, spec, grid, args, work)` runs the corpus kernel `spec`
(experiments/kernels/<name>.cpp, parsing front end, cleaned up) in twintile's
reference interpreter through `interp_probe`, on the given buffers, and
returns every buffer as the kernel left it. `args` maps each parameter to a
NumPy array (a buffer, read raw in the parameter's element type) or a number.
"""
import json
import subprocess
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def interpret(probe, spec, grid, args, work):
    """({parameter: array after the run}, None), or (None, why the interpreter did not run)."""
    work = Path(work)
    name = spec.split("<")[0].strip()
    launch = {"file": str(ROOT / "experiments" / "kernels" / f"{name}.cpp"), "spec": spec, "grid": list(grid),
              "args": {}}
    for p, v in args.items():
        if isinstance(v, np.ndarray):
            v.tofile(work / f"{p}.bin")
            launch["args"][p] = {"in": str(work / f"{p}.bin"), "out": str(work / f"{p}.out.bin")}
        else:
            launch["args"][p] = v
    (work / "launch.json").write_text(json.dumps(launch))
    proc = subprocess.run([str(probe), str(work / "launch.json")], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, f"interp_probe failed: {proc.stderr.strip()[-500:]}"
    return {p: np.fromfile(work / f"{p}.out.bin", dtype=v.dtype).reshape(v.shape)
            for p, v in args.items() if isinstance(v, np.ndarray)}, None
