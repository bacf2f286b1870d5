//===- Manifest.h - what the runtime needs to launch a kernel, beside PTX -===//
//
// The backend writes a manifest next to every PTX file; the runtime (the
// emulator, the CUDA driver, the launch API, the GPU bench's runner) reads
// it. It names the PTX entry, the launch shape and each parameter with its
// IR type and the promises the code was specialized on. Format: Manifest.cpp.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace twintile::runtime {

/// What the caller asserts about one kernel parameter. These are part of the
/// specialization (and of the compile cache's key): code compiled under an
/// assumption is only correct for arguments that satisfy it, and the runtime
/// checks it at launch.
struct ParamAssumption {
  bool aligned16 = false;    // a pointer: its address is a multiple of 16 bytes
  bool divisible16 = false;  // an integer: its value is a multiple of 16
  friend bool operator==(const ParamAssumption &, const ParamAssumption &) = default;
};

/// A parameter's type as the runtime sees it: a pointer to elements, or a
/// scalar, of one of the IR's element types.
struct ParamType {
  bool pointer = false;
  std::string elem;   // "f16", "i32", ...: the IR's spelling
  int bytes = 0;      // of one element (i1: 1)
  bool isFloat = false;
  bool isSigned = true;  // integers: i8 .. i64; i1 and u8 .. u64 are unsigned
};

/// Reads an IR type spelling from a manifest ("ptr<f16>", "i32"); nullopt
/// for anything the runtime cannot pass.
std::optional<ParamType> parseParamType(const std::string &spelling);

/// The values an integer scalar of type `t` takes as a signed argument (an
/// int64_t): its range (i1: 0 and 1); a u64's up to INT64_MAX (the launch
/// API takes a uint64_t's every value, the driver's --arg up to 2^64 - 1).
struct IntRange {
  int64_t lo, hi;
  bool contains(int64_t v) const { return lo <= v && v <= hi; }
};
IntRange intRange(const ParamType &t);

struct Manifest {
  struct Param {
    std::string name;
    std::string type;  // IR spelling: "ptr<f16>", "i32"
    ParamAssumption assume;
  };
  std::string kernel;      // the PTX entry's name
  std::string arch;
  std::string math = "precise";  // or "fast" (--math)
  int numWarps = 4;
  int threadsPerProgram = 128;
  int sharedBytes = 0;         // shared memory the kernel uses
  int dynamicSharedBytes = 0;  // of which its launches provide (.extern .shared); 0: all static
  /// Global memory each program may use as scratch, a multiple of 128 bytes;
  /// 0: none. A kernel that asks for some takes one more parameter than
  /// `params` lists, last: the address of the launch's scratch area
  /// (launchScratchBytes in Device.h says how it is laid out).
  int globalScratchBytes = 0;
  std::vector<Param> params;

  std::string toJson() const;
  /// Reads toJson()'s output back; throws std::runtime_error on bad text,
  /// naming the first field that is wrong (and every parameter type the
  /// runtime cannot pass).
  static Manifest fromJson(const std::string &text);
};

} // namespace twintile::runtime
