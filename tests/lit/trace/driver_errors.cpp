// Errors of the trace driver: a specialization whose template arguments do not
// fit, or a kernel the file does not define, is said in those words (as the
// parse front end says it), not as a compiler error inside generated code; a
// missing file and an unknown front end are named.
// RUN: not twintile compile --frontend=trace %s --kernel 'twice<f16>' 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not twintile compile --frontend=parse %s --kernel 'twice<f16>' 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not twintile compile --frontend=trace %s --kernel 'thrice<8>' 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// A --kernel that would end the code it is pasted into is refused before any is generated (it ran as host code).
// RUN: not twintile compile --frontend=trace %s --kernel 'twice<8>, nullptr, "x", nullptr); __builtin_trap(); (void)(0' 2>&1 | FileCheck %s --check-prefix=INJECT --implicit-check-not=internal
// RUN: not twintile compile --frontend=parse %s --kernel 'twice<8>, nullptr, "x", nullptr); __builtin_trap(); (void)(0' 2>&1 | FileCheck %s --check-prefix=INJECT --implicit-check-not=internal
// RUN: not twintile compile --frontend=trace %s --kernel 'twice<8>(0), twice<8>' 2>&1 | FileCheck %s --check-prefix=CLOSES
// RUN: not twintile compile --frontend=trace %s --kernel 'ge::<f16,256>' 2>&1 | FileCheck %s --check-prefix=NONAME
// A ' is read only as a digit separator (a scanner that took it for a character literal skipped the code between two).
// RUN: not twintile compile --frontend=trace %s --kernel "twice<2'56>, options, 0, result); __builtin_trap(); (void)(&twice<0'0>" 2>&1 | FileCheck %s --check-prefix=SEPARATED --implicit-check-not=internal
// RUN: twintile compile --frontend=trace %s --kernel "twice<1'024>" | FileCheck %s --check-prefix=SEPARATOR
// '<=' and '>=' were brackets to the count and operators to C++: the list ended early, and the rest ran.
// RUN: not twintile compile --frontend=trace %s --kernel 'twice<0<=1> ? (__builtin_trap(), &twice<8>) : &twice<8 >= 0>' 2>&1 | FileCheck %s --check-prefix=COMPARE --implicit-check-not=internal
// RUN: twintile compile --frontend=trace %s --kernel 'twice<(1<<3)>' | FileCheck %s --check-prefix=SEPARATOR
// RUN: not twintile compile --frontend=parse %s --kernel 'thrice<8>' 2>&1 | FileCheck %s --check-prefix=NOKERNEL
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

// SPEC: twintile: error: --kernel 'twice<f16>' is not a specialization of a kernel in {{.*}}driver_errors.cpp: its template arguments do not fit the kernel's template parameters
// SPEC-NOT: __twintile_spec
// SPEC-NOT: entry.cpp
// NOKERNEL: twintile: error: --kernel 'thrice<8>': {{.*}}driver_errors.cpp defines no kernel 'thrice' (its kernels: 'twice')
// MISSING: error: cannot read kernel file '{{.*}}driver_errors.cpp.missing'
// FRONTEND: --frontend: magic not in {trace,parse,hybrid}
// TIME: host-compile:
// TIME: trace:
// INJECT: twintile: error: --kernel 'twice<8>, nullptr, "x", nullptr); __builtin_trap(); (void)(0' is not a specialization: a specialization ends with the '>' that closes its template arguments
// CLOSES: twintile: error: --kernel 'twice<8>(0), twice<8>' is not a specialization: its template arguments close before the end of the specialization
// NONAME: twintile: error: --kernel 'ge::<f16,256>' is not a specialization: a specialization starts with a kernel's name (a C++ identifier, qualified or not)
// SEPARATED: twintile: error: --kernel '{{.*}}' is not a specialization: its template arguments close before the end of the specialization
// SEPARATOR: func @twice(
// COMPARE: twintile: error: --kernel '{{.*}}' is not a specialization: a comparison, shift or '->' in a template argument goes in parentheses
