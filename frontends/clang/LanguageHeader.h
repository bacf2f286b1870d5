//===- LanguageHeader.h - what every in-process Clang run of a kernel shares -===//
//
// Both front ends run Clang inside twintile on a kernel file: the parsing
// one to walk the AST, the tracing one to compile the file for the host and
// run it (HostCompile.h). They start from the same arguments and the same
// precompiled language header, so that the header is parsed once per
// machine, not once per kernel, and a kernel means the same C++ to both.
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace twintile {

/// Clang's arguments for a kernel file: C++20, no warnings, Clang's own
/// resource directory, the language's include directory (languageRoot(),
/// LanguageFiles.h), then `includeDirs`.
std::vector<std::string> clangBaseArgs(const std::vector<std::string> &includeDirs);

/// `header` (a language file, LanguageFiles.h: the language header, or one
/// that includes it) precompiled for `args` (which clangBaseArgs gave),
/// after include/twintile/instantiated.h (the element types' classes):
/// built once per process, cached on disk by its content beside a record of
/// what the file must be (a damaged, truncated or swapped one is rebuilt,
/// never loaded). Empty if it cannot be built or $TWINTILE_NO_PCH is set:
/// kernels then parse the headers themselves. What happened to the cache
/// goes to `notes`, once.
std::string languagePch(const std::vector<std::string> &args, std::vector<std::string> &notes,
                        const std::string &header = "include/twintile.h");

/// Whether Clang's `diagnostics` say it could not use the precompiled header
/// `pch` (missing, truncated, replaced, from another Clang): then the parse
/// runs again without it, after forgetLanguagePch.
bool pchUnusable(const std::string &diagnostics, const std::string &pch);

/// Forgets `pch` as this process's language header, so that the next
/// languagePch looks at the cache again (and rebuilds what does not check).
void forgetLanguagePch(const std::string &pch);

/// The arguments that make a parse start from `pch` (keyed by the header's
/// content, so Clang need not check the header's time stamp).
std::vector<std::string> pchArgs(const std::string &pch);

} // namespace twintile
