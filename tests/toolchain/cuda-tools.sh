#!/usr/bin/env bash
# The CUDA tools that scripts/setup provides work: ptxas assembles PTX for
# sm_90a and sm_80, and nvcc compiles CUDA C++ to PTX.
# Usage: cuda-tools.sh PTXAS NVCC WORKDIR. Exit 77 (skipped) when absent.
set -euo pipefail
ptxas=$1 nvcc=$2 work=$3
if [ ! -x "$ptxas" ] || [ ! -x "$nvcc" ]; then
  echo "SKIPPED: CUDA's ptxas/nvcc were not found (run scripts/setup, or set TWINTILE_PTXAS/TWINTILE_NVCC)"
  exit 77
fi
mkdir -p "$work" && cd "$work"
cat > add_one.cu <<'CU'
extern "C" __global__ void add_one(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
CU
for arch in sm_90a sm_80; do
  "$nvcc" -ptx -arch=$arch add_one.cu -o add_one.$arch.ptx
  grep -q '.entry add_one' add_one.$arch.ptx
  "$ptxas" -arch=$arch -v add_one.$arch.ptx -o add_one.$arch.cubin 2> ptxas.$arch.log
  grep -q 'Used [0-9]* registers' ptxas.$arch.log
done
echo "ok: nvcc and ptxas work ($("$ptxas" --version | tail -1))"
