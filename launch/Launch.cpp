//===- Launch.cpp - compile once per specialization, launch on a device ---===//
#include "launch/Launch.h"

#include "ir/Float16.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "support/Environment.h"

#include <bit>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace twintile {

namespace {

/// Writes every stage of a variant under $TWINTILE_DUMP_DIR, when it is set.
pipeline::Observer dumpObserver(const std::string &kernel, const std::string &variant, std::string &dir) {
  std::optional<std::string> root = support::envValue(support::Env::DumpDir);
  if (!root) return {};
  dir = (std::filesystem::path(*root) / kernel / variant).string();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  pipeline::Observer o;
  o.wants = [](support::Stage) { return true; };
  o.take = [dir](support::Stage s, const std::string &text) {
    std::ofstream(std::filesystem::path(dir) / (std::string(support::name(s)) + std::string(support::fileExtension(s))))
        << text;
  };
  return o;
}

/// A scalar's bits in the parameter's type.
uint64_t scalarBits(const runtime::ParamType &t, const Arg &a) {
  double f = a.kind == Arg::Kind::Float ? a.f : static_cast<double>(a.i);
  if (t.isFloat) {
    if (t.elem == "f64") return std::bit_cast<uint64_t>(f);
    if (t.elem == "f32") return std::bit_cast<uint32_t>(static_cast<float>(f));
    return t.elem == "bf16" ? ir::encodeBF16(f) : ir::encodeF16(f);
  }
  return static_cast<uint64_t>(a.i);
}

std::string variantName(const std::vector<runtime::ParamAssumption> &key, const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i].aligned16) out += (out.empty() ? "" : " ") + names[i] + ":aligned";
    if (key[i].divisible16) out += (out.empty() ? "" : " ") + names[i] + ":divisible";
  }
  return out.empty() ? "plain" : out;
}

/// Why a Kernel cannot take `request`, or empty: its promises are each
/// launch's, read from the arguments; a promise the arguments may break would
/// compile wrong code.
std::string refusal(const CompileRequest &request) {
  if (std::string why = pipeline::problem(request); !why.empty()) return why;
  if (request.alignedNames.empty() && request.divisibleNames.empty() && request.assume.empty()) return "";
  return "a Kernel takes its promises from each launch's arguments (aligned buffers, integers divisible by 16); "
         "the request must not name any (alignedNames, divisibleNames, assume)";
}

} // namespace

Kernel Kernel::fromFile(const std::string &file, const std::string &spec, const CompileRequest &request) {
  if (std::string why = refusal(request); !why.empty()) {
    Kernel k;
    k.request_ = request;
    k.name_ = spec;
    k.error_ = why;
    return k;
  }
  CompileRequest o = request;
  o.last = support::Stage::TileOpt;
  pipeline::Result r = pipeline::compileSource(file, spec, o);
  if (!r.ok()) {
    Kernel k;
    k.request_ = request;
    k.name_ = spec;
    k.error_ = r.error;
    return k;
  }
  return fromIR(std::move(r.func), request);
}

Kernel Kernel::fromIR(std::unique_ptr<ir::Func> func, const CompileRequest &request) {
  Kernel k;
  k.request_ = request;
  if (!func) {
    k.error_ = "no kernel: the trace failed";
    return k;
  }
  if (std::string why = refusal(request); !why.empty()) {
    k.error_ = why;
    return k;
  }
  CompileRequest o = request;
  o.last = support::Stage::TileOpt;
  pipeline::Result r = pipeline::compileFunc(std::move(func), o);
  k.name_ = r.func->name;
  k.tileIR_ = ir::toString(*r.func);
  for (size_t i = 0; i < r.func->numParams(); ++i) {
    const std::string &n = r.func->param(i)->name;  // a kernel traced in-process may have no names
    k.paramNames_.push_back(n.empty() ? "arg" + std::to_string(i) : n);
    k.paramTypes_.push_back(ir::toString(r.func->param(i)->type));
  }
  return k;
}

