//===- WalkerInternal.h - the parsing front end's walker, inside --------===//
//
// Shared by the walker's files only (Walker.h is the front end's interface).
// The walker evaluates an instantiated kernel body as a partial evaluator:
// host values (ordinary C++ types) are computed at compile time, device values
// (the language's types) become IR values, recorded through the Recorder the
// tracer shares. Its parts, one file each:
//
//   LanguageTypes.cpp  the language's types as Clang shows them
//   HostValues.cpp     variables, host arithmetic, places (lvalues)
//   HostEval.cpp       expressions and constructors, evaluated on host values
//   Inline.cpp         calls to user code (helpers, lambdas, functors), inlined
//   Builtins.cpp       calls to the language: ops and combinators
//   DeviceFlow.cpp     native device control flow: if, for, while, break and
//                      continue on device conditions, with the variables they
//                      assign carried through structured IR
//   Walker.cpp         the kernel, statements, host loops, the entry point
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/clang/LanguageDecls.h"
#include "frontends/parse/Walker.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/OperatorKinds.h>
#include <clang/Basic/SourceManager.h>

#include <deque>
#include <functional>
#include <map>
#include <set>

namespace twintile::walker {

using namespace clang;

//===-- Values ------------------------------------------------------------===//

struct HostObject;
struct Frame;

/// What an expression evaluates to.
struct Val {
  enum class Kind { Void, Device, Int, Float, String, Object, Ref } kind = Kind::Void;
  ir::Value *device = nullptr;  // Device: null for a device variable never assigned
  int64_t i = 0;                // Int: integers, bools, enums
  bool unsigned64 = false;      // Int: of an unsigned 64-bit C++ type; i holds its bits (negative above INT64_MAX)
  double f = 0;                 // Float
  std::string s;                // String: literals for messages and prefixes
  std::shared_ptr<HostObject> obj;  // Object: structs, lambdas, arrays
  Val *ref = nullptr;               // Ref: a reference variable, bound to another's storage

  static Val dev(ir::Value *v) { Val r; r.kind = Kind::Device; r.device = v; return r; }
  static Val integer(int64_t v) { Val r; r.kind = Kind::Int; r.i = v; return r; }
  static Val floating(double v) { Val r; r.kind = Kind::Float; r.f = v; return r; }
  bool isDevice() const { return kind == Kind::Device; }
  bool isHostNumber() const { return kind == Kind::Int || kind == Kind::Float; }
  double number() const {
    return kind == Kind::Float ? f : unsigned64 ? static_cast<double>(static_cast<uint64_t>(i)) : static_cast<double>(i);
  }
};

/// A host object: a struct's fields, an array's elements, a lambda's closure.
struct HostObject {
  const CXXRecordDecl *record = nullptr;
  std::map<const FieldDecl *, Val> fields;
  std::vector<Val> elems;
  std::weak_ptr<Frame> captureFrame;                // lambdas: by-reference captures (weak: no cycle)
  std::map<const ValueDecl *, Val> capturedCopies;  // lambdas: by-copy captures
};

/// A deep copy of a host object (C++ copies members and elements by value).
std::shared_ptr<HostObject> clone(const std::shared_ptr<HostObject> &o);

/// The variables of one inlined call.
struct Frame {
  std::shared_ptr<Frame> lexicalParent;  // a lambda's enclosing frame
  std::shared_ptr<HostObject> self;      // `this`
  std::map<const void *, Val> vars;  // by declaration, or a synthetic key (loop flags)
  std::vector<ir::SourcePos> inlinedAt;  // call sites, innermost first
  Val returned;                          // an unconditional return's value
  std::vector<std::vector<const void *>> scopes{{}};  // variables declared in each open block
  /// Returns under a device condition (DeviceFlow.cpp): a flag the function
  /// sets when it has returned, and the value it returned (null for void),
  /// both variables that device ifs and loops carry. Null without such returns.
  Val *returnFlag = nullptr;
  Val *returnValue = nullptr;
  const FunctionDecl *function = nullptr;  // set with returnFlag
  int deviceDepth = 0;  // device regions (if, loop, guard) open in this function
};

/// How a statement ends. Returned: a return under a device condition was
/// taken on this path; the rest of the region does not run (the region's end
/// turns it back into Normal, and the return flag tells what follows).
enum class Flow { Normal, Break, Continue, Return, Returned };

constexpr int kMaxInlineDepth = 64;
constexpr int64_t kMaxHostIterations = 1 << 20;
/// Elements of one host array the walker evaluates (each a value of its own).
constexpr uint64_t kMaxHostElements = 1 << 24;
constexpr int64_t kMaxWalkSteps = 10'000'000;

//===-- The language's types (LanguageTypes.cpp) -------------------------===//

// (nameOf, inNamespace, recordOf, scalarKindNamed, elementOf, isDeviceType:
// frontends/clang/LanguageDecls.h.)
using twintile::elementOf;
using twintile::inNamespace;
using twintile::isDeviceType;
using twintile::nameOf;
using twintile::recordOf;
using twintile::scalarKindNamed;
bool inStd(const Decl *d);
/// A function of the language's header written in the language (clamp):
/// the walker inlines it instead of reading it as one op.
bool isComposite(const FunctionDecl *fn);
/// The qualified name of a declaration, for messages.
std::string qualifiedName(const NamedDecl *d);

//===-- The walker --------------------------------------------------------===//

class Walker {
public:
  Walker(ASTContext &ctx, Recorder &rec) : ctx_(ctx), sm_(ctx.getSourceManager()), rec_(rec) {}

