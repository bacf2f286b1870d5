"""The report's generators on small recorded result files (tests/experiments/fixtures/).

Each expected figure is recomputed here from the fixture's raw samples, by
hand, and looked for in what scripts/report generates.
"""
import copy
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
from experiments.report import facts as F  # noqa: E402  (run from the repository's root: ctest does)
from experiments.report import paper as P  # noqa: E402
from experiments.report import results as R  # noqa: E402
from experiments.report import tables as T  # noqa: E402


def load(name):
    return json.loads((FIXTURES / f"{name}.json").read_text())


class TensorCores(unittest.TestCase):
    def setUp(self):
        self.tc = load("tensorcores")

    def test_the_table_pairs_twintile_with_triton_per_configuration(self):
        text = T.tensorcores(self.tc)
        rows = [r for r in self.tc["rows"] if r["producer"] == "twintile"]
        self.assertEqual(text.count("| `matmul<"), len(rows))
        for r in rows:
            theirs = next(t for t in self.tc["rows"] if t["producer"] == "triton" and
                          all(t[k] == r[k] for k in ("spec", "warps", "stages", "arch", "variant")))
            self.assertIn(f"{r['instructions']} / {theirs['instructions']}", text)
            self.assertIn(f"{r['ptxas']['registers']} / {theirs['ptxas']['registers']}", text)
        self.assertIn("wgmma 8 / wgmma 8", text)
        self.assertIn("mma.sync 64 / mma.sync 64", text)

    def test_the_facts_count_from_the_rows(self):
        f = F.tensorcore_facts(self.tc)
        hopper = [r for r in self.tc["rows"] if r["arch"] == "sm_90a" and r["variant"] == "assumed"]
        ours = [r for r in hopper if r["producer"] == "twintile"]
        theirs = [r for r in hopper if r["producer"] == "triton"]
        self.assertEqual(f["tc_hopper"], str(len(ours)))
        self.assertEqual(f["tc_hopper_wgmma"], str(sum(r["ptx_ops"]["wgmma.mma_async"] > 0 for r in ours)))
        ratio = ours[0]["instructions"] / theirs[0]["instructions"]
        self.assertEqual(f["tc_hopper_instr_ratio"], f"{ratio:.2f}×")
        self.assertEqual(f["tc_hopper_regs_ok"], str(int(ours[0]["ptxas"]["registers"] <= theirs[0]["ptxas"]["registers"])))
        spilled = sum(r["ptxas"]["spill_store_bytes"] + r["ptxas"]["spill_load_bytes"] == 0 for r in ours)
        self.assertEqual(f["tc_hopper_nospill"], str(spilled))

    def test_without_results_the_facts_read_n_a(self):
        f = F.tensorcore_facts({})
        self.assertTrue(all(v == F.NA for v in f.values()))


class SweepAndPhases(unittest.TestCase):
    def setUp(self):
        self.c = load("compile")

    def test_sweep_ratio_is_nvcc_median_over_the_systems(self):
        s = self.c["sweep"]["samples"]
        ratio = statistics.median(s["nvcc"]) / statistics.median(s["twintile_parse_one_process"])
        facts = F.compile_facts(self.c)
        self.assertEqual(facts["nvcc_over_parse_one"], f"{ratio:.1f}×")
        table = T.compile_sweep(self.c)
        self.assertIn(f"| {ratio:.2f}× |", table)
        self.assertIn(f"{statistics.median(s['twintile_trace']):.3f}", table)

    def test_phase_table_holds_each_phase_median(self):
        rows = [x for x in self.c["phases"]["twintile"] if x["system"] == "parse"]
        spec = rows[0]["spec"]
        parse_ms = statistics.median(x["parse_s"] for x in rows if x["spec"] == spec) * 1e3
        walk_ms = statistics.median(x["walk_s"] for x in rows if x["spec"] == spec) * 1e3
        line = next(l for l in T.compile_frontends(self.c).splitlines() if l.startswith(f"| `{spec}`"))
        self.assertIn(T.ms(parse_ms / 1e3), line)
        self.assertIn(T.ms(walk_ms / 1e3), line)

    def test_scaling_slope_is_the_log_log_growth(self):
        import math
        pts = R.scaling_summary(self.c["scaling_specs"])["twintile_trace"]
        (s0, _, t0), (s1, _, t1) = pts[0], pts[-1]
        self.assertAlmostEqual(R.growth(pts), math.log(t1 / t0) / math.log(s1 / s0))
        # The trace front end compiles the file once per specialization: it grows.
        self.assertGreater(R.growth(pts), 0.3)

    def test_a_missing_baseline_is_said_in_the_table(self):
        c = copy.deepcopy(self.c)
        c["missing"] = {"triton": "triton cannot be imported"}
        self.assertIn("*triton missing from this run: triton cannot be imported.*", T.compile_sweep(c))


