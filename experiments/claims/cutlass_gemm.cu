// One CUTLASS 3.x Hopper GEMM, as a CUTLASS user instantiates one: bf16 A
// (row-major) and B (column-major), f32 accumulation and C/D, TMA loads and
// a warp-specialized kernel through CUTLASS's collective builders. The
// configuration comes from the command line, so that the claims suite
// (experiments/suites/claims.py) compiles each one the same way:
//
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -c cutlass_gemm.cu \
//        -I CUTLASS/include -I CUTLASS/tools/util/include \
//        -DTILE_M=128 -DTILE_N=128 -DTILE_K=64 -DCLUSTER_M=1 -DCLUSTER_N=2 -DSCHEDULE_COOPERATIVE=1
//
// Only the kernel and the host function that launches it are instantiated:
// what one kernel of a CUTLASS library costs to compile.
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

#ifndef TILE_M
#error "define TILE_M, TILE_N, TILE_K, CLUSTER_M, CLUSTER_N and SCHEDULE_COOPERATIVE (1) or SCHEDULE_PINGPONG (1)"
#endif

using namespace cute;

using ElementA = cutlass::bfloat16_t;
using LayoutA = cutlass::layout::RowMajor;
using ElementB = cutlass::bfloat16_t;
using LayoutB = cutlass::layout::ColumnMajor;
using ElementC = float;
using LayoutC = cutlass::layout::RowMajor;
using ElementAccumulator = float;
constexpr int kAlignmentA = 128 / cutlass::sizeof_bits<ElementA>::value;  // 16-byte accesses, as TMA wants
constexpr int kAlignmentB = 128 / cutlass::sizeof_bits<ElementB>::value;
constexpr int kAlignmentC = 128 / cutlass::sizeof_bits<ElementC>::value;

using TileShape = Shape<Int<TILE_M>, Int<TILE_N>, Int<TILE_K>>;
using ClusterShape = Shape<Int<CLUSTER_M>, Int<CLUSTER_N>, _1>;
#if defined(SCHEDULE_PINGPONG)
using KernelSchedule = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
using EpilogueSchedule = cutlass::epilogue::TmaWarpSpecialized;
#else
using KernelSchedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpilogueSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#endif

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, ElementAccumulator, ElementAccumulator, ElementC, LayoutC,
    kAlignmentC, ElementC, LayoutC, kAlignmentC, EpilogueSchedule>::CollectiveOp;

using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, kAlignmentA, ElementB, LayoutB,
    kAlignmentB, ElementAccumulator, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
        sizeof(typename CollectiveEpilogue::SharedStorage))>,
    KernelSchedule>::CollectiveOp;

using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop,
                                                        CollectiveEpilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

// The host's side of a launch: what makes nvcc instantiate the kernel.
cutlass::Status run_gemm(const Gemm::Arguments &args, void *workspace, cudaStream_t stream) {
  Gemm gemm;
  cutlass::Status status = gemm.initialize(args, workspace, stream);
  return status == cutlass::Status::kSuccess ? gemm.run(stream) : status;
}
