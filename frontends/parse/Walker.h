//===- Walker.h - walking an instantiated kernel body to tile IR ---------===//
#pragma once

#include "frontends/common/Recorder.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace twintile {

/// Walks the instantiated body of `kernel` to tile IR. User errors come back
/// located, clang-style, with the chain of inlined calls.
FrontendResult walkKernel(clang::ASTContext &ctx, const clang::FunctionDecl &kernel, int numWarps);

} // namespace twintile
