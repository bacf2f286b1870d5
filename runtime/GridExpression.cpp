//===- GridExpression.cpp - recursive descent over a grid expression ------===//
#include "runtime/GridExpression.h"

#include <cctype>
#include <cstdint>
#include <stdexcept>

namespace twintile::runtime {

namespace {

/// expr := term (('+' | '-') term)*; term := factor (('*' | '/') factor)*;
/// factor := '-' factor | INT | NAME | 'cdiv' '(' expr ',' expr ')' | '(' expr ')'.
/// Errors are thrown as std::invalid_argument with their column.
class Parser {
public:
  Parser(const std::string &text, const std::map<std::string, int64_t> &names) : s_(text), names_(names) {}

  int64_t all() {
    int64_t v = expr();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_, 1) + "'");
    return v;
  }

private:
  const std::string &s_;
  const std::map<std::string, int64_t> &names_;
  size_t i_ = 0, depth_ = 0;

  [[noreturn]] void fail(const std::string &what) const {
    throw std::invalid_argument("column " + std::to_string(i_ + 1) + ": " + what);
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  /// a op b, refused where it overflows.
  int64_t apply(char op, int64_t a, int64_t b) const {
    int64_t r = 0;
    bool overflowed = op == '+' ? __builtin_add_overflow(a, b, &r)
                    : op == '-' ? __builtin_sub_overflow(a, b, &r)
                                : __builtin_mul_overflow(a, b, &r);
    if (overflowed) fail("the value overflows 64 bits");
    return r;
  }
  int64_t expr() {
    int64_t v = term();
    for (;;) {
      char op = eat('+') ? '+' : eat('-') ? '-' : 0;
      if (!op) return v;
      int64_t rhs = term();
      v = apply(op, v, rhs);
    }
  }
  int64_t term() {
    int64_t v = factor();
    for (;;) {
      char op = eat('*') ? '*' : eat('/') ? '/' : 0;
      if (!op) return v;
      int64_t rhs = factor();
      v = op == '*' ? apply('*', v, rhs) : divide(v, rhs, false);
    }
  }
  int64_t divide(int64_t a, int64_t b, bool up) const {
    if (b == 0) fail("division by zero");
    if (a == INT64_MIN && b == -1) fail("the value overflows 64 bits");
    int64_t q = a / b;
    return up && a % b != 0 && (a < 0) == (b < 0) ? q + 1 : q;
  }
  int64_t factor() {
    if (++depth_ > 64) fail("nested too deeply");
    int64_t v = primary();
    --depth_;
    return v;
  }
  int64_t primary() {
    skip();
    if (eat('-')) {
      int64_t v = factor();
      if (v == INT64_MIN) fail("the value overflows 64 bits");
      return -v;
    }
    if (eat('(')) {
      int64_t v = expr();
      expect(')');
      return v;
    }
    if (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      int64_t v = 0;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])))
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[i_++] - '0', &v))
          fail("the number overflows 64 bits");
      return v;
    }
    size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    std::string name = s_.substr(start, i_ - start);
    if (name.empty()) fail(i_ < s_.size() ? "unexpected '" + s_.substr(i_, 1) + "'" : "an expression ends early");
    if (name == "cdiv") {
      expect('(');
      int64_t a = expr();
      expect(',');
      int64_t b = expr();
      expect(')');
      return divide(a, b, true);
    }
    auto it = names_.find(name);
    if (it == names_.end()) {
      i_ = start;
      fail("'" + name + "' is neither a meta-parameter of the configuration nor an integer argument");
    }
    return it->second;
  }
};

} // namespace

std::optional<int64_t> evalGridExpression(const std::string &text, const std::map<std::string, int64_t> &names,
                                          std::string &error) {
  try {
    return Parser(text, names).all();
  } catch (const std::invalid_argument &e) {
    error = "'" + text + "': " + e.what();
    return std::nullopt;
  }
}

std::vector<std::string> splitGrid(const std::string &grid) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : grid) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (c == ',' && depth == 0) parts.emplace_back();
    else parts.back() += c;
  }
  return parts;
}

} // namespace twintile::runtime