class CodegenAndExpressiveness(unittest.TestCase):
    def test_codegen_table_rows_are_the_measured_ptx(self):
        cg = load("codegen")
        row = next(r for r in cg["rows"] if r["producer"] == "twintile_parse" and r["variant"] == "assumed"
                   and r["arch"] == "sm_90a")
        line = next(l for l in T.codegen(cg).splitlines() if l.startswith(f"| `{row['spec']}`"))
        self.assertIn(f"{row['instructions']} / {row['ptxas']['registers']}", line)

    def test_the_triton_checks_are_reported(self):
        cg = load("codegen")
        ok = sum(c["check"] == "ok" for c in cg["triton_checks"])
        self.assertGreater(ok, 0)
        self.assertIn(f"{ok} of {len(cg['triton_checks'])} agree", T.codegen(cg))
        bad = copy.deepcopy(cg)
        bad["triton_checks"][0]["check"] = "out: 3 of 9 elements differ"
        self.assertIn(f"1 differ ({bad['triton_checks'][0]['spec']})", T.codegen(bad))

    def test_the_dynamic_counts_table(self):
        cg = load("codegen")
        d = next(x for x in cg["dynamic"] if x["variant"] == "assumed")
        p = d["profile"]
        line = next(l for l in T.codegen_dynamic(cg).splitlines() if l.startswith(f"| `{d['spec']}` | assumed"))
        self.assertIn(f"| {sum(p['warp_instructions'].values())} | {p['global_requests']} | {p['global_sectors']} |",
                      line)

    def test_expressiveness_counts(self):
        ex = load("expressiveness")
        accepted = sum(1 for r in ex["twintile"] if r["frontend"] == "trace" and r["outcome"] == "accepted")
        self.assertEqual(F.expressiveness_facts(ex)["twintile_trace_accepted"], str(accepted))
        refused = [r for r in ex["twintile"] if r["frontend"] == "parse" and r["outcome"] == "refused"]
        self.assertIn(f"{sum(r['located'] for r in refused)}/{len(refused)}", T.expressiveness(ex))

    def test_following_the_message(self):
        """Whether following a refusal's message worked: counted from each refusal's `followed`, per front
        end and together, in the facts, the summary table and the table of refusals that did not work."""
        ex = load("expressiveness")
        f, table = F.expressiveness_facts(ex), T.expressiveness(ex)
        refused = [r for r in ex["twintile"] if r["outcome"] == "refused"]
        self.assertTrue({"right", "refused", "wrong", "no advice"} <= {r["followed"] for r in refused})
        for fe in ("parse", "trace"):
            mine = [r for r in refused if r["frontend"] == fe]
            right = sum(r["followed"] == "right" for r in mine)
            self.assertEqual(f[f"twintile_{fe}_followed_right"], str(right))
            self.assertEqual(f[f"twintile_{fe}_followed_unsaid"],
                             str(sum(r["followed"] == "right" and "unsaid" in r for r in mine)))
            counts = [sum(r["followed"] == v for r in mine) for v in ("refused", "wrong", "no advice")]
            self.assertIn(f"| {len(mine)}/{len(mine)} | {right}/{len(mine)} | " + " | ".join(map(str, counts)) + " |",
                          table)
        self.assertEqual(f["refused_all"], str(len(refused)))
        self.assertEqual(f["followed_right_all"], str(sum(r["followed"] == "right" for r in refused)))
        self.assertEqual(f["no_advice_all"], str(sum(r["followed"] == "no advice" for r in refused)))
        self.assertEqual(f["triton_followed_right"], F.NA)  # the baselines' refusals are not followed
        self.assertIn("| Triton | ", next(l for l in table.splitlines() if l.startswith("| Triton | ")))
        self.assertTrue(next(l for l in table.splitlines() if l.startswith("| Triton | ")).endswith("| – | – | – | – |"))
        below = table.split("did not work")[1]
        for r in refused:
            line = next((l for l in below.splitlines() if f"| `{r['feature']}` |" in l and
                         l.startswith(f"| twintile {r['frontend']} |")), None)
            self.assertEqual(line is None, r["followed"] == "right", r["feature"])
            if r.get("fix_message"):
                self.assertIn(r["fix_message"].replace("|", "\\|"), line)
        # A result file from before the measure: not followed, said as NA, never counted as 0.
        old = copy.deepcopy(ex)
        for r in old["twintile"]:
            r.pop("followed", None)
        self.assertEqual(F.expressiveness_facts(old)["twintile_trace_followed_right"], F.NA)
        self.assertEqual(F.expressiveness_facts(old)["followed_right_all"], F.NA)
        self.assertNotIn("did not work", T.expressiveness(old))

    def test_no_gpu_run_is_said(self):
        self.assertIn("No GPU run has been recorded", T.gpu(load("gpu")))

    def test_realworld_counts_and_marks(self):
        def row(name, frontend, variant, outcome, check=None, line=None):
            return {"name": name, "frontend": frontend, "variant": variant, "outcome": outcome, "check": check,
                    "line": line}
        rw = {"libraries": {"liger-kernel": "0.8.5"}, "triton": "3.9.0", "missing": {},
              "kernels": [{"name": "a", "library": "liger-kernel", "function": "fa", "lines": 10, "rewrites": {
                  "trace": {"added": 3, "removed": 2, "why": ["native device control flow"]}}},
                          {"name": "b", "library": "liger-kernel", "function": "fb", "lines": 20, "rewrites": {
                              "parse": {"added": 1, "removed": 1, "why": ["missing call"]},
                              "trace": {"added": 5, "removed": 4, "why": ["missing call", "native device control flow"]}}}],
              "rows": [row("a", "parse", "written", "accepted", "ok"),
                       row("a", "trace", "written", "refused", line=7),
                       row("a", "trace", "rewritten", "accepted", "ok"),
                       row("b", "parse", "written", "refused", line=3),
                       row("b", "parse", "rewritten", "accepted", "x: 1 of 4 elements differ"),
                       row("b", "trace", "written", "refused", line=3),
                       row("b", "trace", "rewritten", "accepted", "unchecked: no interpreter")]}
        f = F.realworld_facts(rw)
        self.assertEqual((f["rw_kernels"], f["rw_parse_right"], f["rw_parse_refused"]), ("2", "1", "1"))
        self.assertEqual((f["rw_trace_right"], f["rw_trace_refused"]), ("0", "2"))
        self.assertEqual((f["rw_parse_rewrites_right"], f["rw_trace_rewrites_right"]), ("0", "1"))
        self.assertEqual(f["rw_trace_rewrites_unchecked"], "1")
        self.assertEqual(f["rw_trace_lines"], "7")  # the median of 5 and 9 lines
        self.assertEqual(f["rw_trace_top_category"], "native device control flow (2 of 2)")
        self.assertEqual(f["rw_libraries"], "liger-kernel 0.8.5")
        table = T.realworld(rw)
        self.assertIn("| `a` | liger-kernel: `fa` | 10 | ✓ | ✗ line 7 |  | ✓ +3 −2: native device control flow |", table)
        self.assertIn("≠ +1 −1: missing call", table)
        self.assertIn("✓ (unchecked) +5 −4", table)
        self.assertIn("| trace | 2 | 0 | 0 | 2 | 0 | 1/2 (1 unchecked) |", table)
        rw["compile"] = [{"name": "a", "frontend": "parse", "rep": i, "frontend_s": 0.01, "to_ptx_s": t}
                         for i, t in enumerate((0.02, 0.04, 0.03))]
        rw["upstream_compile"] = [{"name": "a", "rep": i, "seconds": 0.3, "to_ptx_s": t}
                                  for i, t in enumerate((0.12, 0.18, 0.15))]
        rw["codegen"] = [{"name": "a", "producer": "twintile", "instructions": 30, "ptxas": {"registers": 16}},
                         {"name": "a", "producer": "upstream", "instructions": 40, "ptxas": {"registers": 20}}]
        f = F.realworld_facts(rw)
        self.assertEqual(f["rw_parse_compile_speedup"], "5.0")  # 0.15 / 0.03, the medians
        self.assertEqual(f["rw_trace_compile_kernels"], "0")
        self.assertEqual((f["rw_ptx_ratio"], f["rw_reg_ratio"]), ("0.75", "0.80"))
        self.assertIn("| `a` | 30 | – | 150 | 5.0× | – | 30 / 40 | 16 / 20 |", T.realworld_compile(rw))

    def test_realworld_hybrid_column_and_agreement(self):
        def row(name, frontend, outcome, check=None, line=None):
            return {"name": name, "frontend": frontend, "variant": "written", "outcome": outcome, "check": check,
                    "line": line}
        kernels = [{"name": n, "library": "liger-kernel", "function": f"f{n}", "lines": 10, "rewrites": {}}
                   for n in ("a", "b", "c")]
        rw = {"libraries": {}, "missing": {}, "kernels": kernels,
              "rows": [row("a", "parse", "accepted", "ok"), row("a", "hybrid", "accepted", "ok"),
                       row("b", "parse", "accepted", "ok"), row("b", "hybrid", "refused", line=12),
                       row("c", "parse", "accepted", "ok"), row("c", "hybrid", "accepted", "ok")],
              "agreement": [{"name": "a", "same_ptx": {"hybrid": True}}, {"name": "c", "errors": {"hybrid": "x"}}]}
        self.assertEqual(R.realworld_frontends(rw), ["parse", "hybrid"])
        f = F.realworld_facts(rw)
        self.assertEqual((f["rw_hybrid_right"], f["rw_hybrid_refused"]), ("2", "1"))
        self.assertEqual(f["rw_hybrid_refused_names"], "1 (`b`)")
        self.assertEqual((f["rw_hybrid_agree_n"], f["rw_hybrid_same_ptx"]), ("1", "1"))  # c's failed compile is out
        self.assertEqual(f["rw_trace_agree_n"], "n/a")  # trace did not run
        self.assertEqual(f["rw_trace_right"], "n/a")
        self.assertIn("| `b` | liger-kernel: `fb` | 10 | ✓ | ✗ line 12 |", T.realworld(rw))
        del rw["agreement"]  # a result from before the measure
        self.assertEqual(F.realworld_facts(rw)["rw_hybrid_agree_n"], "n/a")

    def test_hybrid_expressiveness_facts(self):
        def row(feature, frontend, outcome):
            return {"feature": feature, "frontend": frontend, "outcome": outcome, "correct": True,
                    "as_expected": True, "located": True, "followed": "no advice"}
        cases = {"native_if": ("accepted", "refused", "accepted"), "vector_of_tiles": ("refused", "accepted", "accepted"),
                 "return_in_loop": ("accepted", "refused", "refused"), "goto": ("refused", "refused", "refused")}
        ex = {"environment": load("expressiveness")["environment"],
              "twintile": [row(feat, fe, out) for feat, outs in cases.items()
                           for fe, out in zip(("parse", "trace", "hybrid"), outs)]}
        f = F.expressiveness_facts(ex)
        self.assertEqual((f["ex_three_n"], f["ex_union"], f["twintile_hybrid_accepted"]), ("4", "3", "2"))
        self.assertEqual(f["ex_hybrid_not_parse"], "1 (`vector_of_tiles`)")
        self.assertEqual(f["ex_parse_not_hybrid"], "1 (`return_in_loop`)")
        self.assertEqual((f["ex_trace_not_hybrid"], f["ex_hybrid_only"]), ("none", "none"))
        self.assertIn("| twintile hybrid |", T.expressiveness(ex))

    def test_realworld_profile_table_and_facts(self):
        rw = realworld_profiled()
        table = T.all_tables({"realworld": rw})["realworld_profile.md"]
        # 32 + 8 + 2 warp instructions; 640 of 20 × 32 bytes asked for; 3 wavefronts over an ideal of 2
        self.assertIn("| `a` | parse | 42 | 10 | 20 | 640 | 100% | 2 | 1.50× | yes |", table)
        self.assertIn("| `b` | trace, rewritten | 5 | 4 | 16 | 128 | 25% | 0 | – | NO |", table)
        self.assertIn("| `c` | parse | – | – | – | – | – | – | – | error |", table)
        f = F.realworld_facts(rw)
        self.assertEqual((f["rw_profile_launches"], f["rw_profile_agree"]), ("3", "1"))  # a failed launch counts
        self.assertEqual((f["rw_profile_sector_use"], f["rw_profile_sector_use_min"]), ("62", "25%, `b`"))
        self.assertEqual((f["rw_profile_full_sectors"], f["rw_profile_shared"]), ("1", "1"))
        self.assertEqual(f["rw_profile_conflicted"], "`a` (1.50×)")
        recorded = T.all_tables({"realworld": load("realworld")})["realworld_profile.md"]  # the suite's own
        self.assertRegex(recorded, r"\| `liger_element_mul` \| parse \| \d+ \| .* \| yes \|")
        del rw["profile"]  # a result from before the profile: no table, the facts n/a
        self.assertNotIn("realworld_profile.md", T.all_tables({"realworld": rw}))
        self.assertEqual(F.realworld_facts(rw)["rw_profile_sector_use"], F.NA)

    def test_gpu_run_newest_per_machine_and_its_facts(self):
        def kernel(name, precise, fast, triton, torch, flops=0):
            return {"kernel": name, "size": "n", "check": "ok", "check_fast": "ok", "twintile_s": precise,
                    "twintile_fast_s": fast, "triton_s": triton, "torch_s": torch, "bytes": 1e9, "flops": flops,
                    "throughput": "", "twintile_seconds": [precise] * 3}
        old = {"date": "2026-12-01T00:00:00", "machine": "h200", "commit": "old", "kernels": [
            kernel("softmax<f16,1024>", 9.0, 9.0, 1.0, 1.0)]}
        new = {"date": "2026-12-04T00:00:00", "machine": "h200", "device": "H200", "commit": "new", "kernels": [
            kernel("softmax<f16,1024>", 0.12, 0.10, 0.11, 0.15),
            kernel("rmsnorm<f32,1024>", 0.20, 0.20, 0.18, 0.30),
            kernel("matmul<64,64,32>", 0.5, 0.5, 0.4, 0.2, flops=2e12)]}
        g = {"runs": [new, old]}
        table = T.gpu(g)
        self.assertIn("commit new", table)
        self.assertNotIn("| 9000 |", table)  # the older run's times are not shown
        self.assertIn("1 earlier run(s)", table)
        self.assertIn("| 1.10 | 1.50 |", table)  # Triton / fast and PyTorch / fast for softmax
        f = F.gpu_facts(g)
        ratios = [0.11 / 0.10, 0.18 / 0.20]
        geomean = (ratios[0] * ratios[1]) ** 0.5
        self.assertEqual(f["gpu_mem_triton_geomean"], f"{geomean:.2f}")
        self.assertEqual(f["gpu_mem_triton_min"], "0.90")
        self.assertEqual(f["gpu_mem_kernels"], "2")
        self.assertEqual(f["gpu_checks_ok"], "6")
        self.assertEqual(f["gpu_precise_worst"], "softmax<f16,1024>")
        self.assertEqual(f["gpu_precise_worst_cost"], "1.20")
        self.assertEqual(f["gpu_matmul_tflops"], "4")
        self.assertEqual(f["gpu_matmul_triton_tflops"], "5")
        self.assertEqual(f["gpu_mem_verdict"], "as fast as" if 0.95 <= geomean <= 1.05 else "?")
        new["kernels"][0]["check_fast"] = "different"
        self.assertIn("different / ok", T.gpu(g))
        self.assertEqual(F.gpu_facts(g)["gpu_checks_ok"], "5")


