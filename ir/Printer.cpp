#include "ir/Printer.h"

#include <cctype>
#include <set>
#include <sstream>
#include <unordered_map>

namespace twintile::ir {

namespace {

bool isPlainName(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (unsigned char c : s)
    if (!std::isalnum(c) && c != '_') return false;
  return true;
}

std::string quoted(const std::string &s) { return toString(Attr::string(s)); }

/// A function name the parser reads unquoted after '@'; others are quoted
/// (front ends name specializations such as "vector_add<1024>").
std::string funcName(const std::string &s) {
  bool bare = !s.empty();
  for (unsigned char c : s)
    if (!std::isalnum(c) && c != '_' && c != '.') bare = false;
  return bare ? s : quoted(s);
}

std::string posBody(const SourcePos &p) {
  return quoted(p.file) + ":" + std::to_string(p.line) + ":" + std::to_string(p.col);
}

class FuncPrinter {
public:
  FuncPrinter(std::ostream &os, const Func &f, PrintOptions opts, const Annotator *annotate = nullptr)
      : os_(os), f_(f), opts_(opts), annotate_(annotate) {}

  void run() {
    nameValues();
    os_ << "func @" << funcName(f_.name) << "(";
    for (size_t i = 0; i < f_.numParams(); ++i)
      os_ << (i ? ", " : "") << ref(f_.param(i)) << ": " << toString(f_.param(i)->type);
    os_ << ")";
    if (!f_.meta.empty()) {
      os_ << " meta {";
      for (size_t i = 0; i < f_.meta.size(); ++i)
        os_ << (i ? ", " : "") << f_.meta[i].first << " = " << toString(f_.meta[i].second);
      os_ << "}";
    }
    os_ << " options {num_warps = " << f_.numWarps;
    if (f_.numStages > 0) os_ << ", num_stages = " << f_.numStages;
    os_ << "}";
    printLoc(f_.loc);
    os_ << " {\n";
    printOps(f_.body, 1);
    os_ << "}\n";
  }

private:
  void nameValues() {
    std::set<std::string> used;
    for (size_t i = 0; i < f_.numParams(); ++i) {
      const Value *p = f_.param(i);
      std::string n = isPlainName(p->name) && !used.count(p->name) ? p->name
                                                                   : "arg" + std::to_string(i);
      while (used.count(n)) n += "_";
      used.insert(n);
      names_[p] = n;
    }
    unsigned next = 0;
    std::function<void(const Block &)> visit = [&](const Block &b) {
      for (auto &op : b.ops) {
        for (auto &r : op->results) names_[r.get()] = std::to_string(next++);
        for (auto &region : op->regions) {
          for (auto &a : region->args) names_[a.get()] = std::to_string(next++);
          visit(*region);
        }
      }
    };
    visit(f_.body);
  }

  std::string ref(const Value *v) const {
    auto it = names_.find(v);
    return it == names_.end() ? "%<foreign>" : "%" + it->second;
  }

  void printLoc(const Location &loc) {
    if (opts_.locations && loc.known()) os_ << " loc(" << locationBody(loc) << ")";
  }

  /// `  // %3: note; %4: note` for the values that have one.
  void printNotes(const std::vector<const Value *> &values) {
    if (!annotate_ || !*annotate_) return;
    std::string notes;
    for (const Value *v : values)
      if (std::string n = (*annotate_)(v); !n.empty()) notes += (notes.empty() ? "" : "; ") + ref(v) + ": " + n;
    if (!notes.empty()) os_ << "  // " << notes;
  }

  template <typename Owned> static std::vector<const Value *> raw(const std::vector<Owned> &values) {
    std::vector<const Value *> out;
    for (const auto &v : values) out.push_back(v.get());
    return out;
  }

  void printOps(const Block &b, int depth) {
    for (auto &op : b.ops) printOp(*op, depth);
  }

  void printOp(const Op &op, int depth) {
    std::string indent(2 * depth, ' ');
    os_ << indent;
    for (size_t i = 0; i < op.results.size(); ++i)
      os_ << (i ? ", " : "") << ref(op.result(i));
    if (!op.results.empty()) os_ << " = ";
    os_ << op.name();
    if (!op.attrs.empty()) {
      os_ << " {";
      bool first = true;
      for (auto &[name, a] : op.attrs) {
        // A u64 constant's value attribute holds its 64 bits: shown as the number.
        bool u64 = op.kind == OpKind::Constant && name == "value" && a.kind == Attr::Kind::Int &&
                   op.result()->type.elem == ScalarKind::U64;
        os_ << (first ? "" : ", ") << name << " = " << (u64 ? std::to_string(static_cast<uint64_t>(a.i)) : toString(a));
        first = false;
      }
      os_ << "}";
    }
    for (size_t i = 0; i < op.operands.size(); ++i)
      os_ << (i ? ", " : " ") << ref(op.operand(i));
    if (!op.results.empty()) {
      os_ << " :";
      for (size_t i = 0; i < op.results.size(); ++i)
        os_ << (i ? ", " : " ") << toString(op.result(i)->type);
    }
    if (op.regions.empty()) {
      printLoc(op.loc);
      printNotes(raw(op.results));
      os_ << "\n";
      return;
    }
    for (auto &region : op.regions) {
      os_ << " {\n";
      if (!region->args.empty()) {
        os_ << indent << "^(";
        for (size_t i = 0; i < region->args.size(); ++i)
          os_ << (i ? ", " : "") << ref(region->arg(i)) << ": " << toString(region->arg(i)->type);
        os_ << "):";
        printNotes(raw(region->args));
        os_ << "\n";
      }
      printOps(*region, depth + 1);
      os_ << indent << "}";
    }
    printLoc(op.loc);
    printNotes(raw(op.results));
    os_ << "\n";
  }

  std::ostream &os_;
  const Func &f_;
  PrintOptions opts_;
  const Annotator *annotate_;
  std::unordered_map<const Value *, std::string> names_;
};

} // namespace

std::string locationBody(const Location &loc) {
  std::string s = posBody(loc.pos);
  for (const SourcePos &p : loc.inlinedAt) s += " from " + posBody(p);
  return s;
}

void print(std::ostream &os, const Func &f, PrintOptions opts) { FuncPrinter(os, f, opts).run(); }

void print(std::ostream &os, const Module &m, PrintOptions opts) {
  for (size_t i = 0; i < m.funcs.size(); ++i) {
    if (i) os << "\n";
    print(os, *m.funcs[i], opts);
  }
}

std::string toString(const Func &f, PrintOptions opts) {
  std::ostringstream os;
  print(os, f, opts);
  return os.str();
}

std::string toString(const Func &f, PrintOptions opts, const Annotator &annotate) {
  std::ostringstream os;
  FuncPrinter(os, f, opts, &annotate).run();
  return os.str();
}

std::string toString(const Module &m, PrintOptions opts) {
  std::ostringstream os;
  print(os, m, opts);
  return os.str();
}

} // namespace twintile::ir
