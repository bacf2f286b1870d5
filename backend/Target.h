//===- Target.h - LLVM IR to PTX through LLVM's NVPTX target --------------===//
#pragma once

#include "ir/Type.h"

#include <llvm/IR/Module.h>

#include <cstdint>
#include <string>

namespace twintile::backend {

/// The NVPTX triple and data layout for `arch` ("sm_90a", "sm_80"), set on
/// `module` before anything is added to it.
void prepareModule(llvm::Module &module, const std::string &arch);

/// The most shared memory one block may use on `arch`: 163 KiB on sm_80
/// (A100), 227 KiB on sm_90a (H100, H200). Beyond the 48 KiB a kernel may
/// declare statically it is dynamic shared memory, which a launch opts into.
int64_t maxSharedBytes(const std::string &arch);

/// The kind an element's arithmetic is computed in: f16 and bf16 in f32 (the
/// lowering widens them and narrows the result), the rest as they are.
inline ir::ScalarKind computeKind(ir::ScalarKind k) {
  return k == ir::ScalarKind::F16 || k == ir::ScalarKind::BF16 ? ir::ScalarKind::F32 : k;
}

/// Runs the LLVM passes the lowered code needs (Target.cpp's kPipeline).
/// `fpFusion` (--math=fast): the target lets any floating-point multiply
/// feeding an add fuse into an fma, as Triton's enable_fp_fusion does, and
/// the pipeline ends with RoundUncontractedPass (Rounded.h): every add and
/// multiply the lowering did not mark `contract` becomes a rounded one.
void optimize(llvm::Module &module, const std::string &arch, bool fpFusion = false);

/// PTX text for `module`; `fpFusion` as for optimize: the adds and
/// multiplies left plain (the kernel's own f32 ones) print without .rn, and
/// ptxas may contract them too. `tensorMaps`: the module builds TMA's maps,
/// which asks for PTX ISA 8.3 instead of 8.0.
std::string emitPtx(llvm::Module &module, const std::string &arch, bool fpFusion = false, bool tensorMaps = false);

/// LLVM's verifier: empty if `module` is well formed, else its complaint.
std::string verify(const llvm::Module &module);

} // namespace twintile::backend
