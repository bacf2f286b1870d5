"""A suite's share of its work, for running the suites as a cluster's job array.

`--shard I/N` (1 <= I <= N) gives shard I the I-th of N contiguous blocks of the suite's
units, in the order a whole run measures them: a corpus kernel (compile, codegen), a
real-world kernel (realworld), a tensor-core configuration (tensorcores), a CUTLASS
configuration (claims); the compile suite's sweep and its two scalings, and the claims
suite's projection, same-tile compiles, vectorize and instantiations parts, are one unit
each; expressiveness (seconds) and gpu (nothing measured) are one unit in all. A shard writes
experiments/results/shards/<suite>.<I>-of-<N>.json: the result a whole run writes, less
the rows of other shards' units, with

    "shard": {"index": I, "count": N, "units": [its units], "plan": [every unit]}

and `scripts/report --merge` joins the N files into <suite>.json (experiments/report/
shards.py). Blocks are contiguous so that the concatenation of the shards' rows, in
order, is the whole run's order within every list a unit's rows fill one after another.
A shard whose block is empty measures nothing and writes its config alone.
"""
import argparse
from dataclasses import dataclass

SHARDS = "shards"  # the folder under the results folder


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    def share(self, units):
        """The units of this shard: the index-th of count contiguous blocks of `units`."""
        units = list(units)
        lo = (self.index - 1) * len(units) // self.count
        hi = self.index * len(units) // self.count
        return units[lo:hi]

    def file_name(self, suite):
        return f"{suite}.{self.index}-of-{self.count}.json"

    def record(self, units):
        return {"index": self.index, "count": self.count, "units": self.share(units), "plan": list(units)}


def parse(text):
    """'I/N' -> Shard; argparse's type (a bad value is its error, with the usage)."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not I/N (for example 2/8)") from None
    if not 1 <= index <= count:
        raise argparse.ArgumentTypeError(f"'{text}': I/N needs 1 <= I <= N")
    return Shard(index, count)


def add_argument(ap):
    ap.add_argument("--shard", type=parse, metavar="I/N",
                    help="measure only the I-th of N contiguous blocks of this suite's units and write "
                         "experiments/results/shards/SUITE.I-of-N.json (scripts/report --merge joins them)")


def share(shard, units):
    """The units a run measures: all of them without --shard."""
    return shard.share(units) if shard else list(units)


def unit_major(rows, plan, unit_of):
    """`rows` stably sorted by their unit's place in `plan` (`unit_of(row)` names it): the order
    in which N shards' rows, concatenated, come out the same as one whole run's, whatever order
    the suite measured them in (repetitions outermost, one system after another). A row of no
    unit (None: a baseline process's own record) goes first; each shard has its own."""
    where = {u: i for i, u in enumerate(plan)}
    for r in rows:
        if unit_of(r) is not None and unit_of(r) not in where:
            raise ValueError(f"a row of unit {unit_of(r)!r}, which is not in the plan {plan}: {str(r)[:200]}")
    return sorted(rows, key=lambda r: -1 if unit_of(r) is None else where[unit_of(r)])


def kernel_of(row):
    """The corpus kernel of a row with a `spec` (softmax<f16,1024> -> softmax), or None."""
    return row["spec"].split("<")[0] if "spec" in row else None
