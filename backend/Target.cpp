//===- Target.cpp - the NVPTX target machine, the optimizer, PTX ---------===//
#include "backend/Target.h"

#include "backend/MergeGuards.h"
#include "backend/Rounded.h"
#include "backend/SinkToUse.h"

#include "ir/Diagnostic.h"
#include "support/LlvmTargets.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <cassert>
#include <map>
#include <tuple>
#include <memory>
#include <mutex>

namespace twintile::backend {

namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";
// PTX ISA 8.0 (CUDA 12.0) is the first with sm_90a; it also serves sm_80.
// Tensor maps built on the device (tensormap.replace, LowerTma.cpp) need 8.3
// (CUDA 12.3), asked only by the kernels that build them.
constexpr const char *kPtxFeatures = "+ptx80", *kTensorMapPtxFeatures = "+ptx83";

std::unique_ptr<llvm::TargetMachine> makeTargetMachine(const std::string &arch, bool fpFusion, bool tensorMaps) {
  static std::once_flag once;
  std::call_once(once, [] {
    twintile::support::registerLlvmTargets();
    // Shared-memory pointers in 32 bits, as Triton compiles (the shared
    // window is smaller than 4 GiB): addresses into it are computed in
    // 32-bit registers, where 64-bit ones took two registers and 64-bit adds.
    // (Set once, before any target machine exists; the inline PTX that takes
    // shared addresses as 32-bit operands is right either way, since a
    // shared pointer holds an offset into the window.)
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("nvptx-short-ptr");
    if (it != options.end()) static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(true);
  });
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  assert(target && "LLVM was built with the NVPTX target");
  llvm::TargetOptions opts;
  // Triton's enable_fp_fusion: any multiply feeding an add may fuse, in
  // LLVM's DAG combiner and in ptxas (add.f32 and mul.f32 without .rn).
  // What must round at every op is lowered to NVVM's .rn intrinsics instead.
  if (fpFusion) opts.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      kTriple, arch, tensorMaps ? kTensorMapPtxFeatures : kPtxFeatures, opts, std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Default));
}

/// The target machine for `arch` and a math mode, made once per thread
/// (optimize and emitPtx use it; compiles on one thread run one after
/// another). Both modes' machines give the same data layout.
llvm::TargetMachine &targetMachine(const std::string &arch, bool fpFusion = false, bool tensorMaps = false) {
  thread_local std::map<std::tuple<std::string, bool, bool>, std::unique_ptr<llvm::TargetMachine>> machines;
  std::unique_ptr<llvm::TargetMachine> &tm = machines[{arch, fpFusion, tensorMaps}];
  if (!tm) tm = makeTargetMachine(arch, fpFusion, tensorMaps);
  return *tm;
}

} // namespace

int64_t maxSharedBytes(const std::string &arch) { return arch == "sm_80" ? 163 * 1024 : 227 * 1024; }

void prepareModule(llvm::Module &module, const std::string &arch) {
  module.setTargetTriple(kTriple);
  module.setDataLayout(targetMachine(arch).createDataLayout());
}