def codegen_row(producer, variant, spec, instructions, registers, sass=None, live=None):
    ptxas = {"registers": registers}
    if sass is not None:
        ptxas.update(sass_instructions=sass, peak_live_registers=live)
    return {"producer": producer, "variant": variant, "arch": "sm_90a", "spec": spec,
            "instructions": instructions, "ptxas": ptxas, "ptx_sha256": f"{producer}{variant}{spec}"}


class MemoryBoundTargets(unittest.TestCase):
    """codegen_targets.md: twintile's fast compiles with hints against Triton's with hints."""

    def result(self):
        return {"environment": load("codegen")["environment"], "rows": [
            codegen_row("twintile_parse", "fast", "vector_add<1024>", 51, 26, 41, 24),
            codegen_row("triton", "assumed", "vector_add<1024>", 51, 26, 41, 24),
            codegen_row("twintile_parse", "fast", "softmax<f32,1024>", 121, 22, 163, 16),
            codegen_row("triton", "assumed", "softmax<f32,1024>", 121, 21, 163, 17),
            codegen_row("twintile_parse", "fast", "rmsnorm<f32,256>", 69, 17, 70, 12),  # over 1.1x: 69 > 66
            codegen_row("triton", "assumed", "rmsnorm<f32,256>", 60, 17, 65, 12),
            # Not memory-bound: no row of the table.
            codegen_row("twintile_parse", "fast", "matmul<64,64,32>", 900, 90),
            codegen_row("triton", "assumed", "matmul<64,64,32>", 500, 80),
            # Another variant: not what the targets compare.
            codegen_row("twintile_parse", "assumed", "vector_add<1024>", 51, 40),
        ]}

    def test_registers_are_allocated_in_units_of_eight(self):
        self.assertEqual([R.allocated_registers(n) for n in (1, 8, 9, 17, 24, 25)], [8, 8, 16, 24, 24, 32])
        self.assertIsNone(R.allocated_registers(None))

    def test_the_table_marks_each_missed_target(self):
        text = T.codegen_targets(self.result())
        rows = {l.split(" | ")[0][3:-1]: l for l in text.splitlines() if l.startswith("| `")}
        self.assertEqual(sorted(rows), ["rmsnorm<f32,256>", "softmax<f32,1024>", "vector_add<1024>"])
        self.assertEqual(rows["vector_add<1024>"], "| `vector_add<1024>` | 51 / 51 | 41 / 41 | 26 / 26 | 32 / 32 | 24 / 24 |")
        self.assertEqual(rows["softmax<f32,1024>"],
                         "| `softmax<f32,1024>` | 121 / 121 | 163 / 163 | 22 / 21 ✗ | 24 / 24 | 16 / 17 |")
        self.assertIn("| 69 / 60 ✗ | 70 / 65 ✗ |", rows["rmsnorm<f32,256>"])
        self.assertIn("PTX instructions within 1.1× of Triton's: 2 of 3.", text)
        self.assertIn("as ptxas counts them: 2 of 3;", text)
        self.assertIn("rounded up to a multiple of 8): 3 of 3.", text)

    def test_the_facts_name_the_specializations_over(self):
        f = F.codegen_facts(self.result())
        self.assertEqual((f["n_memory_bound"], f["memory_bound_instr_ok"], f["memory_bound_regs_ok"],
                          f["memory_bound_alloc_ok"], f["memory_bound_sass_fewer"]), ("3", "2", "2", "3", "2"))
        self.assertEqual(f["memory_bound_regs_over"], "`softmax<f32,1024>` (22 against 21; at most 16 live against 17)")

    def test_without_machine_code_the_table_says_so(self):
        res = self.result()
        for r in res["rows"]:
            r["ptxas"] = {"registers": r["ptxas"]["registers"]}
        text = T.codegen_targets(res)
        self.assertIn("no more than Triton's: not measured.", text)
        self.assertIn("| `vector_add<1024>` | 51 / 51 | – | 26 / 26 | 32 / 32 | – |", text)


