//===- RewriteEmit.cpp - the rewrite's edits, from its plan --------------===//
//
// Each planned statement becomes a call of a combinator in place of its
// keyword and parentheses, its branches and bodies lambdas around their own
// text. Nothing is moved: the user's text stays where it was, and every
// replaced stretch keeps its line breaks, so the rewritten file's lines are
// the original's.
//===----------------------------------------------------------------------===//
#include "frontends/hybrid/RewritePlan.h"

#include <algorithm>

namespace twintile::hybrid {

namespace {

class Emitter {
public:
  explicit Emitter(const std::string &source) : source_(source) {}

  std::vector<Edit> run(const RewritePlan &plan) {
    for (const DeviceStatement &d : plan.statements) {
      switch (d.kind) {
      case DeviceStatement::Kind::If: emitIf(d); break;
      case DeviceStatement::Kind::For: emitFor(d); break;
      case DeviceStatement::Kind::While: emitWhile(d); break;
      case DeviceStatement::Kind::EarlyReturn: emitEarlyExit(d); break;
      case DeviceStatement::Kind::Continue: emitEarlyExit(d); break;
      case DeviceStatement::Kind::Select: emitSelect(d); break;
      case DeviceStatement::Kind::Break: emitEarlyExit(d); break;
      case DeviceStatement::Kind::Return: emitEarlyExit(d); break;
      case DeviceStatement::Kind::Guard: emitGuard(d); break;
      case DeviceStatement::Kind::FinalReturn: replace(d.exit.begin, d.exit.end, d.returned + " = true;", d.depth); break;
      }
    }
    return std::move(edits_);
  }

private:
  const std::string &source_;
  std::vector<Edit> edits_;

  void open(size_t at, std::string text, int depth) { edits_.push_back({Edit::Kind::Open, at, at, std::move(text), depth}); }
  void close(size_t at, std::string text, int depth) { edits_.push_back({Edit::Kind::Close, at, at, std::move(text), depth}); }
  /// [begin, end) replaced by `text`, with as many line breaks as it had.
  void replace(size_t begin, size_t end, std::string text, int depth) {
    text += std::string(static_cast<size_t>(std::count(source_.begin() + begin, source_.begin() + end, '\n')), '\n');
    edits_.push_back({Edit::Kind::Replace, begin, end, std::move(text), depth});
  }

  static std::string join(const std::vector<std::string> &names, const std::string &each) {
    std::string out;
    for (const std::string &n : names) out += (out.empty() ? "" : ", ") + each + n;
    return out;
  }
  /// The temporary holding a statement's results (`part` tells a loop's
  /// guard from the loop).
  static std::string result(const DeviceStatement &d, const std::string &part = "") {
    return "tt_hybrid_" + std::to_string(d.id) + part;
  }

  /// What goes before the combinator's call: where its results go.
  static std::string assignTo(const DeviceStatement &d, const std::string &part = "") {
    if (d.carried.empty()) return "";
    if (d.carried.size() == 1) return d.carried[0] + " = ";
    return "{ auto " + result(d, part) + " = ";
  }
  /// What ends the statement after the call.
  static std::string unpack(const DeviceStatement &d, const std::string &part = "") {
    std::string out = ");";
    if (d.carried.size() < 2) return out;
    static const char *fields[] = {"a", "b", "c", "d", "e", "f"};
    for (size_t i = 0; i < d.carried.size(); ++i)
      out += " " + d.carried[i] + " = " + result(d, part) + "." + fields[i] + ";";
    return out + " }";
  }

