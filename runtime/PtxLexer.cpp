//===- PtxLexer.cpp - PTX text to tokens --------------------------------===//
#include "runtime/PtxLexer.h"

#include "runtime/PtxModule.h"

#include <cctype>
#include <cstring>
#include <stdexcept>

namespace twintile::runtime::ptx {

namespace {

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }
bool identStart(char c) { return (identChar(c) && !std::isdigit(static_cast<unsigned char>(c))) || c == '%'; }

} // namespace

std::vector<Token> lex(const std::string &s) {
  std::vector<Token> out;
  size_t i = 0, n = s.size();
  int line = 1;
  auto push = [&](Token::Kind k, size_t from, size_t to) { out.push_back({k, s.substr(from, to - from), line}); };
  while (i < n) {
    char c = s[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      int start = line;
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) line += s[i++] == '\n';
      if (i + 1 >= n) throw PtxError(start, "unterminated /* comment");
      i += 2;
      continue;
    }
    if (c == '"') {
      size_t j = i + 1;
      while (j < n && s[j] != '"' && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      if (j >= n || s[j] != '"') throw PtxError(line, "unterminated string");
      push(Token::Kind::String, i + 1, j);
      i = j + 1;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i + 1;
      bool prefixed = c == '0' && j + 1 < n && s[j] != '\0' && std::strchr("fFdDxX", s[j]);
      if (prefixed && std::isxdigit(static_cast<unsigned char>(s[j + 1]))) {
        j += 1;
        while (j < n && std::isxdigit(static_cast<unsigned char>(s[j]))) ++j;
      } else {
        while (j < n && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        if (j < n && s[j] == '.') {
          ++j;
          while (j < n && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        }
        if (j < n && (s[j] == 'e' || s[j] == 'E')) {
          size_t k = j + 1;
          if (k < n && (s[k] == '+' || s[k] == '-')) ++k;
          if (k < n && std::isdigit(static_cast<unsigned char>(s[k]))) {
            j = k;
            while (j < n && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
          }
        }
      }
      if (j < n && (s[j] == 'U' || s[j] == 'u')) ++j;
      push(Token::Kind::Number, i, j);
      i = j;
      continue;
    }
    if (identStart(c)) {
      size_t j = i + 1;
      while (j < n) {
        if (identChar(s[j])) ++j;
        else if (s[j] == ':' && j + 2 < n && s[j + 1] == ':' && identChar(s[j + 2])) j += 2;
        else break;
      }
      push(Token::Kind::Ident, i, j);
      i = j;
      continue;
    }
    if (c != '\0' && std::strchr(",;:{}[]()+-!@|<>=*", c)) {
      push(Token::Kind::Punct, i, i + 1);
      ++i;
      continue;
    }
    throw PtxError(line, std::string("unexpected character '") + c + "'");
  }
  out.push_back({Token::Kind::End, "", line});
  return out;
}

/// A number token as an operand: integers (decimal, hex, octal), 0f/0d float bits, decimal reals.
RawOperand numberOperand(const std::string &t, bool negative, int line) {
  RawOperand o;
  std::string s = t;
  if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
  if (s.size() > 2 && s[0] == '0' && std::strchr("fFdD", s[1])) {
    bool f32 = s[1] == 'f' || s[1] == 'F';
    if (s.size() != (f32 ? 10u : 18u)) throw PtxError(line, "malformed float literal '" + t + "'");
    o.kind = f32 ? RawOperand::Kind::F32Bits : RawOperand::Kind::F64Bits;
    o.imm = std::stoull(s.substr(2), nullptr, 16);
    if (negative) o.imm ^= f32 ? 0x80000000ull : 0x8000000000000000ull;
    return o;
  }
  bool hex = s.size() > 1 && (s[1] == 'x' || s[1] == 'X');
  size_t used = 0;
  try {
    if (!hex && s.find_first_of(".eE") != std::string::npos) {
      o.kind = RawOperand::Kind::Real;
      o.real = std::stod(s, &used);
      if (used != s.size()) throw std::invalid_argument(s);
      if (negative) o.real = -o.real;
      return o;
    }
    o.kind = RawOperand::Kind::Int;
    if (hex) {
      o.imm = std::stoull(s.substr(2), &used, 16);
      used += 2;
    } else if (s.size() > 1 && s[0] == '0') {
      o.imm = std::stoull(s, &used, 8);
    } else {
      o.imm = std::stoull(s, &used, 10);
    }
    if (used != s.size()) throw std::invalid_argument(s);
  } catch (const std::exception &) {
    throw PtxError(line, "malformed number '" + t + "'");
  }
  if (negative) o.imm = ~o.imm + 1;
  return o;
}

} // namespace twintile::runtime::ptx
