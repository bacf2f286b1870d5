//===- Backend.cpp - the backend's pipeline, top to bottom ----------------===//
#include "backend/Backend.h"

#include "backend/AxisInfo.h"
#include "backend/CompileCache.h"
#include "backend/Layout.h"
#include "backend/Libdevice.h"
#include "backend/Lowering.h"
#include "backend/PipelinePlan.h"
#include "backend/MemoryPlan.h"
#include "backend/Target.h"
#include "ir/Passes.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "SourceHash.h"  // generated: TWINTILE_SOURCE_HASH

#include <llvm/Config/llvm-config.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>
#include <chrono>

namespace twintile::backend {

bool isSupportedArch(const std::string &arch) { return arch == "sm_90a" || arch == "sm_80"; }

std::string compilerVersion() { return "twintile 0.1.0 (sources " TWINTILE_SOURCE_HASH ") / LLVM " LLVM_VERSION_STRING; }

using support::Stage;

bool CompileOptions::observesInner() const {
  for (Stage s : {Stage::Axes, Stage::Layouts, Stage::Pipelines, Stage::Shared, Stage::Barriers, Stage::LlvmRaw, Stage::Llvm})
    if (observe.observes(s)) return true;
  return false;
}

namespace {

[[noreturn]] void refuse(const ir::Func &f, const std::string &message) {
  throw BackendError(ir::Diagnostic{f.loc, message});
}

int effectiveWarps(const ir::Func &func, const CompileOptions &o) { return o.numWarps > 0 ? o.numWarps : func.numWarps; }

void checkOptions(const ir::Func &func, const CompileOptions &o) {
  // PTX identifiers: a letter, '_' or '$', then those and digits.
  bool identifier = !func.name.empty() && !std::isdigit(static_cast<unsigned char>(func.name[0]));
  for (char c : func.name) identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$');
  if (!identifier) refuse(func, "the kernel's name '" + func.name + "' is not a PTX identifier (letters, digits, '_')");
  if (!isSupportedArch(o.arch)) refuse(func, "unsupported target '" + o.arch + "' (expected sm_90a or sm_80)");
  if (std::string why = ir::numWarpsProblem(effectiveWarps(func, o)); !why.empty()) refuse(func, why);
  int s = o.numStages != 0 ? o.numStages : func.numStages;  // 0 in both: the default
  if (std::string why = ir::numStagesProblem(s); s != 0 && !why.empty()) refuse(func, why);
  if (!o.assume.empty() && o.assume.size() != func.numParams())
    refuse(func, "assumptions given for " + std::to_string(o.assume.size()) + " parameters, the kernel has " +
                     std::to_string(func.numParams()));
  for (size_t i = 0; i < o.assume.size(); ++i) {
    const ir::Type &t = func.param(i)->type;
    if (o.assume[i].aligned16 && !t.isPtr())
      refuse(func, "'" + func.param(i)->name + "' is " + ir::toString(t) + ", not a pointer: it cannot be assumed aligned");
    if (o.assume[i].divisible16 && !(t.isInt() && t.elem != ir::ScalarKind::I1))
      refuse(func, "'" + func.param(i)->name + "' is " + ir::toString(t) + ", not an integer: it cannot be assumed divisible");
  }
}

Manifest manifestOf(const ir::Func &func, const CompileOptions &o, int sharedBytes) {
  Manifest m;
  m.kernel = func.name;
  m.arch = o.arch;
  m.math = o.fastMath ? "fast" : "precise";
  m.numWarps = effectiveWarps(func, o);
  m.threadsPerProgram = 32 * m.numWarps;
  m.sharedBytes = sharedBytes;
  m.dynamicSharedBytes = sharedBytes > kMaxStaticShared ? sharedBytes : 0;  // as SharedPlan::dynamic
  for (size_t i = 0; i < func.numParams(); ++i)
    m.params.push_back({func.param(i)->name, ir::toString(func.param(i)->type),
                        i < o.assume.size() ? o.assume[i] : ParamAssumption{}});
  return m;
}

/// Elements one thread may hold of one tile: beyond it, registers spill and
/// the unrolled code grows without bound.
constexpr int64_t kMaxRegistersPerThread = 1024;

/// Refuses tiles too large for the program's threads, at the op making one.
void checkTileSizes(const ir::Func &func, const LayoutMap &layouts, int warps) {
  ir::walk(func.body, [&](const ir::Op &op) {
    for (const auto &r : op.results) {
      auto it = layouts.find(r.get());
      if (it == layouts.end()) continue;
      int64_t regs = numRegisters(it->second, r->type.shape);
      if (regs > kMaxRegistersPerThread)
        throw BackendError(ir::Diagnostic{
            op.loc, ir::toString(r->type) + " needs " + std::to_string(regs) + " registers per thread with " +
                        std::to_string(warps) + " warps; the backend allows " + std::to_string(kMaxRegistersPerThread) +
                        " (use smaller tiles or more warps)"});
    }
  });
}

/// The IR with what an analysis knows about each value beside it.
template <typename Map> std::string annotated(const ir::Func &func, const Map &facts) {
  return ir::toString(func, {}, [&](const ir::Value *v) {
    auto it = facts.find(v);
    return it == facts.end() ? std::string() : toString(it->second);
  });
}

std::string print(const llvm::Module &m);

/// The pipelines stage's first lines: the depth asked and the one planned,
/// and the shared memory the rings take.
std::string pipelinesHeader(const ir::Func &func, const PipelinePlan &plan, int wanted, const std::string &arch) {
  std::string h = "// pipelines: num_stages " + std::to_string(wanted);
  if (plan.stages < wanted)
    h += ", planned with " + std::to_string(plan.stages) + ": " + std::to_string(wanted) +
         " stages need more shared memory than a block may use on " + arch;
  return h + "; the rings take at most " + std::to_string(plan.peakRingBytes(func)) + " bytes of shared memory at once, of " +
         std::to_string(maxSharedBytes(arch)) + " a block may use\n";
}

/// The shared stage's first line: the array's size and kind, the limits.
std::string sharedHeader(const SharedPlan &plan, const std::string &arch) {
  return "// shared: " + std::to_string(plan.bytes) + " bytes" +
         (plan.bytes == 0 ? "" : plan.dynamic() ? ", dynamic (over the " + std::to_string(kMaxStaticShared) + " a kernel may declare)" : ", static") +
         "; a block may use " + std::to_string(maxSharedBytes(arch)) + " on " + arch +
         (plan.fits() ? "" : "; does not fit: " + plan.overflow->message) + "\n";
}

/// The barriers stage's first line: how many, and how many decided.
std::string barriersHeader(const BarrierPlan &plan) {
  size_t decided = 0;
  for (const BarrierPlan::Barrier &b : plan.barriers) decided += b.kind != BarrierPlan::Barrier::Kind::Inherent;
  if (plan.barriers.empty()) return "// barriers: none\n";
  return "// barriers: " + std::to_string(plan.barriers.size()) + ", " + std::to_string(decided) +
         " of them decided from the accesses and the shared plan (the others are part of an op's or a pipeline's work)\n";
}

/// The descriptor ops of `f` that neither `plan` nor `stores` copies by TMA.
std::vector<ir::Op *> notCopiedByTma(ir::Func &f, const PipelinePlan &plan, const TmaStorePlan &stores) {
  std::vector<ir::Op *> left;
  ir::walk(f.body, [&](ir::Op &op) {
    if (ir::familyOf(op.kind) == ir::OpFamily::Descriptor && !plan.copiesByTma(op) && !stores.find(op))
      left.push_back(&op);
  });
  return left;
}

/// Why the plans did not copy descriptor op `op` by TMA, for a note: the
/// store plan's reason, or the pipeline plan's where it kept the load (the
/// shared memory's, where that left its loop no copies ahead).
std::string whyNotTma(const ir::Op &op, const PipelinePlan &plan, const TmaStorePlan &stores, int wanted) {
  for (const auto &[store, why] : stores.kept)
    if (store == &op) return why;
  for (const auto &[loop, p] : plan.loops)
    for (const LoopPipeline::Kept &k : p.kept)
      if (k.op == &op)
        return p.stages == 0 && plan.stages < wanted && plan.stages < 2
                   ? "its loop's pipeline does not fit in shared memory at num_stages " + std::to_string(wanted) +
                         " with the loads copied by TMA"
                   : k.why;
  return "only loads directly in the body of a pipelined for loop are copied by TMA";
}

/// Analyses, layouts and lowering: the kernel as unoptimized LLVM IR.
std::unique_ptr<llvm::Module> lower(const ir::Func &input, const CompileOptions &o, bool libdevice,
                                    llvm::LLVMContext &ctx, int &sharedBytes, int &scratchBytes,
                                    std::vector<std::string> &notes) {
  if (auto errors = ir::verify(input); !errors.empty()) throw BackendError(errors.front());
  // Descriptor stores, and the descriptor loads only dots read, reach the
  // backend (ir/ExpandDescriptors.cpp): the plans are made on a copy, and
  // those TMA does not take are expanded there and the plans made again,
  // until TMA takes every one left.
  std::unique_ptr<ir::Func> working;
  ir::walk(input.body, [&](const ir::Op &op) {
    if (!working && ir::familyOf(op.kind) == ir::OpFamily::Descriptor) working = ir::clone(input);
  });
  const ir::Func &func = working ? *working : input;
  int warps = effectiveWarps(func, o);
  // Pipelines as deep as asked, or as fit in the shared memory of a block
  // (at the last, without the shared memory loop-invariant dot operands
  // keep): planned with one stage fewer while the plan does not fit. A plan
  // that does not fit even then is the kernel's error, which lowering reports
  // where it reaches the buffer that does not fit (or an error before it).
  int wanted = o.numStages > 0 ? o.numStages : func.numStages > 0 ? func.numStages : ir::kDefaultNumStages;
  int stages = wanted;
  AxisInfoMap axes;
  LayoutMap layouts;
  PipelinePlan pipelines;
  TmaStorePlan stores;
  MemoryPlan memory;
  std::vector<std::string> tmaNotes;  // on sm_90a, why a descriptor load or store is not copied by TMA
  for (;;) {
    axes = analyzeAxes(func, o.assume);
    layouts = assignLayouts(func, axes, warps, o.arch);
    checkTileSizes(func, layouts, warps);
    stages = wanted;
    stores = planTmaStores(func, axes, o.arch);
    pipelines = planPipelines(func, axes, layouts, warps, stages, o.arch);
    memory = planMemory(func, axes, layouts, pipelines, stores, warps, o.arch);
    while (!memory.shared.fits() && stages > 0) {
      pipelines = planPipelines(func, axes, layouts, warps, --stages, o.arch);
      memory = planMemory(func, axes, layouts, pipelines, stores, warps, o.arch);
    }
    std::vector<ir::Op *> left = working ? notCopiedByTma(*working, pipelines, stores) : std::vector<ir::Op *>{};
    if (left.empty()) break;
    if (o.arch == "sm_90a")
      for (const ir::Op *op : left) {
        bool load = op->kind == ir::OpKind::DescriptorLoad;
        tmaNotes.push_back(std::string("the descriptor ") + (load ? "load" : "store") + " at " + ir::locationBody(op->loc) +
                           " is not copied by TMA: " + whyNotTma(*op, pipelines, stores, wanted) +
                           (load ? "; it is loaded as a masked load is" : "; it is stored as a masked store is"));
      }
    for (ir::Op *op : left) ir::expandDescriptor(*working, *op);
    ir::canonicalize(*working);
    ir::cse(*working);
    ir::dce(*working);
  }
  o.observe.offer(Stage::Axes, [&] { return annotated(func, axes); });
  o.observe.offer(Stage::Layouts, [&] { return annotated(func, layouts); });
  const SharedPlan &shared = memory.shared;
  auto offerPlans = [&] {  // also when lowering refuses the kernel
    o.observe.offer(Stage::Pipelines, [&] { return toString(func, pipelines, pipelinesHeader(func, pipelines, wanted, o.arch)); });
    o.observe.offer(Stage::Shared, [&] { return toString(shared, sharedHeader(shared, o.arch)); });
    o.observe.offer(Stage::Barriers, [&] { return toString(memory.barriers, barriersHeader(memory.barriers)); });
  };
  auto module = std::make_unique<llvm::Module>(func.name, ctx);
  prepareModule(*module, o.arch);
  LowerContext lowering(func, o, warps, libdevice, axes, layouts, pipelines, stores, shared, memory.barriers, *module);
  try {
    lowerKernel(lowering);
  } catch (...) {
    offerPlans();
    throw;
  }
  offerPlans();
  if (!shared.fits()) throw BackendError(*shared.overflow);
  sharedBytes = static_cast<int>(shared.bytes);
  scratchBytes = static_cast<int>(lowering.scratchBytes());
  notes = lowering.notes;
  std::sort(tmaNotes.begin(), tmaNotes.end());  // the plans' loops are unordered
  notes.insert(notes.end(), tmaNotes.begin(), tmaNotes.end());
  if (stages < wanted)
    notes.push_back("num_stages " + std::to_string(wanted) + " needs more shared memory than a block may use on " +
                    o.arch + "; " +
                    (stages >= 2 ? "pipelined with " + std::to_string(stages)
                     : stages == 1 ? std::string("not pipelined")
                                   : std::string("not pipelined, and loop-invariant dot operands staged every iteration")));
  if (std::string bad = verify(*module); !bad.empty())
    throw ir::InternalError("the lowered LLVM IR does not verify: " + bad, func.loc);
  o.observe.offer(Stage::LlvmRaw, [&] { return print(*module); });
  return module;
}

std::string print(const llvm::Module &m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os, nullptr);
  return os.str();
}

} // namespace

