// Errors of the trace driver: a specialization that does not compile passes the
// compiler's own message through; a missing file and an unknown front end are named.
// RUN: not twintile compile --frontend=trace %s --kernel 'twice<f16>' 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not twintile compile --frontend=trace %s.missing --kernel 'twice<8>' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not twintile compile --frontend=magic %s --kernel 'twice<8>' 2>&1 | FileCheck %s --check-prefix=FRONTEND
// RUN: twintile compile --frontend=trace %s --kernel 'twice<8>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME
#include <twintile.h>
using namespace tt;

template <int N>
TT_KERNEL void twice(Ptr<i32> x) {
  auto offs = arange(0, N);
  store(x + offs, load(x + offs) * 2);
}

// SPEC: error: the kernel file does not compile for 'twice<f16>':
// SPEC: error:
// MISSING: error: cannot read kernel file '{{.*}}driver_errors.cpp.missing'
// FRONTEND: --frontend: magic not in {trace,parse}
// TIME: host-compile:
// TIME: trace:
