//===- TensorCores.cpp - which unit runs a dot, and its operands' shared form -===//
#include "backend/TensorCores.h"

#include <algorithm>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

/// The widest wgmma swizzle that rows of `bytes` bytes are whole panels of.
int panelSwizzle(int64_t bytes) {
  for (int s : {128, 64, 32})
    if (bytes % s == 0) return s;
  return 0;
}

/// The form `operand` of `dot` takes if the dot runs on wgmma (swizzleBytes 0
/// where its contiguous dim cannot be cut into panels), from the operand's layout.
StagedForm hopperForm(const Op &dot, int operand, const LayoutMap &layouts) {
  const Value *v = dot.operand(static_cast<size_t>(operand));
  StagedForm f;
  f.rowDim = stagedRowDim(operand, layouts.at(v), v->type.elem);
  f.swizzleBytes = panelSwizzle(v->type.shape[static_cast<size_t>(1 - f.rowDim)] * byteSize(v->type.elem));
  return f;
}

/// wgmma's accumulator layout from mma.sync's (mmaLayout): each warp's 16
/// rows adjacent, its two 8-row blocks one after the other.
Layout asWgmma(Layout mma) {
  mma.repsPerWarp = {2, 1};
  return mma;
}

/// True if `dot`, whose mma.sync layout is `mma`, runs on wgmma on `arch`:
/// f16/bf16 into f32, whole warpgroups along M, each warp 16 rows of every
/// 64-row instruction, both operands cut into panels, N an instruction's.
bool fitsWgmma(const Op &dot, const Layout &mma, const LayoutMap &layouts, const std::string &arch) {
  if (arch != "sm_90a") return false;
  const Type &a = dot.operand(0)->type, &c = dot.result()->type;
  if ((a.elem != ScalarKind::F16 && a.elem != ScalarKind::BF16) || c.elem != ScalarKind::F32) return false;
  int wm = mma.warpsPerCTA[0], wn = mma.warpsPerCTA[1];
  if (wn != 1 || wm % 4 != 0 || c.shape[0] % (16 * int64_t(wm)) != 0) return false;
  StagedForm fa = hopperForm(dot, 0, layouts), fb = hopperForm(dot, 1, layouts);
  return fa.swizzleBytes && fb.swizzleBytes && wgmmaN(c.shape[1], fb, a.elem);
}

} // namespace

int64_t wgmmaN(int64_t n, const StagedForm &b, ScalarKind elem) {
  // An MN-major b's descriptor starts at a panel: whole panels per instruction.
  int64_t panel = b.rowDim == 0 ? b.swizzleBytes / byteSize(elem) : 8;
  for (int64_t i = std::min<int64_t>(256, n) / 8 * 8; i >= 8; i -= 8)
    if (n % i == 0 && i % panel == 0) return i;
  return 0;
}

std::optional<Layout> tensorCoreLayout(const Op &dot, const LayoutMap &layouts, int numWarps, const std::string &arch) {
  std::optional<Layout> mma = mmaLayout(dot, numWarps);
  if (mma && fitsWgmma(dot, *mma, layouts, arch)) return asWgmma(*mma);
  return mma;
}

DotEngine dotEngine(const Op &dot, const LayoutMap &layouts, int numWarps, const std::string &arch) {
  std::optional<Layout> mma = mmaLayout(dot, numWarps);
  if (!mma) return DotEngine::Fma;
  const Layout &l = layouts.at(dot.result());
  if (l == *mma) return DotEngine::MmaSync;
  if (!(l == asWgmma(*mma))) return DotEngine::Fma;
  if (!fitsWgmma(dot, *mma, layouts, arch))
    throw InternalError("a dot has wgmma's accumulator layout but does not fit wgmma on " + arch, dot.loc);
  return DotEngine::Wgmma;
}

bool onTensorCores(const Op &dot, const LayoutMap &layouts, int numWarps) {
  std::optional<Layout> mma = mmaLayout(dot, numWarps);
  const Layout &l = layouts.at(dot.result());
  return mma && (l == *mma || l == asWgmma(*mma));
}

StagedForm stagedForm(const Op &dot, int operand, const LayoutMap &layouts, int numWarps, const std::string &arch) {
  if (dotEngine(dot, layouts, numWarps, arch) == DotEngine::Wgmma) return hopperForm(dot, operand, layouts);
  const Value *v = dot.operand(static_cast<size_t>(operand));
  return {stagedRowDim(operand, layouts.at(v), v->type.elem), 0};
}

} // namespace twintile::backend