  /// A loop's break flag: declared false before it, in a block of its own
  /// (the return flag, where that is the loop's, by its guard).
  void declareFlag(const DeviceStatement &d) {
    if (d.flag.empty() || d.flag == d.returned) return;
    open(d.keyword, "{ ::tt::i1 " + d.flag + " = false; ", d.depth);
  }
  void endFlag(const DeviceStatement &d) {
    if (!d.flag.empty() && d.flag != d.returned) close(d.then.end, " }", d.depth);
  }
  static std::string carry(const std::vector<std::string> &names) {
    return names.empty() ? "" : " return ::tt::carry(" + join(names, "") + ");";
  }
  /// A branch's captures: everything by reference, the carried by copy, so
  /// that the other branch starts from the values before the statement.
  static std::string captures(const std::vector<std::string> &names) {
    std::string out = "[&";
    for (const std::string &n : names) out += ", " + n + " = " + n;
    return out + "]()" + (names.empty() ? "" : " mutable");
  }
  /// A loop body's parameters: `auto`, or (`typed`) each variable's own type
  /// (a generic body takes an i32 index only).
  static std::string params(const DeviceStatement &d, const std::string &lead, bool typed = false) {
    std::string out = lead;
    for (const std::string &n : d.carried) {
      bool flag = n == d.flag || n == d.returned;
      std::string type = !typed ? "auto" : flag ? "::tt::i1" : "::tt::detail::Plain<decltype(" + n + ")>";
      out += (out.empty() ? "" : ", ") + type + " " + n;
    }
    return out;
  }

  /// Where a condition tests a number (Triton's `if x:`): `(x) != 0`.
  void testNumber(const DeviceStatement &d, size_t begin, size_t end) {
    if (!d.numberCondition) return;
    open(begin, "(", d.depth + 1);
    close(end, ") != 0", d.depth + 1);
  }

  /// A branch or body as a lambda's: braces where it has none, and what it
  /// returns before its end.
  void body(const StmtText &t, const std::string &returns, int depth) {
    if (t.braced) {
      if (!returns.empty()) close(t.rbrace, returns + " ", depth);
      return;
    }
    open(t.begin, "{ ", depth);
    close(t.end, returns + " }", depth);
  }

  void emitIf(const DeviceStatement &d) {
    replace(d.keyword, d.lparen + 1, assignTo(d) + "::tt::if_else(", d.depth);
    testNumber(d, d.lparen + 1, d.rparen);
    replace(d.rparen, d.rparen + 1, ", " + captures(d.copies), d.depth);
    body(d.then, carry(d.carried), d.depth);
    if (d.elseKeyword) {
      replace(*d.elseKeyword, *d.elseKeyword + 4, ", " + captures(d.copies), d.depth);
      body(d.otherwise, carry(d.carried), d.depth);
      close(d.otherwise.end, unpack(d), d.depth);
    } else {
      close(d.then.end, ", " + captures(d.copies) + " {" + carry(d.carried) + " }" + unpack(d), d.depth);
    }
  }

  void emitFor(const DeviceStatement &d) {
    if (d.asWhile) return emitForAsWhile(d);
    std::string carried = join(d.carried, "");
    replace(d.keyword, d.rparen + 1,
            assignTo(d) + "::tt::for_range(" + d.lo + ", " + d.hi + ", " + d.step +
                (carried.empty() ? "" : ", " + carried) +
                ", [&](" + params(d, (d.wideIndex ? "::tt::i64 " : "auto ") + d.var, d.wideIndex) + ")",
            d.depth);
    body(d.then, carry(d.carried), d.depth);
    close(d.then.end, unpack(d), d.depth);
  }

  /// A for loop as a while_loop: the index declared (or assigned) first
  /// and carried, the condition as written (and the flag: after a break or
  /// return the loop ends), the step at the body's end, where a break or
  /// return leaves the index as it was.
  void emitForAsWhile(const DeviceStatement &d) {
    std::string lambda = "[&](" + params(d, "") + ")";
    std::string step = d.var + " = " + d.var + " + (" + d.step + ");";
    if (!d.flag.empty())
      step = d.var + " = ::tt::if_else(!" + d.flag + ", " + captures({d.var}) + " { " + step +
             carry({d.var}) + " }, " + captures({d.var}) + " {" + carry({d.var}) + " });";
    // The index before the flag, as the parse front end makes their constants.
    std::string flag = d.flag.empty() || d.flag == d.returned ? "" : " ::tt::i1 " + d.flag + " = false;";
    // The body a block of its own within the lambda's, so that the step
    // after it reads no name the body declares.
    replace(d.keyword, d.rparen + 1,
            "{ " + d.init + flag + " " + assignTo(d) + "::tt::while_loop(" + lambda + " { return (" + d.condition +
                ")" + (d.flag.empty() ? "" : " && !" + d.flag) + "; }, " + lambda + " {",
            d.depth);
    close(d.then.end, " " + step + carry(d.carried) + " }, " + join(d.carried, "") + unpack(d) + " }", d.depth);
  }

