//===- Places.cpp - the kernel file's text, as the rewrite's plan reads it ===//
#include "frontends/hybrid/PlanInternal.h"

#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

namespace twintile::hybrid::plan {

ir::Location Places::locationAtOffset(size_t at) const {
  return locationOf(sm_.getLocForStartOfFile(sm_.getMainFileID()).getLocWithOffset(static_cast<int>(at)));
}

ir::Location Places::locationOf(SourceLocation l) const {
  PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
  if (p.isInvalid()) return {};
  return ir::Location(p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn()));
}

size_t Places::offset(SourceLocation l) const {
  if (l.isMacroID())
    refuse(l, "native device control flow written in a macro is not rewritten by the hybrid front end: write "
              "the statement out, or use the combinators (if_else, for_range, while_loop)");
  if (!sm_.isInMainFile(l))
    refuse(l, "native device control flow outside the kernel's file is not rewritten by the hybrid front end "
              "(it rewrites that file alone): use the combinators (if_else, for_range, while_loop) here");
  return sm_.getFileOffset(l);
}

std::string Places::text(SourceRange r) const {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts()).str();
}

size_t Places::endOf(const Stmt *s) const {
  // (An if constexpr's discarded branch is an empty block whose `}` is placed
  // on the branch's last token: its end is the `;` after that.)
  if (auto *c = dyn_cast<CompoundStmt>(s); c && *sm_.getCharacterData(c->getRBracLoc()) == '}')
    return offset(c->getRBracLoc()) + 1;
  if (auto *i = dyn_cast<IfStmt>(s)) return endOf(i->getElse() ? i->getElse() : i->getThen());
  if (auto *f = dyn_cast<ForStmt>(s)) return endOf(f->getBody());
  if (auto *w = dyn_cast<WhileStmt>(s)) return endOf(w->getBody());
  if (auto *f = dyn_cast<CXXForRangeStmt>(s)) return endOf(f->getBody());
  if (auto *n = dyn_cast<NullStmt>(s)) return offset(n->getSemiLoc()) + 1;
  if (auto *d = dyn_cast<DeclStmt>(s)) return offset(d->getEndLoc()) + 1;
  std::optional<Token> next = Lexer::findNextToken(s->getEndLoc(), sm_, ctx_.getLangOpts());
  if (!next || !next->is(tok::semi))
    refuse(s->getBeginLoc(), "the hybrid front end cannot find where this statement ends (its `;`) to rewrite "
                             "the device control flow around it: write it inside braces");
  return offset(next->getLocation()) + 1;
}

StmtText Places::textOf(const Stmt *s) const {
  StmtText t;
  t.begin = offset(s->getBeginLoc());
  t.end = endOf(s);
  if (auto *c = dyn_cast<CompoundStmt>(s)) t.braced = true, t.rbrace = offset(c->getRBracLoc());
  return t;
}

Places::Span Places::spanOf(const Stmt *s) const {
  return {sm_.getFileOffset(sm_.getExpansionLoc(s->getBeginLoc())), endOf(s), s->getBeginLoc()};
}

bool Places::inside(SourceLocation l, const Span &region) const {
  if (l.isInvalid() || !sm_.isInMainFile(sm_.getExpansionLoc(l))) return false;
  size_t at = sm_.getFileOffset(sm_.getExpansionLoc(l));
  return at >= region.begin && at < region.end;
}

} // namespace twintile::hybrid::plan