  void walk(const FunctionDecl &kernel);

  //===-- Messages and locations (Walker.cpp) ------------------------===//

  ir::Location loc(SourceLocation l) const;

  [[noreturn]] void fail(SourceLocation l, std::string msg) const { throw KernelError{loc(l), std::move(msg)}; }

private:
  Frame &frame() { return *frames_.back(); }

  //===-- Variables (HostValues.cpp) ---------------------------------===//

  /// The storage of a variable, searching the frame, a lambda's captures,
  /// and the frames it captured by reference.
  Val *lookup(const ValueDecl *d);

  static Val *deref(Val *v);

  void scopeDeclared(const void *key) { frame().scopes.back().push_back(key); }

  /// Runs `body` in a new block scope: its variables end with it.
  template <class F> auto scoped(F &&body) {
    std::shared_ptr<Frame> f = frames_.back();  // this block's frame, even while an error unwinds
    f->scopes.emplace_back();
    struct Close {
      Frame &f;
      ~Close() {
        for (const void *key : f.scopes.back()) f.vars.erase(key);
        f.scopes.pop_back();
      }
    } close{*f};
    return body();
  }

  /// A reference to the storage `e` names.
  Val refTo(const Expr *e);

  Val readVar(const ValueDecl *d, SourceLocation at);

  //===-- Host arithmetic (HostValues.cpp) ---------------------------===//

  /// `v` converted to host type `t` (C++'s conversions).
  Val toHostType(Val v, QualType t, SourceLocation at);

  Val hostBinary(BinaryOperatorKind op, Val a, Val b, QualType resultType, SourceLocation at, QualType opType = {});

  /// A place a host or device value is stored: a variable, a field, an element.
  Val *lvalue(const Expr *e);

  /// Reads a member: the base stays alive while the field is copied out (it
  /// may be a temporary, `split(v).hi`).
  Val member(const MemberExpr *m);

  Val element(const ArraySubscriptExpr *s);

  std::shared_ptr<HostObject> objectOf(const Expr *base);

  //===-- Expressions (HostEval.cpp) ---------------------------------===//

  Val eval(const Expr *e);
  Val evalExpr(const Expr *e);  // eval, before the result learns whether it is an unsigned 64-bit value

  bool truthy(const Val &v, const Expr *e);

  Val implicitCast(const ImplicitCastExpr *c);

  Val explicitCast(const Expr *c, const Expr *sub);

  Val binaryOperator(const BinaryOperator *b);

