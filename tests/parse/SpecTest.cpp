// A --kernel value checked as text before it is pasted into generated code
// (frontends/common/Spec.h): a kernel's name and its template arguments,
// nothing that could end the code around them.
#include "frontends/common/Spec.h"

#include <catch2/catch.hpp>

using namespace twintile;

TEST_CASE("a --kernel value is a kernel's name and template arguments, nothing else", "[parse][source]") {
  CHECK(kernelName("ns::softmax< f16, 1024 >") == "softmax");
  CHECK(kernelName("copy") == "copy");
  CHECK(specProblem("softmax<f16, 1024>").empty());
  CHECK(specProblem("ns::k<(1 << 4), -2, 1'000>").empty());
  CHECK(specProblem("k<\"mean\">").empty());
  CHECK(specProblem("copy").empty());
  CHECK_FALSE(specProblem("k<256>, nullptr); __builtin_trap(); (void)(0").empty());
  CHECK_FALSE(specProblem("k<1>; int x").empty());
  CHECK_FALSE(specProblem("k<1 /* c */>").empty());
  CHECK_FALSE(specProblem("k<{1}>").empty());
  CHECK_FALSE(specProblem("::<f16>").empty());
  CHECK_FALSE(specProblem("ge::<f16,256>").empty());
  CHECK_FALSE(specProblem("k<1>>").empty());
  CHECK_FALSE(specProblem("k<R\"(x)\">").empty());
}
