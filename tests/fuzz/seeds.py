#!/usr/bin/env python3
"""Writes the seed inputs of one fuzz target into a directory.

    seeds.py TARGET OUT_DIR [--twintile BIN] [--small]

TARGET is ir, ptx, parse or trace. The seeds come from the repository:

  ir     tests/lit/**/*.tir, and (with --twintile) the tile IR of every
         corpus kernel's first specialization
  ptx    tests/runtime/ptx/*.ptx, and (with --twintile) each corpus
         kernel's PTX
  parse  the corpus kernels, the feature cases and the lit tests' kernel
  trace  files, each as one input: a first line "// spec: KERNEL<ARGS>",
         then the file (the harness compiles that specialization); those
         that must compile say so on a second line, "// fuzz-expect:
         compiled", which the replay holds them to

--small keeps only the corpus kernels (the trace target compiles each input
on the host: ~1 s an input). Kept findings (tests/fuzz/regressions/TARGET)
are not seeds: the replay test reads them from where they are.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNELS = ROOT / "experiments" / "kernels"
FEATURES = ROOT / "experiments" / "features"


def corpus():
    """(file, first specialization) of every corpus kernel."""
    listing = json.loads((KERNELS / "corpus.json").read_text())
    return [(KERNELS / k["file"], k["specializations"][0]) for k in listing["kernels"]]


def feature_table():
    return {f["name"]: f for f in json.loads((FEATURES / "features.json").read_text())["features"]}


def features():
    return [(FEATURES / (name + ".cpp"), f["kernel"]) for name, f in feature_table().items()]


def lit_kernels():
    """Lit tests' kernel files with the first --kernel their RUN lines name,
    but not those that do not run under the sanitizers (`UNSUPPORTED:
    asan`), with which the targets are built: such a file is too slow there
    (shared_walk_limit.cpp's walk of seconds, by design, took over libFuzzer's
    minute) or needs what they reserve (stack_unavailable.cpp)."""
    out = []
    for path in sorted((ROOT / "tests" / "lit").rglob("*.cpp")):
        text = path.read_text()
        if re.search(r"^// UNSUPPORTED:.*\basan\b", text, re.M):
            continue
        m = re.search(r"--kernel[ =]'([^']+)'|--kernel[ =]([A-Za-z_][\w:]*)", text)
        if m:
            out.append((path, m.group(1) or m.group(2)))
    return out


def source_seeds(frontend, small):
    """Corpus kernels and the feature cases this front end accepts must
    compile when replayed: their second line says so."""
    accepted = {name for name, f in feature_table().items() if f[frontend] == "accepted"}
    cases = [(p, s, True) for p, s in corpus()]
    if not small:
        cases += [(p, s, p.stem in accepted) for p, s in features()] + [(p, s, False) for p, s in lit_kernels()]
    for path, spec, must in cases:
        name = str(path.relative_to(ROOT)).replace("/", "_")
        expect = "// fuzz-expect: compiled\n" if must else ""
        yield name, f"// spec: {spec}\n" + expect + path.read_text()


def compiled(twintile, emit):
    """Each corpus kernel's first specialization at stage `emit` (parse front end)."""
    for path, spec in corpus():
        with tempfile.TemporaryDirectory() as tmp:  # -o's file, and the manifest beside it
            out = pathlib.Path(tmp) / f"kernel.{emit}"
            r = subprocess.run([twintile, "compile", "--frontend", "parse", str(path), "--kernel", spec,
                                "--emit", emit, "-o", str(out)], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"seeds.py: {spec} does not compile:\n{r.stderr}")
            yield f"{path.stem}.{emit}", out.read_text()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("target", choices=["ir", "ptx", "parse", "trace"])
    p.add_argument("out", type=pathlib.Path)
    p.add_argument("--twintile", help="the driver, to add the corpus kernels' IR or PTX")
    p.add_argument("--small", action="store_true", help="the corpus kernels only")
    a = p.parse_args()
    seeds = []
    if a.target == "ir":
        seeds += [(f"lit-{t.stem}.tir", t.read_text()) for t in sorted((ROOT / "tests" / "lit").rglob("*.tir"))]
        if a.twintile:
            seeds += list(compiled(a.twintile, "tile"))
    elif a.target == "ptx":
        seeds += [(t.name, t.read_text()) for t in sorted((ROOT / "tests" / "runtime" / "ptx").glob("*.ptx"))]
        if a.twintile:
            seeds += list(compiled(a.twintile, "ptx"))
    else:
        seeds += list(source_seeds(a.target, a.small))
    a.out.mkdir(parents=True, exist_ok=True)
    for name, text in seeds:
        (a.out / name).write_text(text)
    print(f"seeds.py: {len(seeds)} {a.target} seeds in {a.out}")


if __name__ == "__main__":
    main()