# nvdisasm -c --print-life-ranges, cut down: a kernel with a subroutine after
# its EXIT (a division's slow path), the branch to itself after the last
# instruction, and padding. The CALL's column (5) counts what the callee may
# clobber, not what is live: the peak is the subroutine's 4.
LISTING = """\
\t.section\t.text.k,"ax",@progbits
k:
.text.k:                                   // |
        /*0000*/                   LDC R1, c[0x0][0x28] ;          // |  1   ^
        /*0010*/              @!P0 BRA `(.L_x_0) ;                 // |  3   : ^ ^
        /*0020*/                   CALL.REL.NOINC `($slowpath) ;    // |  5   : : : ^ ^
.L_x_0:                                    // |  2   : :
        /*0030*/                   EXIT ;                          // |  2   : :
$slowpath:
        /*0040*/                   FADD R2, R2, R3 ;               // |  4   : : ^ :
        /*0050*/                   RET.REL.NODEC R4 `(k) ;         // |  2   : :
.L_x_1:                                    // |
        /*0060*/                   BRA `(.L_x_1);                  // |
        /*0070*/                   NOP;                            // |
        /*0080*/                   NOP;                            // |
"""


class MachineCode(unittest.TestCase):
    def test_the_listing_is_counted_without_padding(self):
        from experiments.baselines import ptx_stats
        self.assertEqual(ptx_stats.parse_sass(LISTING), {"k": {"sass_instructions": 6, "peak_live_registers": 4,
                                                               "tensor_core_sass": {"HGMMA": 0, "QGMMA": 0, "HMMA": 0}}})

    def test_the_tensor_core_instructions_are_counted_predicated_or_not(self):
        from experiments.baselines import ptx_stats
        listing = LISTING.replace("FADD R2, R2, R3 ;", "HGMMA.64x128x16.F32 R24, gdesc[UR4], R24, gsb0 ;").replace(
            "LDC R1, c[0x0][0x28] ;", "@P0 HMMA.16816.F32 R4, R8, R12, R4 ;")
        self.assertEqual(ptx_stats.parse_sass(listing)["k"]["tensor_core_sass"], {"HGMMA": 1, "QGMMA": 0, "HMMA": 1})


