#!/usr/bin/env python3
"""ptx_stats: instruction counts and ptxas resource usage for each kernel in PTX files.

For every .entry (and .func) of each PTX file: the number of PTX instructions in its body
(statements ending in ';' that are not directives, labels, comments or braces), counts of
selected opcodes (global/shared loads and stores and their vector widths, shfl.sync,
bar.sync, ex2.approx, ...), and, when ptxas is found, what `ptxas -v` reports: registers,
spill store/load bytes, stack frame bytes, shared memory bytes.

  ptx_stats.py a.ptx b.ptx [--json] [--arch sm_90a] [--no-ptxas] [--ptxas PATH]
  ptx_stats.py --compile-baselines OUTDIR [--json]   # nvcc -ptx every baselines/*.cu first

Tools: --ptxas / --nvcc, else $TWINTILE_PTXAS / $TWINTILE_NVCC, else the project's
.venv/lib/python3*/site-packages/nvidia/cu13/bin/, else PATH, else /usr/local/cuda/bin.
Standard library only. Exit status 1 if a compile or ptxas run failed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# Opcode keys counted for every function. A key matches an opcode whose first component
# equals the key's and that has all the key's other components, in any position:
# 'ld.global.v4' matches ld.global.v4.f32 and ld.global.nc.v4.u32; 'ex2.approx' matches
# ex2.approx.ftz.f32. barrier.* is counted as bar.*.
SELECTED = [
    "ld.global", "ld.global.nc", "ld.global.v2", "ld.global.v4", "ld.global.v8",
    "st.global", "st.global.v2", "st.global.v4", "st.global.v8",
    "ld.shared", "ld.shared.v4", "st.shared", "shfl.sync", "bar.sync",
    "ex2.approx", "rsqrt.approx", "rcp", "div", "sqrt", "fma", "cvt", "setp", "selp", "bra", "call",
    "wgmma.mma_async", "mma.sync", "ldmatrix", "stmatrix", "cp.async", "cp.async.bulk.tensor",
    "cp.async.bulk.tensor.bulk_group", "fence.proxy.async",
]
# Machine instructions of the tensor cores, counted by sass_stats: Hopper's warpgroup MMA
# (HGMMA; QGMMA for 8-bit floats) and the warp-wide one of Ampere's mma.sync (HMMA).
SASS_TENSOR_CORE = ("HGMMA", "QGMMA", "HMMA")

# Instruction classes, by the opcode's first component (and, for arithmetic, its type):
# every producer's PTX is classified by the same rule.
CLASSES = {
    "global memory": ("ld.global", "st.global", "atom.global", "red.global", "ld.global.nc", "cp.async.bulk"),
    "shared memory": ("ld.shared", "st.shared", "atom.shared", "cp.async", "ldmatrix", "stmatrix"),
    "tensor core": ("mma", "wgmma"),
    "sync and shuffle": ("bar", "barrier", "shfl", "membar", "fence", "vote"),
    "control": ("bra", "ret", "exit", "call", "trap", "brkpt"),
    "conversion": ("cvt", "cvta"),
    "compare and select": ("setp", "selp", "set"),
    "move": ("mov", "ld.param", "ld.const", "ld.local", "st.local", "prmt"),
}
FLOAT_TYPES = ("f16", "f16x2", "bf16", "bf16x2", "f32", "f64")


def instruction_class(op):
    """The class of one opcode: one of CLASSES, "float arithmetic" or "integer arithmetic"."""
    comps = op.split(".")
    for name, keys in CLASSES.items():
        for key in keys:
            kc = key.split(".")
            if comps[:len(kc)] == kc or (len(kc) > 1 and comps[0] == kc[0] and set(kc[1:]) <= set(comps[1:])):
                return name
    if comps[0] in ("ex2", "lg2", "rcp", "rsqrt", "sqrt", "sin", "cos", "tanh", "fma", "div") or \
            any(c in FLOAT_TYPES for c in comps[1:]):
        return "float arithmetic"
    return "integer arithmetic"


def class_counts(opcodes):
    """{class: count} from an opcode histogram."""
    counts = {}
    for op, n in opcodes.items():
        c = instruction_class(op)
        counts[c] = counts.get(c, 0) + n
    return dict(sorted(counts.items()))


ENTRY_RE = re.compile(r"\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$%]*)\s*\(")
LABEL_RE = re.compile(r"^[A-Za-z_$%][\w$%]*\s*:")


def strip_comments(text):
    """PTX without // and /* */ comments; string literals are kept as they are."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = text.find('"', i + 1)
            j = n if j < 0 else j + 1
            out.append(text[i:j])
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching(text, open_index, open_char, close_char):
    """Index of the bracket closing the one at open_index."""
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == open_char:
            depth += 1
        elif text[i] == close_char:
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced '{open_char}' at offset {open_index}")


