// What the hybrid front end's rewrite cannot keep the meaning of is refused at
// the user's line, with why, before anything is traced; never a silently
// different program.
// RUN: not twintile compile --frontend=hybrid %s --kernel 'host_variable<64>' 2>&1 | FileCheck %s --check-prefix=HOSTVAR
// RUN: not twintile compile --frontend=hybrid %s --kernel 'host_object<64>' 2>&1 | FileCheck %s --check-prefix=HOSTOBJ
// RUN: not twintile compile --frontend=hybrid %s --kernel 'host_member<64>' 2>&1 | FileCheck %s --check-prefix=MEMBER
// RUN: not twintile compile --frontend=hybrid %s --kernel 'breaks<64>' 2>&1 | FileCheck %s --check-prefix=BREAK
// RUN: not twintile compile --frontend=hybrid %s --kernel 'jumps<64>' 2>&1 | FileCheck %s --check-prefix=GOTO
// RUN: not twintile compile --frontend=hybrid %s --kernel 'do_while<64>' 2>&1 | FileCheck %s --check-prefix=DO
// RUN: not twintile compile --frontend=hybrid %s --kernel 'in_macro<64>' 2>&1 | FileCheck %s --check-prefix=MACRO
// RUN: not twintile compile --frontend=hybrid %s --kernel 'down_loop<64>' 2>&1 | FileCheck %s --check-prefix=FORM
// RUN: not twintile compile --frontend=hybrid %s --kernel 'both_kinds<64>' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not twintile compile --frontend=hybrid %s --kernel 'index_assigned<64>' 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not twintile compile --frontend=hybrid %s --kernel 'host_variable<64>' --emit rewritten 2>&1 | FileCheck %s --check-prefix=HOSTVAR
// RUN: not twintile compile --frontend=parse %s --kernel 'host_variable<64>' --emit rewritten 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not twintile compile --frontend=hybrid %s --kernel 'lambda_outside<64>' 2>&1 | FileCheck %s --check-prefix=LAMBDA
// RUN: not twintile compile --frontend=hybrid %s --kernel 'alias<64>' 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: not twintile compile --frontend=hybrid %s --kernel 'binding<64>' 2>&1 | FileCheck %s --check-prefix=BINDING
// RUN: not twintile compile --frontend=hybrid %s --kernel 'condition_assigns<64>' 2>&1 | FileCheck %s --check-prefix=CONDITION
// RUN: not twintile compile --frontend=hybrid %s --kernel 'bound_reads_index<64>' 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: not twintile compile --frontend=hybrid %s --kernel 'shape_error<64>' 2>&1 | FileCheck %s --check-prefix=TRACED
// RUN: not twintile compile --frontend=hybrid %s --kernel 'lambda_via_helper<64>' 2>&1 | FileCheck %s --check-prefix=HELPER
// RUN: not twintile compile --frontend=hybrid %s --kernel 'counter<64>' 2>&1 | FileCheck %s --check-prefix=COUNTER
// RUN: not twintile compile --frontend=hybrid %s --kernel 'host_memory<64>' 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not twintile compile --frontend=hybrid %s --kernel 'global_state<64>' 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: not twintile compile --frontend=hybrid %s --kernel 'lambda_in_header<64>' 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not twintile compile --frontend=hybrid %s --kernel 'recursive<64>' 2>&1 | FileCheck %s --check-prefix=RECURSION
// RUN: not twintile compile --frontend=hybrid %s --kernel 'recursive_lambda<64>' 2>&1 | FileCheck %s --check-prefix=SELF
// RUN: twintile compile --frontend=hybrid %s --kernel 'recursion_in_condition<64>' -o /dev/null
#include <twintile.h>
#include <vector>
using namespace tt;

// A host counter assigned under a device condition: the rewritten program
// would assign it whichever way the device goes.
template <int B>
TT_KERNEL void host_variable(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  int taken = 0;
  if (sum(v, 0) > 0.0f) taken = 1;
  store(y + arange(0, B), v * float(taken));
}
// HOSTVAR: refusals.cpp:[[@LINE-3]]:31: error: host variable 'taken' is assigned under a device condition: its value would depend on the device, and the rewritten program would assign it whichever way the device goes; give it a device type (f32 x = 0.0f)

template <int B>
TT_KERNEL void host_object(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  std::vector<Tile<f32>> kept;
  if (sum(v, 0) > 0.0f) kept.push_back(v);
  store(y + arange(0, B), v);
}
// HOSTOBJ: refusals.cpp:[[@LINE-3]]:30: error: host object 'kept' is changed under a device condition (its method 'push_back'): the rewritten program would change it once, whichever way the device goes; change it outside the statement

struct Scaled {
  Tile<f32> value;
};

template <int B>
TT_KERNEL void host_member(Ptr<f32> x, Ptr<f32> y, i32 n) {
  Scaled s{load(x + arange(0, B))};
  if (n > 4) s.value = s.value * 2.0f;
  store(y + arange(0, B), s.value);
}
// MEMBER: refusals.cpp:[[@LINE-3]]:22: error: member 's.value' is assigned under a device condition: the hybrid front end carries variables through the combinators, not parts of an object declared outside; assign a variable of the language

