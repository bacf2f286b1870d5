#include "runtime/HalfTypes.h"

#include "runtime/PtxFloat.h"

namespace twintile::runtime {

f16 f16::of(float x) { return {ptx::toF16(x)}; }
float f16::value() const { return static_cast<float>(ptx::fromF16(bits)); }
bf16 bf16::of(float x) { return {ptx::toBF16(x)}; }
float bf16::value() const { return static_cast<float>(ptx::fromBF16(bits)); }

} // namespace twintile::runtime
