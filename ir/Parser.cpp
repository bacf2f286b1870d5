#include "ir/Parser.h"

#include "ir/TypeRules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace twintile::ir {

namespace {

/// Deepest nesting of regions; keeps garbage from exhausting the stack.
constexpr int kMaxDepth = 64;

struct ParseError {
  SourcePos pos;
  std::string message;
};

class Parser {
public:
  Parser(std::string_view text, std::string file) : s_(text), file_(std::move(file)) {}

  std::unique_ptr<Module> parseModule() {
    auto m = std::make_unique<Module>();
    skipWs();
    if (atEnd()) fail("expected 'func', got end of input");
    while (!atEnd()) {
      m->funcs.push_back(parseFunc());
      if (m->funcs.size() > 1) {
        const std::string &name = m->funcs.back()->name;
        for (size_t i = 0; i + 1 < m->funcs.size(); ++i)
          if (m->funcs[i]->name == name) failAt(funcNamePos_, "redefinition of function @" + name);
      }
      skipWs();
    }
    return m;
  }

private:
  //===-- Characters -------------------------------------------------===//

  bool atEnd() const { return i_ >= s_.size(); }
  char peek() const { return atEnd() ? '\0' : s_[i_]; }

  SourcePos here() const { return {file_, line_, col_}; }

  void advance() {
    if (atEnd()) return;
    if (s_[i_] == '\n') { ++line_; col_ = 1; }
    else ++col_;
    ++i_;
  }

  [[noreturn]] void fail(const std::string &msg) const { throw ParseError{here(), msg}; }
  [[noreturn]] void failAt(SourcePos pos, const std::string &msg) const {
    throw ParseError{std::move(pos), msg};
  }

  std::string describeNext() const {
    if (atEnd()) return "end of input";
    unsigned char c = static_cast<unsigned char>(peek());
    if (std::isprint(c)) return "'" + std::string(1, static_cast<char>(c)) + "'";
    const char *hex = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  void skipWs() {
    while (!atEnd()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { advance(); continue; }
      if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (!atEnd() && peek() != '\n') advance();
        continue;
      }
      break;
    }
  }

  bool consume(char c) {
    skipWs();
    if (peek() != c) return false;
    advance();
    return true;
  }

  void expect(char c, const char *context) {
    if (!consume(c)) fail(std::string("expected '") + c + "' " + context + ", got " + describeNext());
  }

  static bool isIdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  }

  std::string identifier() {
    skipWs();
    size_t start = i_;
    while (!atEnd() && isIdentChar(peek())) advance();
    return std::string(s_.substr(start, i_ - start));
  }

  bool consumeWord(std::string_view w) {
    skipWs();
    if (s_.substr(i_, w.size()) != w) return false;
    if (i_ + w.size() < s_.size() && isIdentChar(s_[i_ + w.size()])) return false;
    for (size_t k = 0; k < w.size(); ++k) advance();
    return true;
  }

  int64_t integer(const char *what) {
    skipWs();
    SourcePos pos = here();
    size_t start = i_;
    if (peek() == '-') advance();
    while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
    int64_t v = 0;
    auto [p, ec] = std::from_chars(s_.data() + start, s_.data() + i_, v);
    if (ec != std::errc() || p != s_.data() + i_ || i_ == start)
      failAt(pos, std::string("expected ") + what + " (an integer)");
    return v;
  }

  std::string stringLiteral() {
    skipWs();
    if (peek() != '"') fail("expected a string, got " + describeNext());
    SourcePos start = here();
    advance();
    std::string out;
    while (true) {
      if (atEnd() || peek() == '\n') failAt(start, "unterminated string");
      char c = peek();
      advance();
      if (c == '"') return out;
      if (c != '\\') { out += c; continue; }
      char e = peek();
      advance();
      if (e == 'n') out += '\n';
      else if (e == '"' || e == '\\') out += e;
      else if (e == 'x') {
        int v = 0;
        for (int k = 0; k < 2; ++k) {
          char h = peek();
          if (!std::isxdigit(static_cast<unsigned char>(h))) fail("bad \\x escape in string");
          v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
          advance();
        }
        out += static_cast<char>(v);
      } else fail("unknown escape in string");
    }
  }

  //===-- Types and attributes ---------------------------------------===//

  ScalarKind elementKind(bool allowPtr, ScalarKind &pointee) {
    skipWs();
    SourcePos pos = here();
    std::string name = identifier();
    if (name == "ptr" && allowPtr) {
      expect('<', "after 'ptr'");
      pointee = elementKind(false, pointee);
      expect('>', "to close 'ptr<'");
      return ScalarKind::Ptr;
    }
    auto k = parseScalarName(name);
    if (!k) failAt(pos, name.empty() ? "expected a type, got " + describeNext()
                                     : "unknown type '" + name + "'");
    return *k;
  }

