//===- LibrarySource.h - the C++ a kernel library is made of --------------===//
//
// `twintile library` (Library.cpp) compiles; this writes what it compiled as
// C++: NAME.h, one typed function per specialization, and NAME.cpp, the
// variants as constant data and the functions, which call the runtime's
// callCompiled (runtime/KernelLibrary.h). Text only: no compiling here.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace twintile::driver {

struct LibraryVariant {
  std::string assumes;   // "x:aligned n:divisible", or "plain"
  std::string target;    // "sm_90a"
  std::string manifest;  // JSON
  std::string ptx;
  std::string cubin;     // bytes; empty without ptxas
  std::string tileIR;
};

struct LibraryKernel {
  std::string function;  // the C++ function's name (its variants' object's, where not typed)
  std::string spec;      // "scale<f32, 256>"
  bool typed = true;     // a function of its own; false: a tuned function's configuration
  int numWarps = 0, numStages = 0;  // a tuned configuration's (0: the library's)
  struct Param {
    std::string name, type;  // the kernel's name for it and its IR type ("ptr<f32>")
  };
  std::vector<Param> params;
  std::vector<LibraryVariant> variants;  // by target, most specialized first
};

/// A function over a tuned table (TunedTable.h): its rows' configurations
/// are LibraryKernels that are not typed.
struct LibraryTuned {
  std::string function;
  std::string kernel;  // the template
  std::string grid;
  std::vector<std::string> key;
  struct Row {
    std::vector<int64_t> key;
    size_t kernel;  // into the library's kernels
    std::string config;
    std::vector<std::pair<std::string, int64_t>> meta;
  };
  std::vector<Row> rows;
};

struct LibraryText {
  std::string header, source;
};

/// NAME.h and NAME.cpp for kernels of `file` in namespace `ns`; the source
/// includes the header as `headerName`.
LibraryText libraryText(const std::string &ns, const std::string &headerName, const std::string &file,
                        const std::vector<LibraryKernel> &kernels, const std::vector<LibraryTuned> &tuned = {});

/// The C++ type a parameter of IR type `type` takes in a library's function
/// ("std::span<float>", "int32_t"); nullopt for a type the runtime cannot pass.
std::optional<std::string> cxxParamType(const std::string &type);

/// Whether `s` may name a C++ function or namespace: an identifier that is
/// not a keyword and not reserved (no leading underscore and capital, no
/// double underscore).
bool isCxxName(const std::string &s);

} // namespace twintile::driver
