//===- KernelSource.h - what a kernel file says, read as text ------------===//
//
// Before any compiler runs (or after one failed inside generated code), the
// driver reads a few facts from the kernel file's text: which kernels it
// defines, a kernel's template parameters, and a kernel parameter of a plain
// C++ type. Text, not an AST: the tracer's host compiler is a separate
// process, and these answers must be the same for both front ends.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace twintile {

/// The kernels `source` defines (the functions marked TT_KERNEL), in order.
std::vector<std::string> kernelsIn(const std::string &source);

/// Why `spec` is not a specialization as --kernel takes one — a kernel's
/// name (qualified or not), then its template arguments in <...> and
/// nothing after — or empty. Code generated around a spec (the tracer's
/// entry points, the parse front end's instantiation) relies on it: the
/// arguments are read by a whitelist (names, numbers, operators, brackets
/// that balance, closed string literals; no ';', brace, '#', '%', comment,
/// character literal or raw string), so no reading of them ends the code
/// they are pasted into.
std::string specProblem(const std::string &spec);

/// "softmax" of "ns::softmax<f16, 1024>".
std::string kernelName(const std::string &spec);

/// Kernel `name`'s template parameter list as written ("<int N>"), "" if it
/// is not a template, nullopt if `source` does not define it.
std::optional<std::string> templateParameters(const std::string &source, const std::string &name);

/// The first parameter of kernel `name` whose type is a plain C++ one (int,
/// float, bool, a raw pointer...), located in `path`: the error both front
/// ends give for it. Types the text cannot decide (a template parameter, an
/// alias) are taken to be the language's.
std::optional<twintile::ir::Diagnostic> hostParameter(const std::string &source, const std::string &path,
                                                const std::string &name);

} // namespace twintile
