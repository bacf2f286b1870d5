// The hybrid front end rewrites native device control flow into the
// language's combinators and traces the result: a branch that assigns two
// values, an if without else, a counted loop with an if inside it, a while
// loop, an early return, a generic lambda and a helper with device ifs of
// their own. Host control flow (the host loop, the if constexpr) is left as
// written. The rewritten file keeps the user's lines; the IR equals the parse
// front end's, the ops are located at the user's own lines and columns, and
// the emulator matches the interpreter on a ragged size.
// RUN: twintile compile --frontend=hybrid %s --kernel 'rewrites<64, 2>' --emit rewritten | FileCheck %s --check-prefix=TEXT
// RUN: twintile diff %s --kernel 'rewrites<64, 2>' --frontends parse,hybrid | FileCheck %s --check-prefix=SAME
// RUN: twintile compile --frontend=hybrid %s --kernel 'rewrites<64, 2>' --emit tile | FileCheck %s --check-prefix=LOCS
// RUN: twintile run --frontend=hybrid %s --kernel 'rewrites<64, 2>' --grid 3 --arg x=150 --arg y=150 --arg n=150 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=hybrid %s --kernel 'rewrites<32, 1>' --target sm_80 --grid 5 --arg x=150 --arg y=150 --arg n=150 | FileCheck %s --check-prefix=RAN
// RUN: twintile diff %s --kernel 'rewrites<32, 1>' --frontends parse,hybrid | FileCheck %s --check-prefix=SAME
// RUN: twintile compile --frontend=hybrid %s --kernel 'early_exit<64>' --emit rewritten | FileCheck %s --check-prefix=EARLY
// RUN: twintile run --frontend=hybrid %s --kernel 'early_exit<64>' --grid 4 --arg x=250 --arg y=250 --arg n=250 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=hybrid %s --kernel 'skips<64>' --emit rewritten | FileCheck %s --check-prefix=SKIP
// RUN: twintile run --frontend=hybrid %s --kernel 'skips<64>' --grid 2 --arg x=100 --arg y=100 --arg n=100 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=hybrid %s --kernel 'skips<32>' --target sm_80 --num-warps 8 --grid 4 --arg x=100 --arg y=100 --arg n=100 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=hybrid %s --kernel 'breaks<64>' --emit rewritten | FileCheck %s --check-prefix=BREAK
// RUN: twintile run --frontend=hybrid %s --kernel 'breaks<64>' --grid 2 --arg x=100 --arg y=100 --arg n=100 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=hybrid %s --kernel 'breaks<32>' --target sm_80 --grid 4 --arg x=100 --arg y=100 --arg n=37 | FileCheck %s --check-prefix=RAN
// RUN: rm -rf %t.hybrid %t.parse
// RUN: twintile run --frontend=hybrid --device interp %s --kernel 'breaks<64>' --grid 2 --arg x=100 --arg y=100 --arg n=100 --save %t.hybrid
// RUN: twintile run --frontend=parse --device interp %s --kernel 'breaks<64>' --grid 2 --arg x=100 --arg y=100 --arg n=100 --save %t.parse
// RUN: cmp %t.hybrid/y.out.npy %t.parse/y.out.npy
// RUN: twintile run --frontend=hybrid %s --kernel 'forms<64>' --grid 2 --arg x=100 --arg y=100 --arg n=100 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=hybrid %s --kernel 'forms<64>' --emit rewritten | FileCheck %s --check-prefix=FORMS
// RUN: twintile diff %s --kernel 'wide<64>' --frontends parse,hybrid | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=hybrid %s --kernel 'wide<64>' --grid 2 --arg x=100 --arg y=100 --arg n=100 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=hybrid %s --kernel 'wide<64>' --emit rewritten | FileCheck %s --check-prefix=WIDE
#include <twintile.h>
using namespace tt;

// A helper with a device if of its own: rewritten where it is written.
inline Tile<f32> clip(Tile<f32> v, f32 limit) {
  if (max(v, 0) > limit) v = minimum(v, limit);
  return v;
}

