//===- PlanInternal.h - the rewrite's plan, inside ------------------------===//
//
// Shared by the plan's files only (RewritePlan.h is its interface). Its
// parts, one file each:
//
//   Places.cpp        the kernel file's text: offsets, statements' ends,
//                     locations, and the refusal that ends a plan
//   Assignments.cpp   what a rewritten statement assigns, what it carries
//                     in which order, and what it changes that the
//                     rewrite cannot follow (lambdas, references)
//   RewritePlan.cpp   the walk (Planner): which statements become which
//                     combinator, and what ends a region that the rewrite
//                     cannot follow (exits, recursion)
//   Statements.cpp    each device if, for, while and ?: planned
//   EarlyExits.cpp    the early return, continue and break planned
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/clang/LanguageDecls.h"
#include "frontends/hybrid/RewritePlan.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <type_traits>
#include <string>
#include <vector>

namespace twintile::hybrid::plan {

using namespace clang;

/// What ends a plan: a construct the rewrite cannot keep, at its line.
struct Refusal {
  ir::Diagnostic diag;
};

/// An expression without what does not change what it names: parentheses,
/// implicit casts, temporaries, the language's one-value conversions.
const Expr *peel(const Expr *e);

/// The kernel's file as the plan reads it.
class Places {
public:
  explicit Places(ASTContext &ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}

  /// Where the user reads `l` (or the file's offset `at`): file, line, column.
  ir::Location locationOf(SourceLocation l) const;
  ir::Location locationAtOffset(size_t at) const;

  /// Ends the plan: `why` at `at`.
  [[noreturn]] void refuse(SourceLocation at, std::string why) const { throw Refusal{{locationOf(at), std::move(why)}}; }

  /// The offset of `l` in the kernel's file; refused in a macro or elsewhere.
  size_t offset(SourceLocation l) const;

  /// The file's text of `r`, to its last token's end.
  std::string text(SourceRange r) const;

  /// Past the statement's last character: its `;` or `}`.
  size_t endOf(const Stmt *s) const;

  /// Where the statement is in the file, and its braces.
  StmtText textOf(const Stmt *s) const;

  /// Text of the file a rewritten statement spans: [begin, end).
  struct Span {
    size_t begin = 0, end = 0;
    SourceLocation at;  // where a refusal about the whole is said
  };

  Span spanOf(const Stmt *s) const;

  /// Whether `l` is inside `region` (never where it is in another file).
  bool inside(SourceLocation l, const Span &region) const;

protected:
  ASTContext &ctx_;
  const SourceManager &sm_;
};

/// What a rewritten statement assigns and carries.
class Assignments : public Places {
public:
  using Places::Places;

  /// A variable declared outside a region, assigned (or changed) in it at `at`.
  struct Assigned {
    const VarDecl *var;
    SourceLocation at;
  };

  /// What the expression `e`, assigned or changed at `at` inside `region`,
  /// names outside it: a variable is noted; a member or an element of an
  /// object outside is refused.
  void target(const Expr *e, SourceLocation at, const Span &region, std::vector<Assigned> &out) const;

  /// Every variable declared outside `region` that `s` assigns, increments,
  /// changes by a non-const method or passes by non-const reference, in the
  /// order `s` reads them.
  void assignedIn(const Stmt *s, const Span &region, std::vector<Assigned> &out) const;

  /// The order of what a statement carries: the parse front end's, so that
  /// the two give the same IR (a branch's by the places of the variables'
  /// declarations, a loop's as its body first assigns them).
  enum class Order { ByDeclaration, ByFirstAssignment };

  /// The variables `region` (the statement rewritten) assigns in `parts` and
  /// declares outside itself, in `order`; a host one is refused.
  std::vector<std::string> carried(const Stmt *region, std::vector<const Stmt *> parts, Order order) const;

  /// With `hostAllowed`, host variables declared there (whose values
  /// nothing reads after the statement) are not refused; those declared in
  /// `leaveOut` are left out. Without `carriedOut` (a branch's copies, which
  /// no combinator carries), any number.
  std::vector<std::string> carried(const Span &region, const std::vector<const Stmt *> &parts, Order order,
                                   std::optional<Span> hostAllowed = std::nullopt,
                                   std::optional<Span> leaveOut = std::nullopt, bool carriedOut = true) const;

