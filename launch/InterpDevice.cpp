//===- InterpDevice.cpp - the IR interpreter as a runtime Device ---------===//
#include "launch/InterpDevice.h"

#include "ir/Float16.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"

#include <bit>
#include <chrono>
#include <cstring>

namespace twintile {

namespace {

/// A scalar argument's bits, as the interpreter takes it.
ir::KernelArg scalarArg(const runtime::ParamType &t, uint64_t bits) {
  if (t.isFloat) {
    if (t.elem == "f64") return ir::KernelArg::floating(std::bit_cast<double>(bits));
    if (t.elem == "f32") return ir::KernelArg::floating(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    if (t.elem == "bf16") return ir::KernelArg::floating(ir::decodeBF16(static_cast<uint16_t>(bits)));
    return ir::KernelArg::floating(ir::decodeF16(static_cast<uint16_t>(bits)));
  }
  int width = t.elem == "i1" ? 1 : 8 * t.bytes;
  if (width == 64) return ir::KernelArg::integer(static_cast<int64_t>(bits));
  uint64_t v = bits & ((uint64_t(1) << width) - 1);
  if (t.isSigned && (v >> (width - 1)) & 1) v |= ~((uint64_t(1) << width) - 1);  // sign-extend
  return ir::KernelArg::integer(static_cast<int64_t>(v));
}

class InterpDevice final : public runtime::Device {
public:
  std::string name() const override { return "interp"; }
  std::string describe() const override { return "tile IR interpreter (CPU)"; }
  runtime::Capabilities capabilities() const override {
    return {.reference = true, .onCpu = true, .profiles = false, .interleaves = false, .timer = "wall clock",
            .targets = {"sm_90a", "sm_80"}, .cubinTarget = ""};  // it runs the tile IR, whatever the PTX's target
  }
  runtime::Dim3 maxGrid() const override { return {(1u << 31) - 1, 65535, 65535}; }

  runtime::LaunchResult launch(const runtime::KernelImage &kernel, const std::vector<runtime::LaunchArg> &args,
                               std::vector<std::span<uint8_t>> buffers, const runtime::LaunchOptions &options) override {
    runtime::LaunchResult result;
    const runtime::Manifest &m = kernel.manifest;
    if (std::string bad = runtime::checkLaunch(m, args, buffers); !bad.empty()) {
      result.error = bad;
      return result;
    }
    if (options.warmup < 0 || options.repeat < 1) {
      result.error = "launch options: warmup must be at least 0 and repeat at least 1";
      return result;
    }
    if (kernel.tileIR.empty()) {
      result.error = "the interp device needs the kernel's tile IR, and this image has none";
      return result;
    }
    ir::ParseResult parsed = ir::parseModule(kernel.tileIR, m.kernel + ".tir");
    if (!parsed.module || parsed.module->funcs.size() != 1) {
      result.error = "the kernel's tile IR does not parse: " + (parsed.error ? parsed.error->str() : "not one function");
      return result;
    }
    const ir::Func &f = *parsed.module->funcs.front();
    // Each buffer takes the element type of the first pointer parameter given it.
    std::vector<std::optional<ir::ScalarKind>> kinds(buffers.size());
    std::vector<std::string> names(buffers.size());
    std::vector<ir::KernelArg> iargs;
    for (size_t i = 0; i < args.size(); ++i) {
      runtime::ParamType t = *runtime::parseParamType(m.params[i].type);  // fromJson checked it
      if (args[i].kind == runtime::LaunchArg::Kind::Buffer) {
        if (!kinds[args[i].buffer]) {
          kinds[args[i].buffer] = ir::parseScalarName(t.elem);
          names[args[i].buffer] = m.params[i].name;
        }
        iargs.push_back(ir::KernelArg::buf(args[i].buffer));
      } else {
        iargs.push_back(scalarArg(t, args[i].bits));
      }
    }
    std::vector<ir::Buffer> initial;
    for (size_t b = 0; b < buffers.size(); ++b) {
      ir::ScalarKind k = kinds[b].value_or(ir::ScalarKind::I8);
      size_t bytes = ir::byteSize(k);
      if (buffers[b].size() % bytes != 0) {
        result.error = "buffer " + std::to_string(b) + " has " + std::to_string(buffers[b].size()) +
                       " bytes, not a whole number of " + std::string(ir::scalarName(k)) + " elements";
        return result;
      }
      ir::Buffer buf(k, buffers[b].size() / bytes, names[b]);
      std::memcpy(buf.bytes().data(), buffers[b].data(), buffers[b].size());
      initial.push_back(std::move(buf));
    }
    ir::Grid grid{options.grid.x, options.grid.y, options.grid.z};
    std::vector<ir::Buffer> work;
    for (int rep = 0; rep < options.warmup + options.repeat; ++rep) {
      work = initial;  // every launch starts from the same inputs
      auto start = std::chrono::steady_clock::now();
      ir::InterpretOptions io;
      io.fastMath = m.math == "fast";  // rsqrt's flush, as the compiled code does
      ir::RunResult r = ir::interpret(f, grid, iargs, work, io);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!r.ok()) {
        result.error = ir::render(*r.error);  // with the kernel's line and a caret
        return result;
      }
      if (rep >= options.warmup) result.seconds.push_back(seconds);
      result.printed = r.printed;
      result.stored = r.stored;
    }
    for (size_t b = 0; b < buffers.size(); ++b) std::memcpy(buffers[b].data(), work[b].bytes().data(), buffers[b].size());
    return result;
  }
};

} // namespace

std::unique_ptr<twintile::runtime::Device> makeInterpDevice() { return std::make_unique<InterpDevice>(); }

} // namespace twintile
