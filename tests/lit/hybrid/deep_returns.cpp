// Early returns one level into the kernel's own body: directly in the body of
// a device for loop that also breaks and continues, of a device while loop,
// in a block, and in the branches of an if constexpr and of a host if. Each
// sets the kernel's return flag, which the statement holding it carries
// out; what follows that statement runs unless the flag is set. Every
// program takes another way out (grid 6), and the hybrid's stores equal the
// parse front end's in the interpreter; the emulator matches the interpreter
// on both targets.
// RUN: twintile compile --frontend=hybrid %s --kernel 'deep_returns<64>' --emit rewritten | FileCheck %s --check-prefix=TEXT
// RUN: twintile run --frontend=hybrid %s --kernel 'deep_returns<64>' --grid 6 --arg x=350 --arg y=350 --arg n=350 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=hybrid %s --kernel 'deep_returns<32>' --target sm_80 --grid 6 --arg x=350 --arg y=350 --arg n=350 | FileCheck %s --check-prefix=RAN
// RUN: rm -rf %t.hybrid %t.parse %t.hybrid32 %t.parse32
// RUN: twintile run --frontend=hybrid --device interp %s --kernel 'deep_returns<64>' --grid 6 --arg x=350 --arg y=350 --arg n=350 --save %t.hybrid
// RUN: twintile run --frontend=parse --device interp %s --kernel 'deep_returns<64>' --grid 6 --arg x=350 --arg y=350 --arg n=350 --save %t.parse
// RUN: cmp %t.hybrid/y.out.npy %t.parse/y.out.npy
// RUN: twintile run --frontend=hybrid --device interp %s --kernel 'deep_returns<32>' --grid 6 --arg x=350 --arg y=350 --arg n=350 --save %t.hybrid32
// RUN: twintile run --frontend=parse --device interp %s --kernel 'deep_returns<32>' --grid 6 --arg x=350 --arg y=350 --arg n=350 --save %t.parse32
// RUN: cmp %t.hybrid32/y.out.npy %t.parse32/y.out.npy
// RUN: rm -rf %t.shapes.hybrid* %t.shapes.parse*
// RUN: twintile compile --frontend=hybrid %s --kernel 'return_shapes<64>' --emit rewritten | FileCheck %s --check-prefix=SHAPES
// RUN: twintile run --frontend=hybrid %s --kernel 'return_shapes<32>' --grid 6 --arg x=350 --arg y=350 --arg n=350 | FileCheck %s --check-prefix=RAN
// RUN: for B in 64 32 16; do twintile run --frontend=hybrid --device interp %s --kernel "return_shapes<$B>" --grid 6 --arg x=350 --arg y=350 --arg n=350 --save %t.shapes.hybrid$B && twintile run --frontend=parse --device interp %s --kernel "return_shapes<$B>" --grid 6 --arg x=350 --arg y=350 --arg n=350 --save %t.shapes.parse$B && cmp %t.shapes.hybrid$B/y.out.npy %t.shapes.parse$B/y.out.npy || exit 1; done
// RUN: not twintile compile --frontend=hybrid %s --kernel 'nested_loop<64>' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not twintile compile --frontend=hybrid %s --kernel 'return_after<64>' 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: not twintile compile --frontend=hybrid %s --kernel 'nested_block<64>' 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not twintile compile --frontend=hybrid %s --kernel 'in_device_if<64>' 2>&1 | FileCheck %s --check-prefix=IF
// RUN: not twintile compile --frontend=hybrid %s --kernel 'in_host_loop<64>' 2>&1 | FileCheck %s --check-prefix=HOSTLOOP
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void deep_returns(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f);
  i32 pid = program_id(0);
  for (i32 k = 0; k < n; k += 1) {
    if (k == pid + 5) break;
    v = v + 1.0f;
    if (k == 1) continue;
    if (pid == 5) {
      store(y + offs, v, mask);
      return;
    }
    v = v * 0.5f;
  }
  i32 j = 0;
  while (j < 4) {
    j = j + 1;
    if (pid == 4 && j == 3) {
      store(y + offs, v + 100.0f, mask);
      return;
    }
  }
  {
    if (pid == 3) {
      store(y + offs, v - 100.0f, mask);
      return;
    }
    v = v + cast<f32>(j);
  }
  if constexpr (B > 16) {
    if (pid == 2) return;
  }
  if (B == 64) {
    if (pid == 1) {
      store(y + offs, v * 3.0f, mask);
      return;
    }
    v = v * 2.0f;
  } else {
    v = v * 4.0f;
  }
  store(y + offs, v, mask);
}