template <int BLOCK, int ROUNDS>
TT_KERNEL void rewrites(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto s = sum(v, 0);
  Tile<f32> a = v, b = v;
  if (s > 0.0f) {
    a = v * 2.0f;
    b = v + 1.0f;
  } else {
    a = v - 1.0f;
  }
  if (program_id(0) == 1) b = b * 3.0f;
  i32 k = 0;
  while (k < 3) {
    a = a + 0.5f;
    k = k + 1;
  }
  for (int r = 0; r < ROUNDS; ++r) {  // a host loop: unrolled, as written
    for (i32 j = 0; j < n; j += 64) {
      if (j > 64) b = b * 0.5f;
      a = a + b;
    }
  }
  auto twice = [&](auto t) {
    if (sum(t, 0) < 0.0f) t = t * 2.0f;
    return t;
  };
  a = twice(a);
  if constexpr (BLOCK > 32) a = clip(a, f32(1000.0f));
  store(y + offs, a + b, offs < n);
}

// An early return: the rest of the body becomes the other branch (the parse
// front end carries a flag instead: the same results, other IR).
template <int BLOCK>
TT_KERNEL void early_exit(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if (program_id(0) == 2) {
    store(y + offs, v, offs < n);
    return;
  }
  if (sum(v, 0) > 100.0f) return;
  store(y + offs, v * 2.0f, offs < n);
}

// TEXT: #line 1 "{{.*}}rewrites.cpp"
// TEXT: v = ::tt::if_else(max(v, 0) > limit, [&, v = v]() mutable { v = minimum(v, limit); return ::tt::carry(v); }, [&, v = v]() mutable { return ::tt::carry(v); });
// The rewritten text, line for line:
// TEXT:       { auto [[R0:tt_hybrid_[0-9]+]] = ::tt::if_else(s > 0.0f, [&, a = a, b = b]() mutable {
// TEXT-NEXT:    a = v * 2.0f;
// TEXT-NEXT:    b = v + 1.0f;
// TEXT-NEXT:   return ::tt::carry(a, b); } , [&, a = a, b = b]() mutable {
// TEXT-NEXT:    a = v - 1.0f;
// TEXT-NEXT:   return ::tt::carry(a, b); }); a = [[R0]].a; b = [[R0]].b; }
// TEXT-NEXT:  b = ::tt::if_else(program_id(0) == 1, [&, b = b]() mutable { b = b * 3.0f; return ::tt::carry(b); }, [&, b = b]() mutable { return ::tt::carry(b); });
// TEXT-NEXT:  i32 k = 0;
// TEXT-NEXT:  { auto [[R1:tt_hybrid_[0-9]+]] = ::tt::while_loop([&](auto a, auto k) { return (k < 3); }, [&](auto a, auto k) {
// TEXT-NEXT:    a = a + 0.5f;
// TEXT-NEXT:    k = k + 1;
// TEXT-NEXT:   return ::tt::carry(a, k); }, a, k); a = [[R1]].a; k = [[R1]].b; }
// TEXT-NEXT:  for (int r = 0; r < ROUNDS; ++r) {  // a host loop: unrolled, as written
// A loop carries its variables in the order its body first assigns them, as the parse front end does:
// TEXT-NEXT:    { auto [[R2:tt_hybrid_[0-9]+]] = ::tt::for_range(0, n, 64, b, a, [&](auto j, auto b, auto a) {
// TEXT-NEXT:      b = ::tt::if_else(j > 64, [&, b = b]() mutable { b = b * 0.5f; return ::tt::carry(b); }, [&, b = b]() mutable { return ::tt::carry(b); });
// TEXT-NEXT:      a = a + b;
// TEXT-NEXT:     return ::tt::carry(b, a); }); b = [[R2]].a; a = [[R2]].b; }
// TEXT-NEXT:  }
// TEXT:         t = ::tt::if_else(sum(t, 0) < 0.0f, [&, t = t]() mutable { t = t * 2.0f; return ::tt::carry(t); }, [&, t = t]() mutable { return ::tt::carry(t); });
// TEXT:       if constexpr (BLOCK > 32) a = clip(a, f32(1000.0f));
// TEXT-NEXT:  store(y + offs, a + b, offs < n);
// TEXT-NEXT: }

