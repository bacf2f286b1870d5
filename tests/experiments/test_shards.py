"""Sharding the suites (experiments/harness/shard.py) and joining the shards
(experiments/report/shards.py): the blocks, the order, and every refusal of the join."""
import argparse
import copy
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from experiments.harness import shard as H  # noqa: E402  (run from the repository's root: ctest does)
from experiments.report import shards as S  # noqa: E402


def shard_record(suite, index, count, plan, rows, commit="c0", config=None, **extra):
    return {"suite": suite, "environment": {"git_commit": commit, "host": f"node{index}", "date": "d",
                                            "load_average": [index], "cpu": "x"},
            "config": config or {"quick": False}, "rows": rows, **extra,
            "shard": H.Shard(index, count).record(plan)}


def split(record, count, plan, unit_of, fields):
    """The shards a suite would have written: each shard's units' rows of `fields`."""
    out = []
    for i in range(1, count + 1):
        s = H.Shard(i, count)
        mine = set(s.share(plan))
        r = copy.deepcopy(record)
        for f in fields:
            r[f] = [x for x in record[f] if unit_of(x) in mine or unit_of(x) is None]  # each its own process rows
        r["shard"] = s.record(plan)
        r["environment"]["host"] = f"node{i}"
        out.append(r)
    return out


class Blocks(unittest.TestCase):
    def test_the_shares_are_the_plan_in_order_each_unit_once(self):
        for n_units in range(0, 12):
            plan = [f"u{i}" for i in range(n_units)]
            for count in range(1, 9):
                shares = [H.Shard(i, count).share(plan) for i in range(1, count + 1)]
                self.assertEqual([u for s in shares for u in s], plan)
                self.assertLessEqual(max(map(len, shares)) - min(map(len, shares)), 1)

    def test_parse(self):
        self.assertEqual(H.parse("2/8"), H.Shard(2, 8))
        for bad in ("0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3"):
            with self.assertRaises(argparse.ArgumentTypeError, msg=bad):
                H.parse(bad)

    def test_unit_major_keeps_each_units_order_and_puts_unitless_rows_first(self):
        rows = [{"spec": "b<1>", "n": 0}, {"spec": "a<1>", "n": 1}, {"p": 1}, {"spec": "b<2>", "n": 2},
                {"spec": "a<2>", "n": 3}]
        got = H.unit_major(rows, ["a", "b"], H.kernel_of)
        self.assertEqual([r.get("n") for r in got], [None, 1, 3, 0, 2])
        with self.assertRaisesRegex(ValueError, "not in the plan"):
            H.unit_major([{"spec": "c<1>"}], ["a", "b"], H.kernel_of)