  Type type() {
    skipWs();
    SourcePos pos = here();
    if (!consumeWord("tile")) {
      Type t;
      t.elem = elementKind(true, t.pointee);
      return t;
    }
    expect('<', "after 'tile'");
    Shape shape;
    // Dimensions: digits followed by 'x', then the element type.
    while (true) {
      skipWs();
      if (!std::isdigit(static_cast<unsigned char>(peek()))) break;
      SourcePos dpos = here();
      int64_t d = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (d > kMaxTileElements) failAt(dpos, "tile dimension is too large");
        d = d * 10 + (peek() - '0');
        advance();
      }
      if (d <= 0) failAt(dpos, "tile dimensions must be positive, got " + std::to_string(d));
      shape.push_back(d);
      if (peek() != 'x') fail("expected 'x' after a tile dimension, got " + describeNext());
      advance();
    }
    if (shape.empty()) fail("a tile type needs at least one dimension");
    if (static_cast<int64_t>(shape.size()) > kMaxTileRank)
      failAt(pos, "tiles have at most " + std::to_string(kMaxTileRank) + " dimensions");
    int64_t n = 1;
    for (int64_t d : shape) {
      n *= d;
      if (n > kMaxTileElements)
        failAt(pos, "tile has more than " + std::to_string(kMaxTileElements) + " elements");
    }
    Type t;
    t.elem = elementKind(true, t.pointee);
    t.shape = std::move(shape);
    expect('>', "to close 'tile<'");
    return t;
  }

  Attr attrValue() {
    skipWs();
    char c = peek();
    if (c == '"') return Attr::string(stringLiteral());
    if (c == '[') {
      advance();
      std::vector<int64_t> v;
      if (!consume(']')) {
        do v.push_back(integer("a list element"));
        while (consume(','));
        expect(']', "to close a list");
      }
      return Attr::list(std::move(v));
    }
    // A number: integer, or float (with '.', 'e', or inf/nan).
    SourcePos pos = here();
    size_t start = i_;
    if (peek() == '-' || peek() == '+') advance();
    while (!atEnd() && (isIdentChar(peek()) ||
                        ((peek() == '-' || peek() == '+') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E'))))
      advance();
    std::string tok(s_.substr(start, i_ - start));
    if (tok.empty()) fail("expected an attribute value, got " + describeNext());
    std::string body = tok[0] == '-' || tok[0] == '+' ? tok.substr(1) : tok;
    bool neg = tok[0] == '-';
    if (body == "inf") return Attr::floating(neg ? -INFINITY : INFINITY);
    if (body == "nan") return Attr::floating(neg ? -NAN : NAN);
    if (body.find_first_of(".eE") == std::string::npos) {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(tok.data() + (tok[0] == '+'), tok.data() + tok.size(), v);
      if (ec == std::errc::result_out_of_range && !neg) {  // a u64 constant above 2^63: its 64 bits
        uint64_t u = 0;
        auto [q, uec] = std::from_chars(tok.data() + (tok[0] == '+'), tok.data() + tok.size(), u);
        if (uec == std::errc() && q == tok.data() + tok.size()) return Attr::integer(static_cast<int64_t>(u));
      }
      if (ec != std::errc() || p != tok.data() + tok.size())
        failAt(pos, "invalid integer '" + tok + "'");
      return Attr::integer(v);
    }
    double d = 0;
    auto [p, ec] = std::from_chars(tok.data() + (tok[0] == '+'), tok.data() + tok.size(), d);
    if (ec != std::errc() || p != tok.data() + tok.size()) failAt(pos, "invalid number '" + tok + "'");
    return Attr::floating(d);
  }

  /// {name = value, ...}; the opening brace is already consumed. The
  /// position of each name goes to `positions` if given.
  std::vector<std::pair<std::string, Attr>> attrList(std::vector<SourcePos> *positions = nullptr) {
    std::vector<std::pair<std::string, Attr>> out;
    if (consume('}')) return out;
    do {
      skipWs();
      SourcePos pos = here();
      if (positions) positions->push_back(pos);
      std::string name = identifier();
      if (name.empty()) fail("expected an attribute name, got " + describeNext());
      for (auto &[n, a] : out)
        if (n == name) failAt(pos, "duplicate attribute '" + name + "'");
      expect('=', "after attribute name");
      out.emplace_back(name, attrValue());
    } while (consume(','));
    expect('}', "to close attributes");
    return out;
  }

  Location location() {
    Location loc;
    if (!consumeWord("loc")) return loc;
    expect('(', "after 'loc'");
    loc.pos = sourcePos();
    while (consumeWord("from")) loc.inlinedAt.push_back(sourcePos());
    expect(')', "to close 'loc('");
    return loc;
  }

  SourcePos sourcePos() {
    SourcePos p;
    p.file = stringLiteral();
    expect(':', "in a location");
    skipWs();
    SourcePos linePos = here();
    int64_t line = integer("a line number");
    expect(':', "in a location");
    int64_t col = integer("a column number");
    if (line <= 0 || line > std::numeric_limits<int>::max() || col < 0 ||
        col > std::numeric_limits<int>::max())
      failAt(linePos, "invalid line or column in a location: " + std::to_string(line) + ":" +
                          std::to_string(col));
    p.line = static_cast<int>(line);
    p.col = static_cast<int>(col);
    return p;
  }

  //===-- Values -----------------------------------------------------===//

  std::string valueName() {
    skipWs();
    if (peek() != '%') fail("expected a value (%name), got " + describeNext());
    advance();
    std::string n = identifier();
    if (n.empty()) fail("expected a value name after '%'");
    return n;
  }

  void define(const std::string &name, Value *v, SourcePos pos) {
    if (values_.count(name)) failAt(pos, "redefinition of value %" + name);
    values_[name] = v;
    scopes_.back().push_back(name);
  }

  Value *use() {
    skipWs();
    SourcePos pos = here();
    std::string n = valueName();
    auto it = values_.find(n);
    if (it == values_.end()) failAt(pos, "use of undefined value %" + n);
    return it->second;
  }

  void pushScope() { scopes_.emplace_back(); }
  void popScope() {
    for (const std::string &n : scopes_.back()) values_.erase(n);
    scopes_.pop_back();
  }

  //===-- Functions, blocks, ops -------------------------------------===//

  std::unique_ptr<Func> parseFunc() {
    skipWs();
    if (!consumeWord("func")) fail("expected 'func', got " + describeNext());
    auto f = std::make_unique<Func>();
    skipWs();
    funcNamePos_ = here();
    if (!consume('@')) fail("expected '@name' after 'func', got " + describeNext());
    if (peek() == '"') {
      f->name = stringLiteral();  // a name that is not an identifier
    } else {
      f->name = identifier();
      if (f->name.empty()) fail("expected a function name after '@', got " + describeNext());
    }
    values_.clear();
    scopes_.clear();
    pushScope();
    expect('(', "to open the parameter list");
    if (!consume(')')) {
      do {
        skipWs();
        SourcePos pos = here();
        std::string n = valueName();
        expect(':', "after a parameter name");
        Value *v = f->body.addArg(type(), n);
        define(n, v, pos);
      } while (consume(','));
      expect(')', "to close the parameter list");
    }
    if (consumeWord("meta")) {
      expect('{', "after 'meta'");
      f->meta = attrList();
    }
    if (consumeWord("options")) {
      expect('{', "after 'options'");
      std::vector<SourcePos> positions;
      auto options = attrList(&positions);
      for (size_t k = 0; k < options.size(); ++k) {
        auto &[name, a] = options[k];
        if (name == "num_stages") {
          if (a.kind != Attr::Kind::Int) failAt(positions[k], "num_stages must be an integer, got " + toString(a));
          if (std::string why = numStagesProblem(a.i); !why.empty()) failAt(positions[k], why);
          f->numStages = static_cast<int>(a.i);
          continue;
        }
        if (name != "num_warps") failAt(positions[k], "unknown function option '" + name + "'");
        if (a.kind != Attr::Kind::Int) failAt(positions[k], "num_warps must be an integer, got " + toString(a));
        if (std::string why = numWarpsProblem(a.i); !why.empty()) failAt(positions[k], why);
        f->numWarps = static_cast<int>(a.i);
      }
    }
    f->loc = location();
    expect('{', "to open the function body");
    parseOps(f->body, 1);
    popScope();
    return f;
  }

  /// Ops up to the closing '}' (consumed).
  void parseOps(Block &block, int depth) {
    if (depth > kMaxDepth) fail("regions are nested too deeply");
    while (true) {
      skipWs();
      if (atEnd()) fail("expected '}' to close a block, got end of input");
      if (consume('}')) return;
      parseOp(block, depth);
    }
  }

  void parseOp(Block &block, int depth) {
    skipWs();
    SourcePos opPos = here();
    std::vector<std::pair<std::string, SourcePos>> resultNames;
    if (peek() == '%') {
      do {
        skipWs();
        SourcePos pos = here();
        resultNames.emplace_back(valueName(), pos);
      } while (consume(','));
      expect('=', "after the op's results");
    }
    skipWs();
    SourcePos namePos = here();
    std::string name = identifier();
    if (name.empty()) fail("expected an op name, got " + describeNext());
    const OpInfo *info = lookupOp(name);
    if (!info) failAt(namePos, "unknown op '" + name + "'");

    auto op = std::make_unique<Op>(info->kind, Location{});
    // Ops with regions but no attributes, such as `while`, have no attribute
    // list: a '{' opens a region. For every other op it is an attribute list,
    // and an attribute the op does not take is reported where it is named.
    skipWs();
    if ((!info->attrs.empty() || !info->optional.empty() || info->numRegions == 0) && consume('{')) {
      std::vector<SourcePos> positions;
      auto list = attrList(&positions);
      for (size_t k = 0; k < list.size(); ++k) {
        auto &[n, a] = list[k];
        if (std::find(info->attrs.begin(), info->attrs.end(), n) == info->attrs.end() &&
            std::find(info->optional.begin(), info->optional.end(), n) == info->optional.end())
          failAt(positions[k], "'" + name + "' has unknown attribute '" + n + "'");
        op->attrs[n] = std::move(a);
      }
    }
    skipWs();
    // Operands start on the op's line: an op without any (debug_barrier,
    // device_print of nothing) is not followed by the next op's result.
    if (peek() == '%' && line_ == namePos.line) {
      do op->operands.push_back(use());
      while (consume(','));
    }
    std::vector<Type> types;
    std::vector<SourcePos> typePositions;
    if (consume(':')) {
      do {
        skipWs();
        typePositions.push_back(here());
        types.push_back(type());
      } while (consume(','));
    }
    if (types.size() != resultNames.size())
      failAt(opPos, "'" + name + "' declares " + std::to_string(resultNames.size()) +
                        " results but " + std::to_string(types.size()) + " result types");

    // Check operands and attributes against the typing rule.
    std::vector<Type> operandTypes;
    for (Value *v : op->operands) operandTypes.push_back(v->type);
    TypeRuleResult rule = inferResultTypes(info->kind, operandTypes, op->attrs, types);
    if (!rule.error.empty()) failAt(namePos, rule.error);
    if (rule.results.size() != types.size())
      failAt(opPos, "'" + name + "' has " + std::to_string(rule.results.size()) +
                        " results, but " + std::to_string(types.size()) + " are declared");
    for (size_t k = 0; k < types.size(); ++k)
      if (!(rule.results[k] == types[k]))
        failAt(typePositions[k], "type mismatch: '" + name + "' result " + std::to_string(k) +
                          " is declared " + toString(types[k]) + " but its operands give " +
                          toString(rule.results[k]));
    for (Type &t : types) op->addResult(std::move(t));

    for (int r = 0; r < info->numRegions; ++r) {
      expect('{', ("to open region " + std::to_string(r) + " of '" + name + "'").c_str());
      Block &region = op->addRegion();
      pushScope();
      skipWs();
      if (consume('^')) {
        expect('(', "after '^'");
        if (!consume(')')) {
          do {
            skipWs();
            SourcePos pos = here();
            std::string n = valueName();
            expect(':', "after a block argument");
            define(n, region.addArg(type()), pos);
          } while (consume(','));
          expect(')', "to close block arguments");
        }
        expect(':', "after block arguments");
      }
      parseOps(region, depth + 1);
      popScope();
    }
    op->loc = location();
    for (size_t k = 0; k < resultNames.size(); ++k)
      define(resultNames[k].first, op->result(k), resultNames[k].second);
    op->parent = &block;
    block.ops.push_back(std::move(op));
  }

  std::string_view s_;
  std::string file_;
  size_t i_ = 0;
  int line_ = 1, col_ = 1;
  SourcePos funcNamePos_;  // of the function being parsed
  std::unordered_map<std::string, Value *> values_;
  std::vector<std::vector<std::string>> scopes_;
};

} // namespace

ParseResult parseModule(std::string_view text, std::string bufferName) {
  ParseResult r;
  try {
    r.module = Parser(text, std::move(bufferName)).parseModule();
  } catch (const ParseError &e) {
    r.error = Diagnostic{Location(e.pos.file, e.pos.line, e.pos.col), e.message};
    r.module.reset();
  }
  return r;
}

} // namespace twintile::ir
