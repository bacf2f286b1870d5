// flash_attention (forward): O = softmax(Q K^T * scale) V for one head per grid row,
// with the online softmax: a for_range over key blocks carries the running max m,
// the running sum l and the unnormalized output.
// Q, K, V, O are [heads, seq_len, D] row-major f16; scores and accumulation in f32.
// Meant for: (BM, BN, D) in {(16, 16, 16), (32, 32, 32), (64, 64, 64)}; grid
// (cdiv(seq_len, BM), heads).
#include <twintile.h>
using namespace tt;

template <int BM, int BN, int D>
TT_KERNEL void flash_attention(Ptr<f16> q, Ptr<f16> k, Ptr<f16> v, Ptr<f16> o, i32 seq_len, f32 scale) {
  auto head = program_id(1) * seq_len * D;
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rd = arange(0, D);
  auto rows = expand_dims(rm, 1) < seq_len;
  auto tq = load(q + head + expand_dims(rm, 1) * D + expand_dims(rd, 0), rows, 0.0f);
  auto [m, l, acc] = for_range(
      0, seq_len, BN, full<f32>({BM}, -inf), zeros<f32>({BM}), zeros<f32>({BM, D}),
      [&](i32 start, Tile<f32> m, Tile<f32> l, Tile<f32> acc) {
        auto rn = start + arange(0, BN);
        auto keys = expand_dims(rn, 0) < seq_len;
        auto kt = load(k + head + expand_dims(rn, 0) * D + expand_dims(rd, 1), keys, 0.0f);  // [D, BN]
        auto s = where(keys, dot(tq, kt, zeros<f32>({BM, BN})) * scale, -inf);
        auto m_new = maximum(m, max(s, 1));
        auto p = exp(s - expand_dims(m_new, 1));
        auto alpha = exp(m - m_new);
        auto tv = load(v + head + expand_dims(rn, 1) * D + expand_dims(rd, 0), expand_dims(rn, 1) < seq_len, 0.0f);
        return carry(m_new, l * alpha + sum(p, 1), dot(cast<f16>(p), tv, acc * expand_dims(alpha, 1)));
      });
  store(o + head + expand_dims(rm, 1) * D + expand_dims(rd, 0), cast<f16>(acc / expand_dims(l, 1)), rows);
}