class Join(unittest.TestCase):
    plan = ["a", "b", "c"]

    def records(self, count=2, **kw):
        rows = [{"spec": f"{u}<{i}>"} for u in self.plan for i in range(2)]
        whole = shard_record("codegen", 1, 1, self.plan, rows, **kw)
        return split(whole, count, self.plan, H.kernel_of, ["rows"])

    def test_joined_rows_are_the_whole_runs(self):
        for count in (1, 2, 3, 5):
            records = self.records(count)
            merged = S.merge(list(reversed(records)))  # any order in, shard order out
            self.assertEqual(merged["rows"], [{"spec": f"{u}<{i}>"} for u in self.plan for i in range(2)])
            self.assertEqual([s["index"] for s in merged["environment"]["shards"]], list(range(1, count + 1)))
            self.assertNotIn("shard", merged)

    def test_the_environment_is_the_first_measuring_shards(self):
        merged = S.merge(self.records(5))  # 3 units over 5 shards: shard 1 measures nothing
        self.assertEqual(merged["environment"]["host"], "node2")

    def test_refusals(self):
        cases = {
            "lacks": (lambda rs: rs[:1], r"1/2|not 1/2 to 2/2"),
            "twice": (lambda rs: rs + rs[1:], "each once"),
            "commits": (lambda rs: [rs[0], {**rs[1], "environment": {**rs[1]["environment"], "git_commit": "c1"}}],
                        "different commits"),
            "configs": (lambda rs: [rs[0], {**rs[1], "config": {"quick": True}}], "different configs"),
            "plans": (lambda rs: [rs[0], {**rs[1], "shard": {**rs[1]["shard"], "plan": ["a", "b"]}}],
                      "different units"),
            "disagree": (lambda rs: [{**rs[0], "triton": "3.9"}, {**rs[1], "triton": "3.6"}],
                         "disagree on triton"),
            "missing on one": (lambda rs: [{**rs[0], "missing": {"triton": "not installed"}}, {**rs[1], "missing": {}}],
                               r"disagree on missing: some have \['triton'\]"),
            "nested": (lambda rs: [{**rs[0], "libraries": {"a": "1"}}, {**rs[1], "libraries": {"a": "2"}}],
                       "disagree on libraries.a"),
            "not a shard": (lambda rs: [rs[0], {k: v for k, v in rs[1].items() if k != "shard"}], "not a shard"),
            "other suite": (lambda rs: [rs[0], {**rs[1], "suite": "compile"}], "not all shards"),
        }
        for name, (damage, message) in cases.items():
            with self.subTest(name), self.assertRaisesRegex(S.MergeError, message):
                S.merge(damage(self.records()))

    def test_directory(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            for r in self.records(3):
                (d / f"codegen.{r['shard']['index']}-of-3.json").write_text(json.dumps(r))
            (suite, merged), = S.merge_directory(d)
            self.assertEqual((suite, len(merged["rows"])), ("codegen", 6))
            (d / "codegen.1-of-2.json").write_text("{}")
            with self.assertRaisesRegex(S.MergeError, "shards of 2 runs"):
                S.merge_directory(d)
            (d / "codegen.1-of-2.json").unlink()
            (d / "codegen.2-of-3.json").unlink()
            with self.assertRaisesRegex(S.MergeError, "lacks shard.*2/3"):
                S.merge_directory(d)
            (d / "codegen.2-of-3.json").write_text("{not json")
            with self.assertRaisesRegex(S.MergeError, "not a result file"):
                S.merge_directory(d)


class RecordedResults(unittest.TestCase):
    """The committed results, cut as the suites cut them and joined: the report says the same."""

    def test_codegen(self):
        codegen = json.loads((ROOT / "experiments/results/codegen.json").read_text())
        plan = codegen["config"]["kernels"]
        for f in ("rows", "dynamic", "triton_checks"):
            codegen[f] = H.unit_major(codegen[f], plan, H.kernel_of)
        for count in (2, 4, len(plan) + 1):
            merged = S.merge(split(codegen, count, plan, H.kernel_of, ["rows", "dynamic", "triton_checks"]))
            for f in ("rows", "dynamic", "triton_checks", "config", "missing"):
                self.assertEqual(merged[f], codegen[f], f"{f} over {count} shards")

    def test_compile_phases_with_a_process_record_per_shard(self):
        compile_ = json.loads((ROOT / "experiments/results/compile.json").read_text())
        plan = compile_["config"]["kernels"]
        phases = {k: H.unit_major(v, plan, H.kernel_of) for k, v in compile_["phases"].items()}
        record = {**{k: v for k, v in compile_.items() if k not in ("sweep", "scaling_stages", "scaling_specs")},
                  "triton": phases["triton"], "twintile": phases["twintile"]}
        merged = S.merge(split(record, 3, plan, H.kernel_of, ["triton", "twintile"]))
        self.assertEqual(merged["twintile"], phases["twintile"])
        self.assertEqual([r for r in merged["triton"] if "spec" in r], [r for r in phases["triton"] if "spec" in r])
        self.assertEqual(sum("process" in r for r in merged["triton"]), 3)

    def test_report_from_joined_shards(self):
        """scripts/report --merge on shards of the committed realworld results: the same tables."""
        rw = json.loads((ROOT / "experiments/results/realworld.json").read_text())
        plan = [k["name"] for k in rw["kernels"]]
        fields = ["compile", "upstream_compile", "codegen", "profile", "kernels", "rows"]
        name = lambda r: r["name"]  # noqa: E731
        for f in fields:
            rw[f] = H.unit_major(rw[f], plan, name)
        rw["needless_rewrites"] = []
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            (d / "whole").mkdir()
            (d / "whole" / "realworld.json").write_text(json.dumps(rw))
            (d / "split" / "shards").mkdir(parents=True)
            for r in split(rw, 3, plan, name, fields):
                r["needless_rewrites"] = []
                (d / "split" / "shards" / f"realworld.{r['shard']['index']}-of-3.json").write_text(json.dumps(r))
            outs = []
            for which, extra in (("whole", []), ("split", ["--merge"])):
                proc = subprocess.run([sys.executable, "scripts/report", "--results", d / which, "--out",
                                       d / which / "paper", "--no-figures", *extra], capture_output=True, text=True,
                                      cwd=ROOT)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                outs.append({p.name: p.read_text() for p in (d / which / "paper" / "tables").glob("realworld*.md")})
            self.assertTrue(outs[0])
            self.assertEqual(outs[0], outs[1])


if __name__ == "__main__":
    unittest.main()
