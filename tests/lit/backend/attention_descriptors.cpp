// Causal attention forward written with tensor descriptors (one per tensor,
// each head's rows from a base pointer offset in the kernel; K read as
// [BN, D] blocks and transposed for q @ k^T), bf16, a kernel no other test
// has seen. Both front ends give the same IR; on sm_90a both products run on
// wgmma (ptxas makes HGMMA of them, without spills, at 4 and 8 warps and head
// dims 64 and 128: 136 and 237 registers with the promises), on sm_80 on
// mma.sync; the emulator matches the interpreter with a sequence that no
// block size divides.
// RUN: twintile diff %s --kernel 'attention_desc<64, 64, 64>' | FileCheck %s --check-prefix=SAME
// RUN: twintile compile --frontend=parse %s --kernel 'attention_desc<64, 64, 64>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=HOPPER
// RUN: twintile compile --frontend=trace %s --kernel 'attention_desc<64, 64, 64>' --target sm_80 --emit ptx | FileCheck %s --check-prefix=AMPERE
// RUN: twintile compile --frontend=parse %s --kernel 'attention_desc<64, 64, 64>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=PLAN
// RUN: twintile run --frontend=trace %s --kernel 'attention_desc<64, 64, 64>' --assume-aligned '*' --assume-divisible '*' --grid 3,2 --arg q=40000 --arg k=40000 --arg v=40000 --arg o=40000 --arg seq=144 --arg scale=0.125 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'attention_desc<128, 64, 128>' --num-warps 8 --num-stages 2 --assume-aligned '*' --assume-divisible '*' --grid 2,2 --arg q=80000 --arg k=80000 --arg v=80000 --arg o=80000 --arg seq=208 --arg scale=0.09 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'attention_desc<64, 64, 64>' --grid 3,2 --arg q=40000 --arg k=40000 --arg v=40000 --arg o=40000 --arg seq=150 --arg scale=0.125 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'attention_desc<128, 64, 128>' --num-warps 8 --grid 2,2 --arg q=80000 --arg k=80000 --arg v=80000 --arg o=80000 --arg seq=200 --arg scale=0.09 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'attention_desc<64, 64, 64>' --target sm_80 --grid 3,2 --arg q=40000 --arg k=40000 --arg v=40000 --arg o=40000 --arg seq=150 --arg scale=0.125 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

// Causal attention forward over [heads * seq, D] rows, through descriptors:
// K read as [BN, D] blocks and transposed for q @ k^T.
template <int BM, int BN, int D>
TT_KERNEL void attention_desc(Ptr<bf16> q, Ptr<bf16> k, Ptr<bf16> v, Ptr<bf16> o, i32 seq, f32 scale) {
  i32 base = program_id(1) * seq;  // the head's first row
  auto dq = make_tensor_descriptor(q + base * D, {seq, D}, {D, 1}, {BM, D});
  auto dk = make_tensor_descriptor(k + base * D, {seq, D}, {D, 1}, {BN, D});
  auto dv = make_tensor_descriptor(v + base * D, {seq, D}, {D, 1}, {BN, D});
  auto dout = make_tensor_descriptor(o + base * D, {seq, D}, {D, 1}, {BM, D});
  i32 first = program_id(0) * BM;
  auto rm = first + arange(0, BM);
  auto tq = dq.load({first, 0});
  auto [m, l, acc] = for_range(
      0, minimum(first + BM, seq), BN, full<f32>({BM}, -inf), zeros<f32>({BM}), zeros<f32>({BM, D}),
      [&](i32 start, Tile<f32> m, Tile<f32> l, Tile<f32> acc) {
        auto rn = start + arange(0, BN);
        auto visible = expand_dims(rn, 0) <= expand_dims(rm, 1);
        auto s = where(visible, dot(tq, trans(dk.load({start, 0})), zeros<f32>({BM, BN})) * scale, -inf);
        auto m_new = maximum(m, max(s, 1));
        auto p = exp(s - expand_dims(m_new, 1));
        auto alpha = exp(m - m_new);
        return carry(m_new, l * alpha + sum(p, 1), dot(cast<bf16>(p), dv.load({start, 0}), acc * expand_dims(alpha, 1)));
      });
  dout.store({first, 0}, cast<bf16>(acc / expand_dims(l, 1)));
}

// SAME: equal: the parse and trace IR
// HOPPER-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// AMPERE: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// AMPERE-NOT: wgmma
// RAN: ok: attention_desc on emu, {{.*}}: matches the interpreter
// With the promises, k's tiles (transposed: b of the first dot, staged
// k-major) and v's (b of the second) are copied by TMA.
// PLAN: pipelined: 2 loads copied 2 iterations ahead into a ring of 3 stages; 1 loop-invariant dot operand staged once before it; TMA: 16384 bytes a stage
// PLAN: copied ahead: TMA, 1 box of 64 x 64 bf16 through tensor map 0
// PLAN: copied ahead: TMA, 1 box of 64 x 64 bf16 through tensor map 1