std::string lowerToLLVMText(const ir::Func &func, const CompileOptions &options) {
  checkOptions(func, options);
  llvm::LLVMContext ctx;
  int shared = 0, scratch = 0;
  std::vector<std::string> notes;
  return print(*lower(func, options, options.useLibdevice && findLibdevice(), ctx, shared, scratch, notes));
}

CompileResult compile(const ir::Func &func, const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  checkOptions(func, options);
  std::optional<std::string> libdevicePath = options.useLibdevice ? findLibdevice() : std::nullopt;
  CompileOptions keyed = options;
  keyed.useLibdevice = libdevicePath.has_value();
  std::string key = compileKey(func, keyed);
  CompileCache cache(options.cacheRoot);
  std::string damaged;
  if (options.useCache && !options.observesInner())
    if (std::optional<CompileResult> hit = cache.lookup(key, &damaged); hit && (hit->ptxas.ran || !options.runPtxas || !findPtxas())) {
      hit->seconds = elapsed();
      return *hit;
    }

  CompileResult r;
  auto mark = std::chrono::steady_clock::now();
  auto phase = [&](const char *name) {
    auto now = std::chrono::steady_clock::now();
    r.phases.push_back({name, std::chrono::duration<double>(now - mark).count()});
    mark = now;
  };
  llvm::LLVMContext ctx;
  // Names are for readers of the LLVM IR; without one, LLVM makes fewer strings.
  ctx.setDiscardValueNames(!options.observesInner());
  int shared = 0, scratch = 0;
  std::unique_ptr<llvm::Module> module = lower(func, options, libdevicePath.has_value(), ctx, shared, scratch, r.notes);
  phase("lower");
  if (libdevicePath) {
    if (std::string err = linkLibdevice(*module, *libdevicePath, options.cacheRoot); !err.empty()) refuse(func, err);
    phase("libdevice");
  } else if (options.useLibdevice) {
    r.notes.push_back("libdevice not found (run scripts/setup or set TWINTILE_LIBDEVICE): math uses fast approximations");
  }
  optimize(*module, options.arch, options.fastMath);
  phase("optimize");
  if (std::string bad = verify(*module); !bad.empty())
    throw ir::InternalError("the optimized LLVM IR does not verify: " + bad, func.loc);
  phase("verify");
  if (options.observe.observes(Stage::Llvm)) {
    options.observe.offer(Stage::Llvm, [&] { return print(*module); });
    phase("print");
  }
  r.ptx = emitPtx(*module, options.arch, options.fastMath, scratch > 0);
  r.manifest = manifestOf(func, options, shared);
  r.manifest.globalScratchBytes = scratch;
  phase("nvptx");
  if (!options.runPtxas) {
    r.ptxas.skipped = "not requested";
  } else {
    r.ptxas = runPtxas(r.ptx, options.arch);
    if (!r.ptxas.ran) r.notes.push_back("ptxas skipped: " + r.ptxas.skipped);
    else if (!r.ptxas.ok && r.ptxas.log.find(", line ") != std::string::npos && r.ptxas.log.find("error") != std::string::npos)
      throw ir::InternalError("ptxas rejected the generated PTX\n" + r.ptxas.log, func.loc);  // it names a line of ours
    else if (!r.ptxas.ok)  // killed, no cubin, a ptxas too old for the target: the tools', not the kernel's
      refuse(func, "ptxas failed (a problem with the CUDA tools, not with the kernel; TWINTILE_PTXAS names another):\n" +
                       r.ptxas.log);
    if (r.ptxas.ran) phase("ptxas");
  }
  if (options.useCache) cache.store(key, r);
  if (!damaged.empty()) r.notes.insert(r.notes.begin(), damaged);  // of this compile, not of the entry
  r.seconds = elapsed();
  return r;
}

} // namespace twintile::backend
