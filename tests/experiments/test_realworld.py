"""The real-world corpus's manifest and the suite's diff count, without running a kernel.

The manifest (experiments/realworld/kernels.json) must be sound: every file
there, every rewrite with its categories; corpus.problems says what is not.
"""
import copy
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "experiments" / "realworld" / "kernels.json"
from experiments.realworld import corpus  # noqa: E402  (run from the repository's root: ctest does)
from experiments.suites import realworld  # noqa: E402


class Manifest(unittest.TestCase):
    def test_the_corpus_and_the_fixture_are_sound(self):
        for path in (corpus.MANIFEST, FIXTURE):
            with self.subTest(path=path):
                self.assertEqual(corpus.problems(corpus.load(path)), [])

    def test_problems_are_named(self):
        entry = corpus.load(FIXTURE)[0]
        bad = copy.deepcopy(entry)
        bad["why"]["trace"] = "native device control flow"  # a string, not a list
        bad["rewritten"]["trace"] = "nowhere.cpp"
        del bad["grid"]
        typo = copy.deepcopy(entry)
        typo["name"] = "typo"
        typo["why"]["trace"] = ["typo"]
        found = corpus.problems([bad, entry, typo])
        self.assertIn("kernel liger_element_mul: the trace rewrite needs 'why', a list of categories", found)
        self.assertIn("kernel typo: 'typo' is not a category (" + ", ".join(corpus.CATEGORIES) + ")", found)
        self.assertIn("kernel liger_element_mul: file nowhere.cpp is missing", found)
        self.assertIn("kernel liger_element_mul has no 'grid'", found)
        self.assertIn("kernel liger_element_mul is listed twice", found)


class DiffSize(unittest.TestCase):
    def test_comments_and_blank_lines_do_not_count(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d) / "a.cpp", Path(d) / "b.cpp"
            a.write_text("// one header\nint x = 1;  // why\n\nint y = 2;\n")
            b.write_text("// another header, longer\n// and two lines\nint x = 1;\nint y = 3;\nint z = 4;\n")
            self.assertEqual(realworld.diff_size(a, b), (2, 1))


class Profile(unittest.TestCase):
    def test_the_profiled_port_and_its_launch(self):
        entry = corpus.load(FIXTURE)[0]
        entry["dir"] = str(FIXTURE.parent)

        def cell(outcome, check=None):
            return {"outcome": outcome, "check": check}
        cells = {("liger_element_mul", "parse", "written"): cell("refused"),
                 ("liger_element_mul", "trace", "written"): cell("refused"),
                 ("liger_element_mul", "trace", "rewritten"): cell("accepted", "ok")}
        # parse refuses and has no rewrite: the tracing front end's rewrite is measured
        self.assertEqual(realworld.measured_port(entry, cells), ("trace", "element_mul.trace.cpp"))
        cells[("liger_element_mul", "parse", "written")] = cell("accepted", "unchecked: no reference")
        self.assertEqual(realworld.measured_port(entry, cells), ("parse", "element_mul.cpp"))
        cells[("liger_element_mul", "parse", "written")] = cell("accepted", "X_ptr: 1 of 900 elements differ")
        cells[("liger_element_mul", "trace", "rewritten")] = cell("refused")
        self.assertEqual(realworld.measured_port(entry, cells), (None, None))

        cmd = realworld.profile_command("twintile", entry, "element_mul.cpp", "parse", "/in")
        self.assertEqual(cmd[:2], ["twintile", "run"])
        joined = " ".join(cmd)
        for part in ("--kernel element_mul_kernel<128> --frontend parse --device emu --grid 3 --profile",
                     "--math fast --num-warps 4 --assume-aligned *",
                     "--input X_ptr=/in/liger_element_mul/X_ptr.npy --arg X_stride=300",
                     "--input grad_output_ptr=/in/liger_element_mul/grad_output_ptr.npy --arg n_cols=300"):
            self.assertIn(part, joined)
        self.assertNotIn("--assume-divisible", cmd)  # 300 is no multiple of 16: the JIT would hint nothing

    def test_the_profile_line_is_read(self):
        out = 'ok: k on emu, grid (3, 1, 1)\nprofile: {"global_requests": 7, "warp_instructions": {"ret": 3}}\n'
        self.assertEqual(realworld.read_profile(out), {"global_requests": 7, "warp_instructions": {"ret": 3}})
        self.assertIsNone(realworld.read_profile("error: the launch failed\n"))


if __name__ == "__main__":
    unittest.main()


class Compare(unittest.TestCase):
    """check.compare, where NumPy is there (the venv's Python; the suite skips without it)."""

    def setUp(self):
        try:
            import numpy  # noqa: F401
        except ImportError:
            self.skipTest("NumPy is not installed")
        from experiments.realworld import check
        self.check = check

    def test_agreeing_buffers_pass_and_a_wrong_element_is_named(self):
        import numpy as np
        a = np.array([1.0, 2.0, 0.0, -3.0], dtype=np.float32)
        self.assertIsNone(self.check.compare(a, a.copy(), "f32"))
        b = a.copy()
        b[3] = -3.5
        self.assertIn("1 of 4 elements differ (first at 3", self.check.compare(a, b, "f32"))

    def test_one_sides_garbage_does_not_widen_the_bound_near_zero(self):
        import numpy as np
        ours = np.array([0.0, 1e-3, 2.0], dtype=np.float32)
        garbage = np.array([1e35, 0.0, 2.0], dtype=np.float32)  # near-zero elements would pass a 1e29 bound
        self.assertIn("2 of 3 elements differ", self.check.compare(ours, garbage, "f32"))
