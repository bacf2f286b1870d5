//===- PtxModule.cpp - PTX text to a Program --------------------------------===//
//
// A parser of module declarations and function bodies over PtxLexer's
// tokens: statements end at ';', except the line-terminated directives
// .version, .target, .address_size, .file and .loc. Bodies nest `{ }` scopes
// whose registers, variables and labels shadow the outer ones. Every variable
// is laid out here, in the address windows of PtxProgram.h; instructions are
// handed to decodeInstr (PtxDecode.cpp); calls are resolved at the end.
//===----------------------------------------------------------------------===//
#include "runtime/PtxModule.h"

#include "runtime/PtxDecode.h"
#include "runtime/PtxLexer.h"

#include <bit>
#include <cctype>
#include <cstring>
#include <map>
#include <unordered_map>

namespace twintile::runtime {

PtxError::PtxError(int line, const std::string &msg)
    : std::runtime_error("line " + std::to_string(line) + ": " + msg), line(line), message(msg) {}

namespace ptx {

const char *spaceName(Space s) {
  switch (s) {
  case Space::Generic: return "";
  case Space::Global: return "global";
  case Space::Shared: return "shared";
  case Space::Local: return "local";
  case Space::Param: return "param";
  case Space::Const: return "const";
  }
  return "";
}

Type parseType(const std::string &name) {
  static const std::unordered_map<std::string, Type> kTypes = {
      {"pred", Type::Pred}, {"b8", Type::B8},     {"b16", Type::B16},       {"b32", Type::B32},
      {"b64", Type::B64},   {"b128", Type::B128}, {"u8", Type::U8},         {"u16", Type::U16},
      {"u32", Type::U32},   {"u64", Type::U64},   {"s8", Type::S8},         {"s16", Type::S16},
      {"s32", Type::S32},   {"s64", Type::S64},   {"f16", Type::F16},       {"f16x2", Type::F16x2},
      {"bf16", Type::BF16}, {"bf16x2", Type::BF16x2}, {"f32", Type::F32},   {"f64", Type::F64},
  };
  auto it = kTypes.find(!name.empty() && name[0] == '.' ? name.substr(1) : name);
  return it == kTypes.end() ? Type::None : it->second;
}

const Function *Program::find(const std::string &name) const {
  for (const Function &f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

} // namespace ptx

namespace {

using namespace ptx;

uint64_t alignUp(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

constexpr uint32_t kMaxRegisters = 1u << 16;  // per function, every scope's together
constexpr uint64_t kMaxParamBytes = 32764;    // CUDA 12.1's limit for all of a kernel's parameters

//===--- Parser -----------------------------------------------------------===//

struct RegRange {
  std::string prefix;
  uint32_t count, base;
};

struct ScopeFrame {
  int id = 0;
  std::unordered_map<std::string, uint32_t> regs;
  std::vector<RegRange> ranges;
  std::unordered_map<std::string, Variable> vars;
};

struct BranchFixup {
  size_t index;
  std::string label;
  std::vector<int> chain;  // scope ids, innermost first
  int line;
};

class Parser final : public Scope {
public:
  explicit Parser(const std::string &text) : toks_(lex(text)) {}

  Program run() {
    while (peek().kind != Token::Kind::End) topLevel();
    resolveCalls();
    prog_.constInit.resize(prog_.constVarBytes);
    prog_.globalInit.resize(prog_.globalVarBytes);
    for (const Variable &v : prog_.globals) {
      if (v.init.empty()) continue;
      auto &dst = v.space == Space::Const ? prog_.constInit : prog_.globalInit;
      uint64_t base = v.space == Space::Const ? kConstVarBase : kGlobalVarBase;
      std::memcpy(dst.data() + (v.address - base), v.init.data(), v.init.size());
    }
    prog_.dynamicSharedOffset = alignUp(prog_.staticSharedBytes, std::max<uint64_t>(16, dynamicSharedAlign_));
    return std::move(prog_);
  }

  // Scope
  uint32_t reg(const std::string &name, int line) override {
    uint32_t slot = findReg(name);
    if (slot == Operand::kNoReg) throw PtxError(line, "undeclared register '" + name + "'");
    return slot;
  }

  uint32_t findReg(const std::string &name) override {
    std::string prefix = name;
    while (!prefix.empty() && std::isdigit(static_cast<unsigned char>(prefix.back()))) prefix.pop_back();
    uint32_t num = 0;
    bool numbered = prefix.size() < name.size() && prefix.size() + 10 > name.size();
    if (numbered) num = static_cast<uint32_t>(std::stoul(name.substr(prefix.size())));
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (auto it = s->regs.find(name); it != s->regs.end()) return it->second;
      if (numbered)
        for (auto r = s->ranges.rbegin(); r != s->ranges.rend(); ++r)
          if (r->prefix == prefix && num < r->count) return r->base + num;
    }
    return Operand::kNoReg;
  }

  const Variable *var(const std::string &name) override {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (auto it = s->vars.find(name); it != s->vars.end()) return &it->second;
    if (auto it = moduleVars_.find(name); it != moduleVars_.end()) return &prog_.globals[it->second];
    return nullptr;
  }

  void branch(size_t index, const std::string &label, int line) override {
    BranchFixup f{index, label, {}, line};
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) f.chain.push_back(s->id);
    fixups_.push_back(std::move(f));
  }

private:
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int operandDepth_ = 0;  // operands being read, one inside another (operand())
  Program prog_;
  uint64_t dynamicSharedAlign_ = 16;  // the largest .align of an .extern .shared array
  std::map<std::string, size_t> funcs_;
  std::map<std::string, size_t> moduleVars_;
  // The function body being parsed.
  Function *fn_ = nullptr;
  std::vector<ScopeFrame> scopes_;
  int nextScope_ = 0;
  std::map<std::pair<int, std::string>, uint32_t> labels_;
  std::vector<BranchFixup> fixups_;

  const Token &peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  Token next() {
    Token t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool is(const char *text, size_t k = 0) const { return peek(k).kind != Token::Kind::String && peek(k).text == text; }
  bool accept(const char *text) {
    if (!is(text)) return false;
    next();
    return true;
  }
  [[noreturn]] void fail(const std::string &msg) const { throw PtxError(peek().line, msg); }
  void expect(const char *text) {
    if (!accept(text)) fail(std::string("expected '") + text + "', found " + describe(peek()));
  }
  static std::string describe(const Token &t) {
    if (t.kind == Token::Kind::End) return "end of input";
    return "'" + t.text + "'";
  }
  std::string ident(const char *what) {
    if (peek().kind != Token::Kind::Ident) fail(std::string("expected ") + what + ", found " + describe(peek()));
    return next().text;
  }
  uint64_t integer(const char *what) {
    if (peek().kind != Token::Kind::Number) fail(std::string("expected ") + what + ", found " + describe(peek()));
    Token t = next();
    RawOperand o = numberOperand(t.text, false, t.line);
    if (o.kind != RawOperand::Kind::Int)
      throw PtxError(t.line, std::string("expected ") + what + ", found '" + t.text + "'");
    return o.imm;
  }
  void skipLine() {
    int line = peek().line;
    while (peek().kind != Token::Kind::End && peek().line == line) next();
  }
  void skipStatement() {
    while (peek().kind != Token::Kind::End && !is(";")) next();
    accept(";");
  }

  void topLevel() {
    const Token &t = peek();
    if (t.kind != Token::Kind::Ident) fail("unexpected " + describe(t) + " at module scope");
    if (t.text == ".version" || t.text == ".target" || t.text == ".address_size" || t.text == ".file" ||
        t.text == ".loc") {
      if (t.text == ".address_size") {
        next();
        if (integer("an address size") != 64) fail("only .address_size 64 is supported");
        return;
      }
      if (t.text == ".version") {  // "8.3": major and one digit of minor
        next();
        const std::string v = peek().text;
        size_t dot = v.find('.');
        if (peek().kind != Token::Kind::Number || dot == std::string::npos || dot == 0 || v.size() != dot + 2 ||
            v.find_first_not_of("0123456789.") != std::string::npos || v.size() > 4)
          fail("expected a PTX ISA version such as 8.3 after .version, found " + describe(peek()));
        prog_.ptxVersion = std::stoi(v.substr(0, dot)) * 10 + (v[dot + 1] - '0');
        next();
        return;
      }
      skipLine();
      return;
    }
    if (t.text == ".pragma") { skipStatement(); return; }
    if (t.text == ".section") {
      next();
      ident("a section name");
      expect("{");
      for (int depth = 1; depth > 0;) {
        if (peek().kind == Token::Kind::End) fail("unterminated .section");
        Token x = next();
        if (x.text == "{") ++depth;
        if (x.text == "}") --depth;
      }
      return;
    }
    bool external = false;
    while (is(".visible") || is(".extern") || is(".weak") || is(".common")) external |= next().text == ".extern";
    if (is(".entry") || is(".func")) { function(); return; }
    if (is(".global") || is(".const") || is(".shared")) {
      variables(external, /*inFunction=*/false);
      return;
    }
    fail("unexpected " + describe(peek()) + " at module scope");
  }

  /// .param [.ptr [.space] [.align N]] [.align N] .type name[[N]]
  Param param() {
    if (accept(".reg")) fail("register parameters are not supported");
    expect(".param");
    uint64_t align = 0;
    Type type = Type::None;
    for (;;) {
      if (accept(".align")) { align = integer("an alignment"); continue; }
      if (accept(".ptr") || accept(".global") || accept(".shared") || accept(".const") || accept(".local")) continue;
      break;
    }
    std::string tname = ident("a parameter type");
    type = parseType(tname);
    if (type == Type::None || type == Type::Pred) fail("unsupported parameter type '" + tname + "'");
    Param p;
    p.name = ident("a parameter name");
    p.type = type;
    p.size = typeBytes(type);
    if (accept("[")) {
      uint64_t n = integer("an array size");
      p.size *= std::min<uint64_t>(n, kMaxParamBytes + 1);
      expect("]");
    }
    if (p.size > kMaxParamBytes)
      fail("parameter '" + p.name + "' is larger than " + std::to_string(kMaxParamBytes) + " bytes");
    p.align = align ? align : typeBytes(type);
    return p;
  }

  void function() {
    bool entry = next().text == ".entry";
    int line = peek().line;
    std::vector<Param> rets;
    if (!entry && is("(")) {
      next();
      while (!is(")")) {
        rets.push_back(param());
        if (!accept(",")) break;
      }
      expect(")");
    }
    std::string name = ident("a function name");
    std::vector<Param> params;
    if (accept("(")) {
      while (!is(")")) {
        params.push_back(param());
        if (!accept(",")) break;
      }
      expect(")");
    }
    size_t index;
    if (auto it = funcs_.find(name); it != funcs_.end()) {
      index = it->second;
      if (prog_.functions[index].isEntry != entry) throw PtxError(line, "'" + name + "' redeclared as a different kind");
    } else {
      index = prog_.functions.size();
      funcs_[name] = index;
      prog_.functions.emplace_back();
    }
    Function &f = prog_.functions[index];
    f.name = name;
    f.isEntry = entry;
    f.line = line;
    // Lay parameters out: an entry's in the kernel parameter window, a function's in its frame.
    uint64_t off = 0;
    for (Param &p : params) {
      off = alignUp(off, p.align);
      p.offset = off;
      off += p.size;
    }
    for (Param &r : rets) {
      off = alignUp(off, r.align);
      r.offset = off;
      off += r.size;
    }
    if (entry && off > kMaxParamBytes)
      throw PtxError(line, "the parameters of '" + name + "' exceed " + std::to_string(kMaxParamBytes) + " bytes");
    f.params = params;
    f.rets = rets;
    f.paramBytes = entry ? 0 : off;
    // Performance directives.
    for (;;) {
      if (is(".maxntid") || is(".reqntid")) {
        bool req = next().text == ".reqntid";
        std::array<uint32_t, 3> d{1, 1, 1};
        for (int i = 0; i < 3; ++i) {
          d[i] = static_cast<uint32_t>(integer("a thread count"));
          if (!accept(",")) break;
        }
        (req ? f.reqntid : f.maxntid) = d;
        continue;
      }
      if (accept(".minnctapersm") || accept(".maxnctapersm") || accept(".maxnreg") || accept(".maxclusterrank")) {
        integer("a count");
        continue;
      }
      if (accept(".reqnctapercluster")) {
        integer("a count");
        while (accept(",")) integer("a count");
        continue;
      }
      if (accept(".noreturn") || accept(".explicitcluster")) continue;
      if (is(".pragma")) { skipStatement(); continue; }
      break;
    }
    if (accept(";")) return;  // a declaration
    if (f.defined) fail("function '" + name + "' is defined twice");
    f.defined = true;
    body(index);
  }

  void body(size_t index) {
    fn_ = &prog_.functions[index];
    scopes_.clear();
    labels_.clear();
    fixups_.clear();
    // The outermost scope holds the parameters.
    scopes_.push_back(ScopeFrame{nextScope_++, {}, {}, {}});
    for (const Param &p : fn_->params) declareParam(p);
    for (const Param &p : fn_->rets) declareParam(p);
    expect("{");
    scopes_.push_back(ScopeFrame{nextScope_++, {}, {}, {}});
    while (scopes_.size() > 1) statement();
    // Resolve branches.
    for (const BranchFixup &f : fixups_) {
      bool found = false;
      for (int id : f.chain)
        if (auto it = labels_.find({id, f.label}); it != labels_.end()) {
          fn_->code[f.index].target = it->second;
          found = true;
          break;
        }
      if (!found) throw PtxError(f.line, "unknown label '" + f.label + "'");
    }
    fn_ = nullptr;
  }

  void declareParam(const Param &p) {
    Variable v;
    v.name = p.name;
    v.space = Space::Param;
    v.size = p.size;
    v.align = 1;
    if (fn_->isEntry) {
      v.address = kKParamBase + p.offset;
    } else {
      v.address = p.offset;
      v.frameRelative = true;
    }
    scopes_.back().vars[p.name] = v;
  }

  void statement() {
    const Token &t = peek();
    if (t.kind == Token::Kind::End) fail("unterminated body of '" + fn_->name + "'");
    if (accept("{")) {
      scopes_.push_back(ScopeFrame{nextScope_++, {}, {}, {}});
      return;
    }
    if (accept("}")) {
      scopes_.pop_back();
      return;
    }
    if (t.kind == Token::Kind::Ident && is(":", 1)) {
      std::string label = next().text;
      next();
      auto key = std::make_pair(scopes_.back().id, label);
      if (labels_.count(key)) fail("label '" + label + "' is defined twice");
      labels_[key] = static_cast<uint32_t>(fn_->code.size());
      return;
    }
    if (t.text == ".loc" || t.text == ".file") { skipLine(); return; }
    if (t.text == ".pragma") { skipStatement(); return; }
    if (t.text == ".reg") { registers(); return; }
    if (t.text == ".local" || t.text == ".shared" || t.text == ".param" || t.text == ".const" || t.text == ".global") {
      variables(false, /*inFunction=*/true);
      return;
    }
    if (t.text == ".extern") {
      next();
      if (!is(".shared")) fail("only .extern .shared is supported in a function body");
      variables(true, true);
      return;
    }
    if (t.kind == Token::Kind::Ident && t.text[0] == '.') fail("unsupported directive '" + t.text + "' in a function body");
    instruction();
  }

  void registers() {
    next();
    if (is(".v2") || is(".v4")) fail("vector registers are not supported");
    std::string tname = ident("a register type");
    Type type = parseType(tname);
    if (type == Type::None || type == Type::B128) fail("unsupported register type '" + tname + "'");
    do {
      std::string name = ident("a register name");
      if (accept("<")) {
        uint64_t count = integer("a register count");
        expect(">");
        if (fn_->numRegs + count > kMaxRegisters) fail("more than " + std::to_string(kMaxRegisters) + " registers");
        ScopeFrame &s = scopes_.back();
        s.ranges.push_back({name, static_cast<uint32_t>(count), fn_->numRegs});
        for (uint64_t i = 0; i < count; ++i) {
          fn_->regNames.push_back(name + std::to_string(i));
          fn_->regTypes.push_back(type);
        }
        fn_->numRegs += static_cast<uint32_t>(count);
      } else {
        if (fn_->numRegs + 1 > kMaxRegisters) fail("more than " + std::to_string(kMaxRegisters) + " registers");
        scopes_.back().regs[name] = fn_->numRegs++;
        fn_->regNames.push_back(name);
        fn_->regTypes.push_back(type);
      }
    } while (accept(","));
    expect(";");
  }

  /// [.align N] [.v2|.v4] .type name[[N]...] [= init] {, name...} ;
  void variables(bool external, bool inFunction) {
    std::string spaceTok = next().text;
    Space space = spaceTok == ".global" ? Space::Global
                  : spaceTok == ".const" ? Space::Const
                  : spaceTok == ".shared" ? Space::Shared
                  : spaceTok == ".local" ? Space::Local
                                          : Space::Param;
    uint64_t align = 0, vec = 1;
    for (;;) {
      if (accept(".align")) { align = integer("an alignment"); continue; }
      if (accept(".v2")) { vec = 2; continue; }
      if (accept(".v4")) { vec = 4; continue; }
      if (accept(".ptr")) continue;
      break;
    }
    int line = peek().line;
    std::string tname = ident("a variable type");
    Type type = parseType(tname);
    if (type == Type::None || type == Type::Pred) throw PtxError(line, "unsupported variable type '" + tname + "'");
    uint64_t elem = typeBytes(type) * vec;
    if (!align) align = elem;
    do {
      Variable v;
      v.name = ident("a variable name");
      v.space = space;
      v.align = align;
      uint64_t count = 1;
      bool unsized = false;
      while (accept("[")) {
        if (accept("]")) { unsized = true; continue; }
        uint64_t n = integer("an array size");
        if (n > kDataWindowSize || count * n > kDataWindowSize) throw PtxError(line, "array '" + v.name + "' is too large");
        count *= n;
        expect("]");
      }
      if (accept("=")) {
        if (space != Space::Global && space != Space::Const) fail("only .global and .const variables take initializers");
        std::vector<uint8_t> bytes;
        initializer(type, bytes);
        if (unsized) count = (bytes.size() + elem - 1) / elem;
        v.init = std::move(bytes);
      }
      v.size = count * elem;
      v.external = external && unsized;
      if (unsized && !v.external && v.init.empty()) throw PtxError(line, "array '" + v.name + "' has no size");
      if (v.init.size() > v.size) throw PtxError(line, "too many initializers for '" + v.name + "'");
      v.init.resize(v.init.empty() ? 0 : v.size);
      place(v, inFunction, line);
    } while (accept(","));
    expect(";");
  }

  void place(Variable &v, bool inFunction, int line) {
    switch (v.space) {
    case Space::Shared:
      if (v.external) {
        v.address = 0;  // fixed up at launch: the dynamic area
        dynamicSharedAlign_ = std::max(dynamicSharedAlign_, v.align);
      } else {
        prog_.staticSharedBytes = alignUp(prog_.staticSharedBytes, v.align);
        v.address = kSharedBase + prog_.staticSharedBytes;
        prog_.staticSharedBytes += v.size;
        if (prog_.staticSharedBytes > kSharedWindowSize) throw PtxError(line, "too much shared memory");
      }
      break;
    case Space::Global:
    case Space::Const: {
      uint64_t &used = v.space == Space::Global ? prog_.globalVarBytes : prog_.constVarBytes;
      used = alignUp(used, v.align);
      v.address = (v.space == Space::Global ? kGlobalVarBase : kConstVarBase) + used;
      used += v.size;
      if (used > kDataWindowSize) throw PtxError(line, "too much module data");
      break;
    }
    case Space::Local:
      if (!inFunction) throw PtxError(line, ".local variables must be declared in a function");
      fn_->localBytes = alignUp(fn_->localBytes, v.align);
      v.address = fn_->localBytes;
      v.frameRelative = true;
      fn_->localBytes += v.size;
      break;
    case Space::Param:
      if (!inFunction) throw PtxError(line, ".param variables must be declared in a function");
      fn_->paramBytes = alignUp(fn_->paramBytes, v.align);
      v.address = fn_->paramBytes;
      v.frameRelative = true;
      fn_->paramBytes += v.size;
      break;
    case Space::Generic: break;
    }
    if (v.frameRelative && (fn_->localBytes > kWindowSize || fn_->paramBytes > kWindowSize))
      throw PtxError(line, "frame of '" + fn_->name + "' is too large");
    if (v.space == Space::Shared || v.space == Space::Global || v.space == Space::Const) {
      // Module data lives in prog_.globals even when a body declares it; the name is scoped.
      prog_.globals.push_back(v);
      if (!inFunction) {
        if (moduleVars_.count(v.name)) throw PtxError(line, "variable '" + v.name + "' is declared twice");
        moduleVars_[v.name] = prog_.globals.size() - 1;
        return;
      }
    }
    scopes_.back().vars[v.name] = v;
  }

  /// = value | { value, ... } (nested braces flatten); values are numbers or addresses of variables.
  void initializer(Type type, std::vector<uint8_t> &out, int depth = 0) {
    if (accept("{")) {
      // One level per dimension of the array: a text nesting far deeper is
      // refused before it uses up the stack.
      constexpr int kMaxDepth = 16;
      if (depth >= kMaxDepth) fail("initializers nested more than " + std::to_string(kMaxDepth) + " deep");
      while (!is("}")) {
        initializer(type, out, depth + 1);
        if (!accept(",")) break;
      }
      expect("}");
      return;
    }
    unsigned bytes = typeBytes(type);
    uint64_t bits = 0;
    int line = peek().line;
    if (peek().kind == Token::Kind::Ident) {
      std::string name = next().text;
      bool wrapped = false;
      if (name == "generic") {
        expect("(");
        name = ident("a variable name");
        wrapped = true;
      }
      auto it = moduleVars_.find(name);
      if (it == moduleVars_.end()) throw PtxError(line, "unknown variable '" + name + "' in initializer");
      if (wrapped) expect(")");
      bits = prog_.globals[it->second].address;
      if (accept("+")) bits += integer("an offset");
    } else {
      bool negative = accept("-");
      if (peek().kind != Token::Kind::Number) fail("expected an initializer value, found " + describe(peek()));
      Token t = next();
      RawOperand o = numberOperand(t.text, negative, t.line);
      double real = o.kind == RawOperand::Kind::Real      ? o.real
                    : o.kind == RawOperand::Kind::F64Bits ? std::bit_cast<double>(o.imm)
                    : o.kind == RawOperand::Kind::F32Bits ? std::bit_cast<float>(static_cast<uint32_t>(o.imm))
                                                          : static_cast<double>(static_cast<int64_t>(o.imm));
      if (type == Type::F32)
        bits = o.kind == RawOperand::Kind::F32Bits ? o.imm : std::bit_cast<uint32_t>(static_cast<float>(real));
      else if (type == Type::F64)
        bits = o.kind == RawOperand::Kind::F64Bits ? o.imm : std::bit_cast<uint64_t>(real);
      else
        bits = o.imm;
    }
    for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  }

  //===--- Instructions ---------------------------------------------------===//

  RawOperand operand() {
    // PTX nests an operand two deep at most (a tensor map's coordinates
    // inside its address); a text nesting far deeper is refused before it
    // uses up the stack.
    constexpr int kMaxDepth = 16;
    struct Nested {
      int &depth;
      ~Nested() { --depth; }
    } nested{++operandDepth_};
    if (operandDepth_ > kMaxDepth) fail("operands nested more than " + std::to_string(kMaxDepth) + " deep");
    RawOperand o;
    int line = peek().line;
    bool negate = false;
    while (accept("!")) negate = !negate;
    if (negate) {
      o = operand();
      o.negate = !o.negate;
      return o;
    }
    if (accept("[")) {
      o.kind = RawOperand::Kind::Mem;
      if (peek().kind == Token::Kind::Ident) {
        o.text = next().text;
        if (is("+") || is("-")) {
          bool minus = next().text == "-";
          bool negative = accept("-");
          if (peek().kind != Token::Kind::Number) fail("expected an address offset, found " + describe(peek()));
          RawOperand n = numberOperand(next().text, negative != minus, line);
          if (n.kind != RawOperand::Kind::Int) throw PtxError(line, "address offsets must be integers");
          o.imm = n.imm;
        }
      } else {
        bool negative = accept("-");
        if (peek().kind != Token::Kind::Number) fail("expected an address, found " + describe(peek()));
        RawOperand n = numberOperand(next().text, negative, line);
        if (n.kind != RawOperand::Kind::Int) throw PtxError(line, "addresses must be integers");
        o.imm = n.imm;
      }
      if (accept(",")) {  // a tensor map and its coordinates: [map, {c0, c1, ...}]
        if (!is("{")) fail("expected the coordinates {c0, ...} after a tensor map, found " + describe(peek()));
        o.elems = operand().elems;
        if (o.elems.empty()) fail("a tensor map's coordinates are empty");
      }
      expect("]");
      return o;
    }
    if (is("{") || is("(")) {
      bool brace = next().text == "{";
      o.kind = brace ? RawOperand::Kind::Vec : RawOperand::Kind::List;
      while (!is(brace ? "}" : ")")) {
        o.elems.push_back(operand());
        if (!accept(",")) break;
      }
      expect(brace ? "}" : ")");
      return o;
    }
    if (is("-") || peek().kind == Token::Kind::Number) {
      bool negative = accept("-");
      if (peek().kind != Token::Kind::Number) fail("expected a number, found " + describe(peek()));
      return numberOperand(next().text, negative, line);
    }
    if (peek().kind == Token::Kind::Ident) {
      o.kind = RawOperand::Kind::Name;
      o.text = next().text;
      if (o.text == "_") o.kind = RawOperand::Kind::Sink;
      if (accept("|")) o.pipe = ident("a second result");
      if (is("+") && peek(1).kind == Token::Kind::Number) {
        next();
        o.imm = integer("an offset");
      }
      return o;
    }
    fail("unexpected " + describe(peek()) + " in an operand");
  }

  void instruction() {
    RawInstr raw;
    raw.line = peek().line;
    if (accept("@")) {
      raw.guardNegate = accept("!");
      raw.guard = ident("a guard predicate");
    }
    raw.opcode = ident("an instruction");
    raw.line = toks_[pos_ - 1].line;
    while (!is(";")) {
      if (peek().kind == Token::Kind::End) fail("missing ';' after '" + raw.opcode + "'");
      raw.ops.push_back(operand());
      if (!accept(",")) break;
    }
    if (!accept(";")) fail("expected ';' after the operands of '" + raw.opcode + "', found " + describe(peek()));
    decodeInstr(raw, *this, *fn_);
  }

  /// Calls name functions that may be defined after their callers; resolve them now.
  void resolveCalls() {
    for (Function &f : prog_.functions)
      for (Instr &in : f.code) {
        if (in.op != Op::Call) continue;
        CallInfo &c = f.calls[in.target];
        auto it = funcs_.find(c.calleeName);
        bool defined = it != funcs_.end() && prog_.functions[it->second].defined;
        if (!defined && c.calleeName == "vprintf") {
          c.builtin = Builtin::Vprintf;
          if (c.args.size() != 2) throw PtxError(static_cast<int>(in.line), "vprintf takes 2 arguments");
          continue;
        }
        if (!defined && c.calleeName == "__assertfail") {
          c.builtin = Builtin::AssertFail;
          if (c.args.size() < 4) throw PtxError(static_cast<int>(in.line), "__assertfail takes 5 arguments");
          continue;
        }
        if (!defined)
          throw PtxError(static_cast<int>(in.line), "call to '" + c.calleeName + "', which the module does not define " +
                                                        "(built in: vprintf, __assertfail)");
        const Function &callee = prog_.functions[it->second];
        if (callee.isEntry) throw PtxError(static_cast<int>(in.line), "call to kernel '" + c.calleeName + "'");
        if (callee.params.size() != c.args.size() || callee.rets.size() != c.rets.size())
          throw PtxError(static_cast<int>(in.line), "call to '" + c.calleeName + "' with " + std::to_string(c.args.size()) +
                                                        " arguments and " + std::to_string(c.rets.size()) +
                                                        " results; it takes " + std::to_string(callee.params.size()) +
                                                        " and " + std::to_string(callee.rets.size()));
        c.callee = static_cast<uint32_t>(it->second);
      }
  }
};

} // namespace

PtxModule PtxModule::parse(const std::string &ptx) {
  PtxModule m;
  m.program_ = std::make_shared<const Program>(Parser(ptx).run());
  return m;
}

std::vector<std::string> PtxModule::entries() const {
  std::vector<std::string> out;
  for (const Function &f : program_->functions)
    if (f.isEntry && f.defined) out.push_back(f.name);
  return out;
}

size_t PtxModule::instructionCount(const std::string &function) const {
  const Function *f = program_->find(function);
  return f ? f->code.size() : 0;
}

} // namespace twintile::runtime