  Val unaryOperator(const UnaryOperator *u);

  Val lambda(const LambdaExpr *l);

  Val initList(const InitListExpr *i);

  //===-- Constructors (HostEval.cpp) --------------------------------===//

  Val construct(const CXXConstructExpr *c);

  /// A host number as a device constant of element type `elem`.
  ir::Value *constant(const Val &v, const ir::Type &elem, SourceLocation at);

  Val construct(const CXXConstructorDecl *ctor, QualType type, const std::vector<const Expr *> &args, SourceLocation at);

  //===-- Calls (Inline.cpp) -----------------------------------------===//

  /// Enters a new frame for an inlined call of `fn` with `args` bound.
  std::shared_ptr<Frame> enter(const FunctionDecl *fn, const std::vector<Val> &args, std::shared_ptr<HostObject> self,
                               SourceLocation callSite, std::shared_ptr<Frame> lexicalParent);

  void leave() { frames_.pop_back(); }

  Val inlineCall(const FunctionDecl *fn, const std::vector<Val> &args, std::shared_ptr<HostObject> self,
                 SourceLocation callSite);

  std::vector<const Expr *> userArgs(const CallExpr *c, unsigned first = 0);

  Val call(const CallExpr *c);

  //===-- The language (Builtins.cpp) --------------------------------===//

  ir::Value *device(const Expr *e, const char *what);

  /// A device value, or a host number turned into a constant of `elem`.
  ir::Value *deviceOr(const Expr *e, const ir::Type &elem);
  /// A device condition (deviceCondition's expression): a mask, or a number
  /// compared with 0 (Triton's `if x:`).
  ir::Value *condition(const Expr *e, const char *what);

  int64_t hostInt(const Expr *e, const char *what);

  std::vector<int64_t> hostInts(const Expr *e, const char *what);

  ir::Type elemOf(QualType t, SourceLocation at);

  static std::optional<ir::OpKind> binaryKind(OverloadedOperatorKind op);

  static std::string spelling(OverloadedOperatorKind op);

  Val operatorCall(const CallExpr *c, const FunctionDecl *fn);

  Val builtin(const CallExpr *c, const FunctionDecl *fn);

  //===-- Tensor descriptors (Descriptors.cpp) -----------------------===//

  /// make_tensor_descriptor(base, shape, strides, block): a host object that
  /// holds the checked descriptor.
  Val makeDescriptor(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &args);
  /// d.load(offsets), d.store(offsets, value).
  Val descriptorCall(const CallExpr *c, const CXXMethodDecl *m, const std::vector<const Expr *> &args);
  /// A braced list of sizes, strides or offsets (detail::Index): device
  /// integer scalars, or host integers as constants.
  std::vector<ir::Value *> indexList(const Expr *e, const char *what);

  //===-- Combinators (Builtins.cpp; closures called in Inline.cpp) --===//

  /// Calls a closure (lambda or functor) or names a function, with `args`.
  Val callCallable(const Val &callee, const Expr *calleeExpr, const std::vector<Val> &args, SourceLocation at);

  std::vector<ir::Value *> devicesOf(const Val &v, SourceLocation at, const char *what);

  /// What a combinator returns from its op's results: a value or a Carried object.
  Val resultsOf(ir::Op *op, QualType type);

  Val forRange(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a);
  /// How a for_range body takes its index: generic (a template), or the element type it
  /// declares (I1 when it declares none we read: a callable of another kind).
  struct IndexParam {
    bool generic = false;
    ir::ScalarKind elem = ir::ScalarKind::I1;
  };
  static IndexParam indexParam(const Expr *body);

  Val ifElse(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a);

  Val whileLoop(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a);
  /// reduce and associative_scan: the combine function's body becomes the op's region.
  Val combine(const CallExpr *c, const FunctionDecl *fn, ir::OpKind kind, const std::vector<const Expr *> &a);

  //===-- Statements (Walker.cpp) ------------------------------------===//

