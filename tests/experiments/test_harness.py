"""The harness's facts agree with what they describe: corpus.json's baselines name exactly the
kernels each baseline program has (read from its source, so no baseline need be installed)."""
import ast
import unittest

from experiments.harness import common, systems


def names_in(path, name, required=True):
    """The keys or items of the module-level `name` (a dict, list or tuple) in `path`."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            value = node.value
            items = value.keys if isinstance(value, ast.Dict) else value.elts
            return {ast.literal_eval(k) for k in items}
    if required:
        raise AssertionError(f"{path} has no {name}")
    return set()


def kernels_in(path):
    """The corpus kernels of a baseline program: its KERNELS, less those only a suite compares (SUITE_ONLY)."""
    suite_only = names_in(path, "SUITE_ONLY", required=False)
    kernels = names_in(path, "KERNELS")
    assert suite_only <= kernels, f"{path}: SUITE_ONLY names kernels KERNELS lacks: {suite_only - kernels}"
    return kernels - suite_only


class Corpus(unittest.TestCase):
    def listed(self, baseline):
        return {k["name"] for k in common.corpus_entries() if baseline in k["baselines"]}

    def test_each_python_baseline_has_the_kernels_the_corpus_says(self):
        for baseline, source in (("triton", "triton_kernels.py"), ("pallas", "pallas_kernels.py"),
                                 ("cute", "cute_kernels.py")):
            with self.subTest(baseline=baseline):
                self.assertEqual(self.listed(baseline), kernels_in(common.BASELINES / source))

    def test_nvcc_has_a_cuda_file_for_each_kernel_the_corpus_says(self):
        self.assertEqual(self.listed("nvcc"), {p.stem for p in common.BASELINES.glob("*.cu")})

    def test_every_kernel_has_a_class_and_only_known_baselines(self):
        for k in common.corpus_entries():
            with self.subTest(kernel=k["name"]):
                self.assertIn(k["class"], ("memory", "compute"))
                self.assertTrue(set(k["baselines"]) <= set(systems.SYSTEMS), k["baselines"])

    def test_a_system_without_a_python_module_is_not_asked_for_one(self):
        with self.assertRaises(ValueError):
            systems.missing("nvcc")


if __name__ == "__main__":
    unittest.main()
