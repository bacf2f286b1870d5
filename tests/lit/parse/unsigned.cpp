// Triton's unsigned integer types (tl.uint8 .. tl.uint64) are u8 .. u64: the
// same IR from both front ends, with the ops whose meaning depends on
// signedness (division, remainder, >>, comparisons, min/max, reductions,
// conversions, pointer offsets) unsigned, and the emulator's results equal to
// the interpreter's. The kernel makes values with the high bit set (a u32
// product that wraps past 2^31, a u64 one past 2^63), where a signed view
// would differ. The interpreter's values are pinned against C++'s unsigned
// arithmetic in tests/ir/UnsignedOpsTest.cpp.
// RUN: twintile compile --frontend=parse %s --kernel 'unsigned_ops<128>' --emit tile | FileCheck %s
// RUN: twintile compile --frontend=trace %s --kernel 'unsigned_ops<128>' --emit tile | FileCheck %s
// RUN: twintile diff %s --kernel 'unsigned_ops<128>' | FileCheck %s --check-prefix=SAME
// RUN: twintile compile --frontend=parse %s --kernel 'unsigned_ops<128>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=parse %s --kernel 'unsigned_ops<128>' --arg x=128 --arg y=128 --arg w=128 --arg out=1280 --arg wide=256 --arg fl=128 --arg out64=384 --arg n=100 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=trace %s --kernel 'unsigned_ops<128>' --arg x=128 --arg y=128 --arg w=128 --arg out=1280 --arg wide=256 --arg fl=128 --arg out64=384 --arg n=100 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=parse --target sm_80 %s --kernel 'unsigned_ops<128>' --arg x=128 --arg y=128 --arg w=128 --arg out=1280 --arg wide=256 --arg fl=128 --arg out64=384 --arg n=100 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=parse %s --kernel 'unsigned_more<16>' --arg x=32 --arg y=48 --arg o=16 --arg sh=16 --arg k=16 --arg s=18446744073709551610 | FileCheck %s --check-prefix=MORE
// RUN: twintile run --frontend=trace %s --kernel 'unsigned_more<16>' --arg x=32 --arg y=48 --arg o=16 --arg sh=16 --arg k=16 --arg s=18446744073709551610 | FileCheck %s --check-prefix=MORE
// RUN: twintile run --frontend=parse %s --kernel 'unsigned_atomics<64>' --arg x=64 --arg m=1 --arg n=60 | FileCheck %s --check-prefix=ATOM
// RUN: twintile run --frontend=trace %s --kernel 'unsigned_atomics<64>' --arg x=64 --arg m=1 --arg n=60 | FileCheck %s --check-prefix=ATOM
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void unsigned_ops(Ptr<u32> x, Ptr<u8> y, Ptr<u64> w, Ptr<u32> out, Ptr<i64> wide, Ptr<f32> fl,
                            Ptr<u64> out64, i32 n) {
  auto offs = arange(0, B);
  auto mask = offs < n;
  auto a = load(x + offs, mask, 0u) * 50000017u + 7u;             // wraps past 2^31
  auto b = load(y + offs, mask, u8(0));
  auto c = load(w + offs, mask, u64(0)) * 0x9E3779B97F4A7C15ull;  // past 2^63, a u64 host constant
  auto o = out + offs * 10;
  store(o + 0, a / 3u, mask);
  store(o + 1, a % 1000u, mask);
  store(o + 2, a >> 28, mask);                          // logical: zeros fill
  store(o + 3, where(a < 2147483648u, 1u, 0u), mask);
  store(o + 4, maximum(a, 3000000000u), mask);
  store(o + 5, a + b, mask);                            // u32 + u8: u32
  store(o + 6, cast<u32>(cast<f32>(a)), mask);
  store(o + 7, max(a, 0) + min(a, 0), mask);            // unsigned reductions
  store(o + 8, cast<u32>(b - u8(200)), mask);           // u8 wraps
  store(o + 9, a ^ (a >> 16), mask);
  store(wide + offs * 2, cast<i64>(a), mask);           // zero-extends
  store(wide + offs * 2 + 1, b + offs, mask);           // u8 + i32: i32
  store(fl + offs, cast<f32>(c >> 40) + cast<f32>(a), mask);
  auto p = out64 + cast<u32>(offs) * 3u;                // an unsigned offset
  store(p, c / 1000000007ull, mask);
  store(p + 1, c % 97ull, mask);
  store(p + 2, where(c > 0x8000000000000000ull, c >> 63, c >> 1), mask);
}

