//===- Recorder.h - building tile IR the way the language defines it -----===//
//
// Both front ends record a kernel's operations through one Recorder, so that
// they share one definition of every operation and differ only in how they
// discover the program (running it, or reading it). The recorder broadcasts
// operands as NumPy does, builds each op at the user's location, and turns
// every typing error into a KernelError located there.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Builder.h"
#include "ir/Diagnostic.h"
#include "ir/IR.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace twintile {

/// An error in the user's kernel, at its place in the user's source.
struct KernelError {
  ir::Location loc;
  std::string message;
};

/// What a front end produces for one kernel specialization.
struct FrontendResult {
  std::unique_ptr<ir::Func> func;       // set on success
  std::optional<ir::Diagnostic> error;  // set on failure, at the user's line
  double seconds = 0;                   // the front end's own work
  bool ok() const { return func != nullptr; }
};

class Recorder {
public:
  explicit Recorder(ir::Func &f);

  ir::Func &func() { return f_; }
  /// The block ops go into now, and the region stack.
  ir::Block &block() { return *blocks_.back(); }
  void pushBlock(ir::Block &b) { blocks_.push_back(&b); }
  void popBlock() { blocks_.pop_back(); }

  ir::Value *param(const ir::Type &t, std::string name = {});

  // Values. `what` names the operation in messages ("+", "load").
  ir::Value *constInt(const ir::Type &t, int64_t v, const ir::Location &loc);
  /// A host number of an unsigned 64-bit C++ type (unsigned long long), which
  /// may be above INT64_MAX, as a constant of type t.
  ir::Value *constUInt(const ir::Type &t, uint64_t v, const ir::Location &loc);
  ir::Value *constFloat(const ir::Type &t, double v, const ir::Location &loc);
  ir::Value *binary(ir::OpKind k, ir::Value *a, ir::Value *b, const ir::Location &loc, std::string_view what);
  ir::Value *unary(ir::OpKind k, ir::Value *a, const ir::Location &loc, std::string_view what);
  /// A reduction along `axis` (keepDims: the axis stays, of size 1), or
  /// over every axis when `axis` is kAllAxes (a scalar: the tile is read in
  /// row-major order, so argmax gives a flat index). Scans keep their axis.
  ir::Value *reduce(ir::OpKind k, ir::Value *a, int axis, const ir::Location &loc, bool keepDims = false);
  static constexpr int kAllAxes = -1000;
  ir::Value *addptr(ir::Value *p, ir::Value *offset, const ir::Location &loc);
  /// p - k: p + (-k), an unsigned k widened to i64 first (its negation would
  /// wrap to a large forward offset).
  ir::Value *subptr(ir::Value *p, ir::Value *offset, const ir::Location &loc);
  ir::Value *select(ir::Value *c, ir::Value *a, ir::Value *b, const ir::Location &loc);
  ir::Value *fma(ir::Value *a, ir::Value *b, ir::Value *c, const ir::Location &loc);
  ir::Value *cast(ir::Value *a, ir::ScalarKind to, const ir::Location &loc);
  ir::Value *bitcast(ir::Value *a, ir::ScalarKind to, const ir::Location &loc);
  /// multiple_of or max_contiguous; one value stands for every dimension.
  ir::Value *hint(ir::OpKind kind, ir::Value *a, std::vector<int64_t> values, const ir::Location &loc);
  ir::Value *programId(int axis, const ir::Location &loc);
  ir::Value *numPrograms(int axis, const ir::Location &loc);
  ir::Value *arange(int64_t start, int64_t end, const ir::Location &loc);
  ir::Value *full(const std::vector<int64_t> &shape, ir::Value *scalar, const ir::Location &loc);
  ir::Value *expandDims(ir::Value *a, int axis, const ir::Location &loc);
  ir::Value *broadcastTo(ir::Value *a, const std::vector<int64_t> &shape, const ir::Location &loc);
  /// x's size along `axis` (negative: from the end): Triton's x.shape[axis], a host int.
  int64_t shapeOf(ir::Value *x, int axis, const ir::Location &loc);
  ir::Value *reshape(ir::Value *a, const std::vector<int64_t> &shape, const ir::Location &loc);
  ir::Value *trans(ir::Value *a, const std::vector<int64_t> &perm, const ir::Location &loc);
  /// `cache` and `evict`: indices of ir::kCacheModifiers and ir::kEvictionPolicies (0: none).
  ir::Value *load(ir::Value *ptr, ir::Value *mask, ir::Value *other, const ir::Location &loc, int cache = 0,
                  int evict = 0);
  void store(ir::Value *ptr, ir::Value *value, ir::Value *mask, const ir::Location &loc, int cache = 0,
             int evict = 0);
  /// A tensor descriptor (make_tensor_descriptor): the operands every
  /// access of it records (ir/Descriptor.h), checked where it is made. Each
  /// access records the sizes and offsets in one type, i64 where a value
  /// given is 64-bit (or u32), else i32, and the strides in i64; strides
  /// keeps the innermost, which must be 1.
  struct Descriptor {
    ir::Value *base = nullptr;
    std::vector<ir::Value *> shape, strides;
    std::vector<int64_t> block;
  };
  Descriptor descriptor(ir::Value *base, const std::vector<ir::Value *> &shape, const std::vector<ir::Value *> &strides,
                        const std::vector<int64_t> &block, const ir::Location &loc);
  /// d.load(offsets), or d.store(offsets, value) when `value` is given (null
  /// returned): a block of d's tensor at `offsets`, one per dimension.
  ir::Value *descriptorAccess(const Descriptor &d, const std::vector<ir::Value *> &offsets, ir::Value *value,
                              const ir::Location &loc);
  /// An atomic of `kind` (atomic_cas: `cmp` set, no mask), with the memory
  /// order and scope named by their index in ir::kAtomicSems/kAtomicScopes.
  ir::Value *atomic(ir::OpKind kind, ir::Value *ptr, ir::Value *cmp, ir::Value *value, ir::Value *mask, int sem,
                    int scope, const ir::Location &loc);
  /// precision: 0 IEEE, 1 TF32 (twintile.h's Precision).
  ir::Value *dot(ir::Value *a, ir::Value *b, ir::Value *acc, int precision, const ir::Location &loc);
  void print(const std::string &prefix, const std::vector<ir::Value *> &values, const ir::Location &loc);
  void assertTrue(ir::Value *cond, const std::string &msg, const ir::Location &loc);
  void barrier(const ir::Location &loc);
  /// The kernel's own options (kernel_options in its file); 0 leaves one as it is.
  void options(int64_t numWarps, int64_t numStages, const ir::Location &loc);  // 0: not said