def instructions(body):
    """The instruction statements of a function body, without guard predicates."""
    result = []
    for stmt in body.split(";")[:-1]:  # what follows the last ';' is a closing brace
        s = stmt.strip()
        while True:  # scope braces and labels may open a statement
            if s[:1] in ("{", "}"):
                s = s[1:].lstrip()
                continue
            m = LABEL_RE.match(s)
            if m:
                s = s[m.end():].lstrip()
                continue
            break
        if not s or s.startswith("."):  # empty, or a directive (.reg, .shared, .pragma, ...)
            continue
        result.append(s)
    return result


def opcode(instr):
    parts = instr.split()
    if parts[0].startswith("@"):
        parts = parts[1:]
    return parts[0] if parts else ""


def matches(key, op):
    kc, oc = key.split("."), op.split(".")
    if oc[0] == "barrier":
        oc[0] = "bar"
    return kc[0] == oc[0] and set(kc[1:]) <= set(oc[1:])


def access_bytes(op):
    """Bytes moved by one ld/st: vector width times element size."""
    comps = op.split(".")
    vec = next((int(c[1:]) for c in comps if re.fullmatch(r"v\d+", c)), 1)
    bits = re.search(r"(\d+)$", comps[-1])
    return vec * int(bits.group(1)) // 8 if bits else 0


# Debug-info directives that end at the line's end, without a ';' (`.loc 1 27 0`,
# `.file 1 "k.py"`): left in, they would swallow the instruction after them.
LINE_DIRECTIVE_RE = re.compile(r"^[ \t]*\.(loc|file)\b[^\n;]*$", re.M)


def parse_ptx(text):
    """[{name, kind, ntid, instructions, selected, global_access_bytes, opcodes}]."""
    text = LINE_DIRECTIVE_RE.sub("", strip_comments(text))
    functions, pos = [], 0
    while True:
        m = ENTRY_RE.search(text, pos)
        if not m:
            break
        params_end = matching(text, m.end() - 1, "(", ")")
        brace = text.find("{", params_end)
        semi = text.find(";", params_end)
        if brace < 0 or (0 <= semi < brace):  # a declaration (.extern .func ...;), no body
            pos = params_end + 1
            continue
        end = matching(text, brace, "{", "}")
        header, body = text[params_end + 1:brace], text[brace + 1:end]
        pos = end + 1
        instrs = instructions(body)
        ops = [opcode(i) for i in instrs]
        histogram = {}
        for op in ops:
            histogram[op] = histogram.get(op, 0) + 1
        widths = {"ld": {}, "st": {}}
        for op in ops:
            for kind in ("ld", "st"):
                if matches(kind + ".global", op):
                    b = str(access_bytes(op))
                    widths[kind][b] = widths[kind].get(b, 0) + 1
        ntid = re.search(r"\.(maxntid|reqntid)\s+([\d,\s]+)", header)
        functions.append({
            "name": m.group(2),
            "kind": m.group(1),
            # the block size declared: {"maxntid" or "reqntid": [x, y, z]}
            "ntid": {ntid.group(1): [int(v) for v in ntid.group(2).replace(",", " ").split()]} if ntid else None,
            "instructions": len(instrs),
            "selected": {k: sum(matches(k, op) for op in ops) for k in SELECTED},
            "global_access_bytes": {k: dict(sorted(v.items(), key=lambda kv: int(kv[0])))
                                    for k, v in widths.items()},
            "opcodes": dict(sorted(histogram.items())),
            "classes": class_counts(histogram),
        })
    return functions


PTXAS_PATTERNS = [
    (re.compile(r"(\d+) bytes stack frame"), "stack_frame_bytes"),
    (re.compile(r"(\d+) bytes spill stores"), "spill_store_bytes"),
    (re.compile(r"(\d+) bytes spill loads"), "spill_load_bytes"),
    (re.compile(r"Used (\d+) registers"), "registers"),
    (re.compile(r"used (\d+) barriers"), "barriers"),
    (re.compile(r"(\d+) bytes smem"), "smem_bytes"),
    (re.compile(r"(\d+) bytes cmem\[0\]"), "cmem0_bytes"),
]


SASS_LINE = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
SASS_LABEL = re.compile(r"^(\.L_x_\d+):")
SASS_FUNCTION = re.compile(r"^\.text\.(\S+):")
SELF_BRANCH = re.compile(r"BRA `\((\.L_x_\d+)\)$")


