//===- Launch.h - compile a kernel once, launch it from C++ ---------------===//
//
// The analogue of Triton's `kernel[grid](args)` for C++ programs:
//
//   #include "launch/Launch.h"
//   auto add = twintile::Kernel::fromFile("vector_add.cpp", "vector_add<1024>");
//   std::string why;
//   auto device = twintile::makeDevice("emu", why);       // or "interp", "cuda"
//   std::vector<float> x(n), y(n), out(n);
//   twintile::Launch r = add.launch(*device, {cdiv(n, 1024)}, x, y, out, n);
//   if (!r.ok()) std::cerr << r.error << "\n";
//
// The front end runs once, when the Kernel is made. Each launch looks at its
// arguments as Triton's JIT does — is each buffer's address a multiple of
// 16 bytes, is each integer divisible by 16 — and compiles one variant per
// answer (through the disk cache), kept for the Kernel's lifetime; a launch
// with the same answers reuses it. Buffers are host memory: the device
// copies them in and out around each launch. With $TWINTILE_DUMP_DIR set,
// every variant's every stage is written under DIR/KERNEL/VARIANT/.
//===----------------------------------------------------------------------===//
#pragma once

#include "pipeline/Pipeline.h"
#include "runtime/Device.h"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace twintile {

/// One launch argument: host memory for a pointer parameter, or a scalar.
struct Arg {
  enum class Kind { Buffer, Int, Float };
  Kind kind = Kind::Int;
  std::span<uint8_t> bytes;  // Buffer
  size_t elementBytes = 0;   // Buffer: sizeof its elements, checked against the parameter
  bool elementIsFloat = false;
  int64_t i = 0;             // Int: the value, or an unsigned 64-bit one's bits
  bool unsigned64 = false;   // Int: of an unsigned 64-bit C++ type (a u64 takes its every value)
  double f = 0;              // Float

  template <class T> Arg(std::vector<T> &v) : Arg(std::span<T>(v)) {}
  template <class T> Arg(std::span<T> s)
      : kind(Kind::Buffer), bytes(reinterpret_cast<uint8_t *>(s.data()), s.size_bytes()), elementBytes(sizeof(T)),
        elementIsFloat(std::is_floating_point_v<T>) {}
  template <class T> requires std::is_integral_v<T>
  Arg(T v) : kind(Kind::Int), i(static_cast<int64_t>(v)), unsigned64(std::is_unsigned_v<T> && sizeof(T) == 8) {}
  template <class T> requires std::is_floating_point_v<T> Arg(T v) : kind(Kind::Float), f(static_cast<double>(v)) {}
};

struct Launch {
  std::string error;             // empty on success: the compile's or the device's message
  std::string printed;           // device_print's output (emu, interp)
  std::vector<double> seconds;   // per timed launch
  bool compiled = false;         // this launch compiled a new variant
  std::string variant;           // "x:aligned y:aligned n:divisible", or "plain"
  bool ok() const { return error.empty(); }
};

/// How a Kernel compiles: the driver's request (front end, target, warps,
/// stages, math mode, cache; pipeline/CompileRequest.h). Its promises are
/// each launch's, from the arguments (a request naming any is refused), and
/// how far it compiles is the Kernel's.
using pipeline::CompileRequest;
using pipeline::Frontend;
using pipeline::MathMode;
using pipeline::Target;

/// A Kernel's request unless it is given one: the parsing front end (in
/// process, no host compiler), the rest as the driver's defaults.
inline CompileRequest launchDefaults() {
  CompileRequest r;
  r.frontend = Frontend::Parse;
  return r;
}

class Kernel {
public:
  /// Runs the front end on `spec` from `file`: the request's (launchDefaults()
  /// parses, in process, with no host compiler; a CompileRequest made
  /// otherwise traces unless it says parse, as the driver does). On failure
  /// error() says why and every launch returns it.
  static Kernel fromFile(const std::string &file, const std::string &spec,
                         const CompileRequest &request = launchDefaults());
  /// A kernel already in tile IR: twintile::trace(&kernel<...>, "...").func,
  /// a kernel traced in this process.
  static Kernel fromIR(std::unique_ptr<twintile::ir::Func> func, const CompileRequest &request = launchDefaults());

  const std::string &error() const { return error_; }
  bool ok() const { return error_.empty(); }
  const std::string &name() const { return name_; }
  /// Variants compiled so far.
  size_t variants() const { return variants_.size(); }

  /// Launches over `grid` programs; one argument per kernel parameter.
  template <class... A> Launch launch(twintile::runtime::Device &device, twintile::runtime::Dim3 grid, A &&...args) {
    return launchArgs(device, grid, std::vector<Arg>{Arg(std::forward<A>(args))...}, {});
  }
  /// The same with the arguments in a list, and launch options (timing:
  /// warmup and repeat; the emulator's profile). The grid in `options` is
  /// ignored.
  Launch launchArgs(twintile::runtime::Device &device, twintile::runtime::Dim3 grid, const std::vector<Arg> &args,
                    const twintile::runtime::LaunchOptions &options);

  /// Compiles the variant `args` ask for, if it is not compiled yet, and
  /// launches nothing: the Launch's error, variant and compiled say what it
  /// did. Kernels may be prepared on several threads at once, each Kernel on
  /// one (the autotuner compiles its candidates so).
  Launch prepare(const std::vector<Arg> &args);
  /// The kernel's parameters' names, in order.
  const std::vector<std::string> &paramNames() const { return paramNames_; }
  /// Their IR types ("ptr<f32>", "i32").
  const std::vector<std::string> &paramTypes() const { return paramTypes_; }
  /// The kernel's tile IR after cleanup, as text: what every variant compiles from.
  const std::string &tileIR() const { return tileIR_; }
  /// $TWINTILE_DUMP_DIR's subdirectory for this Kernel's variants (default:
  /// the kernel's name), for Kernels of one kernel that would share it.
  void dumpAs(std::string subdirectory) { dumpName_ = std::move(subdirectory); }

private:
  CompileRequest request_;
  std::string name_, error_, dumpName_;
  std::string tileIR_;  // after cleanup; each variant compiles from it
  std::vector<std::string> paramTypes_, paramNames_;
  std::map<std::string, twintile::runtime::KernelImage> variants_;  // by variant name
};

} // namespace twintile
