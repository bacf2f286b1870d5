"""One rule names a specialization's file: the driver's (tools/driver/Compile.cpp's stemOf, which
`twintile compile --kernel A --kernel B -o DIR` uses) and the harness's (common.spec_file_name, which
the suites and the Python baselines use to find and write those files) give the same names."""
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from experiments.harness import common

SPECS = ["softmax<f16,1024>", "matmul<128, 128, 32>", "k<-1>", "k< - 2 >", "ns::k<f32, 1>", "k<(1 << 4)>",
         "k<1.5f>", "plain"]

KERNEL = """#include <twintile.h>
using namespace tt;
template <class T, int B> TT_KERNEL void softmax(Ptr<f32> x) {}
template <int... A> TT_KERNEL void matmul(Ptr<f32> x) {}
template <auto... A> TT_KERNEL void k(Ptr<f32> x) {}
namespace ns { template <class T, int B> TT_KERNEL void k(Ptr<f32> x) {} }
TT_KERNEL void plain(Ptr<f32> x) {}
"""


class Stems(unittest.TestCase):
    def test_the_harness_names_files_as_the_driver_does(self):
        twintile = common.BUILD / "tools" / "twintile"
        if not twintile.exists():
            self.skipTest(f"twintile is not built in {common.BUILD}")
        with tempfile.TemporaryDirectory() as tmp:
            kernel = Path(tmp) / "k.cpp"
            kernel.write_text(KERNEL)
            out = Path(tmp) / "out"
            args = [str(twintile), "compile", "--frontend=parse", str(kernel), "--emit", "source", "-o", str(out)]
            for spec in SPECS:
                args += ["--kernel", spec]
            proc = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "TWINTILE_CACHE_DIR": tmp})
            self.assertEqual(proc.returncode, 0, proc.stderr)
            written = {p.stem for p in out.iterdir()}
        expected = {common.spec_file_name(s) for s in SPECS}
        self.assertEqual(len(expected), len(SPECS), "the specs here must have distinct names")
        self.assertEqual(written, expected)

    def test_examples(self):
        self.assertEqual(common.spec_file_name("softmax<f16,1024>"), "softmax_f16_1024")
        self.assertEqual(common.spec_file_name("k<-1>"), "k_m1")
        self.assertEqual(common.spec_file_name("ns::k<f32, 1>"), "ns_k_f32_1")
        self.assertEqual(common.spec_file_name("<>"), "kernel")


if __name__ == "__main__":
    unittest.main()