def sass_stats(nvdisasm, cubin):
    """{function name: {"sass_instructions", "peak_live_registers", "tensor_core_sass"}} from
    `nvdisasm --print-life-ranges` of a cubin, or {} if it cannot be read.
    Instructions: every one of the function, its subroutines (a division's
    slow path) too, but not the branch to itself ptxas puts after the last
    EXIT nor the NOPs that pad the function. Peak live registers: the most
    general registers ptxas's allocation holds live at one instruction (the
    life-range column; not at a CALL, where it counts the registers the
    callee may clobber), against which its register count shows how it
    named them."""
    try:
        proc = subprocess.run([nvdisasm, "-c", "--print-life-ranges", str(cubin)], capture_output=True, text=True)
        if proc.returncode == 0:
            return parse_sass(proc.stdout)
        # nvdisasm refuses life ranges of a function with 255 registers ("Invalid register count"):
        # the instructions still count, the peak is unknown (None).
        proc = subprocess.run([nvdisasm, "-c", str(cubin)], capture_output=True, text=True)
    except OSError:
        return {}
    if proc.returncode != 0:
        return {}
    stats = parse_sass(proc.stdout)
    for st in stats.values():
        st["peak_live_registers"] = None
    return stats


def parse_sass(listing):
    """sass_stats of the text of `nvdisasm -c --print-life-ranges`."""
    stats, current, here = {}, None, set()
    for line in listing.splitlines():
        m = SASS_FUNCTION.match(line)
        if m:
            current, here = m.group(1), set()
            stats[current] = {"sass_instructions": 0, "peak_live_registers": 0,
                              "tensor_core_sass": {op: 0 for op in SASS_TENSOR_CORE}}
            continue
        m = SASS_LABEL.match(line)
        if m:
            here.add(m.group(1))
            continue
        m = SASS_LINE.match(line)
        if not m or current is None:
            continue
        text, labels, here = m.group(1), here, set()
        live = re.search(r"// \|\s*(\d+)", line)
        if live and not text.startswith("CALL"):  # a call's column counts what the callee may clobber
            stats[current]["peak_live_registers"] = max(stats[current]["peak_live_registers"], int(live.group(1)))
        loop = SELF_BRANCH.fullmatch(text)
        if re.match(r"NOP\b", text) or (loop and loop.group(1) in labels):
            continue
        stats[current]["sass_instructions"] += 1
        op = re.match(r"(?:@!?U?P\w+\s+)?([A-Z0-9]+)", text)
        if op and op.group(1) in SASS_TENSOR_CORE:
            stats[current]["tensor_core_sass"][op.group(1)] += 1
    return stats


def run_ptxas(ptxas, arch, ptx_path, nvdisasm=None):
    """({function name: resource usage}, error text or None) from `ptxas -v`;
    with `nvdisasm`, each function's machine instructions and peak live
    registers too (see sass_stats)."""
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "out.cubin")
        try:
            proc = subprocess.run([ptxas, "-v", f"-arch={arch}", str(ptx_path), "-o", cubin],
                                  capture_output=True, text=True)
        except OSError as e:
            return {}, f"cannot run {ptxas}: {e}"
        sass = sass_stats(nvdisasm, cubin) if nvdisasm and proc.returncode == 0 else {}
    if proc.returncode != 0:
        return {}, (proc.stderr + proc.stdout).strip()
    usage, current = {}, None
    for line in (proc.stderr + proc.stdout).splitlines():
        m = re.search(r"Compiling entry function '([^']+)'|Function properties for (\S+)", line)
        if m:
            current = m.group(1) or m.group(2)
            usage.setdefault(current, {"registers": None, "stack_frame_bytes": None, "spill_store_bytes": None,
                                       "spill_load_bytes": None, "smem_bytes": 0, "barriers": None})
            continue
        if current is None:
            continue
        for pattern, key in PTXAS_PATTERNS:
            v = pattern.search(line)
            if v:
                usage[current][key] = int(v.group(1))
    for name, st in sass.items():
        if name in usage:
            usage[name].update(st)
    return usage, None


def find_tool(name, explicit, env_var):
    if explicit:
        return explicit
    if os.environ.get(env_var):
        return os.environ[env_var]
    for cand in sorted(ROOT.glob(f".venv/lib/python3*/site-packages/nvidia/cu13/bin/{name}")):
        if os.access(cand, os.X_OK):
            return str(cand)
    found = shutil.which(name)
    if found:
        return found
    cand = Path("/usr/local/cuda/bin") / name
    return str(cand) if cand.exists() else None


def compile_baselines(nvcc, arch, outdir, extra_flags):
    """nvcc -ptx every baselines/*.cu into outdir: [(source, ptx or None, seconds, error)]."""
    outdir.mkdir(parents=True, exist_ok=True)
    results = []
    for cu in sorted(HERE.glob("*.cu")):
        ptx = outdir / (cu.stem + ".ptx")
        cmd = [nvcc, "-ptx", f"-arch={arch}", *extra_flags, str(cu), "-o", str(ptx)]
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True)
            err = None if proc.returncode == 0 else (proc.stderr + proc.stdout).strip()
        except OSError as e:
            err = f"cannot run {nvcc}: {e}"
        seconds = time.perf_counter() - start
        results.append((cu, ptx if err is None else None, seconds, err))
    return results