// EARLY:      ::tt::if_else(program_id(0) == 2, [&]() {
// EARLY-NEXT:   store(y + offs, v, offs < n);
// EARLY-NEXT:   return;
// EARLY-NEXT: }, [&]() {
// EARLY-NEXT: ::tt::if_else(sum(v, 0) > 100.0f, [&]() { return; }, [&]() {
// EARLY-NEXT:   store(y + offs, v * 2.0f, offs < n);
// EARLY-NEXT: });});}

// A continue at the top of a device loop's body: the rest of the iteration
// is the other branch, and the branch returns what the loop carries. A
// helper called only from a condition is rewritten too, and so is a ?:.
inline i1 large(Tile<f32> v, f32 limit) {
  f32 s = sum(v, 0);
  if (s < 0.0f) s = 0.0f - s;
  return s > limit;
}

template <int BLOCK>
TT_KERNEL void skips(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f), acc = zeros<f32>({BLOCK});
  for (i32 k = 0; k < 6; k += 1) {
    auto step = v * 0.5f;
    if (k == 2) {
      acc = acc - step;
      continue;
    }
    if (large(acc, f32(50.0f))) continue;
    acc = acc + step;
  }
  f32 scale = sum(acc, 0) > 0.0f ? f32(2.0f) : f32(0.5f);
  store(y + offs, acc * scale, offs < n);
}

// Breaks and continues at the top of device loops' bodies, mixed: a loop that
// breaks carries a flag, set by the break's branch and carried by every early
// exit's; the loop's condition tests it (a for loop that breaks is a while
// loop). The parse front end computes the same.
template <int B>
TT_KERNEL void breaks(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto v = load(x + offs, offs < n, 0.0f), acc = zeros<f32>({B});
  for (i32 k = 0; k < 20; k += 1) {
    if (k == 1) continue;
    acc = acc + v;
    if (sum(acc, 0) > 40.0f) {
      acc = acc * 0.5f;
      break;
    }
    int unused = 0;  // a host variable of the body's own
    if (k == 3) continue;
    acc = acc + 1.0f;
  }
  i32 j = 0;
  while (j < n) {
    j = j + 7;
    if (j > 30) break;
    acc = acc - 0.25f;
  }
  store(y + offs, acc, offs < n);
}

// A for loop that breaks is a while loop (as the parse front end makes it): its index declared
// before it and carried after what the body assigns, the flag in its condition, the index
// stepped at the body's end where no break was taken.
// BREAK:      { ::tt::i32 k = 0; ::tt::i1 [[F:tt_broken_[0-9]+]] = false; { auto [[L:tt_hybrid_[0-9]+]] = ::tt::while_loop([&](auto acc, auto k, auto [[F]]) { return (k < 20) && ![[F]]; }, [&](auto acc, auto k, auto [[F]]) {
// BREAK:      acc = acc * 0.5f;
// BREAK-NEXT: [[F]] = true; return ::tt::carry(acc, [[F]]);
// BREAK:      }} k = ::tt::if_else(![[F]], [&, k = k]() mutable { k = k + (1); return ::tt::carry(k); }, [&, k = k]() mutable { return ::tt::carry(k); }); return ::tt::carry(acc, k, [[F]]); }, acc, k, [[F]]); acc = [[L]].a; k = [[L]].b; [[F]] = [[L]].c; } }
// BREAK:      { ::tt::i1 [[W:tt_broken_[0-9]+]] = false; { auto {{tt_hybrid_[0-9]+}} = ::tt::while_loop([&](auto j, auto acc, auto [[W]]) { return (j < n) && ![[W]]; }