  // Structured control flow. Each begin* creates the op in the current block
  // and returns it; the caller pushes its regions (pushBlock) to fill them
  // and ends each with yield().
  ir::Op *beginFor(ir::Value *lo, ir::Value *hi, ir::Value *step, const std::vector<ir::Value *> &inits,
                   const ir::Location &loc);
  ir::Op *beginIf(ir::Value *cond, const ir::Location &loc);
  ir::Op *beginWhile(const std::vector<ir::Value *> &inits, const ir::Location &loc);
  /// reduce or scan (`kind`) of `tiles` (one tile, or several of one shape
  /// combined together) along `axis` (or over every axis, as reduce() takes
  /// it), combined by region 0, which the caller fills from the user's
  /// combine function and yields; then endCombine gives a value per tile.
  ir::Op *beginCombine(ir::OpKind kind, const std::vector<ir::Value *> &tiles, int axis, const ir::Location &loc);
  std::vector<ir::Value *> endCombine(ir::Op *op, bool keepDims, const ir::Location &loc);
  /// Appends a yield of `values` to region `index` of `op`, checked against
  /// what that region must yield; `what` names the yielding code in messages
  /// ("the for_range body", "if_else branches", "the combine function"). For `if`, the then region's
  /// yield decides the results and the else region's must match it; the
  /// results exist after the else yield.
  void yield(ir::Op *op, int index, const std::vector<ir::Value *> &values, const ir::Location &loc,
             std::string_view what);

  /// Ends the body with return and verifies; a verifier failure is a bug in
  /// the front end, reported as an internal error.
  void finish();

  /// Throws a KernelError at `loc`.
  [[noreturn]] static void fail(const ir::Location &loc, std::string message);
  /// Checks that a value was assigned before `what` uses it.
  static ir::Value *use(ir::Value *v, const ir::Location &loc, std::string_view what);
  /// A value given where a scalar variable is declared or assigned (`f32 m =
  /// max(x, 0)`): a 0-d tile is that scalar; a tile with a shape is refused.
  static ir::Value *scalar(ir::Value *v, const ir::Location &loc);

private:
  template <class F> auto at(const ir::Location &loc, F &&build);
  /// Refuses a value defined in a region that is no longer open (a lambda
  /// assigned it to a variable of the kernel's): it does not exist here.
  /// `also`: a block that counts as open.
  void visible(const std::vector<ir::Value *> &values, const ir::Location &loc, const ir::Block *also = nullptr) const;
  std::vector<ir::Value *> broadcastAll(std::vector<ir::Value *> vs, const ir::Location &loc, std::string_view what);
  /// Two numeric operands of an operator (`k`: its kind, `what`: its name),
  /// cast to the element type they compute in (twintile/promote.h).
  std::pair<ir::Value *, ir::Value *> promote(ir::Value *a, ir::Value *b, ir::OpKind k, const ir::Location &loc,
                                              std::string_view what);
  /// A value stored through (or loaded as `other` from) a pointer to `pointee`,
  /// cast to it when it is a number of another type, as Triton's store casts.
  ir::Value *toPointee(ir::Value *v, const ir::Value *ptr, const ir::Location &loc);

  ir::Func &f_;
  std::vector<ir::Block *> blocks_;
  int64_t recorded_ = 0;  // ops recorded so far, against kMaxRecordedOps
};

/// The refusal of a for_range body that takes its index as i32, or is generic,
/// when a bound is i64 (the index is then i64), in both front ends' words.
inline constexpr std::string_view kNarrowIndex =
    "for_range's index is i64 because a bound is i64, but the body takes it as i32 (or auto, which is compiled "
    "for i32): take it as i64";

/// Ops one kernel may record: far above any real kernel (the corpus's largest
/// records a few thousand), low enough that a host loop that never ends is
/// refused at its line before it exhausts memory.
inline constexpr int64_t kMaxRecordedOps = 1 << 18;

/// The NumPy broadcast of two shapes, if they broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b);

/// Runs a builder call at `loc` in the current block; a typing error becomes
/// a KernelError there.
template <class F> auto Recorder::at(const ir::Location &loc, F &&build) {
  ir::Block &into = block();
  size_t before = into.ops.size();
  ir::Builder b(into);
  b.setLoc(loc);
  try {
    auto result = build(b);
    for (size_t i = before; i < into.ops.size(); ++i) visible(into.ops[i]->operands, loc);
    recorded_ += static_cast<int64_t>(into.ops.size() - before);
    if (recorded_ > kMaxRecordedOps)
      fail(loc, "the kernel records more than " + std::to_string(kMaxRecordedOps) +
                    " ops here: a host loop that never ends, or one unrolled too far (a device loop, for_range, "
                    "records its body once)");
    return result;
  } catch (const ir::BuildError &e) {
    throw KernelError{loc, e.what()};
  }
}

} // namespace twintile