// A break nested in a device if inside the loop's body (not directly in it).
template <int B>
TT_KERNEL void breaks(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  for (i32 k = 0; k < n; k += 1) {
    if (k > 3) {
      if (n > 7) break;
    }
    v = v + 1.0f;
  }
  store(y + arange(0, B), v);
}
// BREAK: refusals.cpp:[[@LINE-6]]:18: error: `break` under a device condition (the body of a device loop) is rewritten by the hybrid front end only as `if (c) { ...; break; }` directly in a device loop's body, not nested deeper or out of a host loop; the parse front end takes this one

template <int B>
TT_KERNEL void jumps(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  if (n > 2) {
    v = v * 2.0f;
    goto done;
  }
  v = v + 1.0f;
done:
  store(y + arange(0, B), v);
}
// GOTO: refusals.cpp:[[@LINE-6]]:5: error: `goto` under a device condition (a device if) cannot be rewritten into the combinators' structured control flow

template <int B>
TT_KERNEL void do_while(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  i32 k = 0;
  do {
    v = v + 1.0f;
    k = k + 1;
  } while (k < n);
  store(y + arange(0, B), v);
}
// DO: refusals.cpp:[[@LINE-6]]:3: error: a do-while loop on a device condition is not rewritten by the hybrid front end: write it as a while loop (or while_loop)

#define WHEN(c) if (c)
template <int B>
TT_KERNEL void in_macro(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  WHEN(n > 2) v = v * 2.0f;
  store(y + arange(0, B), v);
}
// MACRO: refusals.cpp:[[@LINE-3]]:3: error: native device control flow written in a macro is not rewritten by the hybrid front end: write the statement out, or use the combinators (if_else, for_range, while_loop)

template <int B>
TT_KERNEL void down_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  for (i32 k = n; k > 0; k -= 1) v = v + 1.0f;
  store(y + arange(0, B), v);
}
// FORM: refusals.cpp:[[@LINE-3]]:3: error: the hybrid front end rewrites a device loop written `for (i32 i = lo; i < hi; i += step)` (or ++i, i++): this one has another form; write it so, or as a while loop

// One text, a device condition for one caller and a host one for another.
template <class T> T bump(T v) {
  if (v > 0) v = v + 1;
  return v;
}
template <int B>
TT_KERNEL void both_kinds(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  store(y + arange(0, B), v + cast<f32>(bump(n)) + float(bump(B)));
}
// BOTH: refusals.cpp:[[@LINE-8]]:3: error: this condition is a device value in one instantiation and a host value in another: the hybrid front end rewrites the text, which serves both; split the function, or use if constexpr

template <int B>
TT_KERNEL void index_assigned(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  for (i32 k = 0; k < n; k += 1) {
    v = v + 1.0f;
    k = k + 1;
  }
  store(y + arange(0, B), v);
}
// INDEX: refusals.cpp:[[@LINE-4]]:7: error: the loop variable 'k' of a device loop is assigned in its body: the hybrid front end rewrites the loop into for_range or while_loop, which step the index themselves

// A lambda defined before the loop reads the variable the loop carries: it
// would read the value before the loop, not the iteration's.
template <int B>
TT_KERNEL void lambda_outside(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto a = load(x + arange(0, B));
  auto twice = [&] { return a * 2.0f; };
  for (i32 k = 0; k < n; k += 1) a = a + twice();
  store(y + arange(0, B), a);
}
// LAMBDA: refusals.cpp:[[@LINE-3]]:42: error: the lambda 'twice', defined outside this device statement, reads or assigns 'a' by reference, which the statement assigns: the rewrite carries the variable through the combinators, where the lambda does not see it; pass it as an argument, or define the lambda inside

// A reference to a variable the branch assigns under another name.
template <int B>
TT_KERNEL void alias(Ptr<f32> x, Ptr<f32> y, i32 n) {
  Tile<f32> a = load(x + arange(0, B)), b = a;
  Tile<f32> &r = a;
  if (n > 2) {
    r = r + 1.0f;
    b = a * 2.0f;
  }
  store(y + arange(0, B), b);
}
// ALIAS: refusals.cpp:[[@LINE-5]]:5: error: 'r' is a reference declared outside this device statement, which assigns variables it may name

template <int B>
TT_KERNEL void binding(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto [p, q] = carry(load(x + arange(0, B)), load(y + arange(0, B)));
  for (i32 k = 0; k < n; k += 1) p = p + q;
  store(y + arange(0, B), p);
}
// BINDING: refusals.cpp:[[@LINE-3]]:36: error: structured binding 'p' is assigned under a device condition

