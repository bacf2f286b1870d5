// twintile tune: a kernel's configurations timed on the stand-in CUDA
// driver, whose events count the emulator's instructions (FAKE_CUDA_TIME):
// a 128-wide row sum on one warp runs fewer than a 1024-wide one on eight,
// so it wins (tests/launch/kernels/tuned.cpp); the winner is kept on disk
// and read back; what cannot be tuned is said.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env TWINTILE_CACHE_DIR=%t/cache TWINTILE_LIBCUDA=%fake-cuda FAKE_CUDA_TIME=instructions twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=1024,num_warps=8 --config BLOCK=128,num_warps=1 --grid 4 --arg x=400 --arg n=100 --key n --warmup-ms 0 --rep-ms 0.001 | FileCheck %s --check-prefix=FIRST
// FIRST: tuned rowsum<{BLOCK}> on Fake GPU
// FIRST-NEXT: {{^    }}BLOCK=1024 num_warps=8: {{[0-9.]+}} ms
// FIRST-NEXT: {{^  \* }}BLOCK=128 num_warps=1: {{[0-9.]+}} ms
// FIRST-NEXT: best: BLOCK=128 num_warps=1
// RUN: env TWINTILE_CACHE_DIR=%t/cache TWINTILE_LIBCUDA=%fake-cuda FAKE_CUDA_TIME=instructions twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=1024,num_warps=8 --config BLOCK=128,num_warps=1 --grid 4 --arg x=400 --arg n=100 --key n --json | FileCheck %s --check-prefix=SECOND
// SECOND: "best": "BLOCK=128 num_warps=1",
// SECOND-NEXT: "from_disk_cache": true,
// Another key value is tuned again: a grid that depends on the configuration.
// RUN: env TWINTILE_CACHE_DIR=%t/cache TWINTILE_LIBCUDA=%fake-cuda FAKE_CUDA_TIME=instructions twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=1024,num_warps=8 --config BLOCK=128,num_warps=1 --grid 'cdiv(4 * n, BLOCK) / (4 * n / BLOCK + 1) + 3' --arg x=400 --arg n=99 --key n --warmup-ms 0 --rep-ms 0.001 --json | FileCheck %s --check-prefix=THIRD
// THIRD: "from_disk_cache": false,
// THIRD: "config": "BLOCK=1024 num_warps=8",
// THIRD-NEXT: "seconds":
//
// RUN: not env TWINTILE_CACHE_DIR=%t/cache twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=128 --grid 4 --arg n=100 --device emu 2>&1 | FileCheck %s --check-prefix=EMU
// EMU: twintile: error: autotuning times each candidate on the device, and the emu device's timer (wall clock) measures the host's simulation of it: tune on a GPU (cuda)
// RUN: not env TWINTILE_LIBCUDA=%fake-cuda twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=128 --grid 'cdiv(n, BLOCK' --arg n=100 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: twintile: error: --grid 'cdiv(n, BLOCK': column 14: expected ')'
// RUN: not env TWINTILE_LIBCUDA=%fake-cuda twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=128 --grid 'n / (BLOCK - 128)' --arg n=100 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: twintile: error: --grid 'n / (BLOCK - 128)': column 18: division by zero
// RUN: not env TWINTILE_LIBCUDA=%fake-cuda twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=wide --grid 4 2>&1 | FileCheck %s --check-prefix=CONFIG
// CONFIG: twintile: error: --config 'BLOCK=wide': 'BLOCK=wide' is not NAME=INTEGER
// RUN: not env TWINTILE_LIBCUDA=%fake-cuda twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{WIDTH}>' --config BLOCK=128 --grid 4 2>&1 | FileCheck %s --check-prefix=TEMPLATE
// TEMPLATE: twintile: error: the configuration BLOCK=128 gives '{WIDTH}' in 'rowsum<{WIDTH}>' no value