def realworld_profiled():
    """A realworld.json with three profiled ports: `a` (parse, as written: coalesced, with bank
    conflicts), `b` (trace's rewrite: a quarter of each sector used, the launch disagreeing with the
    interpreter) and `c` (a launch that gave no profile)."""
    def profile(ops, requests, sectors, used, shared, wavefronts, ideal):
        return {"warp_instructions": ops, "global_requests": requests, "global_sectors": sectors,
                "global_bytes": used, "shared_requests": shared, "shared_wavefronts": wavefronts,
                "shared_ideal_wavefronts": ideal, "thread_instructions": 32 * sum(ops.values())}
    return {"libraries": {"liger-kernel": "0.8.5"}, "rows": [],
            "kernels": [{"name": n, "library": "liger-kernel", "function": n, "file": f"{n}.cpp", "lines": 10,
                         "rewrites": {}} for n in "abc"],
            "profile": [{"name": "a", "frontend": "parse", "file": "a.cpp", "agrees_with_interpreter": True,
                         "profile": profile({"ld.global.f32": 32, "add.f32": 8, "ret": 2}, 10, 20, 640, 2, 3, 2)},
                        {"name": "b", "frontend": "trace", "file": "b.trace.cpp", "agrees_with_interpreter": False,
                         "profile": profile({"ld.global.f32": 4, "ret": 1}, 4, 16, 128, 0, 0, 0)},
                        {"name": "c", "frontend": "parse", "file": "c.cpp", "error": "the launch failed"}]}


