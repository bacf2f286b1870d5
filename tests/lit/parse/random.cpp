// Philox random numbers (tests/parse/random_kernels.cpp) compile to PTX whose
// emulated run writes what the interpreter writes, from both front ends; their
// streams are checked against Triton's in tests/parse/RandomTest.cpp.
// RUN: twintile run --frontend=parse %S/../../parse/random_kernels.cpp --kernel 'streams<64>' --arg ints=128 --arg u=128 --arg z=128 --arg seed=42 --grid 2 | FileCheck %s
// RUN: twintile run --frontend=trace %S/../../parse/random_kernels.cpp --kernel 'streams<64>' --arg ints=128 --arg u=128 --arg z=128 --arg seed=42 --grid 2 | FileCheck %s

// CHECK: ok: streams on emu, grid (2, 1, 1), {{.*}}: matches the interpreter on 384 elements of 3 buffers
