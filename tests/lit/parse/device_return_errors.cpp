// What the parsing front end refuses about returns under device conditions,
// each at the return (or the helper's end) with what to write instead.
// RUN: not twintile compile --frontend=parse %s --kernel 'host_value<64>' 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not twintile compile --frontend=parse %s --kernel 'tile_from_loop<64>' 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not twintile compile --frontend=parse %s --kernel 'falls_off<64>' 2>&1 | FileCheck %s --check-prefix=END
#include <twintile.h>
using namespace tt;

// A host value that depends on a device condition.
inline int pick(i32 k) {
  if (k > 2) return 1;
  return 2;
}

template <int B>
TT_KERNEL void host_value(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs) * float(pick(n)));
}

// HOST: device_return_errors.cpp:11:14: error: 'pick' returns a host value ('int') under a device condition: the value would be known only on the device (return a device value, or compute the host value before the condition)
// HOST: in call from {{.*}}device_return_errors.cpp:18:42

// A tile returned from inside a device loop, with no return before it.
inline Tile<f32> grow(Tile<f32> v, i32 n) {
  for (i32 k = 0; k < n; k += 1) {
    v = v + 1.0f;
    if (k > 3) return v;
  }
  return v;
}

template <int B>
TT_KERNEL void tile_from_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = arange(0, B);
  store(y + offs, grow(load(x + offs), n));
}

// LOOP: device_return_errors.cpp:26:3: error: 'grow' returns a tile from inside this device loop and nowhere before it: its shape is not known when the loop starts; assign the result to a variable declared before the loop, break, and return the variable after the loop
// LOOP: in call from {{.*}}device_return_errors.cpp:36:19

// A helper that returns under a device condition and otherwise falls off its end.
inline Tile<f32> positive(Tile<f32> v) {
  if (sum(v, 0) > 0.0f) return v;
}

template <int B>
TT_KERNEL void falls_off(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = arange(0, B);
  store(y + offs, positive(load(x + offs)));
}

// END: device_return_errors.cpp:45:1: error: 'positive' reaches the end of its body without returning its Tile<f32> (a function that returns a value must return it on every path)
// END: in call from {{.*}}device_return_errors.cpp:50:19

// A method that sets a host field of its object after a return under a
// device condition: whether the field changed would be known only on the
// device.
// RUN: not twintile compile --frontend=parse %s --kernel 'host_field<64>' 2>&1 | FileCheck %s --check-prefix=FIELD
struct Scale {
  float factor = 1;
  void maybeDouble(i32 k) {
    if (k > 2) return;
    factor = 2;
  }
};

template <int B>
TT_KERNEL void host_field(Ptr<f32> x, Ptr<f32> y, i32 n) {
  Scale s;
  s.maybeDouble(n);
  auto offs = arange(0, B);
  store(y + offs, load(x + offs) * s.factor);
}

// FIELD: device_return_errors.cpp:64:5: error: host variable 'this->factor' is assigned under a device condition (after a return, break or continue under one, what follows runs only where it was not taken); only device variables can be
// FIELD-NEXT: factor = 2;
