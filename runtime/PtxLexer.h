//===- PtxLexer.h - PTX text to tokens (internal) ------------------------===//
#pragma once

#include "runtime/PtxDecode.h"

#include <string>
#include <vector>

namespace twintile::runtime::ptx {

struct Token {
  enum class Kind { Ident, Number, Punct, String, End };
  Kind kind = Kind::End;
  std::string text;
  int line = 0;
};

/// Tokens of `text` with their lines, ending in an End token. Identifiers
/// include PTX's dotted forms (ld.global.v4.f32, %tid.x, .L2::evict_last);
/// numbers are kept as written. Throws PtxError on a stray character or an
/// unterminated comment or string.
std::vector<Token> lex(const std::string &text);

/// A number token as an operand: integers (decimal, hex, octal; negated when
/// `negative`), 0f/0d float bit patterns, decimal reals.
RawOperand numberOperand(const std::string &text, bool negative, int line);

} // namespace twintile::runtime::ptx
