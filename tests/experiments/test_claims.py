"""The claims table's verdicts (experiments/report/claims.py): each computed from the numbers by
the stated bar, on synthetic results that sit on either side of it."""
import unittest

from experiments.report import claims as C  # noqa: E402  (run from the repository's root: ctest does)


def claims(seconds, dsl=None, count=2016, missing=None):
    """A claims result: one CUTLASS compile per configuration at `seconds`, and the DSLs' cubins."""
    names = [f"cfg{i}" for i in range(len(seconds))]
    rows = [{"config": n, "seconds": s, "peak_bytes": 2 << 30, "rep": 0} for n, s in zip(names, seconds)]
    same = [{"system": system, "to": "cubin", "seconds": s, "rep": 0} for system, s in (dsl or {}).items()]
    return {"config": {"configs": names}, "environment": {"cores": 2}, "missing": missing or {},
            "cutlass": rows, "projection": {"default": count, "all": 3 * count, "nvidia_cutlass": "4.2.0.0"},
            "same_tile": {"rows": same}}


def verdict(res, claim):
    return next(r for r in C.rows(res) if r["claim"].startswith(claim))


class Verdicts(unittest.TestCase):
    def test_a_cutlass_kernel(self):
        self.assertEqual(verdict({"claims": claims([30, 12])}, "A CUTLASS kernel")["verdict"], "holds")
        self.assertEqual(verdict({"claims": claims([30, 5])}, "A CUTLASS kernel")["verdict"], "depends")
        self.assertEqual(verdict({"claims": claims([3, 5])}, "A CUTLASS kernel")["verdict"], "does not hold")
        row = verdict({"claims": claims([], missing={"cutlass": "no headers"})}, "A CUTLASS kernel")
        self.assertEqual((row["verdict"], row["why"]), ("untested", "no headers"))

    def test_the_library_projection(self):
        row = verdict({"claims": claims([30], count=2400)}, "A CUTLASS library")  # 1200 core-minutes
        self.assertEqual(row["verdict"], "holds")  # 19 min on 64 cores
        self.assertIn("2400", row["numbers"])
        self.assertIn("600 min on 2 cores", row["numbers"])
        row = verdict({"claims": claims([30], count=2016)}, "A CUTLASS library")  # 16 min on 64 cores
        self.assertEqual(row["verdict"], "depends")
        self.assertIn("below 59 cores", row["why"])
        self.assertEqual(verdict({"claims": claims([30], count=40)}, "A CUTLASS library")["verdict"], "does not hold")
        row = verdict({"claims": {**claims([30]), "projection": {"error": "ImportError: x"}}}, "A CUTLASS library")
        self.assertEqual((row["verdict"], row["why"]), ("untested", "ImportError: x"))
        row = verdict({"claims": claims([], missing={"nvcc": "nvcc not found"})}, "A CUTLASS library")
        self.assertEqual(row["why"], "nvcc not found")

    def test_a_configuration_that_failed_is_said(self):
        res = claims([30])
        res["cutlass"].append({"config": "cfg9", "seconds": 1.0, "peak_bytes": 1, "rep": 0, "error": "x"})
        row = verdict({"claims": res}, "A CUTLASS kernel")
        self.assertIn("cfg9: did not compile", row["numbers"])
        self.assertIn("1 of 2 did not compile", row["why"])

    def test_dsls_factor(self):
        fast = {"twintile_parse": 0.2, "triton": 0.25}
        self.assertEqual(verdict({"claims": claims([30], fast)}, "DSLs")["verdict"], "holds")  # 150x, 120x
        mixed = {"twintile_parse": 0.2, "triton": 1.0}
        row = verdict({"claims": claims([30], mixed)}, "DSLs")
        self.assertEqual(row["verdict"], "depends")
        self.assertIn("Triton 30×", row["why"])
        self.assertEqual(verdict({"claims": claims([30], {"triton": 5.0})}, "DSLs")["verdict"], "does not hold")
        row = verdict({"claims": claims([30], {"twintile_parse": 0.2}, missing={"triton": "no triton"})}, "DSLs")
        self.assertIn("nor Triton's (no triton)", row["why"])
        self.assertEqual(verdict({"claims": claims([30])}, "DSLs")["verdict"], "untested")

    def test_what_is_not_measured_says_so(self):
        for claim in ("Three types", "Block sizes"):
            self.assertEqual(verdict({}, claim)["verdict"], "untested")
        row = verdict({"claims": {"missing": {"nvcc": "nvcc not found"}, "vectorize": {"rows": [
            {"system": "nvcc", "variant": "constant, contiguous loop", "error": "nvcc not found"}]}}}, "Block sizes")
        self.assertEqual((row["verdict"], row["why"]), ("untested", "nvcc not found"))
        self.assertNotIn("failed", row["numbers"])  # not run, not failed
        self.assertEqual(verdict({}, "Tracing avoids")["verdict"], "untested")

    def test_twelve_instantiations(self):
        def result(cuda_named=12, cuda="built", triton="built"):
            callers = [{"system": "nvcc", "lines": 20, "variants_named": cuda_named, "compiles": "ahead of time"},
                       {"system": "triton", "lines": 2, "variants_named": 0, "compiles": "at a call's first need"},
                       {"system": "twintile", "lines": 9, "variants_named": 0, "compiles": "at a call's first need"}]
            for caller, how in ((callers[0], cuda), (callers[1], triton)):
                if how == "error":
                    caller["error"] = "did not compile"
                if how == "unchecked":
                    caller["unchecked"] = "not found"
            samples = {"nvcc_all": [0.6, 0.7], "nvcc_one": [0.2, 0.2], "triton_all": [1.6], "triton_one": [0.6]}
            return {"claims": {"instantiations": {"variants": [f"v{k}" for k in range(12)], "callers": callers,
                                                  "samples": samples, "errors": {}}}}
        row = verdict(result(), "Three types")
        self.assertEqual(row["verdict"], "depends")
        self.assertEqual(row["why"], "on when the variants are compiled: CUDA C++ (ahead of time) has the caller's "
                                     "dispatch name each of the 12; Triton and twintile's launch API (at a call's "
                                     "first need) have the caller compute the variant's name from the arguments")
        self.assertIn("CUDA C++ 0.65 s for the 12, 0.20 s for the one", row["numbers"])
        self.assertEqual(verdict(result(cuda_named=3), "Three types")["verdict"], "does not hold")
        # CUDA C++'s dispatch not built decides nothing; another's is left out.
        for cuda in ("error", "unchecked"):
            row = verdict(result(cuda=cuda), "Three types")
            self.assertEqual((row["verdict"], row["why"]), ("untested", "the CUDA C++ dispatch did not build here"))
        row = verdict(result(triton="unchecked"), "Three types")
        self.assertEqual(row["verdict"], "depends")
        self.assertIn("Triton 2 lines naming 0 (not built here: not found)", row["numbers"])
        self.assertIn("twintile's launch API (at a call's first need) has the caller compute", row["why"])
        no_variants = result()
        no_variants["claims"]["instantiations"]["variants"] = []
        self.assertEqual(verdict(no_variants, "Three types")["why"], "the results name no variants")

    def test_block_sizes_vectorize(self):
        def row(system, variant, widest, shared=12):
            r = {"system": system, "variant": variant, "instructions": 100,
                 "global_access_bytes": {"ld": {"4": 3, str(widest): 2}, "st": {}}}
            if shared is not None:
                r["shared_accesses"] = shared
            return r

        def result(contiguous=(4, 4), vector=(16, 16), traced=(16, 16), shared=12):
            return {"claims": {"vectorize": {"rows": [
                row("nvcc", "template parameter, row in registers", 16, shared=2),
                row("nvcc", "constant, contiguous loop", contiguous[0], shared),
                row("nvcc", "run-time argument, contiguous loop", contiguous[1], shared),
                row("nvcc", "constant, vector loop", vector[0], shared),
                row("nvcc", "run-time argument, vector loop", vector[1], shared),
                row("twintile_trace", "meta-parameter", traced[0]), row("twintile_trace", "host variable", traced[1]),
                {"system": "twintile_parse", "variant": "host variable", "error": "a mutable global variable"}]}}}
        row_ = verdict(result(), "Block sizes")
        self.assertEqual(row_["verdict"], "does not hold")
        self.assertTrue(row_["why"].startswith("the vector loop keeps its vector loads with the block size a run-time "
                                               "value; nvcc vectorizes the contiguous loop in neither form; a tracer"))
        self.assertIn("twintile parse refuses the host variable", row_["numbers"])
        self.assertIn("12 shared accesses", row_["numbers"])
        self.assertEqual(verdict(result(vector=(16, 4)), "Block sizes")["verdict"], "holds")
        self.assertEqual(verdict(result(vector=(16, 8)), "Block sizes")["verdict"], "does not hold")  # 8 bytes: a vector
        self.assertEqual(verdict(result(contiguous=(16, 4), vector=(16, 16)), "Block sizes")["verdict"], "depends")
        # The tracer's rows are numbers only: its losing the loads decides nothing.
        self.assertEqual(verdict(result(traced=(16, 4)), "Block sizes")["verdict"], "does not hold")
        self.assertNotIn("a tracer", verdict(result(traced=(16, 4)), "Block sizes")["why"])
        row_ = verdict(result(contiguous=(4, 4), vector=(4, 4)), "Block sizes")
        self.assertEqual((row_["verdict"], row_["why"]), ("untested", "no loop vectorizes with its block size constant"))
        # A pair of which one side failed is said, not dropped.
        one_sided = result(contiguous=(4, 4))
        one_sided["claims"]["vectorize"]["rows"][4]["error"] = "nvcc: error"
        row_ = verdict(one_sided, "Block sizes")
        self.assertEqual((row_["verdict"], row_["why"]), ("untested", "no loop vectorizes with its block size constant"))
        self.assertIn("nvcc, run-time argument, vector loop: failed", row_["numbers"])
        one_sided["claims"]["vectorize"]["rows"][1]["global_access_bytes"]["ld"] = {"16": 1}
        one_sided["claims"]["vectorize"]["rows"][2]["global_access_bytes"]["ld"] = {"16": 1}
        row_ = verdict(one_sided, "Block sizes")
        self.assertEqual(row_["verdict"], "does not hold")
        self.assertIn("the vector loop did not compile in both forms", row_["why"])
        # No shared count where the results have none.
        self.assertNotIn("shared accesses", verdict(result(shared=None), "Block sizes")["numbers"].split("; ")[1])

    def test_tracing_avoids_instantiation(self):
        def compile_result(parse_s, trace_s, trace_spec="k<1>"):
            phases = [{"system": "parse", "spec": "k<1>", "parse_s": parse_s, "walk_s": 0.0},
                      {"system": "trace", "spec": trace_spec, "host_compile_s": trace_s, "host_codegen_s": 0.0,
                       "host_load_s": 0.0, "trace_s": 0.0}]
            return {"compile": {"phases": {"twintile": phases}}}
        # Only a specialization both compiled is compared.
        self.assertEqual(verdict(compile_result(0.02, 0.04, "k<2>"), "Tracing avoids")["verdict"], "untested")
        self.assertEqual(verdict(compile_result(0.02, 0.04), "Tracing avoids")["verdict"], "does not hold")
        self.assertEqual(verdict(compile_result(0.04, 0.02), "Tracing avoids")["verdict"], "holds")
        self.assertEqual(verdict(compile_result(0.040, 0.042), "Tracing avoids")["verdict"], "depends")


if __name__ == "__main__":
    unittest.main()