// Atomics compare unsigned: the maximum of values past 2^31.
template <int B>
TT_KERNEL void unsigned_atomics(Ptr<u32> x, Ptr<u32> m, i32 n) {
  auto offs = arange(0, B);
  auto v = load(x + offs, offs < n, 0u) * 50000017u;
  atomic_max(m + offs * 0, v, offs < n);
}

// Pointers step back by unsigned offsets; shifts take operands of two
// integer types; seeds may be unsigned; a u64
// argument and host constant above 2^63 keep their values (printed by the
// emulator's vprintf, %llu).
template <int B>
TT_KERNEL void unsigned_more(Ptr<f32> x, Ptr<f32> y, Ptr<u64> o, Ptr<u32> sh, u32 k, u64 s) {
  auto offs = arange(0, B);
  store(y + offs, load((x + B) - k + offs));
  store(y + B + offs, load((x + B) - cast<u32>(offs)));
  store(y + 2 * B + offs, rand(s, offs) + rand(k, offs) + rand(0x9E3779B97F4A7C15ull, offs) +
                              cast<f32>(s) * 0x8000000000000000ull);
  store(o + offs, s + cast<u64>(offs));
  store(sh + offs, ((cast<u32>(offs) * 50000017u) >> (offs % 8)) + cast<u32>(-1));  // u32 >> i32 promotes
  device_print("s ", s);
  // A host seed's two key words, as Triton widens it (by its signedness) and splits it.
  device_print("seed ", seed_lo(0x9E3779B97F4A7C15ull), seed_hi(0x9E3779B97F4A7C15ull), seed_lo(-5), seed_hi(-5),
               seed_lo(4000000000u), seed_hi(4000000000u));
}

// CHECK-LABEL: func @unsigned_ops
// CHECK:      load {{.*}} : tile<128xu32>
// CHECK:      load {{.*}} : tile<128xu8>
// CHECK:      constant {value = 11400714819323198485} : u64
// CHECK:      div {{.*}} : tile<128xu32>
// CHECK:      rem {{.*}} : tile<128xu32>
// CHECK:      shr {{.*}} : tile<128xu32>
// CHECK:      lt {{.*}} : tile<128xi1>
// u32 + u8 widens the u8
// CHECK:      cast %{{[0-9]+}} : tile<128xu32>
// CHECK:      add {{.*}} : tile<128xu32>
// CHECK:      max {{.*}} : u32
// u8 + i32 computes in i32
// CHECK:      cast %{{[0-9]+}} : tile<128xi32>
// CHECK:      div {{.*}} : tile<128xu64>
// CHECK:      addptr {{.*}} : tile<128xptr<u64>>

// SAME: equal: the parse and trace IR of unsigned_ops<128> are structurally identical

// division by a constant: the unsigned high product
// PTX-DAG: mul.hi.u32
// PTX-DAG: mul.hi.u64
// PTX-DAG: shr.u32
// PTX-DAG: max.u32
// PTX-DAG: setp.gt.u64
// PTX-DAG: cvt.rzi.u32.f32
// PTX-DAG: cvt.rn.f32.u64

// EMU: ok: unsigned_ops on emu{{.*}}matches the interpreter
// ATOM: ok: unsigned_atomics on emu{{.*}}matches the interpreter
// MORE: pid (0, 0, 0) s  18446744073709551610
// MORE: pid (0, 0, 0) seed  2135587861 -1640531527 -5 -1 -294967296 0
// MORE: ok: unsigned_more on emu{{.*}}matches the interpreter
