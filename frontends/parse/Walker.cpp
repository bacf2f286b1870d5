//===- Walker.cpp - the parsing front end's AST walker -------------------===//
//
// Evaluates an instantiated kernel body as a partial evaluator: host values
// (ordinary C++ types) are computed at compile time, device values (the
// language's types) become IR values, recorded through the shared Recorder.
// Calls to the language become ops; calls to user code (helpers, templates,
// lambdas, functors) are inlined; host control flow is specialized or
// unrolled; native device control flow becomes structured IR with the
// variables it assigns carried through it. This file holds the kernel's
// entry, statements and host loops; WalkerInternal.h lists the other parts.
//===----------------------------------------------------------------------===//
#include "frontends/clang/KernelDecl.h"
#include "frontends/parse/WalkerInternal.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/StmtCXX.h>

namespace twintile {
namespace walker {

void Walker::walk(const FunctionDecl &kernel) {
  auto frame = std::make_shared<Frame>();
  for (const ParmVarDecl *p : kernel.parameters()) {
    // The tracing front end's rule too (KernelDecl.h).
    if (std::string problem = hostParameterProblem(*p); !problem.empty()) fail(p->getLocation(), problem);
    std::optional<ir::Type> t = elementOf(p->getType());
    if (!t) throw ir::InternalError("kernel parameter '" + p->getNameAsString() + "' passed the parameter check with no element type");
    frame->vars[p] = Val::dev(rec_.param(*t, p->getNameAsString()));
  }
  frames_.push_back(frame);
  prepareReturns(&kernel, kernel.getBody());
  Flow f = exec(kernel.getBody());
  (void)f;
  frames_.pop_back();
}

ir::Location Walker::loc(SourceLocation l) const {
  ir::Location out;
  if (l.isValid()) {
    PresumedLoc p = sm_.getPresumedLoc(sm_.getFileLoc(l));
    if (p.isValid()) out = ir::Location(p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn()));
  }
  if (!frames_.empty()) out.inlinedAt = frames_.back()->inlinedAt;
  return out;
}

Flow Walker::exec(const Stmt *s) {
  if (!s) return Flow::Normal;
  if (auto *c = dyn_cast<CompoundStmt>(s))
    return scoped([&] { return execSequence({c->body_begin(), c->body_end()}, 0); });
  if (auto *d = dyn_cast<DeclStmt>(s)) {
    for (const Decl *decl : d->decls()) declare(decl);
    return Flow::Normal;
  }
  if (auto *r = dyn_cast<ReturnStmt>(s)) {
    if (frame().returnFlag && frame().deviceDepth > 0) return deviceReturn(r);
    frame().returned = r->getRetValue() ? eval(r->getRetValue()) : Val();
    return Flow::Return;
  }
  if (++steps_ > kMaxWalkSteps)
    fail(s->getBeginLoc(), "the kernel's host code runs more than " + std::to_string(kMaxWalkSteps) +
                               " statements at compile time (runaway host loops or recursion?)");
  if (auto *i = dyn_cast<IfStmt>(s)) return scoped([&] { return ifStmt(i); });
  if (auto *f = dyn_cast<ForStmt>(s)) return scoped([&] { return forStmt(f); });
  if (auto *w = dyn_cast<WhileStmt>(s)) return scoped([&] { return whileStmt(w); });
  if (auto *d = dyn_cast<DoStmt>(s)) return doStmt(d);
  if (isa<BreakStmt>(s)) return jump(s, true);
  if (isa<ContinueStmt>(s)) return jump(s, false);
  if (isa<NullStmt>(s)) return Flow::Normal;
  if (auto *a = dyn_cast<AttributedStmt>(s)) return exec(a->getSubStmt());  // [[likely]], #pragma unroll
  if (auto *e = dyn_cast<Expr>(s)) {
    eval(e);
    return Flow::Normal;
  }
  if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s) || isa<LabelStmt>(s))
    fail(s->getBeginLoc(), "goto is not supported in kernels");
  if (isa<CXXTryStmt>(s)) fail(s->getBeginLoc(), "exceptions are not supported in kernels (try)");
  if (isa<SwitchStmt>(s)) fail(s->getBeginLoc(), "switch is not supported in kernels; write it with if");
  if (isa<CXXForRangeStmt>(s))
    fail(s->getBeginLoc(), "range-based for loops iterate through host pointers, which the parsing front end does not "
                           "follow; write a counted for loop");
  if (isa<AsmStmt>(s)) fail(s->getBeginLoc(), "inline assembly is not supported in kernels");
  fail(s->getBeginLoc(), std::string("this statement (") + s->getStmtClassName() + ") is not supported in kernels");
}

