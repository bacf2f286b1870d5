"""The real-world corpus's manifest, experiments/realworld/kernels.json.

Each kernel entry names its upstream kernel (the pip distribution `library`,
the file `module` inside site-packages, the @triton.jit `function`), the
twintile port as written (`file`, and the specialization `kernel`: the
upstream meta-parameters as template arguments), the launch both run (`grid`,
`num_warps`, the upstream kernel's keyword meta-parameters `constexprs`, and
`args`: every runtime parameter in order, a buffer with its element type,
count and `init`, or a scalar with its type and value), and, for each front
end that refuses the port as written, the `rewritten` file it accepts and
`why`: the categories of what forced the change (a list), and `detail`:
what it was, in a sentence. README.md beside this says
how to add one. Standard library only.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "kernels.json"
FRONTENDS = ("parse", "trace", "hybrid")
# What forced a rewrite, as an entry's "why" names it.
CATEGORIES = ("native device control flow", "type promotion", "missing call", "scalar and 0-d tile",
              "C++ limit", "other")
REQUIRED = ("name", "library", "module", "function", "file", "kernel", "grid", "args")


def load(path=MANIFEST):
    """The entries of the manifest at `path`, each with "dir", the folder its files are in."""
    path = Path(path)
    entries = json.loads(path.read_text())["kernels"]
    for e in entries:
        e["dir"] = str(path.resolve().parent)
    return entries


def problems(entries):
    """What is wrong with the entries, one sentence each (nothing: they are sound)."""
    out = []
    names = set()
    for e in entries:
        where = e.get("name", "?")
        if where in names:
            out.append(f"kernel {where} is listed twice")
        names.add(where)
        out += [f"kernel {where} has no '{key}'" for key in REQUIRED if key not in e]
        files = [e.get("file")] + list(e.get("rewritten", {}).values())
        out += [f"kernel {where}: file {f} is missing" for f in files if f and not (Path(e["dir"]) / f).exists()]
        for frontend in e.get("rewritten", {}):
            if frontend not in FRONTENDS:
                out.append(f"kernel {where}: '{frontend}' is not a front end")
            whys = e.get("why", {}).get(frontend)
            if not whys or not isinstance(whys, list):
                out.append(f"kernel {where}: the {frontend} rewrite needs 'why', a list of categories")
                continue
            out += [f"kernel {where}: '{c}' is not a category ({', '.join(CATEGORIES)})"
                    for c in whys or [] if c not in CATEGORIES]
        for a in e.get("args", []):
            if ("buffer" in a) == ("scalar" in a):
                out.append(f"kernel {where}: argument {a.get('name', '?')} must be a buffer or a scalar")
    return out


def load_checked(path=MANIFEST):
    """load(), exiting with every problem named if the manifest is not sound."""
    entries = load(path)
    bad = problems(entries)
    if bad:
        sys.exit(f"{path}:\n  " + "\n  ".join(bad))
    return entries