template <int B>
TT_KERNEL void condition_assigns(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  i32 k = 0;
  while ((k = k + 1) < 5) v = v + 1.0f;
  store(y + arange(0, B), v);
}
// CONDITION: refusals.cpp:[[@LINE-3]]:13: error: the condition of this device while loop assigns 'k': the hybrid front end moves it into a combinator, which evaluates it apart from the statement's other parts; assign before the statement

template <int B>
TT_KERNEL void bound_reads_index(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  for (i32 k = 1; k < n; k += k) v = v + 1.0f;
  store(y + arange(0, B), v);
}
// OWN: refusals.cpp:[[@LINE-3]]:3: error: the bound or step of this device loop reads its own variable 'k'

// An error of the traced kernel is said at the user's column, in full.
template <int B>
TT_KERNEL void shape_error(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  if (n > 2) v = v + load(x + arange(0, 2 * B));
  store(y + arange(0, B), v);
}
// TRACED: refusals.cpp:[[@LINE-3]]:22: error: shapes [64] and [128] cannot be broadcast together in '+'

// A lambda defined outside, called through a helper: what it assigns by
// reference is the outside's variable, not the loop's.
template <class F> inline void call(const F &f) { f(); }
template <int B>
TT_KERNEL void lambda_via_helper(Ptr<f32> x, Ptr<f32> y, i32 n) {
  Tile<f32> v = load(x + arange(0, B)), acc = v;
  auto bump = [&]() { acc = acc + v; };
  for (i32 k = 0; k < 3; k += 1) call(bump);
  store(y + arange(0, B), acc);
}
// HELPER: refusals.cpp:[[@LINE-3]]:39: error: the lambda 'bump', defined outside this device statement, reads or assigns 'acc' by reference, which the statement changes through the lambda

// A host object whose state a call changes (a mutable lambda, a functor).
template <int B>
TT_KERNEL void counter(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  auto next = [c = 0.0f]() mutable { c += 1.0f; return c; };
  if (program_id(0) == 1) next();
  store(y + arange(0, B), v * next());
}
// COUNTER: refusals.cpp:[[@LINE-3]]:27: error: host object 'next' is changed under a device condition (its non-const operator, or a mutable lambda's call)

inline void set_first(float *w) { w[0] = 5.0f; }
template <int B>
TT_KERNEL void host_memory(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  float w[2] = {1.0f, 2.0f};
  if (program_id(0) == 1) set_first(w);
  store(y + arange(0, B), v * w[0]);
}
// MEMORY: refusals.cpp:[[@LINE-3]]:37: error: host memory 'w' is passed to 'set_first' under a device condition

static float scale_by = 1.0f;
inline void grow() { scale_by = scale_by + 1.0f; }
template <int B>
TT_KERNEL void global_state(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  if (program_id(0) == 1) grow();
  store(y + arange(0, B), v * scale_by);
}
// GLOBAL: refusals.cpp:[[@LINE-3]]:27: error: 'grow', called under a device condition, changes 'scale_by', a variable outside any function

template <int B>
TT_KERNEL void lambda_in_header(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  for (i32 k = 0; k < [&]() { i32 m = 2; if (n > 5) m = 3; return m; }(); k += 1) v = v + 1.0f;
  store(y + arange(0, B), v);
}
// HEADER: refusals.cpp:[[@LINE-3]]:42: error: native device control flow inside the header of a device for loop (a lambda or ?: in its bound) is not rewritten

// Recursion under a device condition: both branches are traced, so the
// recursion would never end; refused before anything is traced.
inline Tile<f32> halve_until(Tile<f32> v) {
  return max(v, 0) > 1.0f ? halve_until(v * 0.5f) : v;
}
template <int B>
TT_KERNEL void recursive(Ptr<f32> x, Ptr<f32> y, i32 n) {
  store(y + arange(0, B), halve_until(load(x + arange(0, B))));
}
// RECURSION: refusals.cpp:[[@LINE-6]]:27: error: recursion under a device condition is not rewritten by the hybrid front end

// The same through a generic lambda that calls itself.
template <int B>
TT_KERNEL void recursive_lambda(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto halve = [](auto self, Tile<f32> v) -> Tile<f32> { return max(v, 0) > 1.0f ? self(self, v * 0.5f) : v; };
  store(y + arange(0, B), halve(halve, load(x + arange(0, B))));
}
// SELF: refusals.cpp:[[@LINE-3]]:82: error: recursion under a device condition is not rewritten by the hybrid front end

// Recursion in a condition, which runs once, ending on a host value: taken.
inline Tile<f32> deepen(Tile<f32> v, int depth) {
  if (depth == 0) return v;
  Tile<f32> w = v;
  if (max(deepen(v, depth - 1), 0) > 0.0f) w = w * 2.0f;
  return w;
}
template <int B>
TT_KERNEL void recursion_in_condition(Ptr<f32> x, Ptr<f32> y, i32 n) {
  store(y + arange(0, B), deepen(load(x + arange(0, B)), 3));
}

// STAGE: error: the rewritten stage is the hybrid front end's (--frontend=hybrid); the parse front end rewrites nothing
