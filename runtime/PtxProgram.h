//===- PtxProgram.h - PTX decoded for execution (internal) ---------------===//
//
// What PtxModule::parse produces and the emulator runs: every instruction
// decoded once into a compact record (an opcode, its types and modifiers,
// operands with resolved register slots, immediates already in the
// instruction's type, branch targets as instruction indices), so that
// execution never looks at text again.
//
// Addresses. One 64-bit space with a disjoint window per state space, so a
// generic address says by itself where it points and `cvta` is the identity:
//
//   kSharedBase   the block's shared memory (static variables, then dynamic)
//   kLocalBase    the running thread's local memory (its frames' .local data)
//   kKParamBase   the kernel's parameters (read-only)
//   kFParamBase   the running thread's call parameters (.param in bodies)
//   kGlobalVarBase / kConstVarBase  module-scope .global / .const variables
//   (i + 1) << kBufferShift         the caller's buffer i
//
// The first five windows lie below 2^32, so 32-bit shared and local
// addresses work too. Addresses of frame-relative data (a function's .local
// and .param variables) are offsets that execution adds to the frame's base.
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace twintile::runtime::ptx {

constexpr uint64_t kSharedBase = 0x0100'0000;
constexpr uint64_t kLocalBase = 0x0200'0000;
constexpr uint64_t kKParamBase = 0x0300'0000;
constexpr uint64_t kFParamBase = 0x0380'0000;
constexpr uint64_t kGlobalVarBase = 0x0400'0000;
constexpr uint64_t kConstVarBase = 0x0800'0000;
constexpr uint64_t kSharedWindowSize = 0x0100'0000;  // 16 MiB
constexpr uint64_t kWindowSize = 0x0080'0000;        // 8 MiB: local, params
constexpr uint64_t kDataWindowSize = 0x0400'0000;    // 64 MiB: module data
constexpr unsigned kBufferShift = 36;              // buffers up to 64 GiB each

enum class Type : uint8_t {
  None, Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
};

constexpr unsigned typeBits(Type t) {
  constexpr unsigned kBits[] = {0, 1, 8, 16, 32, 64, 128, 8, 16, 32, 64, 8, 16, 32, 64, 16, 32, 16, 32, 32, 64};
  return kBits[static_cast<unsigned>(t)];
}
static_assert(static_cast<unsigned>(Type::F64) == 20, "typeBits' table follows Type");
constexpr unsigned typeBytes(Type t) { return typeBits(t) / 8; }
constexpr bool isSigned(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }
/// f16, bf16, f32, f64 and the x2 pairs.
constexpr bool isFloat(Type t) { return t >= Type::F16; }

enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };
const char *spaceName(Space s);  // "global", "" for generic

enum class Rnd : uint8_t { None, RN, RZ, RM, RP, RNI, RZI, RMI, RPI };

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };

enum class BoolOp : uint8_t { None, And, Or, Xor };

/// Special registers (%tid.x, ...).
enum class Sreg : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, NWarpId, WarpSize, SmId, NSmId, GridId, Clock, Clock64, GlobalTimer,
  LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe, DynamicSmemSize, TotalSmemSize,
};

enum class Op : uint8_t {
  // data movement
  Mov, MovPack, MovUnpack, Ld, St, Cvta, Cvt, Prefetch,
  // integer and bit
  Add, Sub, AddCC, AddC, SubCC, SubC, Mul, Mad, MadC, Mul24, Mad24, Div, Rem, Abs, Neg, Min, Max, Sad,
  And, Or, Xor, Not, CNot, Shl, Shr, Popc, Clz, Brev, Bfe, Bfi, Bfind, Prmt, Lop3, Dp4a, Dp2a,
  Selp, Slct, Setp, Set, Testp, Copysign,
  // floating point
  Fma, Rcp, Sqrt, Rsqrt, Sin, Cos, Lg2, Ex2, Tanh,
  // atomics
  Atom, Red,
  // control
  Bra, Call, Ret, Exit, Trap, Nop,
  // block and warp synchronization
  BarSync, BarArrive, BarWarpSync, Shfl, Vote, Redux, Activemask,
  // asynchronous copies, global to shared (cp.async, Ampere's)
  CpAsync, CpAsyncCommit, CpAsyncWait,
  // warp-wide matrix fragments (tensor cores, Ampere's)
  Ldmatrix, Stmatrix, Mma,
  // warpgroup MMAs (Hopper's): four warps issue them together, operands read
  // from shared memory through descriptors by the async proxy
  WgmmaFence, WgmmaMma, WgmmaCommit, WgmmaWait,
  FenceProxyAsync,                       // fence.proxy.async: generic writes made visible to the async proxy
  // mbarrier objects in shared memory (Hopper's transaction barriers): phases
  // completed by arrivals and by the bytes asynchronous copies deliver
  MbarInit, MbarInval, MbarArrive, MbarExpectTx, MbarCompleteTx, MbarTryWait, MbarTestWait,
  // tensor maps and the tensor memory accelerator's bulk copies (Hopper's)
  TensormapReplace, TensormapCopy, BulkTensorLoad, BulkTensorStore, BulkCommit, BulkWait,
};

