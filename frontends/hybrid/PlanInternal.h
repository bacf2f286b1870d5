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
//   RewritePlan.cpp   the walk: which statements become which combinator
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/hybrid/RewritePlan.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <optional>
#include <set>
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

} // namespace twintile::hybrid::plan