/// What the lowered code needs from LLVM's optimizer, in order. O3 runs over
/// a hundred passes; on the corpus (39 specializations, precise and fast,
/// sm_90a, with alignment hints) these twenty give PTX as good or better:
/// fewer instructions or registers in 12 of 78 compiles, more instructions in
/// none, more registers in one (rmsnorm<f16,256>: +1, an ordering) - in half
/// of O3's time (softmax's 12 variants: median 2.0 -> 1.0 ms).
///  - the target's pipeline-start passes (NVVMReflect with this target's SM
///    version, NVVMIntrRange), then always-inline: libdevice's functions,
///    inlined with their __CUDA_FTZ and __CUDA_ARCH queries answered;
///  - sroa, early-cse, simplifycfg, instcombine: the clean-up of the
///    lowering's straight-line code;
///  - correlated-propagation: indices known non-negative, which widen as
///    unsigned and let the NVPTX load/store vectorizer merge shared accesses;
///  - reassociate: constant offsets moved outward, into the address mode;
///  - licm, loop-rotate, indvars, loop-deletion, loop-unroll-full: device
///    loops (invariants hoisted, constant trip counts unrolled);
///  - gvn, sccp, instcombine: redundancy across the unrolled copies;
///  - loop-unroll (O3's): loops with a trip count known only at run time,
///    unrolled as O3 would (without it matmul<16,16,16> executes 19% more
///    instructions in the emulator, and 44% more shared-memory requests);
///  - infer-alignment, alignment-from-assumptions: the alignment hints
///    (assume aligned / divisible) reaching the loads and stores;
///  - twintile-merge-guards (MergeGuards.h): neighbouring masked accesses
///    on one mask under one branch (vector_add<128>: 27 -> 19 instructions);
///  - adce, simplifycfg, globaldce: what is left dead (libdevice's
///    "__CUDA_FTZ" string once its query is answered);
///  - twintile-sink-to-use (SinkToUse.h), last: pure values moved down to
///    their first use, where no live range grows (the prologue's thread
///    coordinates, computed once at the top): ptxas allocates in about the
///    order it is given;
///  - under --math=fast only, after it: twintile-round-uncontracted
///    (Rounded.h), every add and multiply the licence to fuse does not
///    cover made a rounded one.
/// (instcombine as O3 runs it: one round, not checked for a fixed point,
/// which the textual default would abort on.)
/// NVPTX's own IR passes (address spaces, GEP splitting, strength reduction,
/// the load/store vectorizer) run in codegen, in emitPtx.
constexpr const char *kPipeline =
    "always-inline,"
    "function(sroa,early-cse,simplifycfg,instcombine<no-verify-fixpoint>,correlated-propagation,reassociate,"
    "loop-mssa(licm),loop(loop-rotate,indvars,loop-deletion,loop-unroll-full),gvn,sccp,"
    "instcombine<no-verify-fixpoint>,loop-unroll<O3>,infer-alignment,alignment-from-assumptions,twintile-merge-guards,instcombine<no-verify-fixpoint>,"
    "adce,simplifycfg,twintile-sink-to-use),globaldce";

void optimize(llvm::Module &module, const std::string &arch, bool fpFusion) {
  llvm::TargetMachine *tm = &targetMachine(arch, fpFusion);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::FunctionPassManager &fpm, llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (name == "twintile-merge-guards") fpm.addPass(MergeGuardsPass());
        else if (name == "twintile-sink-to-use") fpm.addPass(SinkToUsePass());
        else if (name == "twintile-round-uncontracted") fpm.addPass(RoundUncontractedPass());
        else return false;
        return true;
      });
  llvm::ModulePassManager mpm;
  // NVPTX's callbacks: NVVMReflect(sm version), NVVMIntrRange. Named in the
  // text, NVVMReflect would answer __CUDA_ARCH with 0.
  pb.invokePipelineStartEPCallbacks(mpm, llvm::OptimizationLevel::O3);
  // Under fusion, last: what may not fuse rounds (Rounded.h).
  std::string pipeline = std::string(kPipeline) + (fpFusion ? ",function(twintile-round-uncontracted)" : "");
  if (llvm::Error e = pb.parsePassPipeline(mpm, pipeline))
    throw ir::InternalError("the backend's pass pipeline does not parse: " + llvm::toString(std::move(e)));
  mpm.run(module, mam);
}

std::string emitPtx(llvm::Module &module, const std::string &arch, bool fpFusion, bool tensorMaps) {
  llvm::TargetMachine *tm = &targetMachine(arch, fpFusion, tensorMaps);
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  bool cannot = tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile);
  assert(!cannot && "NVPTX emits assembly");
  (void)cannot;
  pm.run(module);
  return std::string(out.str());
}

std::string verify(const llvm::Module &module) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (!llvm::verifyModule(module, &os)) return {};
  return os.str().empty() ? "invalid module" : os.str();
}

} // namespace twintile::backend