/// The fields tensormap.replace sets (ops[4] of a TensormapReplace).
enum class TensormapField : uint8_t {
  GlobalAddress, Rank, BoxDim, GlobalDim, GlobalStride, ElementStride, Elemtype, Interleave, SwizzleMode, FillMode,
};

inline bool isMbarrierOp(Op op) {
  return op == Op::MbarInit || op == Op::MbarInval || op == Op::MbarArrive || op == Op::MbarExpectTx || op == Op::MbarCompleteTx ||
         op == Op::MbarTryWait || op == Op::MbarTestWait;
}

/// An instruction of the async proxy's bulk copies: a program with one tracks
/// which thread last wrote each shared byte, as with wgmma.
inline bool isBulkOp(Op op) { return op == Op::BulkTensorLoad || op == Op::BulkTensorStore; }

/// The warp-wide matrix instructions (.sync.aligned): every lane of the warp at once.
inline bool isWarpMatrixOp(Op op) { return op == Op::Ldmatrix || op == Op::Stmatrix || op == Op::Mma; }
inline bool isWarpgroupOp(Op op) {
  return op == Op::WgmmaFence || op == Op::WgmmaMma || op == Op::WgmmaCommit || op == Op::WgmmaWait;
}

/// What an operation's modifiers select beyond type and rounding.
enum class Mode : uint8_t {
  None,
  Lo, Hi, Wide,                          // mul, mad
  Up, Down, Bfly, Idx,                   // shfl
  All, Any, Uni, Ballot,                 // vote
  AtomAdd, AtomMin, AtomMax, AtomInc, AtomDec, AtomAnd, AtomOr, AtomXor, AtomExch, AtomCas,
  Finite, Infinite, Number, NotANumber, Normal, Subnormal,  // testp
  PrmtDefault, PrmtF4e, PrmtB4e, PrmtRc8, PrmtEcl, PrmtEcr, PrmtRc16,
  ToSpace,                               // cvta.to
  WaitAll,                               // cp.async.wait_all (else wait_group N)
  Trans,                                 // ldmatrix and stmatrix .trans
  ExpectTx,                              // mbarrier.arrive.expect_tx
  Parity,                                // mbarrier.try_wait.parity / test_wait.parity (else a state operand)
};

/// The most frequent instruction shapes, run inline by the interpreter loop
/// (set by classifyFast after decoding; None runs the general path).
enum class Fast : uint8_t {
  None,
  AddF32, SubF32, MulF32, FmaF32,              // .rn, no .ftz/.sat
  AddI32, SubI32, AddI64, SubI64, MulLoI32,    // no .sat/.cc
  MulWideS32, MulWideU32,
  AndB32, OrB32, XorB32, ShlB32, ShrU32, ShlB64,
  Selp,
  CvtF32F16, CvtF32BF16,
};

struct Operand {
  enum class Kind : uint8_t {
    None,
    Reg,        // reg: slot
    Imm,        // imm: the bits, already in the instruction's type
    Special,    // reg: Sreg
    FrameAddr,  // imm + the frame's base of window `reg` (kLocalBase or kFParamBase)
    Addr,       // [reg + imm] (reg == kNoReg: [imm]); frame != 0: + the frame's base in that window
    Vec,        // vecPool[reg .. reg + imm)
    Sink,       // '_'
  };
  static constexpr uint32_t kNoReg = UINT32_MAX;
  Kind kind = Kind::None;
  bool negate = false;    // !%p
  uint8_t frame = 0;      // Addr: 0, 1 local frame, 2 param frame
  uint32_t reg = kNoReg;
  uint64_t imm = 0;
};