// The loop's own flag and the kernel's return flag, both carried; a return
// sets both (a for loop that breaks or returns is a while loop, which ends there). The guard
// declares the flag before the loop and tests it after.
// TEXT:      ::tt::i1 tt_returned_[[LOOP:[0-9]+]] = false; { ::tt::i32 k = 0; ::tt::i1 tt_broken_[[LOOP]] = false; { auto tt_hybrid_{{[0-9]+}} = ::tt::while_loop([&](auto v, auto k, auto tt_broken_[[LOOP]], auto tt_returned_[[LOOP]]) { return (k < n) && !tt_broken_[[LOOP]]; },
// TEXT:      tt_broken_[[LOOP]] = true; tt_returned_[[LOOP]] = true; return ::tt::carry(v, tt_broken_[[LOOP]], tt_returned_[[LOOP]]);
// TEXT:      ::tt::if_else(tt_returned_[[LOOP]], [&]() {}, [&]() {
// A while loop that only returns: the return flag is its flag.
// TEXT:      ::tt::i1 tt_returned_[[WHILE:[0-9]+]] = false; { auto tt_hybrid_{{[0-9]+}} = ::tt::while_loop({{.*}}) && !tt_returned_[[WHILE]]; }
// TEXT:      tt_returned_[[WHILE]] = true; return ::tt::carry(tt_returned_[[WHILE]]);
// TEXT:      ::tt::if_else(tt_returned_[[WHILE]], [&]() {}, [&]() {
// In a block: the rest of the block is the other branch, and what it
// assigns outside it comes out with the flag.
// TEXT:      ::tt::i1 tt_returned_[[BLK:[0-9]+]] = false; {
// TEXT-NEXT:   { auto tt_hybrid_{{[0-9]+}} = ::tt::if_else(pid == 3, [&, tt_returned_[[BLK]] = tt_returned_[[BLK]]]() mutable {
// TEXT:      tt_returned_[[BLK]] = true; return ::tt::carry(v, tt_returned_[[BLK]]);
// TEXT:      ::tt::if_else(tt_returned_[[BLK]], [&]() {}, [&]() {
// TEXT:      ::tt::i1 tt_returned_[[CONSTEXPR:[0-9]+]] = false; if constexpr (B > 16) {
// TEXT:      ::tt::i1 tt_returned_[[HOST:[0-9]+]] = false; if (B == 64) {
// TEXT:      });});});});});}

// RAN: ok: {{deep_returns|return_shapes}} on emu, {{.*}}: matches the interpreter

// A host branch that ends in `return;` after an early return (the return
// sets the flag), an if constexpr whose discarded branch has no braces, and
// a holder that ends the kernel's body, its `}` touching the kernel's (no
// guard: nothing follows it).
template <int B>
TT_KERNEL void return_shapes(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f);
  i32 pid = program_id(0);
  if constexpr (B > 16) {
    if (pid == 4) return;
  } else v = v + 1.0f;
  if (B == 64) {
    if (pid == 1) {
      store(y + offs, v * 3.0f, mask);
      return;
    }
    store(y + offs, v * 2.0f, mask);
    return;
  }
  for (i32 k = 0; k < n; k += 1) {
    if (k == pid) return;
    store(y + offs, v + cast<f32>(k), mask);
  }}
// SHAPES:      } else v = v + 1.0f; ::tt::if_else(tt_returned_{{[0-9]+}}, [&]() {}, [&]() {
// SHAPES:      store(y + offs, v * 2.0f, mask);
// SHAPES-NEXT: tt_returned_[[HOST:[0-9]+]] = true;
// SHAPES:      ::tt::if_else(tt_returned_[[HOST]], [&]() {}, [&]() {
// SHAPES:      ::tt::i1 tt_returned_[[LOOP:[0-9]+]] = false; { ::tt::i32 k = 0; { auto {{tt_hybrid_[0-9]+}} = ::tt::while_loop(
// SHAPES-NOT:  ::tt::if_else(tt_returned_[[LOOP]], [&]() {}
// SHAPES:      tt_returned_[[LOOP]] = {{tt_hybrid_[0-9]+}}.b; } }});});}

// Another return after an early return in a block is refused at its line.
template <int B>
TT_KERNEL void return_after(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  {
    if (program_id(0) == 1) return;
    v = v + 1.0f;
    if constexpr (B == 64) return;
  }
  store(y + arange(0, B), v);
}
// AFTER: deep_returns.cpp:[[@LINE-4]]:28: error: `return` under a device condition (after an early return in this block, inside what the rewrite makes its rest) is not rewritten

// A return two loops in is not carried out.
template <int B>
TT_KERNEL void nested_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  for (i32 k = 0; k < n; k += 1) {
    for (i32 j = 0; j < k; j += 1) {
      if (j > 2) return;
    }
  }
  store(y + arange(0, B), v);
}
// NESTED: deep_returns.cpp:[[@LINE-5]]:18: error: `return` under a device condition (the body of a device loop) is not rewritten by the hybrid front end: it rewrites `if (c) { ...; return; }` in the kernel's own body, in a block or a host if's braced branch there, or directly in the body of a device loop there, and no deeper (nor in a helper); the parse front end takes this one

// Nor one two blocks in.
template <int B>
TT_KERNEL void nested_block(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  { { if (program_id(0) == 0) return; } }
  store(y + arange(0, B), v);
}
// BLOCK: deep_returns.cpp:[[@LINE-3]]:31: error: `return` under a device condition (a device if) is not rewritten by the hybrid front end

// Nor one in a device if's branch.
template <int B>
TT_KERNEL void in_device_if(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  if (n > 4) {
    if (program_id(0) == 0) return;
    v = v + 1.0f;
  }
  store(y + arange(0, B), v);
}
// IF: deep_returns.cpp:[[@LINE-5]]:29: error: `return` under a device condition (a device if) is not rewritten by the hybrid front end

// Nor one in a host loop's body, whose later iterations would run.
template <int B>
TT_KERNEL void in_host_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto v = load(x + arange(0, B));
  for (int k = 0; k < 3; ++k) {
    if (program_id(0) == k) return;
    v = v + 1.0f;
  }
  store(y + arange(0, B), v);
}
// HOSTLOOP: deep_returns.cpp:[[@LINE-5]]:29: error: `return` under a device condition (a device if) is not rewritten by the hybrid front end