Launch Kernel::prepare(const std::vector<Arg> &args) {
  Launch result;
  if (!ok()) {
    result.error = error_;
    return result;
  }
  if (args.size() != paramTypes_.size()) {
    result.error = "kernel '" + name_ + "' takes " + std::to_string(paramTypes_.size()) + " arguments, got " +
                   std::to_string(args.size());
    return result;
  }
  // What the arguments promise: the specialization, as Triton's JIT keys it.
  std::vector<runtime::ParamAssumption> key(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    runtime::ParamType t = *runtime::parseParamType(paramTypes_[i]);
    const Arg &a = args[i];
    std::string where = "argument '" + paramNames_[i] + "' (" + paramTypes_[i] + ")";
    if (t.pointer != (a.kind == Arg::Kind::Buffer)) {
      result.error = where + (t.pointer ? " must be a buffer (a std::vector or std::span)" : " must be a scalar, not a buffer");
      return result;
    }
    if (t.pointer && a.elementBytes != static_cast<size_t>(t.bytes)) {
      result.error = where + " takes " + std::to_string(t.bytes) + "-byte elements, got a buffer of " +
                     std::to_string(a.elementBytes) + "-byte elements";
      return result;
    }
    // f16/bf16 buffers are held as 16-bit integers (their bits): only f32 and
    // f64 have a C++ type to check against.
    if (t.pointer && (t.elem == "f32" || t.elem == "f64" || !t.isFloat) && a.elementIsFloat != t.isFloat) {
      result.error = where + " takes " + (t.isFloat ? "floating-point" : "integer") + " elements, got a buffer of " +
                     (a.elementIsFloat ? "floating-point" : "integer") + " elements";
      return result;
    }
    if (!t.pointer && !t.isFloat && a.kind == Arg::Kind::Int) {
      // A uint64_t above INT64_MAX (its bits read negative) fits a u64 only.
      bool huge = a.unsigned64 && a.i < 0;
      if (huge ? t.elem != "u64" : !runtime::intRange(t).contains(a.i)) {
        std::string value = huge ? std::to_string(static_cast<uint64_t>(a.i)) : std::to_string(a.i);
        result.error = where + " = " + value + " does not fit in " + paramTypes_[i];
        return result;
      }
    }
    if (!t.pointer && !t.isFloat && a.kind == Arg::Kind::Float) {
      result.error = where + " is an integer, got a floating-point value";
      return result;
    }
    if (t.pointer) key[i].aligned16 = reinterpret_cast<uintptr_t>(a.bytes.data()) % 16 == 0;
    else if (!t.isFloat && t.elem != "i1") key[i].divisible16 = a.i % 16 == 0;
  }
  result.variant = variantName(key, paramNames_);
  auto it = variants_.find(result.variant);
  if (it == variants_.end()) {
    ir::ParseResult parsed = ir::parseModule(tileIR_, name_ + ".tir");
    if (!parsed.module) {
      result.error = ir::Diagnostic::internalError("the kernel's own IR does not parse back: " + parsed.error->str()).str();
      return result;
    }
    CompileRequest o = request_;
    o.assume = key;  // what the arguments promise, whatever the request named
    o.last = support::Stage::Ptx;
    std::string variantDir = result.variant;
    for (char &c : variantDir)
      if (c == ' ') c = '_';
      else if (c == ':') c = '-';
    std::string dumpDir;
    pipeline::Result r = pipeline::compileFunc(std::move(parsed.module->funcs.front()), o,
                                               dumpObserver(dumpName_.empty() ? name_ : dumpName_, variantDir, dumpDir));
    if (!r.ok()) {
      result.error = r.error;
      return result;
    }
    runtime::KernelImage image;
    image.ptx = r.backend.ptx;
    image.manifest = r.backend.manifest;
    image.tileIR = tileIR_;
    variants_.emplace(result.variant, std::move(image));
    result.compiled = true;
  }
  return result;
}

Launch Kernel::launchArgs(runtime::Device &device, runtime::Dim3 grid, const std::vector<Arg> &args,
                          const runtime::LaunchOptions &options) {
  Launch result = prepare(args);
  if (!result.ok()) return result;
  const runtime::KernelImage &image = variants_.at(result.variant);
  std::vector<runtime::ParamType> types;
  for (const std::string &t : paramTypes_) types.push_back(*runtime::parseParamType(t));
  std::vector<runtime::LaunchArg> largs;
  std::vector<std::span<uint8_t>> buffers;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == Arg::Kind::Buffer) {
      largs.push_back(runtime::LaunchArg::buf(buffers.size()));
      buffers.push_back(args[i].bytes);
    } else {
      largs.push_back(runtime::LaunchArg::scalar(scalarBits(types[i], args[i])));
    }
  runtime::LaunchOptions lo = options;
  lo.grid = grid;
  runtime::LaunchResult run = device.launch(image, largs, buffers, lo);
  result.error = run.error;
  result.printed = run.printed;
  result.seconds = run.seconds;
  return result;
}

} // namespace twintile