struct Instr {
  Op op = Op::Nop;
  Fast fast = Fast::None;
  Type type = Type::None;   // the instruction type (cvt: the destination's)
  Type type2 = Type::None;  // cvt, set, slct, dp4a: the source's; mma: A's elements
  Type type3 = Type::None;  // mma: B's elements
  Rnd rnd = Rnd::None;
  Mode mode = Mode::None;
  Cmp cmp = Cmp::Eq;
  BoolOp boolOp = BoolOp::None;
  Space space = Space::Generic;
  uint8_t vec = 1;          // ld/st: 1, 2, 4 elements; ldmatrix, stmatrix: matrices; mma: K
  bool ftz = false;
  bool sat = false;
  bool approx = false;      // rcp/sqrt/div .approx; max/min .NaN; shr/shl: none
  bool cc = false;          // .cc: writes the carry flag (CC.CF)
  bool nan = false;         // min/max .NaN
  bool uni = false;         // bra.uni, call.uni
  bool yields = false;      // a global atomic or a volatile/strong load: where an interleaved launch switches programs
  int8_t nops = 0;
  uint32_t guard = Operand::kNoReg;  // predicate slot of @p / @!p
  bool guardNegate = false;
  uint32_t target = 0;      // bra: instruction index; call: callee (see Call)
  uint32_t line = 0;
  std::array<Operand, 5> ops{};
  Operand dst2{};           // second result: setp p|q, shfl d|p
  std::string text;         // the opcode as written, for diagnostics
};

/// A variable declared with .global/.const/.shared/.local/.param.
struct Variable {
  std::string name;
  Space space = Space::Generic;
  uint64_t size = 0;
  uint64_t align = 1;
  uint64_t address = 0;          // window address, or frame offset for frame data
  bool frameRelative = false;
  bool external = false;         // .extern .shared x[]: the dynamic shared memory
  std::vector<uint8_t> init;     // .global/.const initializers, zero-padded to size
};

/// Callees that are not PTX functions.
enum class Builtin : uint32_t { None, Vprintf, AssertFail };

struct Param {
  std::string name;
  Type type = Type::None;
  uint64_t size = 0;
  uint64_t align = 1;
  uint64_t offset = 0;  // entry: in the kernel parameter window; func: in the frame's param area
};

struct CallInfo {
  std::string calleeName;
  Builtin builtin = Builtin::None;
  uint32_t callee = 0;              // function index when builtin == None
  std::vector<Operand> rets, args;  // Addr of the .param variables (or registers, immediates)
  std::vector<uint64_t> retSizes, argSizes;  // their bytes (0: an immediate)
};

struct Function {
  std::string name;
  bool isEntry = false;
  bool defined = false;
  int line = 0;
  std::vector<Param> params, rets;
  uint32_t numRegs = 0;
  std::vector<std::string> regNames;  // by slot, for diagnostics
  std::vector<Type> regTypes;         // by slot: the declared type
  uint64_t localBytes = 0;            // frame: .local data
  uint64_t paramBytes = 0;            // frame: formals, results, call-site .param variables
  std::vector<Instr> code;
  std::vector<Operand> vecPool;
  std::vector<CallInfo> calls;        // Call instructions index this by `target`
  std::array<uint32_t, 3> maxntid{0, 0, 0}, reqntid{0, 0, 0};
};

struct Program {
  std::vector<Function> functions;
  int ptxVersion = 0;  // .version's, times 10 (83 for 8.3); 0 where the module has none
  std::vector<Variable> globals;   // module .global and .const, and every .shared
  uint64_t globalVarBytes = 0, constVarBytes = 0;
  uint64_t staticSharedBytes = 0;
  uint64_t dynamicSharedOffset = 0;  // where .extern .shared arrays start
  std::vector<uint8_t> globalInit, constInit;  // initial contents of the two data windows

  const Function *find(const std::string &name) const;
};

} // namespace twintile::runtime::ptx
