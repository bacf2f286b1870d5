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
            {"system": "nvcc", "variant": "template parameter", "error": "nvcc not found"}]}}}, "Block sizes")
        self.assertEqual((row["verdict"], row["why"]), ("untested", "nvcc not found"))

    def test_twelve_instantiations(self):
        def result(cuda_lines, cuda_error=False):
            callers = [{"system": "nvcc", "lines": cuda_lines}, {"system": "triton", "lines": 2},
                       {"system": "twintile", "lines": 7}]
            if cuda_error:
                callers[0]["error"] = "nvcc: error"
            samples = {"nvcc_all": [0.6, 0.7], "nvcc_one": [0.2, 0.2], "triton_all": [1.6], "triton_one": [0.6]}
            return {"claims": {"instantiations": {"variants": [f"v{k}" for k in range(12)], "callers": callers,
                                                  "samples": samples}}}
        row = verdict(result(20), "Three types")
        self.assertEqual(row["verdict"], "depends")
        self.assertIn("CUDA C++ compiles all 12", row["why"])
        self.assertIn("Triton and twintile's launch API compile the one a call needs", row["why"])
        self.assertIn("CUDA C++ 0.65 s for the 12, 0.20 s for the one", row["numbers"])
        self.assertEqual(verdict(result(5), "Three types")["verdict"], "does not hold")
        row = verdict(result(20, cuda_error=True), "Three types")
        self.assertEqual(row["verdict"], "does not hold")
        self.assertIn("CUDA C++ 20 (did not build)", row["numbers"])

    def test_block_sizes_vectorize(self):
        def result(scalar, vector=4, traced=16):
            def row(system, variant, widest):
                return {"system": system, "variant": variant, "instructions": 100,
                        "global_access_bytes": {"ld": {"4": 3, str(widest): 2}, "st": {}}}
            return {"claims": {"vectorize": {"rows": [
                row("nvcc", "template parameter", 16), row("nvcc", "run-time argument, scalar loop", scalar),
                row("nvcc", "run-time argument, vector loop", vector),
                row("twintile_trace", "meta-parameter", 16), row("twintile_trace", "host variable", traced),
                {"system": "twintile_parse", "variant": "host variable", "error": "a mutable global variable"}]}}}
        self.assertEqual(verdict(result(16), "Block sizes")["verdict"], "does not hold")
        self.assertEqual(verdict(result(4, vector=4, traced=4), "Block sizes")["verdict"], "holds")
        row = verdict(result(4, vector=16, traced=4), "Block sizes")
        self.assertEqual(row["verdict"], "depends")
        self.assertIn("a loop vectorized by hand keeps them", row["why"])
        self.assertNotIn("a tracer", row["why"])
        row = verdict(result(4), "Block sizes")
        self.assertIn("a tracer keeps them", row["why"])
        self.assertIn("twintile parse refuses the host variable", row["numbers"])
        template_scalar = result(4)
        template_scalar["claims"]["vectorize"]["rows"][0]["global_access_bytes"]["ld"] = {"4": 9}
        self.assertEqual(verdict(template_scalar, "Block sizes")["verdict"], "untested")
        self.assertEqual(verdict({}, "Tracing avoids")["verdict"], "untested")

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
