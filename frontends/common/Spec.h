//===- Spec.h - a specialization as --kernel names one -------------------===//
//
// Before any compiler runs, the driver checks each --kernel value as text:
// a kernel's name, then its template arguments, and nothing that could end
// the code it is pasted into. What the kernel file declares is Clang's to
// say (frontends/clang/KernelDecl.h): nothing here reads the file.
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace twintile {

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

} // namespace twintile