def bytes_summary(hist):
    return " ".join(f"{b}Bx{n}" for b, n in hist.items())


def print_table(files):
    cols = ["kernel", "instrs", "ld.global", "st.global", "ld/st.shared", "shfl", "bar", "ex2",
            "regs", "spill st/ld", "stack", "smem"]
    rows = []
    for f in files:
        for fn in f["functions"]:
            s, p = fn["selected"], fn.get("ptxas") or {}
            g = fn["global_access_bytes"]

            def val(key):
                v = p.get(key)
                return "-" if v is None else str(v)

            rows.append([
                fn["name"] + ("" if fn["kind"] == "entry" else " (func)"),
                str(fn["instructions"]),
                f"{s['ld.global']} [{bytes_summary(g['ld'])}]" if s["ld.global"] else "0",
                f"{s['st.global']} [{bytes_summary(g['st'])}]" if s["st.global"] else "0",
                f"{s['ld.shared']}/{s['st.shared']}",
                str(s["shfl.sync"]), str(s["bar.sync"]), str(s["ex2.approx"]),
                val("registers"), f"{val('spill_store_bytes')}/{val('spill_load_bytes')}",
                val("stack_frame_bytes"), val("smem_bytes"),
            ])
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(cols)]
    fmt = lambda r: "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths)))
    for f in files:
        line = f"# {f['ptx']}"
        if f.get("source"):
            line += f"  (from {f['source']}, nvcc {f['nvcc_seconds']:.2f} s)"
        print(line)
    print(fmt(cols))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(fmt(r))
    print("ld/st.global: count [bytes per access x count]; spills, stack, smem in bytes; "
          "'-': not measured (ptxas not run, or failed)")


def main(argv=None):
    summary, _, details = __doc__.partition("\n\n")
    ap = argparse.ArgumentParser(description=summary, epilog=details,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ptx", nargs="*", type=Path, help="PTX files to measure")
    ap.add_argument("--compile-baselines", metavar="OUTDIR", type=Path,
                    help="first run nvcc -ptx on every experiments/baselines/*.cu into OUTDIR")
    ap.add_argument("--arch", default="sm_90a", help="target for nvcc and ptxas (default sm_90a)")
    ap.add_argument("--ptxas", help="ptxas to run (default: $TWINTILE_PTXAS, the .venv, PATH)")
    ap.add_argument("--nvcc", help="nvcc to run (default: $TWINTILE_NVCC, the .venv, PATH)")
    ap.add_argument("--nvcc-flag", action="append", default=[], help="extra nvcc flag (repeatable)")
    ap.add_argument("--no-ptxas", action="store_true", help="count PTX only, do not run ptxas")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    if not args.ptx and not args.compile_baselines:
        ap.error("give PTX files or --compile-baselines OUTDIR")

    failed = False
    inputs = [(p, None, None) for p in args.ptx]  # (ptx, source, nvcc seconds)
    nvcc = None
    if args.compile_baselines:
        nvcc = find_tool("nvcc", args.nvcc, "TWINTILE_NVCC")
        if not nvcc:
            print("ptx_stats: nvcc not found (use --nvcc or TWINTILE_NVCC)", file=sys.stderr)
            return 1
        for cu, ptx, seconds, err in compile_baselines(nvcc, args.arch, args.compile_baselines, args.nvcc_flag):
            if err:
                failed = True
                print(f"ptx_stats: nvcc failed on {cu}:\n{err}", file=sys.stderr)
            else:
                inputs.append((ptx, cu, seconds))

    ptxas = None if args.no_ptxas else find_tool("ptxas", args.ptxas, "TWINTILE_PTXAS")
    if not args.no_ptxas and not ptxas:
        print("ptx_stats: ptxas not found (use --ptxas or TWINTILE_PTXAS): resources not measured",
              file=sys.stderr)

    files = []
    for ptx, source, seconds in inputs:
        functions = parse_ptx(Path(ptx).read_text())
        record = {"ptx": str(ptx), "source": str(source) if source else None, "nvcc_seconds": seconds,
                  "functions": functions}
        if ptxas:
            usage, err = run_ptxas(ptxas, args.arch, ptx)
            if err:
                failed = True
                record["ptxas_error"] = err
                print(f"ptx_stats: ptxas failed on {ptx}:\n{err}", file=sys.stderr)
            for fn in functions:
                fn["ptxas"] = usage.get(fn["name"])
        files.append(record)

    if args.json:
        json.dump({"arch": args.arch, "nvcc": nvcc, "ptxas": ptxas, "files": files}, sys.stdout, indent=2)
        print()
    else:
        print_table(files)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
