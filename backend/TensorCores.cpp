//===- TensorCores.cpp - which unit runs a dot, and its operands' shared form -===//
#include "backend/TensorCores.h"

#include <algorithm>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

bool onTensorCores(const Op &dot, const LayoutMap &layouts, int numWarps) {
  std::optional<Layout> mma = mmaLayout(dot, numWarps);
  return mma && *mma == layouts.at(dot.result());
}

/// The widest wgmma swizzle that rows of `bytes` bytes are whole panels of.
int panelSwizzle(int64_t bytes) {
  for (int s : {128, 64, 32})
    if (bytes % s == 0) return s;
  return 0;
}

/// The form `operand` of `dot` takes if the dot runs on wgmma (swizzleBytes 0
/// where its contiguous dim cannot be cut into panels).
StagedForm hopperForm(const Op &dot, int operand, const LayoutMap &layouts) {
  const Value *v = dot.operand(static_cast<size_t>(operand));
  StagedForm f;
  f.rowDim = stagedRowDim(operand, layouts.at(v), v->type.elem);
  f.swizzleBytes = panelSwizzle(v->type.shape[static_cast<size_t>(1 - f.rowDim)] * byteSize(v->type.elem));
  if (operand == 0) f.rowWarps = layouts.at(dot.result()).warpsPerCTA[0];
  return f;
}

} // namespace

int64_t wgmmaN(int64_t n, const StagedForm &b, ScalarKind elem) {
  // An MN-major b's descriptor starts at a panel: whole panels per instruction.
  int64_t panel = b.rowDim == 0 ? b.swizzleBytes / byteSize(elem) : 8;
  for (int64_t i = std::min<int64_t>(256, n) / 8 * 8; i >= 8; i -= 8)
    if (n % i == 0 && i % panel == 0) return i;
  return 0;
}

DotEngine dotEngine(const Op &dot, const LayoutMap &layouts, int numWarps, const std::string &arch) {
  if (!onTensorCores(dot, layouts, numWarps)) return DotEngine::Fma;
  if (arch != "sm_90a") return DotEngine::MmaSync;
  const Type &a = dot.operand(0)->type, &c = dot.result()->type;
  if ((a.elem != ScalarKind::F16 && a.elem != ScalarKind::BF16) || c.elem != ScalarKind::F32) return DotEngine::MmaSync;
  // Whole warpgroups along M, each warp 16 rows of every 64-row instruction.
  const Layout &l = layouts.at(dot.result());
  int wm = l.warpsPerCTA[0], wn = l.warpsPerCTA[1];
  if (wn != 1 || wm % 4 != 0 || c.shape[0] % (16 * int64_t(wm)) != 0) return DotEngine::MmaSync;
  StagedForm fa = hopperForm(dot, 0, layouts), fb = hopperForm(dot, 1, layouts);
  if (!fa.swizzleBytes || !fb.swizzleBytes || !wgmmaN(c.shape[1], fb, a.elem)) return DotEngine::MmaSync;
  return DotEngine::Wgmma;
}

StagedForm stagedForm(const Op &dot, int operand, const LayoutMap &layouts, int numWarps, const std::string &arch) {
  if (dotEngine(dot, layouts, numWarps, arch) == DotEngine::Wgmma) return hopperForm(dot, operand, layouts);
  const Value *v = dot.operand(static_cast<size_t>(operand));
  return {stagedRowDim(operand, layouts.at(v), v->type.elem), 0, 0};
}

} // namespace twintile::backend