void Walker::declare(const Decl *decl) {
  auto *var = dyn_cast<VarDecl>(decl);
  if (!var) return;  // types, using-declarations, static_asserts
  if (var->isStaticLocal()) fail(var->getLocation(), "static local variables are not supported in kernels");
  if (var->getType()->isPointerType() && !var->getType()->getPointeeType().isConstQualified())
    fail(var->getLocation(), "host pointers are not supported in kernels");
  Val v;
  const Expr *init = var->getInit();
  bool mutableRef = var->getType()->isLValueReferenceType() && !var->getType().getNonReferenceType().isConstQualified();
  if (init && mutableRef && init->isLValue()) v = refTo(init);  // `auto &r = x;` aliases x
  else if (init) v = eval(init);
  else if (isDeviceType(var->getType())) v = Val::dev(nullptr);
  if (v.isHostNumber()) v = toHostType(v, var->getType(), var->getLocation());
  if (v.kind == Val::Kind::Object && v.obj && !var->getType()->isReferenceType()) v.obj = clone(v.obj);
  frame().vars[var] = v;
  scopeDeclared(var);
  if (auto *dd = dyn_cast<DecompositionDecl>(var))
    for (const BindingDecl *b : dd->bindings()) {
      if (VarDecl *held = b->getHoldingVar()) {  // a tuple-like binding (std::pair): get<i>(e)
        frame().vars[held] = held->getType()->isLValueReferenceType() ? pairFieldRef(held->getInit())
                                                                        : eval(held->getInit());
        scopeDeclared(held);
      }
      frame().vars[b] = mutableRef ? refTo(b->getBinding()) : eval(b->getBinding());
      scopeDeclared(b);
    }
}

Val Walker::pairFieldRef(const Expr *init) {
  // `auto &[a, b] = p`: get<i>(p) is p's field itself, which `a = ...` changes.
  auto *call = dyn_cast<CallExpr>(init->IgnoreImplicit());
  const FunctionDecl *get = call ? call->getDirectCallee() : nullptr;
  const TemplateArgumentList *targs = get ? get->getTemplateSpecializationArgs() : nullptr;
  Val *pair = call && call->getNumArgs() == 1 && call->getArg(0)->isLValue() ? deref(lvalue(call->getArg(0))) : nullptr;
  if (!targs || targs->size() == 0 || targs->get(0).getKind() != TemplateArgument::Integral || !pair ||
      pair->kind != Val::Kind::Object || !pair->obj || !pair->obj->record)
    return eval(init);
  std::vector<const FieldDecl *> fields(pair->obj->record->field_begin(), pair->obj->record->field_end());
  uint64_t i = targs->get(0).getAsIntegral().getZExtValue();
  if (i >= fields.size()) return eval(init);
  Val r;
  r.kind = Val::Kind::Ref;
  r.ref = &pair->obj->fields[fields[i]];
  return r;
}

Flow Walker::ifStmt(const IfStmt *s) {
  if (s->isConsteval()) return exec(s->isNegatedConsteval() ? s->getThen() : s->getElse());  // not a constant evaluation
  if (s->getInit()) exec(s->getInit());
  if (const DeclStmt *d = s->getConditionVariableDeclStmt()) exec(d);
  // `if constexpr`: Clang decided it when it instantiated the template (a
  // string template argument compared, which the walker has no value for).
  if (bool taken = false; s->isConstexpr() && s->getCond()->EvaluateAsBooleanCondition(taken, ctx_))
    return exec(taken ? s->getThen() : s->getElse());
  if (const Expr *dc = deviceCondition(s->getCond())) return deviceIf(s, dc);
  bool taken = truthy(eval(s->getCond()), s->getCond());
  return exec(taken ? s->getThen() : s->getElse());
}

Flow Walker::hostBody(const Stmt *body) {
  loops_.push_back({.frame = &frame()});
  Flow f = Flow::Normal;
  if (frame().returnFlag && containsReturn(body))  // a return in one iteration skips the later ones
    f = unlessReturned(body->getBeginLoc(), body, [&] { return exec(body); });
  else
    f = exec(body);
  loops_.pop_back();
  return f;
}

