//===- RewritePlan.h - which statements the hybrid front end rewrites ----===//
//
// The hybrid embedding (CuTe DSL's): the kernel file is parsed, its native
// `if`, `for` and `while` on device conditions are rewritten into the
// language's combinators (if_else, for_range, while_loop), and the rewritten
// file is traced. The plan is the analysis: for the instantiated kernel and
// the functions of its file it calls, each statement to rewrite, the
// variables it carries (assigned inside, declared outside, in the order of
// their declarations, as the parsing front end orders its results), and the
// first construct the rewrite cannot keep the meaning of, refused at its
// line. The plan names offsets and texts of the file, no Clang types:
// RewriteEmit.cpp turns it into edits (SourceEdits.h) and decides nothing.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/hybrid/SourceEdits.h"
#include "ir/Diagnostic.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace twintile::hybrid {

/// A statement's text: [begin, end) of the file, `end` past its `;` or `}`;
/// a braced one's `}` at rbrace.
struct StmtText {
  size_t begin = 0, end = 0;
  bool braced = false;
  size_t rbrace = 0;
};

struct DeviceStatement {
  enum class Kind {
    If,           // if (c) a [else b]            -> [x =] tt::if_else(c, [&, x = x]() mutable {a; return carry}, ...)
    For,          // for (v = lo; v < hi; v += s) -> [x =] tt::for_range(lo, hi, s, x, [&](auto v, auto x) {...})
                  //   or, asWhile: { v = lo; [x, v =] tt::while_loop(cond, [&](auto x, auto v) {...; v += s}, x, v) }
    While,        // while (c) b                  -> [x =] tt::while_loop([&](auto x) {return c;}, [&](auto x) {...}, x)
    EarlyReturn,  // if (c) { ...; return; } rest -> tt::if_else(c, [&, x = x]() mutable {...}, [&]() { rest })
    Select,       // c ? a : b                    -> ::tt::if_else(c, [&]() { return a; }, [&]() { return b; })
    Continue,     // in a device loop's body: if (c) { ...; continue; } rest
                  //   -> [x =] tt::if_else(c, [&, x = x]() mutable {...; return carry}, [&, x = x]() mutable { rest })
    Break,        // in a device loop's body: if (c) { ...; break; } rest: as Continue, the branch setting the
                  //   loop's flag (a while loop's condition tests it; a for loop's body runs under its negation)
    Return,       // if (c) { ...; return; } rest, directly in the body of a device loop in the kernel's own body,
                  //   or in a block or host if's branch there: as Break, the branch setting the kernel's
                  //   return flag (and its loop's flag)
    Guard,        // after a statement of the kernel's own body holding a Return, what follows it runs unless the
                  //   flag is set: ::tt::i1 R = false; statement ::tt::if_else(R, [&]() {}, [&]() { rest });
                  //   nothing after it where the statement ends the kernel's body
    FinalReturn,  // a `return;` ending a block after its Returns (inside their rest): R = true;
  };
  Kind kind = Kind::If;
  int id = 0;     // names its temporaries
  int depth = 0;  // rewritten statements around it
  /// Assigned inside, declared outside, in the parse front end's order: the
  /// statement's results. EarlyReturn: none (nothing follows the rest).
  /// Continue: those the loop carries.
  std::vector<std::string> carried;
  /// What each branch copies, so that the other starts from the values
  /// before the statement: `carried`, and for EarlyReturn and Continue every
  /// variable the branch or the rest assigns that is declared before them.
  std::vector<std::string> copies;
  size_t keyword = 0;          // `if`, `for`, `while`
  size_t lparen = 0, rparen = 0;
  StmtText then;               // If, EarlyReturn: the branch; For, While: the body
  std::optional<size_t> elseKeyword;
  StmtText otherwise;          // If with an else
  std::string var, lo, hi, step;  // For; Select: `var` and `step`, the scalar its true and false operands
                                  // become where they are host values ("f32"), else empty
  size_t restEnd = 0;          // the early exits: the `}` that ends the rest; Guard: the kernel's
  StmtText exit;               // Continue, Break, Return: the `continue;`, `break;` or `return;` that ends the
                               // branch; FinalReturn: the `return;`
  std::string flag;            // For, While with a Break or Return: the flag it carries; Break, Return: its loop's
  /// The kernel's return flag: Return sets it; a loop holding a Return and
  /// an exit in one carry it (after the loop's own flag, where that is
  /// another); Guard declares it at `keyword` and tests it from `then.end`
  /// (the holding statement's end) to `restEnd` (the kernel's `}`).
  std::string returned;
  /// If, While, Select, early exits: the condition is a number, not an i1
  /// (Triton's `if x:`): it is tested as `(x) != 0`.
  bool numberCondition = false;
  /// For: the index is an i64 (a 64-bit variable or bound): the body's
  /// parameters are typed, as for_range gives a generic body an i32 only.
  bool wideIndex = false;
  /// For: rewritten as a while_loop (a loop that breaks or returns, an index
  /// declared before it, a bound the body changes): `init` declares or
  /// assigns the index before it, `condition` is tested each iteration (and
  /// the flag), the index steps at the body's end (not after a break).
  bool asWhile = false;
  std::string init, condition;
  size_t question = 0, colon = 0;  // Select: its `?` and `:`; `keyword` is where the condition begins, restEnd
                                   // where the expression ends
};

struct RewritePlan {
  std::vector<DeviceStatement> statements;
  /// What the rewrite refuses (at the user's line), or nothing.
  std::optional<ir::Diagnostic> refusal;
};

/// The plan for `kernel` (instantiated) and the functions it calls that are
/// defined in its own file, all of whose statements are in that file.
RewritePlan planRewrite(const clang::FunctionDecl &kernel);

/// The edits that carry out `plan` on the file's text `source`.
std::vector<Edit> emitRewrite(const RewritePlan &plan, const std::string &source);

} // namespace twintile::hybrid
