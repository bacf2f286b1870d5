// SinkToUse (backend/SinkToUse.h) on LLVM IR written out: what moves down to
// its first use, and what stays because moving it would lengthen another
// value's live range, or because it is not a pure value.
#include "backend/SinkToUse.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

/// The names of the instructions of @f's block `block` (its entry block by
/// default) in order, after the pass ("" for unnamed).
std::vector<std::string> sunk(const std::string &ir, const std::string &block = "") {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, err, ctx);
  REQUIRE(m);
  llvm::FunctionAnalysisManager fam;
  llvm::PassBuilder pb;
  pb.registerFunctionAnalyses(fam);
  llvm::FunctionPassManager fpm;
  fpm.addPass(twintile::backend::SinkToUsePass());
  llvm::Function &fn = *m->getFunction("f");
  fpm.run(fn, fam);
  llvm::BasicBlock *bb = &fn.getEntryBlock();
  for (llvm::BasicBlock &b : fn)
    if (b.getName() == block) bb = &b;
  std::vector<std::string> names;
  for (llvm::Instruction &i : *bb) names.push_back(i.getName().str());
  return names;
}

} // namespace

TEST_CASE("a value moves down to its first user, its chain with it", "[backend][sink]") {
  // %w and %o depend on %t only, which stays live to the end: both move down
  // to the store that uses them, past the loads.
  auto names = sunk(R"(
define void @f(ptr %p, ptr %q, i32 %t) {
  %w = lshr i32 %t, 5
  %o = shl i32 %w, 2
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %s = add i32 %a, %b
  store i32 %s, ptr %p
  %u = add i32 %s, %o
  %v = add i32 %u, %t
  store i32 %v, ptr %q
  ret void
}
)");
  CHECK(names == std::vector<std::string>{"a", "b", "s", "", "w", "o", "u", "v", "", ""});
}

TEST_CASE("a value stays where moving it would lengthen an operand's range", "[backend][sink]") {
  // %w is %t's last use: below the loads it would keep %t alive past them.
  auto names = sunk(R"(
define void @f(ptr %p, ptr %q, i32 %t) {
  %w = lshr i32 %t, 5
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %s = add i32 %a, %b
  %u = add i32 %s, %w
  store i32 %u, ptr %q
  ret void
}
)");
  CHECK(names == std::vector<std::string>{"w", "a", "b", "s", "u", "", ""});
}

TEST_CASE("loads, calls with effects and convergent calls stay", "[backend][sink]") {
  auto names = sunk(R"(
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
define void @f(ptr %p, i32 %t) {
  %a = load i32, ptr %p
  %x = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %t, i32 1, i32 31)
  store i32 %t, ptr %p
  %s = add i32 %a, %x
  store i32 %s, ptr %p
  ret void
}
)");
  CHECK(names == std::vector<std::string>{"a", "x", "", "s", "", ""});
}

TEST_CASE("a value used only in later blocks moves to its block's end", "[backend][sink]") {
  // %t is live out of the block (used in %done): %w moves to the branch.
  auto names = sunk(R"(
define void @f(ptr %p, i32 %t, i1 %c) {
  %w = mul i32 %t, 3
  %a = load i32, ptr %p
  store i32 %a, ptr %p
  br i1 %c, label %then, label %done
then:
  store i32 %w, ptr %p
  br label %done
done:
  store i32 %t, ptr %p
  ret void
}
)");
  CHECK(names == std::vector<std::string>{"a", "", "w", ""});
}

TEST_CASE("a use in a block that cannot follow does not keep a value live", "[backend][sink]") {
  // %t is used in %b too, but %b never runs after %a: in %a, %w is %t's
  // last use and stays above the loads.
  auto names = sunk(R"(
define void @f(ptr %p, ptr %q, i32 %t, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %w = lshr i32 %t, 5
  %x = load i32, ptr %p
  %y = load i32, ptr %q
  %s = add i32 %x, %y
  %u = add i32 %s, %w
  store i32 %u, ptr %q
  ret void
b:
  store i32 %t, ptr %p
  ret void
}
)", "a");
  CHECK(names == std::vector<std::string>{"w", "x", "y", "s", "u", "", ""});
}

TEST_CASE("a value used earlier in its own loop block is live all around it", "[backend][sink]") {
  // %t is used at the top of %loop, which follows itself: it is live at the
  // bottom too, so %w may move down.
  auto names = sunk(R"(
define void @f(ptr %p, i32 %t, i1 %c) {
entry:
  br label %loop
loop:
  store i32 %t, ptr %p
  %w = lshr i32 %t, 5
  %x = load i32, ptr %p
  %u = add i32 %x, %w
  store i32 %u, ptr %p
  br i1 %c, label %loop, label %done
done:
  ret void
}
)", "loop");
  CHECK(names == std::vector<std::string>{"", "x", "w", "u", "", ""});
}
