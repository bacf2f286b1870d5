"""The systems the experiment compares: twintile's three front ends and what a reader would pick
instead. Each is named once here: the key its rows carry in the result files, its label and colour
in the tables and figures, the Python module a baseline needs (its absence is recorded under
`missing`, not fatal), and the program in experiments/baselines/ that compiles specializations with
it. Which corpus kernels a baseline covers is corpus.json's `baselines`."""
from dataclasses import dataclass

from experiments.harness import common


@dataclass(frozen=True)
class System:
    name: str
    label: str
    colour: str
    module: str | None = None  # the Python module the baseline imports
    program: str | None = None  # experiments/baselines/: SPEC... [options], one JSON line per result


SYSTEMS = {s.name: s for s in (
    System("twintile_parse", "twintile parse", "#1f77b4"),
    System("twintile_trace", "twintile trace", "#ff7f0e"),
    # The tracing front end with its kernel file compiled by a clang++ process (--trace-host clang++).
    System("twintile_trace_clang", "twintile trace (clang++)", "#ffbb78"),
    # The hybrid: the file parsed, its native device control flow rewritten into combinators, then traced.
    System("twintile_hybrid", "twintile hybrid", "#17becf"),
    System("triton", "Triton", "#2ca02c", module="triton", program="triton_compile.py"),
    System("nvcc", "nvcc", "#7f7f7f"),
    System("pallas", "Pallas", "#9467bd", module="jax", program="pallas_probe.py"),
    System("cute", "CuTe DSL", "#8c564b", module="cutlass", program="cute_compile.py"),
)}
LABELS = {name: s.label for name, s in SYSTEMS.items()}
COLORS = {name: s.colour for name, s in SYSTEMS.items()}


def missing(name):
    """Why Python baseline `name` cannot run here (its module does not import), or None."""
    module = SYSTEMS[name].module
    if module is None:
        raise ValueError(f"{name} is not a Python baseline")
    return common.baseline_missing(module)


def covered(name, specs):
    """The specializations of `specs` whose kernel baseline `name` has (corpus.json)."""
    kernels = {k["name"] for k in common.corpus_entries() if name in k["baselines"]}
    return [s for s in specs if s.split("<")[0] in kernels]


def run(name, args, check=True):
    """Baseline `name`'s program with `args` in the project's Python: the JSON objects it printed,
    its standard error and its exit code. With `check`, a run that printed nothing is an error."""
    program = SYSTEMS[name].program
    rows, err, code = common.run_json_lines([common.venv_python(), str(common.BASELINES / program), *map(str, args)],
                                            check=False)
    if check and not rows:
        raise RuntimeError(f"{program} failed: {err[-2000:]}")
    return rows, err, code