Flow Walker::forStmt(const ForStmt *s) {
  if (s->getCond() && deviceCondition(s->getCond())) {
    std::optional<Counted> counted = countedLoop(s);
    bool leaves = containsJump(s->getBody(), false) || (frame().returnFlag && containsReturn(s->getBody()));
    if (counted && !leaves && !boundsChange(*counted, s->getBody()))
      return deviceFor(s, *counted);
    exec(s->getInit());
    return deviceWhile(s, s->getCond(), s->getBody(), s->getInc());
  }
  exec(s->getInit());
  for (int64_t n = 0;; ++n) {
    if (n > kMaxHostIterations) fail(s->getForLoc(), "this host loop runs more than " + std::to_string(kMaxHostIterations) + " iterations");
    if (s->getCond()) {
      if (deviceCondition(s->getCond()))
        fail(s->getCond()->getExprLoc(), "this loop's condition became a device value after its first iteration");
      if (!truthy(eval(s->getCond()), s->getCond())) break;
    }
    Flow f = hostBody(s->getBody());
    if (f == Flow::Return || f == Flow::Returned) return f;
    if (f == Flow::Break) break;
    if (s->getInc()) eval(s->getInc());
  }
  return Flow::Normal;
}

Flow Walker::whileStmt(const WhileStmt *s) {
  if (s->getConditionVariable()) fail(s->getWhileLoc(), "a while loop declaring its condition variable is not supported in kernels");
  if (deviceCondition(s->getCond())) return deviceWhile(s, s->getCond(), s->getBody(), nullptr);
  for (int64_t n = 0;; ++n) {
    if (n > kMaxHostIterations) fail(s->getWhileLoc(), "this host loop runs more than " + std::to_string(kMaxHostIterations) + " iterations");
    if (!truthy(eval(s->getCond()), s->getCond())) break;
    Flow f = hostBody(s->getBody());
    if (f == Flow::Return || f == Flow::Returned) return f;
    if (f == Flow::Break) break;
  }
  return Flow::Normal;
}

Flow Walker::doStmt(const DoStmt *s) {
  if (deviceCondition(s->getCond()))
    fail(s->getDoLoc(), "do-while on a device condition is not supported; write a while loop");
  for (int64_t n = 0;; ++n) {
    if (n > kMaxHostIterations) fail(s->getDoLoc(), "this host loop runs more than " + std::to_string(kMaxHostIterations) + " iterations");
    Flow f = hostBody(s->getBody());
    if (f == Flow::Return || f == Flow::Returned) return f;
    if (f == Flow::Break) break;
    if (!truthy(eval(s->getCond()), s->getCond())) break;
  }
  return Flow::Normal;
}

} // namespace walker

FrontendResult walkKernel(clang::ASTContext &ctx, const clang::FunctionDecl &kernel, int numWarps) {
  FrontendResult r;
  auto f = std::make_unique<ir::Func>();
  f->name = kernel.getNameAsString();
  f->numWarps = numWarps;
  f->meta = signatureOf(kernel).meta;
  Recorder rec(*f);
  walker::Walker walker(ctx, rec);
  try {
    walker.walk(kernel);
    rec.finish();
    r.func = std::move(f);
  } catch (const KernelError &e) {
    r.error = ir::Diagnostic{e.loc, e.message};
  } catch (const ir::InternalError &e) {
    r.error = e.diag();
  } catch (const std::bad_alloc &) {
    // The kernel's host values did not fit (what the limits below do not
    // catch): the input's doing, at the kernel.
    r.error = ir::Diagnostic{ir::Location(ctx.getSourceManager().getFilename(kernel.getLocation()).str(),
                                          static_cast<int>(ctx.getSourceManager().getSpellingLineNumber(kernel.getLocation())),
                                          static_cast<int>(ctx.getSourceManager().getSpellingColumnNumber(kernel.getLocation()))),
                             "evaluating this kernel's host code at compile time ran out of memory"};
  } catch (const std::exception &e) {
    r.error = ir::Diagnostic::internalError(std::string("the parsing front end threw: ") + e.what());
  }
  return r;
}

} // namespace twintile