  /// The device i1 a condition tests, if it is a device condition
  /// (twintile::deviceCondition, LanguageDecls.h).
  const Expr *deviceCondition(const Expr *cond) { return twintile::deviceCondition(cond); }

  Flow exec(const Stmt *s);

  void declare(const Decl *decl);

  Flow ifStmt(const IfStmt *s);

  //===-- Native device control flow (DeviceFlow.cpp) ----------------===//
  // (host loops are in Walker.cpp: a loop is host or device by its condition)

  /// Every variable visible now, with its value, and the fields and
  /// elements of the host objects they hold.
  std::map<Val *, Val> snapshot();
  /// The field a reference binding of `auto &[a, b] = p` names (get<i>(p)), as a reference.
  Val pairFieldRef(const Expr *init);
  /// A std::pair (Python's 2-tuple) of `args`: two values, or one pair to copy.
  Val stdPair(const CXXRecordDecl *r, const std::vector<Val> &args, SourceLocation at);
  /// A host array's length, refused beyond kMaxHostElements in all (at `at`).
  uint64_t hostArraySize(const ConstantArrayType *array, SourceLocation at);
  /// `cond ? a : b` on a device condition: an if op yielding the taken branch's value.
  Val deviceConditional(const ConditionalOperator *c, const Expr *condExpr);

  const void *keyOf(Val *slot);

  /// A variable's name and place, for messages and a deterministic order.
  std::string varName(Val *slot);
  SourceLocation varLoc(Val *slot);
  void sortByPlace(std::vector<Val *> &slots);

  static bool sameValue(const Val &a, const Val &b);

  /// The variables that differ from `before`, in declaration order.
  std::vector<Val *> changedSince(const std::map<Val *, Val> &before, const Stmt *where, bool guard = false);

  void noReturn(Flow f, const Stmt *s, const char *what);

  /// Whether `s` holds a break (or, with `orContinue`, a continue) of the
  /// loop it is in, not of a loop nested in it.
  static bool containsJump(const Stmt *s, bool orContinue);

  /// Whether `s` holds a return of the function it is in (not of a lambda in it).
  static bool containsReturn(const Stmt *s);

  /// Whether `s` ends in a return on every path (as written, without evaluating).
  static bool alwaysReturns(const Stmt *s);

  /// A return statement nested in a device if or loop of `s`, or null.
  const ReturnStmt *returnUnderDevice(const Stmt *s);

  /// A device variable the walker introduces, named for messages; it holds `v`.
  Val *newVariable(const std::string &name, SourceLocation at, Val v);

  /// A device i1 variable the walker introduces, set to `value`.
  Val *newFlag(const std::string &name, SourceLocation at, bool value);

  /// Before a function's body: when it returns under a device condition, the
  /// flag and value variables those returns set (Frame::returnFlag).
  void prepareReturns(const FunctionDecl *fn, const Stmt *body);

  /// A return under a device condition: sets the function's return value and
  /// flag, and the break flags of its device loops; what follows runs only
  /// while the flag is false.
  Flow deviceReturn(const ReturnStmt *r);

  /// The return flag and value (given a placeholder if it has none yet).
  std::vector<Val *> returnSlots(SourceLocation at);

  /// What a device loop whose body may return carries for it: the return
  /// flag and value, and the flags of the loops around it.
  std::vector<Val *> returnCarried(SourceLocation at);

  /// A value of `type` for a return value read only where it was set (zero).
  ir::Value *placeholder(const ir::Type &type, SourceLocation at);

  /// Runs `walk` under `if (!flag)`: after a return under a device condition,
  /// the rest of the function. Host break and continue inside pass out: if
  /// the flag is set, nothing after them runs anyway.
  Flow unlessReturned(SourceLocation at, const Stmt *where, const std::function<Flow()> &walk);

  void setFlag(Val *flag, bool value, SourceLocation at);

  /// break and continue in a device loop set its flags; the statements after
  /// them run under `if (!skip)`, so one semantics serves every path.
  Flow jump(const Stmt *s, bool isBreak);