  /// Refuses what the rewrite cannot follow in `s`, inside `region`, which
  /// assigns `assigned`: a call of a lambda defined outside the region that
  /// captures by reference a variable the region or the lambda assigns (the
  /// branches' copies and the loops' parameters are not what it sees), and
  /// a reference declared outside that may name a variable the region
  /// assigns (its copy would not).
  void unseenState(const Stmt *s, const Span &region, const std::vector<Assigned> &assigned) const;

  /// The variables `e` names.
  static void namedIn(const Stmt *e, std::set<const ValueDecl *> &out);

  /// Refuses a condition (or a loop's bound or step) that assigns: the
  /// rewrite evaluates it where the combinator does, once or in a lambda of
  /// its own, not where C++ did.
  void pureCondition(const Stmt *e, const Stmt *statement, const char *what) const;
};

/// The walk over one kernel and the file's functions it calls, planning
/// each device statement (its parts in RewritePlan.cpp, Statements.cpp and
/// EarlyExits.cpp).
class Planner : public Assignments {
public:
  explicit Planner(const FunctionDecl &kernel) : Assignments(kernel.getASTContext()) {}

  RewritePlan run(const FunctionDecl &kernel);

private:
  struct Context {
    int depth = 0;
    bool kernelTop = false;             // the kernel's own body, outside every branch and loop
    const Stmt *loopBody = nullptr;     // the body of a device loop being rewritten, when visiting it
    std::string flag = {};              // then, the flag its breaks set
    bool copiedWhole = false;           // inside a device for's header, which the rewrite copies as text
    const Stmt *returnBlock = nullptr;  // a block of the kernel's own body whose early returns set a flag
    std::string returned = {};          // then, or in a device loop's body, the kernel's return flag
  };

  std::deque<const FunctionDecl *> pending_;
  const FunctionDecl *current_ = nullptr;           // the function being walked
  std::vector<const FunctionDecl *> lambdas_;        // the lambdas' call operators being walked inside it
  std::set<const FunctionDecl *> queued_;
  std::map<size_t, bool> seen_;  // a control statement's offset: whether its condition is a device value
  std::vector<DeviceStatement> statements_;

  /// The statements, each once: a function the kernel calls twice, or a
  /// template's instantiations, plan its text again; a statement planned
  /// differently (what it carries) is refused, as its text serves all.
  std::vector<DeviceStatement> once(std::vector<DeviceStatement> all) const;

  //===-- Functions to visit ----------------------------------------------===//

  void queue(const FunctionDecl *fn);

  /// Refuses what leaves the region other than by its end: return, goto,
  /// and break or continue not of a loop inside it. Lambdas' own are theirs.
  void checkExits(const Stmt *s, bool inLoop, const char *where, bool inSwitch = false) const;

  /// Whether `s` calls `target`, directly or through the file's functions.
  bool calls(const Stmt *s, const FunctionDecl *target, std::set<const FunctionDecl *> &seen) const;

  /// Refuses recursion under a device condition: the rewrite makes the
  /// statement's parts lambdas that the tracer runs whichever way the
  /// condition goes, so recursion ending on a device value would never end
  /// (and the plan does not tell it from recursion ending on host values).
  void noRecursion(const std::vector<const Stmt *> &parts, SourceLocation at) const;

  //===-- The walk --------------------------------------------------------===//

  /// Refuses a control statement at `at` whose condition was a device value
  /// where it was seen before and a host value now, or the other way.
  void sameKind(SourceLocation at, bool device);

  /// Whether a device condition tests a number rather than an i1.
  static bool testsNumber(const Expr *cond);

  DeviceStatement statement(DeviceStatement::Kind kind, int depth) const;

  /// The statement a branch ends with, where it is a `return;` or `continue;`.
  template <class Exit> static const Exit *exitOf(const Stmt *then) {
    if (auto *c = dyn_cast<CompoundStmt>(then)) then = c->body_empty() ? nullptr : c->body_back();
    auto *e = dyn_cast_or_null<Exit>(then);
    if constexpr (std::is_same_v<Exit, ReturnStmt>)
      if (e && e->getRetValue()) return nullptr;
    return e;
  }

  /// `if (c) { ...; return; }` (or `continue;`) on a device condition, no else.
  template <class Exit> bool earlyExit(const Stmt *s) const {
    auto *i = dyn_cast<IfStmt>(s);
    return i && !i->isConstexpr() && !i->getElse() && !i->getInit() && !i->getConditionVariable() &&
           deviceCondition(i->getCond()) && exitOf<Exit>(i->getThen());
  }

