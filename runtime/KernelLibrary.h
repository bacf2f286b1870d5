//===- KernelLibrary.h - kernels compiled at build time, called by type ---===//
//
// `twintile_add_kernel_library` (cmake/TwintileKernelLibrary.cmake) runs
// `twintile library` at build time, which compiles each kernel
// specialization it is given into several variants and writes two files:
//
//   NAME.h    one function per specialization, its parameters as C++ types:
//               Call scale_f32_256(Device &, Dim3 grid, std::span<float> x,
//                                  std::span<float> y, int32_t n, float a,
//                                  const LaunchOptions & = {});
//   NAME.cpp  every variant's PTX, manifest, tile IR (and cubin, where ptxas
//             was found at build time) as constant data, and the functions,
//             which marshal their arguments and call callCompiled.
//
// callCompiled picks the variant, as Triton's JIT would have compiled it
// for these arguments: of the variants for the first of the library's
// targets (in the order it was given them) that the device runs, the first
// (most specialized) whose promises the arguments keep, each pointer 16-byte aligned and each integer divisible
// by 16 where it was compiled to assume so. A library always has a variant
// that promises nothing beyond what the library was told to assume (ASSUME),
// so every call that keeps those has a variant. Everything here links the
// runtime alone, and every failure is a returned message, never an exit.
//
// A tuned function (TUNED, from a table `twintile tune --table` wrote) has
// no grid parameter: callTuned picks the table's row for the call's values
// of the key (a buffer by its element count), the row whose key is nearest
// (in the sum of |log2| of the ratios) where none is equal, and runs that
// row's configuration, compiled as above, over the table's grid expression
// (GridExpression.h) of the configuration's meta-parameters and the call's
// integer arguments.
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Device.h"
#include "runtime/HalfTypes.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace twintile::runtime {

/// One compiled variant of a specialization: constant data in NAME.cpp.
struct CompiledVariant {
  const char *assumes;   // what it was compiled to assume: "x:aligned n:divisible", or "plain"
  const char *manifest;  // its launch manifest (Manifest.h), JSON; its "arch" is the variant's target
  const char *ptx;
  size_t ptxBytes;
  const unsigned char *cubin;  // ptxas's for the target; null where ptxas was not found at build time
  size_t cubinBytes;
  const char *tileIR;    // the kernel's tile IR after cleanup (what the interp device runs)
};

/// A specialization's variants: grouped by target in the library's order of
/// targets, most specialized first within each.
struct CompiledKernel {
  const char *spec;      // "scale<f32, 256>"
  const char *file;      // the kernel file, as the build named it
  const CompiledVariant *variants;
  size_t count;
};

/// A call's outcome: the launch's (its error empty on success) and the
/// variant that ran (empty where none was picked).
struct Call : LaunchResult {
  std::string variant;  // CompiledVariant::assumes
  std::string target;   // "sm_90a"
  std::string config;   // a tuned call's configuration ("BLOCK=128 num_warps=1"), else empty
  bool nearest = false; // a tuned call whose key is not in the table: the nearest row's configuration ran
};

/// A meta-parameter's value in a tuned configuration.
struct TunedMeta {
  const char *name;
  int64_t value;
};

/// One row of a tuned table: the key's values it was tuned for, and the
/// configuration that won, compiled.
struct TunedRow {
  const int64_t *key;  // TunedTable::keyCount values
  const CompiledKernel *kernel;
  const char *config;  // "BLOCK=128 num_warps=1"
  const TunedMeta *meta;
  size_t metaCount;
};

struct TunedTable {
  const char *kernel;  // the template, "rowsum<{BLOCK}>"
  const char *grid;    // one to three expressions, "cdiv(n, BLOCK)"
  size_t keyCount;
  const TunedRow *rows;
  size_t count;        // at least one
};

/// Runs the configuration of `table` for `key` (the call's values of the
/// table's key, in its order), over the grid its expression gives with
/// `integers` (the call's integer arguments by name) and the row's
/// meta-parameters; otherwise as callCompiled.
Call callTuned(const TunedTable &table, Device &device, const LaunchOptions &options, const std::vector<LaunchArg> &args,
               std::vector<std::span<uint8_t>> buffers, const std::vector<int64_t> &key,
               const std::vector<std::pair<std::string, int64_t>> &integers);

/// Runs `kernel` on `device` over `grid` (options.grid is ignored): the
/// variant for the arguments, as above. `args` has one entry per kernel
/// parameter; `buffers` are read before and written after, in place.
Call callCompiled(const CompiledKernel &kernel, Device &device, Dim3 grid, const LaunchOptions &options,
                  const std::vector<LaunchArg> &args, std::vector<std::span<uint8_t>> buffers);

/// The bytes of a buffer argument.
template <class T> std::span<uint8_t> bufferBytes(std::span<T> s) {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T>);
  return {reinterpret_cast<uint8_t *>(s.data()), s.size_bytes()};
}

/// A scalar argument's bits, as the kernel's parameter of that C++ type
/// takes them (integers sign- or zero-extended to 64 bits).
template <class T> LaunchArg scalarArg(T v) {
  if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>) return LaunchArg::scalar(v.bits);
  else if constexpr (std::is_same_v<T, float>) return LaunchArg::scalar(std::bit_cast<uint32_t>(v));
  else if constexpr (std::is_same_v<T, double>) return LaunchArg::scalar(std::bit_cast<uint64_t>(v));
  else {
    static_assert(std::is_integral_v<T>);
    return LaunchArg::scalar(static_cast<uint64_t>(static_cast<std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>(v)));
  }
}

} // namespace twintile::runtime