  /// Runs `stmts` from `first`; in a device loop with flags, what follows a
  /// statement that may break or continue runs only while `skip` is false.
  Flow execSequence(const std::vector<const Stmt *> &stmts, size_t first);

  Flow deviceIf(const IfStmt *s, const Expr *condExpr);

  /// An IR if on `cond`: runs each branch's walk in its region, then makes
  /// the variables either branch assigned the if's results.
  /// `guard`: the if guards the rest of a function or iteration after a
  /// return, break or continue (its else does nothing and what it skips is
  /// never read): the function's own host variables take the then branch's
  /// values, and a device variable first assigned there gets a placeholder
  /// in the else.
  void deviceBranch(ir::Value *cond, SourceLocation loc, const Stmt *where, const std::function<void()> &thenWalk,
                    const std::function<void()> &elseWalk, bool guard = false);

  /// The storage of the current function's own variables and of the objects
  /// they hold (not references, captures or `this`).
  std::set<Val *> ownedSlots();

  /// The variables `body` (and `alsoInc`) assign by name, in source order.
  static std::vector<const ValueDecl *> assignedDecls(const Stmt *body, const Stmt *alsoInc = nullptr);

  /// Device variables declared outside `body` that it assigns, in source order.
  std::vector<Val *> assignedIn(const Stmt *body, const Stmt *alsoInc = nullptr);

  std::vector<ir::Value *> currentValues(const std::vector<Val *> &slots, SourceLocation at);

  /// for (i32 k = lo; k < hi; k += step): the counted form that becomes an IR for.
  struct Counted {
    const VarDecl *iv = nullptr;
    const Expr *hi = nullptr, *step = nullptr;
  };

  std::optional<Counted> countedLoop(const ForStmt *s);

  /// A host loop's body: its break and continue are C++'s own.
  Flow hostBody(const Stmt *body);

  /// Whether the body assigns a variable the loop's bound or step reads (then
  /// the bound is re-read every iteration, as C++ does: a while loop).
  bool boundsChange(const Counted &c, const Stmt *body);

  Flow forStmt(const ForStmt *s);

  Flow whileStmt(const WhileStmt *s);

  Flow doStmt(const DoStmt *s);

  /// After a device loop's body: anything it changed that the loop does not
  /// carry (a field, a variable assigned through a call) is refused.
  void onlyCarriedChanged(const std::map<Val *, Val> &before, const std::vector<Val *> &carried, const Stmt *loop);

  /// Walks a device loop's body with its flags: `skip` starts each iteration
  /// false (when the body can continue or break).
  void deviceBody(const Stmt *loop, const Stmt *body, Val *broken);

  Flow deviceFor(const ForStmt *s, const Counted &c);

  /// A device while loop (or a for loop that is not counted, or that
  /// breaks): `break` becomes a carried flag the condition tests.
  Flow deviceWhile(const Stmt *s, const Expr *cond, const Stmt *body, const Expr *inc);

  ASTContext &ctx_;
  SourceManager &sm_;
  Recorder &rec_;
  std::vector<std::shared_ptr<Frame>> frames_;

  /// The loops being walked, innermost last: a device loop's break and
  /// continue flags (null for a host loop, whose break is C++'s own).
  struct LoopContext {
    Val *broken = nullptr;  // set by break (or return); ends the loop
    Val *skip = nullptr;    // set by break, continue or return; skips the rest of the iteration
    const Frame *frame = nullptr;  // the function the loop is in
  };
  /// The innermost loop of the function being walked, or null.
  LoopContext *currentLoop();
  std::vector<LoopContext> loops_;
  int64_t steps_ = 0;
  std::set<const VarDecl *> evaluating_;  // globals being evaluated (self-reference)
  /// Variables the walker introduces (loop flags): name and place.
  std::map<const void *, std::pair<std::string, SourceLocation>> synthetic_;
  std::deque<char> syntheticKeys_;  // their keys' stable addresses
  /// Fields and elements of host objects, named for messages ("p.lo").
  std::map<const Val *, std::pair<std::string, SourceLocation>> parts_;
};

} // namespace twintile::walker
