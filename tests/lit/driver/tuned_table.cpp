// A tuned table: `twintile tune --table` adds each tuning's winner, a row
// per value of the key; `twintile library --tuned` makes a function over it
// with no grid parameter (tests/package/check_package.sh runs one). Timed
// on the stand-in CUDA driver, whose events count the emulator's
// instructions (tests/launch/kernels/tuned.cpp).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env TWINTILE_CACHE_DIR=%t/cache TWINTILE_LIBCUDA=%fake-cuda FAKE_CUDA_TIME=instructions twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=1024,num_warps=8 --config BLOCK=128,num_warps=1 --grid 4 --arg x=400 --arg n=100 --key n --warmup-ms 0 --rep-ms 0.001 --table %t/rowsum.json
// RUN: env TWINTILE_CACHE_DIR=%t/cache TWINTILE_LIBCUDA=%fake-cuda FAKE_CUDA_TIME=instructions twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=1024,num_warps=8 --config BLOCK=128,num_warps=1 --grid 4 --arg x=400 --arg n=99 --key n --warmup-ms 0 --rep-ms 0.001 --table %t/rowsum.json
// The same key again replaces its row (from the disk cache: the time its row has is kept).
// RUN: env TWINTILE_CACHE_DIR=%t/cache TWINTILE_LIBCUDA=%fake-cuda FAKE_CUDA_TIME=instructions twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=1024,num_warps=8 --config BLOCK=128,num_warps=1 --grid 4 --arg x=400 --arg n=100 --key n --table %t/rowsum.json
// RUN: FileCheck %s --check-prefix=TABLE < %t/rowsum.json
// TABLE: "format": "twintile tuned table 1",
// TABLE-NEXT: "kernel": "rowsum<{BLOCK}>",
// TABLE: "grid": "4",
// TABLE: "key": [
// TABLE-NEXT: 100
// TABLE: "BLOCK": 128,
// TABLE-NEXT: "num_warps": 1
// TABLE-NEXT: },
// TABLE-NEXT: "seconds":
// TABLE-NEXT: "device": "Fake GPU
// TABLE: "key": [
// TABLE-NEXT: 99
// TABLE: "seconds":
// TABLE-NOT: "key"
//
// Another tuning's table is not added to.
// RUN: not env TWINTILE_CACHE_DIR=%t/cache TWINTILE_LIBCUDA=%fake-cuda FAKE_CUDA_TIME=instructions twintile tune %S/../../launch/kernels/tuned.cpp --kernel 'rowsum<{BLOCK}>' --config BLOCK=128 --grid 2 --arg x=400 --arg n=100 --key n --warmup-ms 0 --rep-ms 0.001 --table %t/rowsum.json 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: twintile: error: the tuned table '{{.*}}rowsum.json' is of 'rowsum<{BLOCK}>' keyed by ["n"] over the grid '4', not this tuning's: use another file
//
// The library's function over the table: no grid; the rows in its comment.
// Each configuration is compiled with its own warps, whatever the library's.
// RUN: twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/rowsum.json --tuned 'sum2=%t/rowsum.json' --target sm_80 --num-warps 2 -o %t/out
// RUN: FileCheck %s --check-prefix=HEADER < %t/out/lib.h
// HEADER: /// rowsum<{BLOCK}>(x: ptr<f32>, out: ptr<f32>, n: i32), tuned: the configuration of the row for the call's n (the nearest row where none is equal), over the grid 4:
// HEADER-NEXT: ///   n=100: BLOCK=128 num_warps=1
// HEADER-NEXT: ///   n=99: BLOCK=128 num_warps=1
// HEADER-NEXT: ::twintile::runtime::Call rowsum(::twintile::runtime::Device &device,
// HEADER-NEXT: ::std::span<float> x,
// HEADER: ::twintile::runtime::Call sum2(::twintile::runtime::Device &device,
// HEADER: extern const ::twintile::runtime::CompiledKernel rowsum_config0;
// HEADER-NEXT: extern const ::twintile::runtime::CompiledKernel sum2_config0;
// RUN: FileCheck %s --check-prefix=SOURCE < %t/out/lib.cpp
// SOURCE-NOT: "num_warps": 2
// SOURCE: "num_warps": 1
// SOURCE-NOT: "num_warps": 2
// SOURCE: const ::twintile::runtime::TunedTable t0_table{"rowsum<{BLOCK}>", "4", 1, t0_rows, 2};
// SOURCE: ::twintile::runtime::callTuned(::t0_table, device, options,
// SOURCE: {::std::int64_t(n)},
// SOURCE-NEXT: {{[{][{]}}"n", ::std::int64_t(n)}});
//
// What a library cannot make of a table, said.
// RUN: echo '{"format": "twintile tuned table 1", "kernel": "rowsum<{BLOCK}>", "key": ["m"], "grid": "1", "rows": [{"key": [1], "config": {"BLOCK": 64}}]}' > %t/nokey.json
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/nokey.json -o %t/nokey 2>&1 | FileCheck %s --check-prefix=NOKEY
// NOKEY: twintile: error: the tuned 'rowsum<{BLOCK}>': its key 'm' is not a parameter
// RUN: echo '{"format": "twintile tuned table 1", "kernel": "rowsum<{BLOCK}>", "key": [], "grid": "1", "rows": [{"key": [], "config": {"WIDTH": 64}}]}' > %t/nometa.json
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/nometa.json -o %t/nometa 2>&1 | FileCheck %s --check-prefix=NOMETA
// NOMETA: twintile: error: the tuned table '{{.*}}nometa.json': the configuration WIDTH=64 gives '{BLOCK}' in 'rowsum<{BLOCK}>' no value
// RUN: echo '{"format": "twintile tuned table 1", "kernel": "rowsum<{BLOCK}>", "key": ["n"], "grid": "1", "rows": [{"key": [1, 2], "config": {"BLOCK": 64}}]}' > %t/long.json
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/long.json -o %t/long 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: twintile: error: the tuned table '{{.*}}long.json': a row's key has 2 values, the table's 1
// RUN: echo '[1, 2' > %t/broken.json
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/broken.json -o %t/broken 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: twintile: error: the tuned table '{{.*}}broken.json' is not JSON
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/absent.json -o %t/absent 2>&1 | FileCheck %s --check-prefix=ABSENT
// ABSENT: twintile: error: cannot read the tuned table '{{.*}}absent.json'
// RUN: echo '{"format": 1}' > %t/format.json
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/format.json -o %t/format 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: twintile: error: the tuned table '{{.*}}format.json': not a tuned table (its "format" is not "twintile tuned table 1")
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib --tuned %t/rowsum.json --tuned %t/rowsum.json -o %t/twice 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: twintile: error: --tuned '{{.*}}rowsum.json' makes the function 'rowsum', which another makes; name one: --tuned NAME={{.*}}rowsum.json
// RUN: not twintile library %S/../../launch/kernels/tuned.cpp --name lib -o %t/none 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: twintile: error: no --kernel and no --tuned: the library would have no function
// RUN: not ls %t/nokey
// RUN: not ls %t/nometa
// RUN: not ls %t/long
// RUN: not ls %t/broken
// RUN: not ls %t/absent
// RUN: not ls %t/none
// RUN: not ls %t/format
// RUN: not ls %t/twice
