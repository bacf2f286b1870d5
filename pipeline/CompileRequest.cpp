//===- CompileRequest.cpp - names, and the defaults resolved once --------===//
#include "pipeline/CompileRequest.h"

namespace twintile::pipeline {

std::string_view name(Frontend f) {
  switch (f) {
  case Frontend::Parse: return "parse";
  case Frontend::Trace: return "trace";
  case Frontend::Hybrid: return "hybrid";
  }
  return "?";
}
std::string_view name(Target t) { return t == Target::Sm90a ? "sm_90a" : "sm_80"; }
std::string_view name(MathMode m) { return m == MathMode::Fast ? "fast" : "precise"; }

std::optional<Frontend> frontendNamed(std::string_view s) {
  for (Frontend f : {Frontend::Parse, Frontend::Trace, Frontend::Hybrid})
    if (name(f) == s) return f;
  return std::nullopt;
}

std::optional<Target> targetNamed(std::string_view s) {
  for (Target t : {Target::Sm90a, Target::Sm80})
    if (name(t) == s) return t;
  return std::nullopt;
}

std::optional<MathMode> mathNamed(std::string_view s) {
  for (MathMode m : {MathMode::Precise, MathMode::Fast})
    if (name(m) == s) return m;
  return std::nullopt;
}

std::string problem(const CompileRequest &r) {
  std::string why = r.numWarps != 0 ? ir::numWarpsProblem(r.numWarps) : "";  // 0: the kernel's own
  return !why.empty() || r.numStages == 0 ? why : ir::numStagesProblem(r.numStages);
}

void resolveOn(const CompileRequest &r, ir::Func &f) {
  if (r.numWarps > 0) f.numWarps = r.numWarps;  // the request over the kernel's own
  if (r.numStages > 0) f.numStages = r.numStages;
}

std::optional<ir::Diagnostic> backendOptions(const CompileRequest &r, const ir::Func &f, backend::CompileOptions &out) {
  out.arch = std::string(name(r.target));
  out.fastMath = r.math == MathMode::Fast;
  out.numWarps = out.numStages = 0;  // the function's, which resolveOn set
  out.useCache = r.useCache;
  out.runPtxas = r.ptxas || r.last == support::Stage::SassInfo;
  return assumptions(f, r, out.assume);
}

std::optional<ir::Diagnostic> assumptions(const ir::Func &f, const CompileRequest &r,
                                          std::vector<backend::ParamAssumption> &out) {
  if (!r.assume.empty()) {
    out = r.assume;
    return std::nullopt;
  }
  out.assign(f.numParams(), {});
  for (bool aligned : {true, false})
    for (const std::string &n : aligned ? r.alignedNames : r.divisibleNames) {
      bool found = false;
      for (size_t i = 0; i < f.numParams(); ++i) {
        const ir::Type &t = f.param(i)->type;
        bool fits = aligned ? t.isPtr() : t.isInt() && t.elem != ir::ScalarKind::I1;
        if (n == "*" ? fits : f.param(i)->name == n) {
          (aligned ? out[i].aligned16 : out[i].divisible16) = true;
          found = true;
        }
      }
      if (!found && n != "*") return ir::Diagnostic{f.loc, "kernel '" + f.name + "' has no parameter '" + n + "'"};
    }
  return std::nullopt;
}

} // namespace twintile::pipeline