  /// Refuses a declaration at the top of a rewritten branch or body (or an
  /// early exit's rest) that takes the name of what the statement copies or
  /// carries: the rewrite returns those by name at the end, where the
  /// declaration would answer instead.
  void noShadow(const std::vector<const Stmt *> &tops, const DeviceStatement &d) const;

  /// Whether a device loop's body has an early break: a flag to carry.
  bool breaks(const Stmt *body) const;

  /// The flag a device loop at `keyword` carries for its breaks: named by
  /// its place, so that every plan of the same text names it alike.
  static std::string flagOf(size_t keyword) { return "tt_broken_" + std::to_string(keyword); }

  /// What leaves a device loop's body: its early continues' and breaks'
  /// branches (and returns', where the loop holds them) but their last
  /// statement, and everything else whole.
  void checkLoopBody(const Stmt *body, bool returns = false) const;

  /// Whether `s`, a statement of the kernel's own body, holds an early
  /// return the rewrite carries out through a flag: directly in the body of
  /// a device loop, in a block, or in a branch of a host (or constexpr) if.
  bool holdsReturn(const Stmt *s) const;

  /// The flag the early returns held by the statement at `at` set.
  static std::string returnFlagOf(size_t at) { return "tt_returned_" + std::to_string(at); }

  /// In `block`, whose early returns set the flag `returned`: what follows
  /// the first of them runs inside their rest, so a `return;` ending the
  /// block sets the flag too (nothing follows it), and any other return there
  /// is refused.
  void returnsAfter(const Stmt *block, const std::string &returned, int depth);

  /// A statement of the kernel's own body holding early returns: its flag
  /// declared before it, and what follows it, to the kernel's end, run
  /// unless the flag is set.
  void planHolder(const Stmt *s, const CompoundStmt *kernelBody, int depth);

  void visit(const Stmt *s, Context c);

  /// An operand as written: without the implicit conversions C++ added
  /// (not the ones the user wrote, f32(2.0f)).
  static const Expr *asWritten(const Expr *e);

  /// The language's scalar a host operand of a device ?: becomes (empty
  /// where it is a device value already): the other operand's, where that
  /// is a device scalar; else of the ?:'s host `type`, as the parse front end
  /// types a host number (a floating one an f32).
  std::string scalarFor(const Expr *operand, const Expr *other, QualType type) const;

  /// Whether `e`, an lvalue, is used as one: assigned, incremented, its
  /// address taken, bound to a reference or a non-const object argument.
  bool usedAsPlace(const Expr *e) const;

  /// c ? a : b on a device condition (Triton's `a if c else b`): both
  /// operands become branches returning their value; neither may assign.
  void planSelect(const ConditionalOperator *t, int depth);

  void planIf(const IfStmt *i, int depth);

  /// An early exit's statement: its branch and where the rest ends.
  DeviceStatement earlyExitStatement(DeviceStatement::Kind kind, const IfStmt *i, const CompoundStmt *block, int depth);

  /// if (c) { ...; return; } in the kernel's own body: the rest of the body
  /// is the other branch; the branch copies what it assigns (the rest reads
  /// the values before it, as where the kernel did not return), and nothing
  /// is carried out: nothing follows.
  void planEarlyReturn(const IfStmt *i, const CompoundStmt *block, int depth);

  /// if (c) { ...; continue; } (or break;) in a device loop's body: the
  /// rest of the body is the other branch. The branch copies what it
  /// assigns; what the loop carries comes out (the rest of the iteration is all that
  /// follows), the loop's flag too where it has one (a break's branch sets
  /// it; a break later in the rest may).
  void planExit(DeviceStatement::Kind kind, const IfStmt *i, const CompoundStmt *body, int depth,
                const std::string &flag, const std::string &returned = {});

  /// `text`, the expression `e`, as a wide loop's bound or step: a host
  /// number an i64 constant; a device value as it is (for_range widens an
  /// i32 where another bound is an i64, after reading all three, as the
  /// parse front end does).
  static std::string asI64(const Expr *e, const std::string &text);

  [[noreturn]] void tooMany(SourceLocation at, size_t n) const;

  [[noreturn]] void notCounted(const ForStmt *f) const;

  /// A device loop's flag (set by its breaks, and by its returns where it
  /// holds them: `returned`), carried last.
  void planFlags(DeviceStatement &d, const Stmt *body, const std::string &returned) const;

  void planFor(const ForStmt *f, int depth, const std::string &returned = {});

  void planWhile(const WhileStmt *w, int depth, const std::string &returned = {});
};

} // namespace twintile::hybrid::plan