  void emitWhile(const DeviceStatement &d) {
    // while_loop carries at least one value: a loop that carries none
    // carries a placeholder.
    std::vector<std::string> carried = d.carried;
    std::string init = join(carried, "");
    if (carried.empty()) carried = {result(d)}, init = "::tt::i32(0)";
    DeviceStatement shown = d;
    shown.carried = carried;
    std::string lambda = "[&](" + params(shown, "") + ")";
    declareFlag(d);
    replace(d.keyword, d.lparen + 1, assignTo(d) + "::tt::while_loop(" + lambda + " { return (", d.depth);
    testNumber(d, d.lparen + 1, d.rparen);
    // After a break, the condition is false: it tests the flag.
    replace(d.rparen, d.rparen + 1, (d.flag.empty() ? ")" : ") && !" + d.flag) + "; }, " + lambda, d.depth);
    body(d.then, carry(carried), d.depth);
    close(d.then.end, ", " + init + unpack(d), d.depth);
    endFlag(d);
  }

  void emitSelect(const DeviceStatement &d) {
    auto as = [](const std::string &scalar) { return scalar.empty() ? "" : " ::tt::" + scalar + "("; };
    auto end = [](const std::string &scalar) { return std::string(scalar.empty() ? "" : ")"); };
    open(d.keyword, "::tt::if_else(", d.depth);
    testNumber(d, d.keyword, d.question);
    replace(d.question, d.question + 1, ", [&]() { return" + as(d.var), d.depth);
    replace(d.colon, d.colon + 1, end(d.var) + "; }, [&]() { return" + as(d.step), d.depth);
    close(d.restEnd, end(d.step) + "; })", d.depth);
  }

  /// What follows a statement holding early returns, run unless one set
  /// the flag: declared before the statement, tested after it.
  void emitGuard(const DeviceStatement &d) {
    open(d.keyword, "::tt::i1 " + d.returned + " = false; ", d.depth);
    if (d.restEnd == d.then.end) return;  // the statement ends the kernel's body
    open(d.then.end, " ::tt::if_else(" + d.returned + ", [&]() {}, [&]() {", d.depth);
    close(d.restEnd, "});", d.depth);
  }

  /// An early exit: the branch as written (a `continue;` becomes the
  /// branch's return of what the loop carries, a `break;` sets the loop's
  /// flag first, a deep `return;` the return flag and its loop's), then the
  /// rest of the block as the other branch.
  void emitEarlyExit(const DeviceStatement &d) {
    replace(d.keyword, d.lparen + 1, assignTo(d) + "::tt::if_else(", d.depth);
    testNumber(d, d.lparen + 1, d.rparen);
    replace(d.rparen, d.rparen + 1, ", " + captures(d.copies), d.depth);
    body(d.then, "", d.depth);
    if (d.kind != DeviceStatement::Kind::EarlyReturn) {
      std::string returns = carry(d.carried);
      std::string set = d.kind == DeviceStatement::Kind::Continue || d.flag.empty() ? "" : d.flag + " = true; ";
      if (d.kind == DeviceStatement::Kind::Return && d.returned != d.flag) set += d.returned + " = true; ";
      replace(d.exit.begin, d.exit.end, set + (returns.empty() ? "return;" : returns.substr(1)), d.depth + 1);
    }
    close(d.then.end, ", [&]() {", d.depth);  // the rest, on the variables themselves: what runs where the branch did not exit
    close(d.restEnd, (d.carried.empty() ? "}" : carry(d.carried) + " }") + unpack(d), d.depth);
  }
};

} // namespace

std::vector<Edit> emitRewrite(const RewritePlan &plan, const std::string &source) { return Emitter(source).run(plan); }

} // namespace twintile::hybrid
