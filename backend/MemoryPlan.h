//===- MemoryPlan.h - shared memory and barriers, planned before lowering -===//
//
// One walk over the function in lowering's order makes two plans, the second
// from the first: the shared-memory buffers (SharedPlan.h, the
// `shared` stage) and the barriers (BarrierPlan.h, the `barriers` stage).
// It follows lowering's choices op by op: which uses convert a tile through
// shared memory (and which reuse an earlier conversion), which loads a
// pipeline copies ahead, what each op's window holds.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/AxisInfo.h"
#include "backend/BarrierPlan.h"
#include "backend/Layout.h"
#include "backend/PipelinePlan.h"
#include "backend/SharedPlan.h"
#include "backend/TmaStores.h"
#include "ir/IR.h"

#include <string>

namespace twintile::backend {

struct MemoryPlan {
  SharedPlan shared;
  BarrierPlan barriers;
};

/// Plans the shared memory and barriers of `func`, whose loops are pipelined
/// as `pipelines` says and whose descriptor stores TMA writes as `stores`
/// says, for target `arch`.
MemoryPlan planMemory(const ir::Func &func, const AxisInfoMap &axes, const LayoutMap &layouts,
                      const PipelinePlan &pipelines, const TmaStorePlan &stores, int numWarps, const std::string &arch);

} // namespace twintile::backend