// Forms the rewrite follows: an index initialized in parentheses, a
// reference of the loop body's own (what it names is carried), a ?: of host
// numbers (each operand becomes the language's scalar), and an early return
// whose rest calls a lambda that captures by reference (the rest runs on the
// variables themselves).
template <int B>
TT_KERNEL void forms(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto v = load(x + offs, offs < n, 0.0f);
  Tile<f32> acc = v, out = zeros<f32>({B});
  for (i32 k(1); k < 4; k += 1) {
    Tile<f32> &r = acc;
    r = r + v;
    out = out + acc;
  }
  f32 w = program_id(0) == 1 ? 2.0f : 3.0f;
  auto add = [&](Tile<f32> t) { out = out + t; };
  if (program_id(0) == 5) {
    out = out * 0.0f;
    store(y + offs, out, offs < n);
    return;
  }
  add(v * w);
  store(y + offs, out, offs < n);
}

// FORMS:      { auto {{tt_hybrid_[0-9]+}} = ::tt::for_range(1, 4, 1, acc, out, [&](auto k, auto acc, auto out) {
// FORMS:      f32 w = ::tt::if_else(program_id(0) == 1 , [&]() { return ::tt::f32( 2.0f ); }, [&]() { return ::tt::f32( 3.0f); });
// FORMS:      ::tt::if_else(program_id(0) == 5, [&, out = out]() mutable {
// FORMS:      }, [&]() {

// An i64 index (a 64-bit bound): the body's parameters typed, as for_range
// compiles a generic body for an i32 index only; a number tested as a
// condition (Triton's `if x:`) is `x != 0`.
template <int B>
TT_KERNEL void wide(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto v = load(x + offs, offs < n, 0.0f), acc = zeros<f32>({B});
  i64 total = cast<i64>(n) * 2;
  for (i64 k = 0; k < total; k += 50) acc = acc + v * cast<f32>(k % 3);
  i32 rest = n % 7;
  if (rest) acc = acc * 2.0f;
  store(y + offs, acc, offs < n);
}

// WIDE:      acc = ::tt::for_range(::tt::i64(0), total, ::tt::i64(50), acc, [&](::tt::i64 k, ::tt::detail::Plain<decltype(acc)> acc) { acc = acc + v * cast<f32>(k % 3); return ::tt::carry(acc); });
// WIDE:      acc = ::tt::if_else((rest) != 0, [&, acc = acc]() mutable { acc = acc * 2.0f; return ::tt::carry(acc); }, [&, acc = acc]() mutable { return ::tt::carry(acc); });

// SKIP:      s = ::tt::if_else(s < 0.0f, [&, s = s]() mutable { s = 0.0f - s; return ::tt::carry(s); }, [&, s = s]() mutable { return ::tt::carry(s); });
// SKIP:      acc = ::tt::for_range(0, 6, 1, acc, [&](auto k, auto acc) {
// SKIP-NEXT:   auto step = v * 0.5f;
// SKIP-NEXT:   acc = ::tt::if_else(k == 2, [&, acc = acc]() mutable {
// SKIP-NEXT:     acc = acc - step;
// SKIP-NEXT:     return ::tt::carry(acc);
// SKIP-NEXT:   }, [&]() {
// SKIP-NEXT:   acc = ::tt::if_else(large(acc, f32(50.0f)), [&]() { return ::tt::carry(acc); }, [&]() {
// SKIP-NEXT:   acc = acc + step;
// SKIP-NEXT:  return ::tt::carry(acc); }); return ::tt::carry(acc); }); return ::tt::carry(acc); });
// A ?: on a device condition: each operand a branch.
// SKIP-NEXT:  f32 scale = ::tt::if_else(sum(acc, 0) > 0.0f , [&]() { return f32(2.0f) ; }, [&]() { return f32(0.5f); });

// SAME: equal: the parse and hybrid IR of {{(rewrites|wide)}}<{{.*}}> are structurally identical

// The ops are at the user's lines and columns, not the rewritten file's
// (the tracer places a binary op at its second operand).
// LOCS: gt {{.*}}rewrites.cpp":47:11)
// LOCS: mul {{.*}}rewrites.cpp":48:13)
// LOCS: gt {{.*}}rewrites.cpp":61:15)
// LOCS: mul {{.*}}rewrites.cpp":61:27)
// LOCS: } loc({{.*}}rewrites.cpp":61:11)

// RAN: ok: {{rewrites|early_exit|skips|breaks|forms|wide}} on emu, {{.*}}: matches the interpreter