def realworld_result(written, lines, compile_s):
    """A realworld.json of kernels k0, k1, ...: written[i] = (parse right?, trace right?) as written,
    lines[i] = (parse, trace) lines a rewrite changed (for a front end that refused), compile_s[i] =
    (parse, trace) seconds to PTX."""
    kernels, rows, comp = [], [], []
    for i, (ok, changed, secs) in enumerate(zip(written, lines, compile_s)):
        name = f"k{i}"
        rewrites = {fe: {"added": n - n // 2, "removed": n // 2, "why": ["native device control flow"]}
                    for fe, good, n in zip(("parse", "trace"), ok, changed) if not good}
        kernels.append({"name": name, "library": "liger-kernel", "function": name, "lines": 20, "rewrites": rewrites})
        for fe, good, t in zip(("parse", "trace"), ok, secs):
            rows.append({"name": name, "frontend": fe, "variant": "written", "outcome": "accepted" if good else "refused",
                         "check": "ok" if good else None})
            if not good:
                rows.append({"name": name, "frontend": fe, "variant": "rewritten", "outcome": "accepted", "check": "ok"})
            comp.append({"name": name, "frontend": fe, "rep": 0, "to_ptx_s": t})
    return {"libraries": {"liger-kernel": "0.8.5"}, "kernels": kernels, "rows": rows, "compile": comp}


def same_ptx(specs, trace_instructions=None):
    """A codegen result whose trace PTX equals the parse PTX, or has `trace_instructions` each."""
    rows = []
    for spec in specs:
        rows.append(codegen_row("twintile_parse", "plain", spec, 100, 20))
        trace = codegen_row("twintile_trace", "plain", spec, trace_instructions or 100, 20)
        if trace_instructions is None:
            trace["ptx_sha256"] = rows[-1]["ptx_sha256"]
        rows.append(trace)
    return {"rows": rows}


def feature_cases(parse_only, trace_only, both):
    cases = []
    for i in range(parse_only + trace_only + both):
        accepted = ("parse",) if i < parse_only else ("trace",) if i < parse_only + trace_only else ("parse", "trace")
        for fe in ("parse", "trace"):
            cases.append({"feature": f"f{i}", "frontend": fe, "outcome": "accepted" if fe in accepted else "refused",
                          "correct": True if fe in accepted else None})
    return {"twintile": cases, "baselines": []}


class Answer(unittest.TestCase):
    """The paper's last section: which embedding wins each axis, computed, never typed."""

    def test_the_tie_bands(self):
        self.assertEqual(F.fewer_wins(1.0, 1.05), "tie")
        self.assertEqual(F.fewer_wins(1.0, 1.05 * F.TIE_RATIO), "parse")
        self.assertEqual(F.fewer_wins(1.05 * F.TIE_RATIO, 1.0), "trace")
        self.assertEqual(F.fewer_wins(0, 0), "tie")
        self.assertEqual(F.fewer_wins(0, 3), "parse")
        self.assertIsNone(F.fewer_wins(None, 3))
        self.assertEqual(F.more_wins(20, 21, 25), "tie")  # one case in 25 is within 5%
        self.assertEqual(F.more_wins(15, 5, 25), "parse")
        self.assertEqual(F.more_wins(2, 4, 10), "trace")
        self.assertIsNone(F.more_wins(0, 0, 0))

    def test_parsing_wins_where_it_accepts_more_and_compiles_faster(self):
        rw = realworld_result(written=[(True, True), (True, False), (False, False), (True, False)],
                              lines=[(0, 0), (0, 8), (2, 6), (0, 4)],
                              compile_s=[(0.05, 0.15), (0.05, 0.20), (0.10, 0.30), (0.05, 0.02)])
        f = F.answer_facts({"realworld": rw, "expressiveness": feature_cases(5, 2, 3), "codegen": same_ptx(["a<1>"])})
        self.assertEqual(f["ans_compile_verdict"], "parsing wins")
        self.assertEqual(f["ans_compile_real"], f"{(3 * 4 * 3 * 0.4) ** 0.25:.1f}×")  # the geometric mean
        self.assertEqual(f["ans_compile_real_span"], "from 0.4× for `k3` to 4.0× for `k1`")
        self.assertEqual(f["ans_compile_trace_faster"], "1 (`k3`)")
        self.assertEqual((f["ans_real_verdict"], f["ans_real_parse"], f["ans_real_trace"], f["ans_real_n"]),
                         ("parsing wins", "3", "1", "4"))
        self.assertEqual((f["ans_real_parse_only"], f["ans_real_trace_only"]), ("2 (`k1`, `k3`)", "none"))
        self.assertEqual((f["ans_feature_verdict"], f["ans_feature_parse"], f["ans_feature_trace"]),
                         ("parsing wins", "8", "5"))
        self.assertEqual(f["ans_feature_trace_only"], "2 (`f5`, `f6`)")
        self.assertEqual((f["ans_cost_verdict"], f["ans_cost_parse"], f["ans_cost_trace"]), ("parsing wins", "2", "18"))
        self.assertEqual((f["ans_cost_trace_larger"], f["ans_cost_parse_larger"], f["ans_cost_same"]),
                         ("3 (`k1`, `k2`, `k3`)", "none", "1"))
        self.assertEqual((f["ans_code_verdict"], f["ans_code_ratio"]), ("a tie", "1.0×"))
        self.assertEqual(f["ans_overall_verdict"], "parsing")
        self.assertEqual(f["ans_overall"], "Parsing wins on compile time, real kernels as written, feature code and "
                                           "the cost of a refusal, tracing on none, and they tie on generated code.")
        self.assertTrue(f["ans_exception"].startswith("Tracing is the one to pick only for a kernel that needs"))

    def test_tracing_wins_where_the_numbers_say_so(self):
        rw = realworld_result(written=[(False, True), (False, True), (True, True)],
                              lines=[(9, 0), (12, 0), (0, 0)],
                              compile_s=[(0.30, 0.10), (0.30, 0.10), (0.30, 0.12)])
        f = F.answer_facts({"realworld": rw, "expressiveness": feature_cases(0, 4, 4),
                            "codegen": same_ptx(["a<1>", "b<2>"], trace_instructions=80)})
        for axis in ("compile", "real", "feature", "cost", "code"):
            self.assertEqual(f[f"ans_{axis}_verdict"], "tracing wins", axis)
        self.assertEqual(f["ans_overall_verdict"], "tracing")
        self.assertIn("Parsing is the one to pick only", f["ans_exception"])

    def test_a_tie_is_said_as_one(self):
        rw = realworld_result(written=[(True, True), (False, False)], lines=[(0, 0), (5, 5)],
                              compile_s=[(0.10, 0.105), (0.20, 0.19)])
        f = F.answer_facts({"realworld": rw, "expressiveness": feature_cases(1, 1, 30), "codegen": same_ptx(["a<1>"])})
        for axis in ("compile", "real", "feature", "cost", "code"):
            self.assertEqual(f[f"ans_{axis}_verdict"], "a tie", axis)
        self.assertEqual(f["ans_overall_verdict"], "neither: they tie")
        self.assertTrue(f["ans_exception"].startswith("Which to pick depends on the kernel"))

    def test_missing_results_read_n_a(self):
        f = F.answer_facts({})
        for axis in ("compile", "real", "feature", "cost", "code"):
            self.assertEqual(f[f"ans_{axis}_verdict"], F.NA, axis)
        self.assertEqual((f["ans_overall_verdict"], f["ans_exception"]), (F.NA, F.NA))
        self.assertIn("not measured: compile time, real kernels as written", f["ans_overall"])
        # Without the real-world file, those axes are unmeasured, the others answered.
        f = F.answer_facts({k: v for k, v in R.load(FIXTURES).items() if k != "realworld"})
        self.assertEqual((f["ans_real_verdict"], f["ans_cost_verdict"]), (F.NA, F.NA))
        self.assertNotEqual(f["ans_compile_verdict"], F.NA)
        self.assertNotEqual(f["ans_feature_verdict"], F.NA)

    def test_the_scaling_trend_words(self):
        self.assertEqual(F._trend(6.0, 2.0), "narrows")
        self.assertEqual(F._trend(6.0, 36.0), "widens")
        self.assertEqual(F._trend(2.0, 2.1), "holds")
        self.assertEqual(F._trend(3.0, 0.5), "reverses")
        self.assertEqual(F._trend(None, 2.0), F.NA)


def has_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


@unittest.skipUnless(has_matplotlib(), "matplotlib is not installed for this Python")
class CodegenFigures(unittest.TestCase):
    def setUp(self):
        from experiments.report import figures
        self.figures = figures
        self.out = Path(tempfile.mkdtemp())

    def tearDown(self):
        shutil.rmtree(self.out)

    def drawn(self, name):
        path = self.out / name
        return path.exists() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_the_fair_figure_plots_fast_against_triton(self):
        res = MemoryBoundTargets().result()  # twintile fast and Triton with hints only
        self.assertTrue(self.figures.codegen_ratios(res, self.out / "fair.png"))
        self.assertTrue(self.drawn("fair.png"))
        # No precise twintile row has a Triton row beside it: the precise figure is not drawn.
        self.assertFalse(self.figures.codegen_ratios_precise({"rows": [r for r in res["rows"]
                                                                        if r["producer"] != "twintile_parse"
                                                                        or r["variant"] == "fast"]},
                                                             self.out / "precise.png"))
        self.assertFalse((self.out / "precise.png").exists())

    def test_the_precise_figure_is_apart(self):
        cg = load("codegen")  # precise (assumed) twintile rows, Triton's, nvcc's; no fast rows
        self.assertTrue(self.figures.codegen_ratios_precise(cg, self.out / "precise.png"))
        self.assertTrue(self.drawn("precise.png"))
        self.assertTrue(self.figures.codegen_ratios(cg, self.out / "fair.png"))  # against nvcc only
        self.assertEqual(self.figures.all_figures({"codegen": cg}, self.out),
                         ["codegen_ratios.png", "codegen_ratios_precise.png"])

    def test_nothing_to_compare_draws_nothing(self):
        for draw in (self.figures.codegen_ratios, self.figures.codegen_ratios_precise):
            self.assertFalse(draw({"rows": []}, self.out / "none.png"))
        self.assertEqual(list(self.out.iterdir()), [])


@unittest.skipUnless(has_matplotlib(), "matplotlib is not installed for this Python")
class RealworldFigure(unittest.TestCase):
    def setUp(self):
        from experiments.report import figures
        self.figures = figures
        self.out = Path(tempfile.mkdtemp())

    def tearDown(self):
        shutil.rmtree(self.out)

    def test_drawn_from_the_kernels_and_not_without_them(self):
        rw = realworld_result(written=[(True, False), (False, False)], lines=[(0, 4), (2, 6)],
                              compile_s=[(0.03, 0.12), (0.05, 0.2)])
        rw["upstream_compile"] = [{"name": "k0", "rep": 0, "to_ptx_s": 0.09}]
        self.assertTrue(self.figures.realworld(rw, self.out / "realworld.png"))
        png = self.out / "realworld.png"
        self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(self.figures.all_figures({"realworld": rw}, self.out), ["realworld.png"])
        self.assertFalse(self.figures.realworld({"kernels": [], "rows": []}, self.out / "none.png"))
        self.assertFalse((self.out / "none.png").exists())


class Paper(unittest.TestCase):
    def test_an_unknown_name_is_refused(self):
        with self.assertRaises(KeyError):
            P.render("{{no_such_fact}}", {}, {})

    def test_a_missing_result_file_reads_n_a(self):
        template = (ROOT / "paper" / "paper.md.in").read_text()
        text = P.render(template, F.facts({"gpu": load("gpu")}), {})
        self.assertIn("n/a", text)
        self.assertNotIn("{{", text)

    def test_missing_table_is_said(self):
        self.assertTrue(P.render("{{table:nope.md}}", {}, {}).endswith("\n*(not measured in this run)*"))

    def test_check_fails_when_the_paper_and_the_results_disagree(self):
        out = Path(tempfile.mkdtemp())
        try:
            report = [sys.executable, str(ROOT / "scripts" / "report"), "--results", str(FIXTURES), "--out", str(out)]
            subprocess.run(report + ["--no-figures"], check=True, capture_output=True)
            self.assertEqual(subprocess.run(report + ["--check"], capture_output=True).returncode, 0)
            paper = (out / "paper.md").read_text()
            facts = F.facts(R.load(FIXTURES))
            edited = paper.replace(facts["sweep_nvcc_s"], "9.99", 1)
            self.assertNotEqual(edited, paper)
            (out / "paper.md").write_text(edited)
            proc = subprocess.run(report + ["--check"], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 1)
            self.assertIn("9.99", proc.stderr)
        finally:
            shutil.rmtree(out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
